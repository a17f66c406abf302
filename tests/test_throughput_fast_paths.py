"""The fast per-step paths give exactly what the plain ones give (bit for bit).

Cores may encode observations from a sparse view or keep them up to date block by block,
and the env reuses one legal mask per step; here every seat's observation along seeded
random games is compared with the schema's generic field-by-field encoding of ``view()``
and with the observation of a fresh copy of the game (loaded from JSON, so nothing kept),
and the env's masks with the core's.
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


def generic_encoding(game, seat: int) -> np.ndarray:
    """``SCHEMA.encode`` of a plain dict copy of the view: the field-by-field path."""
    return game.SCHEMA.encode({name: np.array(v) for name, v in game.view(seat).items()})


@pytest.mark.parametrize(("name", "players"), CASES)
def test_observations_equal_the_generic_encoding_and_a_fresh_copys(name: str, players: int) -> None:
    game_class = tabletop_envs.game_module(name).Game
    rng = np.random.default_rng(players)
    for seed in range(3):
        game = game_class(players, seed=seed)
        while not game.is_terminal:
            fresh = game_class.from_json(game.to_json())
            for seat in range(players):
                observation = game.observation(seat)
                assert observation.dtype == np.float32
                assert np.array_equal(observation, generic_encoding(game, seat))
                assert np.array_equal(observation, fresh.observation(seat))
            game._apply(int(rng.choice(np.flatnonzero(game.legal_mask()))))


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
    """With caches that keep clearing, every observation is still the generic encoding."""
    from tabletop_envs.vaalbara import observer as vaalbara_view

    monkeypatch.setattr(vaalbara_view, "REALM_CACHE_SIZE", 2)
    game = tabletop_envs.game_module("vaalbara_v0").Game(3, seed=11)
    rng = np.random.default_rng(11)
    while not game.is_terminal:
        seat = game.current_player
        vaalbara_view._worth.cache_clear()
        assert np.array_equal(game.observation(seat), generic_encoding(game, seat))
        game._apply(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    assert len(vaalbara_view._REALMS) <= 2
