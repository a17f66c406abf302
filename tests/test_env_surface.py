"""The PettingZoo and SB3 surface every environment offers beyond the AEC loop: the picture as
pixels (``rgb_array``), the global state for centralised critics, seeds and reset options
checked, no step after the end, and the 0-d action arrays SB3's ``predict`` returns."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from test_conformance import CASES, IDS

import tabletop_envs

SHIPPED = sorted(
    name for name, module in tabletop_envs.GAMES.items() if module.startswith("tabletop_envs.")
)


def first_legal(env: object) -> int:
    observation, *_ = env.last()
    return int(np.flatnonzero(observation["action_mask"])[0])


@pytest.mark.parametrize("name", SHIPPED)
def test_rgb_array_draws_the_table_as_pixels_that_change_with_play(name: str) -> None:
    env = tabletop_envs.make(name, render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 10, "a blank picture"
    for _ in range(6):
        env.step(first_legal(env))
    later = env.render()
    assert later.shape != first.shape or not np.array_equal(later, first)


def test_rgb_array_without_the_render_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)
    env = tabletop_envs.make("vaalbara", render_mode="rgb_array")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"tabletop-envs\[render\]"):
        env.render()


def reference_state(game: object) -> np.ndarray:
    """Every seat's observation from the plain reference view, in seat order."""
    schema, observer = type(game).SCHEMA, type(game).OBSERVER
    return np.concatenate(
        [schema.encode(observer.view(game, seat)) for seat in range(game.num_players)]
    )


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_state_holds_every_seats_observation_in_seat_order(name: str, players: int) -> None:
    env = tabletop_envs.make(name, num_players=players)
    env.reset(seed=5)
    size = env.unwrapped.game_class.SCHEMA.size
    rng = np.random.default_rng(5)
    for _ in range(25):
        state = env.state()
        assert env.state_space.contains(state)
        np.testing.assert_allclose(state, reference_state(env.unwrapped.game), atol=1e-6)
        for seat, agent in enumerate(env.possible_agents):
            own = env.observe(agent)["observation"]
            assert np.array_equal(state[seat * size : (seat + 1) * size], own)
        observation, _, done, truncated, _ = env.last()
        if done or truncated:
            break
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_state_before_reset_is_refused() -> None:
    with pytest.raises(ValueError, match=r"before the first reset\(\)"):
        tabletop_envs.make("vaalbara", raw=True).state()
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called"):  # PettingZoo's
        tabletop_envs.make("vaalbara").state()


@pytest.mark.parametrize("seed", [[1, 2], True, -1, 1.5, "7", 2**63])
def test_reset_refuses_a_seed_that_is_no_whole_number_in_range(seed: object) -> None:
    env = tabletop_envs.make("vaalbara")
    with pytest.raises((TypeError, ValueError), match=r"expected None or a whole number"):
        env.reset(seed=seed)


def test_a_numpy_seed_deals_the_same_game_as_the_int() -> None:
    env, other = tabletop_envs.make("vaalbara"), tabletop_envs.make("vaalbara")
    env.reset(seed=np.int64(5))
    other.reset(seed=5)
    assert env.unwrapped.game.to_json() == other.unwrapped.game.to_json()


@pytest.mark.parametrize("options", [{"num_players": 3}, {"seed": 1}, {"reward": "score"}])
def test_reset_refuses_options_that_only_env_or_seed_can_set(options: dict) -> None:
    env = tabletop_envs.make("vaalbara", num_players=2)
    with pytest.raises(ValueError, match=rf"cannot change \['{next(iter(options))}'\]"):
        env.reset(seed=0, options=options)
    with pytest.raises(TypeError, match="expected None or a dict"):
        env.reset(seed=0, options=[("num_players", 3)])
    env.reset(seed=0, options={})
    env.reset(seed=0, options={"unused": 1})  # PettingZoo's API test resets so


def test_a_step_after_the_end_raises_instead_of_warning() -> None:
    env = tabletop_envs.make("vaalbara", num_players=2)
    env.reset(seed=1)
    for _agent in env.agent_iter():
        _, _, done, truncated, _ = env.last()
        env.step(None if done or truncated else first_legal(env))
    with pytest.raises(ValueError, match=r"after the game ended: call reset\(\)"):
        env.step(0)


def test_the_0d_array_sb3_predict_returns_is_an_action() -> None:
    env, other = tabletop_envs.make("vaalbara"), tabletop_envs.make("vaalbara")
    env.reset(seed=2)
    other.reset(seed=2)
    action = first_legal(env)
    env.step(np.array(action))
    other.step(action)
    assert env.unwrapped.game.to_json() == other.unwrapped.game.to_json()
