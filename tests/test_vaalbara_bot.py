"""The Vaalbara heuristic bot: only legal actions, reproducible, and sound choices."""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import RandomAgent
from agents.heuristics import heuristic_agent
from agents.vaalbara_bot import VaalbaraHeuristicAgent
from tabletop_envs import make


def play_checked(players: int, seed: int, bot_seats: set[int]) -> list[int]:
    """Play one game, asserting every bot action is in the mask; the bots' actions."""
    env = make("vaalbara", raw=True, num_players=players, illegal_action="raise")
    env.reset(seed=seed)
    agents = [
        VaalbaraHeuristicAgent(seed=seed + seat) if seat in bot_seats else RandomAgent(seed + seat)
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
    return chosen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bot_only_plays_legal_actions(players: int) -> None:
    for seed in range(15):
        everyone = set(range(players))
        one = {seed % players}
        play_checked(players, 100 * players + seed, everyone if seed % 2 else one)


def test_bot_is_reproducible_for_a_seed() -> None:
    assert play_checked(3, 7, {0, 1, 2}) == play_checked(3, 7, {0, 1, 2})


def test_registered_as_the_vaalbara_heuristic() -> None:
    assert isinstance(heuristic_agent("vaalbara_v0", seed=1), VaalbaraHeuristicAgent)


def test_bot_refuses_an_empty_mask() -> None:
    env = make("vaalbara", raw=True, num_players=2)
    env.reset(seed=0)
    observation = env.observe("player_0")
    observation["action_mask"] = np.zeros_like(observation["action_mask"])
    with pytest.raises(ValueError, match="no legal action"):
        VaalbaraHeuristicAgent(seed=0).act(observation, "player_0")
