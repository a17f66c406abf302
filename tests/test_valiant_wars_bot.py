"""The Valiant Wars heuristic bot: only legal actions, reproducible, and better than random."""

from __future__ import annotations

import numpy as np
import pytest
from tabletop_envs.agents.base import RandomAgent
from tabletop_envs.agents.heuristics import heuristic_agent
from tabletop_envs.agents.valiant_wars_bot import ValiantWarsHeuristicAgent
from test_valiant_wars_rules import make_game, reveal_step

from tabletop_envs import make
from tabletop_envs.valiant_wars.rules import ValiantWarsGame
from tabletop_envs.valiant_wars.spec import (
    GOLD,
    IGNORE,
    KEEP_OMEN,
    LAYOUT,
    LOCATIONS,
    NOBODY,
    OMEN,
    REVEAL,
    STOP,
    Kind,
    Terrain,
    champion_code,
)

assert LOCATIONS[10].terrain == Terrain.HAUNTED


def play(players: int, seed: int, bot_seats: set[int]) -> tuple[list[int], np.ndarray]:
    """One game with every action checked against the mask: the bots' actions, the returns."""
    env = make("valiant_wars", raw=True, num_players=players, illegal_action="raise")
    env.reset(seed=seed)
    agents = [
        ValiantWarsHeuristicAgent(seed + seat) if seat in bot_seats else RandomAgent(seed + seat)
        for seat in range(players)
    ]
    chosen = []
    while not env.game.is_terminal:
        name = env.agent_selection
        seat = env.agent_name_mapping[name]
        observation = env.observe(name)
        action = agents[seat].act(observation, name)
        assert observation["action_mask"][action] == 1
        if seat in bot_seats:
            chosen.append(action)
        env.step(action)
    return chosen, env.game.returns()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bot_only_plays_legal_actions(players: int) -> None:
    for seed in range(6):
        seats = set(range(players)) if seed % 2 else {seed % players}
        play(players, 100 * players + seed, seats)


def test_bot_is_reproducible_for_a_seed() -> None:
    assert play(3, 7, {0, 1, 2})[0] == play(3, 7, {0, 1, 2})[0]


@pytest.mark.parametrize(("players", "games", "floor"), [(2, 200, 0.9), (4, 100, 0.6)])
def test_bot_beats_random_players(players: int, games: int, floor: float) -> None:
    """Rotating the bot's seat; random players would win 1/players of the games."""
    wins = sum(
        play(players, seed, {seed % players})[1][seed % players] > 0 for seed in range(games)
    )
    assert wins / games >= floor


def _act(game: ValiantWarsGame, seat: int) -> int:
    observation = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
    return ValiantWarsHeuristicAgent(seed=0).act(observation, f"player_{seat}")


def test_bot_reveals_when_no_omen_shows_and_stops_when_the_risk_is_high() -> None:
    game = make_game(2, {0: [GOLD, GOLD, GOLD], 1: [GOLD] * 4})
    assert _act(game, 0) == LAYOUT["reveal_or_stop"].action(REVEAL)
    game = make_game(2, {0: [OMEN, GOLD, GOLD, OMEN, OMEN, OMEN, OMEN], 1: [GOLD] * 6})
    reveal_step(game)
    reveal_step(game)
    assert _act(game, 0) == LAYOUT["reveal_or_stop"].action(STOP), "4 of 4 cards are Omens"


def test_bot_forces_draws_on_the_player_likely_to_go_out() -> None:
    game = make_game(
        3,
        {0: [GOLD, champion_code(Kind.BRIGAND), GOLD], 1: [GOLD] * 5, 2: [OMEN, GOLD, OMEN, OMEN]},
    )
    reveal_step(game)
    assert _act(game, 0) == LAYOUT["choose_player"].action(2)


def test_bot_targets_nobody_when_a_forced_draw_would_only_help() -> None:
    """The Pyromancer "may" target: drawing 2 could put the bot OUT (an Omen up, Omens
    below), and the opponent's deck has no Omen left, so the cards would only help it."""
    cards = [OMEN, champion_code(Kind.PYROMANCER), OMEN, OMEN, GOLD]
    game = make_game(2, {0: cards, 1: [GOLD] * 5})
    reveal_step(game)
    assert game.pending_options == [0, 1, NOBODY]
    assert _act(game, 0) == LAYOUT["choose_player"].action(NOBODY), "no Omen left to draw"


def test_bot_forced_to_target_gives_the_card_where_it_costs_least() -> None:
    """The Apprentice dictates a target (no nobody): with an Omen up and Omens below, a card
    for itself risks OUT, so it makes the opponent draw one of its harmless Gold cards."""
    cards = [OMEN, champion_code(Kind.APPRENTICE), OMEN, OMEN, OMEN, GOLD]
    game = make_game(2, {0: cards, 1: [GOLD] * 5})
    reveal_step(game)
    assert game.pending_options == [0, 1]
    assert _act(game, 0) == LAYOUT["choose_player"].action(1)


@pytest.mark.parametrize(("location", "choice"), [(0, KEEP_OMEN), (10, IGNORE)])
def test_bot_keeps_the_omen_s_gold_unless_haunted(location: int, choice: int) -> None:
    game = make_game(
        2, {0: [OMEN, champion_code(Kind.SAINT), GOLD], 1: [GOLD] * 5}, location=location
    )
    reveal_step(game)
    assert _act(game, 0) == LAYOUT["ignore_omen"].action(choice)


def test_registered_as_the_valiant_wars_heuristic() -> None:
    assert isinstance(heuristic_agent("valiant_wars_v3", seed=1), ValiantWarsHeuristicAgent)


def test_bot_refuses_an_empty_mask() -> None:
    game = make_game(2)
    observation = {"observation": game.observation(0), "action_mask": np.zeros(LAYOUT.total)}
    with pytest.raises(ValueError, match="no legal action"):
        ValiantWarsHeuristicAgent(seed=0).act(observation, "player_0")
