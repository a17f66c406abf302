"""experiments.decision_split: the split seat hands each decision to the right agent, and its
rows agree with games played without the split."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pytest
from tabletop_envs.agents.arena import MatchSpec, play_games
from tabletop_envs.agents.base import Agent

from experiments.decision_split import SplitAgent, SplitRow, main, play_split, split_rows
from tabletop_envs import make
from tabletop_envs.valiant_wars.spec import LAYOUT

GAME = "valiant_wars_v3"


class Recorder(Agent):
    """Plays a random legal action and records the decision kind it was asked."""

    def __init__(self, asked: list[str], game_of: list) -> None:
        self.asked, self.game_of = asked, game_of
        self.rng = np.random.default_rng(0)

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        game = self.game_of[0]
        self.asked.append(LAYOUT.segment_of(game.decision).name)  # the core's own word
        return int(self.rng.choice(np.flatnonzero(observation["action_mask"])))


def test_split_agent_hands_each_decision_kind_to_its_agent() -> None:
    env = make(GAME, raw=True, num_players=2)
    env.reset(seed=3)
    game_of = [env.game]
    mine: list[str] = []
    others: list[str] = []
    split = SplitAgent(
        Recorder(mine, game_of), Recorder(others, game_of), LAYOUT, frozenset({"buy"})
    )
    while not env.game.is_terminal:
        name = env.agent_selection
        env.step(split.act(env.observe(name), name))
    assert mine and set(mine) == {"buy"}
    assert others and "buy" not in others and "reveal_or_stop" in others


def test_split_rows_name_the_kinds_and_refuse_unknown_ones() -> None:
    rows = split_rows(LAYOUT.names, ["buy,choose_card"])
    assert [row.kinds for row in rows] == [
        frozenset(),
        frozenset(LAYOUT.names),
        frozenset({"buy", "choose_card"}),
        frozenset(LAYOUT.names) - {"buy", "choose_card"},
    ]
    with pytest.raises(ValueError, match="unknown decision kinds \\['reveal'\\]"):
        split_rows(LAYOUT.names, ["reveal"])


def wins_of_agent_zero(agents: tuple[str, ...], games: int, seed: int) -> float:
    records = play_games(MatchSpec(GAME, agents, seed), games)
    return sum(1.0 / len(r.winners) for r in records if r.lineup.index(0) in r.winners)


@pytest.mark.parametrize(
    ("kinds", "alone"), [(frozenset(LAYOUT.names), "random"), (frozenset(), "heuristic")]
)
def test_whole_rows_replay_the_unsplit_games(kinds: frozenset[str], alone: str) -> None:
    """The agent on every kind plays the games the agent itself plays; on none, the teacher's."""
    row = SplitRow("row", kinds)
    wins = play_split(GAME, 2, "random", "heuristic", row, 6, seed=5)
    assert wins == wins_of_agent_zero((alone, "heuristic"), 6, seed=5)


def test_cli_refuses_a_player_count_the_game_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["valiant_wars", "--players", "9", "--agent", "random", "--games", "1"]) == 2
    assert "2 to 5 players" in capsys.readouterr().err
