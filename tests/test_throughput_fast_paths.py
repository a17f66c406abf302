"""The env's per-step reuse gives exactly what the core gives (bit for bit), and bounded
caches stay correct while they clear. (Each fast observation against the plain reference
view is in the conformance suite.)
"""

from __future__ import annotations

import numpy as np
import pytest

import tabletop_envs

CASES = [
    (name, players)
    for name in sorted(tabletop_envs.GAMES)
    for players in sorted(
        {
            tabletop_envs.game_module(name).Game.MIN_PLAYERS,
            tabletop_envs.game_module(name).Game.MAX_PLAYERS,
        }
    )
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_env_masks_and_observations_are_the_cores(name: str, players: int) -> None:
    env = tabletop_envs.make(name, num_players=players)
    env.reset(seed=5)
    core = env.unwrapped.game
    rng = np.random.default_rng(5)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.unwrapped.agent_name_mapping[agent]
        assert np.array_equal(observation["action_mask"], core.legal_mask())
        assert np.array_equal(observation["observation"], core.observation(seat))
        observation["action_mask"][:] = 0  # the caller's copy: the env keeps its own
        action = int(rng.choice(np.flatnonzero(core.legal_mask())))
        env.step(action)


def test_bounded_view_caches_give_the_same_observations(monkeypatch) -> None:
    """With caches that keep clearing, every observation is still the encoded reference view;
    the caches stay within their bounds."""
    from tabletop_envs.vaalbara import observer as vaalbara_view

    monkeypatch.setattr(vaalbara_view._REALMS, "bound", 2)
    monkeypatch.setattr(vaalbara_view._WORTH, "bound", 2)
    vaalbara_view._REALMS.clear()
    vaalbara_view._WORTH.clear()
    game = tabletop_envs.game_module("vaalbara_v1").Game(3, seed=11)
    rng = np.random.default_rng(11)
    while not game.is_terminal:
        seat = game.current_player
        assert np.array_equal(game.observation(seat), game.SCHEMA.encode(game.view(seat)))
        game.apply_unchecked(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        assert len(vaalbara_view._REALMS) <= 2 and len(vaalbara_view._WORTH) <= 2
