"""Advised policies (``agents/advice.py``): the heuristic bot's move as part of the input.

A fresh advised policy must play exactly as its advisor; the advice a self-play table and the
warm start attach must be the advisor's move on that very observation (checked against a
separate bot asked the same questions, not against the code under test); a file claiming
advice is checked against the input size advice implies; tools that cannot use advice say so.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from tabletop_envs.agents.advice import Advisor, make_advisor
from tabletop_envs.agents.base import Agent, RandomAgent
from tabletop_envs.agents.gym_env import BotOpponent, SeatGame, advance_opponents, spaces_for
from tabletop_envs.agents.heuristics import heuristic_agent
from tabletop_envs.agents.policy import (
    PolicyAgent,
    PolicyFileError,
    PolicyNetwork,
    load_policy,
    read_policy,
)
from tabletop_envs.training.config import TrainConfig
from tabletop_envs.training.distil import main as distil_main
from tabletop_envs.training.export import export_actor
from tabletop_envs.training.opponents import OpponentPool
from tabletop_envs.training.sb3 import build_model
from tabletop_envs.training.selfplay import SelfPlayVecEnv
from tabletop_envs.training.warmstart import (
    Cloning,
    clone_into,
    collect,
    every_game,
    follow_label,
    label_games,
    masked_logits,
    start_as_advisor,
)

import tabletop_envs

# A bot that decides from the view alone, and one that plans from one decision to the next.
GAMES = [("valiant_wars_v3", 2), ("valenor_v2", 3)]


def core_of(game: str):
    return tabletop_envs.game_module(game).Game


def fresh_advised_model(
    game: str, players: int, tmp_path: Path, net_arch: list[int] | None = None
) -> MaskablePPO:
    """An untrained advised MaskablePPO model after ``start_as_advisor``."""
    config = TrainConfig(players=players, n_envs=1, net_arch=net_arch or [256, 256])
    env = SelfPlayVecEnv(game, players, 1, OpponentPool(game, 0).draw, {}, 0, "heuristic")
    model = build_model(config, env, 0, tmp_path)
    start_as_advisor(model.policy, int(env.action_space.n), config.advice_weight)
    return model


def fresh_advised_network(game: str, players: int, tmp_path: Path) -> PolicyNetwork:
    """The same, exported as training does."""
    meta = {"game": game, "players": players, "advice": "heuristic"}
    return export_actor(fresh_advised_model(game, players, tmp_path).policy, "relu", meta)


def advised_agent(network: PolicyNetwork, game: str, seat: int) -> PolicyAgent:
    advisor = make_advisor("heuristic", game, core_of(game).LAYOUT.total, seed=seat)
    return PolicyAgent(network, advisor=advisor)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_fresh_advised_policy_plays_its_advisors_every_move(
    game: str, players: int, tmp_path: Path
) -> None:
    network = fresh_advised_network(game, players, tmp_path)
    core = core_of(game)
    decisions = 0
    for seed in range(3):
        state = core(players, seed=seed)
        bots = [heuristic_agent(game, seed=seat) for seat in range(players)]
        policies = [advised_agent(network, game, seat) for seat in range(players)]
        while not state.is_terminal:
            seat = state.current_player
            view = {"observation": state.observation(seat), "action_mask": state.legal_mask()}
            expected = bots[seat].act(view, f"player_{seat}")
            assert policies[seat].act(view, f"player_{seat}") == expected
            state.apply(expected)
            decisions += 1
    assert decisions > 300


def test_advice_needs_hidden_layers_as_wide_as_the_action_space(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"at least as wide as the action space \(79\)"):
        fresh_advised_model("valiant_wars_v3", 2, tmp_path, net_arch=[256, 64])


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_table_appends_the_advisors_move_to_the_learners_observation(
    game: str, players: int
) -> None:
    core = core_of(game)
    size, actions = core.SCHEMA.size, core.LAYOUT.total
    assert spaces_for(game, "heuristic")[0].shape == (size + actions,)
    table = SeatGame(game, players, {}, seed=3, advice="heuristic")
    opponent = BotOpponent(RandomAgent(0), "random")
    learner_moves = RandomAgent(1)
    for _ in range(2):
        table.new_game(lambda: opponent)
        bots = [heuristic_agent(game, seed=seat) for seat in range(players)]
        advance_opponents([table])
        while not table.game.is_terminal:
            seat = table.learner_seat()
            raw = table.game.observation(seat)
            view = {"observation": raw, "action_mask": table.game.legal_mask()}
            advised = table.observation()
            np.testing.assert_array_equal(advised[:size], raw)
            assert advised[size:].sum() == 1.0
            assert int(advised[size:].argmax()) == bots[seat].act(view, "reference")
            table.game.apply(learner_moves.act(view, "learner"))
            advance_opponents([table])
        assert not table.observation()[size:].any()  # nothing to advise once it is over


class SeatRecorder(Agent):
    """Advises the first legal move and writes down whose advisor it is."""

    def __init__(self, seat: int, log: list[int]) -> None:
        self.seat, self.log = seat, log

    def act(self, observation, agent: str) -> int:
        self.log.append(self.seat)
        return int(np.flatnonzero(observation["action_mask"])[0])


def test_each_seat_is_advised_by_its_own_advisor(monkeypatch) -> None:
    """Advisors may plan ahead, so a seat's advice must come from that seat's advisor."""
    log: list[int] = []

    def recording_advisor(_advice, _game, actions, seed=None):
        return Advisor(SeatRecorder(seed, log), actions)

    monkeypatch.setattr("tabletop_envs.agents.advice.make_advisor", recording_advisor)
    table = SeatGame("valenor_v2", 3, {}, seed=4, advice="heuristic")
    table.new_game(lambda: None)
    seats = set()
    while not table.game.is_terminal:
        table.observation()
        assert log[-1] == table.learner_seat()
        seats.add(log[-1])
        table.game.apply(int(np.flatnonzero(table.game.legal_mask())[0]))
    assert seats == {0, 1, 2}


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_warm_start_demonstrations_carry_the_advice(game: str, players: int) -> None:
    size = core_of(game).SCHEMA.size
    cloning = Cloning(game, players, "heuristic", advice="heuristic")
    labelled = label_games(cloning, 300, 5, every_game(follow_label))
    advice = labelled.data.observations[:, size:]
    assert (advice.sum(axis=1) == 1).all()
    np.testing.assert_array_equal(advice.argmax(axis=1), labelled.data.actions)


def test_an_advised_warm_start_teaches_the_critic_and_leaves_the_actor(tmp_path: Path) -> None:
    policy = fresh_advised_model("valiant_wars_v3", 2, tmp_path).policy
    cloning = Cloning(
        "valiant_wars_v3", 2, "heuristic", epochs=4, batch_size=64, advice="heuristic"
    )
    data = collect(cloning, 600)
    actor = [*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.parameters()]
    before = [weight.detach().clone() for weight in actor]

    @torch.no_grad()
    def value_error() -> float:
        observations = torch.as_tensor(data.observations)
        _, values = masked_logits(policy, observations, torch.as_tensor(data.masks))
        return float(((values - torch.as_tensor(data.returns)) ** 2).mean())

    error = value_error()
    accuracy = clone_into(policy, data, cloning, actor=False)
    assert accuracy == 1.0  # the advised actor still plays every demonstrated move
    assert all(torch.equal(a, b) for a, b in zip(actor, before, strict=True))
    assert value_error() < 0.5 * error


def write_advised(path: Path, game: str, inputs: int, advice: str = "heuristic") -> Path:
    actions = core_of(game).LAYOUT.total
    weight = np.zeros((actions, inputs), dtype=np.float32)
    meta = {"game": game, "players": 2, "advice": advice}
    PolicyNetwork([weight], [np.zeros(actions, np.float32)], "relu", meta).save(path)
    return path


def test_loading_checks_the_input_size_that_advice_implies(tmp_path: Path) -> None:
    core = core_of("valiant_wars_v3")
    size, actions = core.SCHEMA.size, core.LAYOUT.total
    fits = write_advised(tmp_path / "fits.npz", "valiant_wars_v3", size + actions)
    assert load_policy(fits, "valiant_wars", players=2).advisor is not None
    short = write_advised(tmp_path / "short.npz", "valiant_wars_v3", size)
    with pytest.raises(ValueError, match=rf"observation_size {size} \(expected {size + actions}\)"):
        load_policy(short, "valiant_wars", players=2)


def test_an_unknown_advisor_in_a_header_is_named(tmp_path: Path) -> None:
    path = write_advised(tmp_path / "odd.npz", "valiant_wars_v3", 10, advice="oracle")
    with pytest.raises(PolicyFileError, match=r"advice 'oracle' unknown; expected '' \(none\)"):
        read_policy(path)


def test_an_advised_network_needs_an_advisor_and_a_plain_one_refuses_it(tmp_path: Path) -> None:
    core = core_of("valiant_wars_v3")
    path = write_advised(tmp_path / "a.npz", "valiant_wars_v3", core.SCHEMA.size + 79)
    with pytest.raises(ValueError, match="it needs an advisor"):
        PolicyAgent(read_policy(path))
    plain = PolicyNetwork([np.zeros((79, 5), np.float32)], [np.zeros(79, np.float32)], "relu")
    with pytest.raises(ValueError, match="it takes no advisor"):
        PolicyAgent(plain, advisor=make_advisor("heuristic", "valiant_wars_v3", 79))


def test_distil_refuses_an_advised_policy(tmp_path: Path, capsys) -> None:
    core = core_of("valiant_wars_v3")
    path = write_advised(tmp_path / "a.npz", "valiant_wars_v3", core.SCHEMA.size + 79)
    assert distil_main([str(path), "--keep", "buy", "--out", str(tmp_path / "o.npz")]) == 2
    error = capsys.readouterr().err
    assert "is advised ('heuristic'); distil polishes plain policies only" in error
