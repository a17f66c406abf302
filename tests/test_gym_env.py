"""The single-seat gymnasium env: registration, both checkers, illegal actions, seeding, layers."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env
from tabletop_envs.agents.gym_env import ILLEGAL_ACTION_REWARD, SingleSeatEnv
from tabletop_envs.agents.policy import PolicyNetwork

import tabletop_envs

GAMES = sorted(tabletop_envs.GAMES)
WITH_BOTS = sorted(set(GAMES) - {"highcard_v0"})  # the toy game has no heuristic bot


def test_ids_track_the_env_versions() -> None:
    assert tabletop_envs.gym_id("vaalbara_v1") == "tabletop_envs/Vaalbara-v1"
    assert tabletop_envs.gym_id("valiant_wars_v3") == "tabletop_envs/ValiantWars-v3"
    assert tabletop_envs.gym_id("spirit_island_v1") == "tabletop_envs/SpiritIsland-v1"
    for name in GAMES:
        assert tabletop_envs.gym_id(name) in gymnasium.registry, name


@pytest.mark.parametrize("name", GAMES)
def test_make_plays_a_game_to_the_end_with_the_masks(name: str) -> None:
    env = gymnasium.make(tabletop_envs.gym_id(name), opponent="random")
    observation, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    done, reward = False, 0.0
    while not done:
        assert env.observation_space.contains(observation)
        mask = env.get_wrapper_attr("action_masks")()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        observation, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated and "illegal_action" not in info
    table = env.unwrapped.table
    assert reward == table.game.returns()[table.learner]


@pytest.mark.parametrize("name", WITH_BOTS)
def test_gymnasium_and_sb3_checkers_pass_without_a_warning(name: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(tabletop_envs.gym_id(name), opponent="heuristic").unwrapped)
        sb3_check_env(SingleSeatEnv(name, opponent="heuristic"))
    assert [str(w.message) for w in caught] == []


def illegal_action(env: SingleSeatEnv) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


def test_an_unmasked_action_ends_the_episode_with_a_loss_by_default() -> None:
    env = SingleSeatEnv("vaalbara_v1", 2)
    env.reset(seed=0)
    observation, reward, terminated, truncated, info = env.step(illegal_action(env))
    assert (reward, terminated, truncated, info["illegal_action"]) == (
        ILLEGAL_ACTION_REWARD,
        True,
        False,
        True,
    )
    assert env.observation_space.contains(observation)
    assert env.action_masks().all(), "nothing to mask once the episode is over"
    with pytest.raises(ValueError, match="call reset"):
        env.step(0)


def test_an_unmasked_action_raises_in_raise_mode_and_changes_nothing() -> None:
    env = SingleSeatEnv("vaalbara_v1", 2, illegal_action="raise")
    env.reset(seed=0)
    before = env.table.game.to_json()
    with pytest.raises(ValueError, match=r"illegal action \d+ by the learner .*legal actions"):
        env.step(illegal_action(env))
    assert env.table.game.to_json() == before
    with pytest.raises(ValueError, match="illegal action"):
        check_env(env)  # the checkers' random actions need the default "terminate"


@pytest.mark.parametrize("mode", ["terminate", "raise"])
def test_an_action_out_of_range_is_bad_input_in_both_modes(mode: str) -> None:
    env = SingleSeatEnv("vaalbara_v1", 2, illegal_action=mode)
    env.reset(seed=0)
    for bad in (-1, env.action_space.n, 1.0, True, None, np.array([0])):
        with pytest.raises(ValueError, match=r"not an integer in 0\.\."):
            env.step(bad)
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(np.array(legal))  # a 0-d array, as predict() gives, is an action


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"illegal_action": "lose"}, r"illegal_action='lose'; expected one of \('terminate'"),
        ({"opponent": "ismcts:ten"}, "ismcts"),
        ({"opponent": 3}, "expected an Agent or 'random', 'heuristic', 'pretrained'"),
        ({"num_players": 9}, "takes 2 to 5 players"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gymnasium.make("tabletop_envs/Vaalbara-v1", **kwargs)


def trajectory(env: gymnasium.Env, seed: int | None, steps: int = 40) -> list:
    """Observations and rewards of seeded random legal play over a few episodes."""
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    seen = [observation, info["seat"]]
    for _ in range(steps):
        mask = env.get_wrapper_attr("action_masks")()
        observation, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        seen += [observation, reward]
        if done:
            observation, info = env.reset()
            seen += [observation, info["seat"]]
    return seen


def same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_reset_with_a_seed_replays_games_opponents_and_unseeded_resets(opponent: str) -> None:
    def make() -> gymnasium.Env:
        return gymnasium.make("tabletop_envs/Vaalbara-v1", num_players=3, opponent=opponent)

    first = trajectory(make(), seed=11, steps=50)
    assert same(first, trajectory(make(), seed=11, steps=50))
    env = make()
    trajectory(env, seed=5, steps=5)
    assert same(first, trajectory(env, seed=11, steps=50)), "a used env replays the seed too"
    assert not same(first, trajectory(make(), seed=12, steps=50))


def test_a_policy_file_plays_the_other_seats(tmp_path: Path) -> None:
    core = tabletop_envs.game_module("vaalbara_v1").Game
    rng = np.random.default_rng(0)
    network = PolicyNetwork(
        [rng.normal(size=(core.LAYOUT.total, core.SCHEMA.size)).astype(np.float32)],
        [np.zeros(core.LAYOUT.total, np.float32)],
        "tanh",
        {"game": "vaalbara_v1", "players": 2},
    )
    path = tmp_path / "policy.npz"
    network.save(path)
    env = gymnasium.make("tabletop_envs/Vaalbara-v1", num_players=2, opponent=str(path))
    assert len(trajectory(env, seed=3)) > 40
    with pytest.raises(ValueError, match="players 2 \\(expected 3\\)"):
        gymnasium.make("tabletop_envs/Vaalbara-v1", num_players=3, opponent=path)


def test_every_agent_spec_the_commands_take_plays_the_other_seats() -> None:
    """``pretrained`` and a search spec, as in tabletop-eval; a bad spec names the accepted."""
    for opponent in ("pretrained", "pimc:2,depth=5"):
        env = gymnasium.make("tabletop_envs/Vaalbara-v1", num_players=2, opponent=opponent)
        assert len(trajectory(env, seed=3, steps=12)) >= 2 + 2 * 12
    with pytest.raises(ValueError, match="'random', 'heuristic', 'pretrained'"):
        gymnasium.make("tabletop_envs/Vaalbara-v1", opponent="champion")
    with pytest.raises(ValueError, match="no pretrained policy for vaalbara_v1 with 3 players"):
        gymnasium.make("tabletop_envs/Vaalbara-v1", num_players=3, opponent="pretrained")


def test_cooperative_games_give_the_learner_every_seat() -> None:
    env = SingleSeatEnv("valenor_v2", 3)
    env.reset(seed=0)
    movers, done = set(), False
    while not done:
        movers.add(env.table.game.current_player)
        _, reward, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert movers == {0, 1, 2}
    assert reward == env.table.game.returns()[0]


def test_render_modes_other_than_ansi_are_refused() -> None:
    with pytest.raises(ValueError, match="render_mode='rgb_array'; expected None or 'ansi'"):
        SingleSeatEnv("vaalbara_v1", render_mode="rgb_array")


def test_render_ansi_shows_the_learners_table() -> None:
    env = gymnasium.make("tabletop_envs/Vaalbara-v1", render_mode="ansi")
    env.reset(seed=0)
    assert "player_" in env.render()


def test_the_base_install_suffices_and_the_package_never_imports_agents() -> None:
    script = """
import sys
for blocked in ("torch", "stable_baselines3", "sb3_contrib"):
    sys.modules[blocked] = None  # importing any of them now fails
import gymnasium, tabletop_envs
higher = ("tabletop_envs.agents", "tabletop_envs.training", "tabletop_envs.tools")
assert not [m for m in sys.modules if m.startswith(higher)], "imported a higher layer"
env = gymnasium.make("tabletop_envs/Vaalbara-v1", num_players=2, opponent="heuristic")
env.reset(seed=0)
print("ok", type(env.unwrapped).__module__)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", "tabletop_envs.agents.gym_env"]
