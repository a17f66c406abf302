"""The library adapters: Parallel with masks in info, flat observations, masked frame stacking."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import tabletop_envs
from tabletop_envs.adapters import (
    WAITING_ACTION,
    FlatObservation,
    MaskedFrameStack,
    masked_parallel,
    split_flat,
)

GAMES = sorted(tabletop_envs.GAMES)


RANDOM_ACTIONS = pytest.mark.filterwarnings("ignore:.*played illegal action")
"""PettingZoo's api tests sample unmasked actions when the mask is not in the observation."""


@RANDOM_ACTIONS
@pytest.mark.parametrize("name", GAMES)
def test_parallel_adapter_passes_pettingzoos_parallel_api_test(name: str) -> None:
    parallel_api_test(masked_parallel(tabletop_envs.make(name)), num_cycles=60)


def play_parallel(name: str, seed: int, players: int = 3) -> None:
    """A random legal game through the Parallel adapter, checked against the core each step."""
    env = masked_parallel(tabletop_envs.make(name, num_players=players))
    observations, infos = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        game = env.unwrapped.game
        mover = f"player_{game.current_player}"
        assert [a for a in env.agents if infos[a]["acting"]] == [mover]
        assert np.array_equal(infos[mover]["action_mask"], game.legal_mask())
        for agent in env.agents:
            assert np.array_equal(observations[agent], game.observation(int(agent[-1])))
            if agent != mover:
                assert np.flatnonzero(infos[agent]["action_mask"]).tolist() == [WAITING_ACTION]
                assert infos[agent]["env_defined_actions"] == WAITING_ACTION
        actions = {
            agent: int(rng.choice(np.flatnonzero(infos[agent]["action_mask"])))
            for agent in env.agents
        }
        observations, rewards, terminations, _, infos = env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
        assert len(set(terminations.values())) == 1, "the game ends for everyone at once"
    assert list(totals.values()) == env.unwrapped.game.returns().tolist()


@pytest.mark.parametrize("name", ["vaalbara_v1", "valenor_v2", "valiant_wars_v3"])
def test_parallel_adapter_plays_the_mover_and_pays_every_agent_its_return(name: str) -> None:
    for seed in range(3):
        play_parallel(name, seed)


def test_parallel_adapter_needs_the_movers_action() -> None:
    env = masked_parallel(tabletop_envs.make("vaalbara_v1", num_players=2))
    env.reset(seed=0)
    waiting = [a for a in env.agents if a != env.aec_env.agent_selection]
    with pytest.raises(ValueError, match="no action for player_"):
        env.step(dict.fromkeys(waiting, 0))


@RANDOM_ACTIONS
@pytest.mark.parametrize("name", GAMES)
def test_flat_observation_is_one_box_with_the_mask_last(name: str) -> None:
    env = FlatObservation(tabletop_envs.make(name))
    api_test(env, num_cycles=30)
    env.reset(seed=2)
    agent = env.agent_selection
    flat = env.observe(agent)
    assert env.observation_space(agent).contains(flat)
    vector, mask = split_flat(flat, env.action_space(agent).n)
    seen = env.unwrapped.observe(agent)
    assert np.array_equal(vector, seen["observation"])
    assert np.array_equal(mask, seen["action_mask"])


def test_frame_stack_holds_each_agents_own_last_k_observations() -> None:
    k = 3
    env = MaskedFrameStack(tabletop_envs.make("vaalbara_v1", num_players=2), k)
    env.reset(seed=4)
    game = env.unwrapped.game
    size = game.SCHEMA.size
    past: dict[str, list[np.ndarray]] = {a: [np.zeros(size)] * (k - 1) for a in env.agents}
    rng = np.random.default_rng(4)
    moves = 0
    while not game.is_terminal:
        agent = env.agent_selection
        stacked = env.observe(agent)
        assert env.observation_space(agent).contains(stacked)
        current = game.observation(int(agent[-1]))
        expected = np.concatenate([*past[agent][-(k - 1) :], current])
        assert np.array_equal(stacked["observation"], expected)
        assert np.array_equal(stacked["action_mask"], game.legal_mask()), "the current mask"
        other = "player_1" if agent == "player_0" else "player_0"
        assert np.array_equal(
            env.observe(other)["observation"][-size:], game.observation(int(other[-1]))
        ), "a waiting agent's last frame is its current view"
        past[agent].append(current)
        env.step(int(rng.choice(np.flatnonzero(stacked["action_mask"]))))
        moves += 1
    assert moves > 2 * k


@RANDOM_ACTIONS
def test_frame_stack_composes_with_the_other_adapters_and_checks_k() -> None:
    api_test(MaskedFrameStack(tabletop_envs.make("valenor_v2"), 2), num_cycles=30)
    parallel_api_test(masked_parallel(MaskedFrameStack(tabletop_envs.make("vaalbara_v1"), 4)))
    for bad in (0, 2.0, True):
        with pytest.raises(ValueError, match="expected a whole number of frames >= 1"):
            MaskedFrameStack(tabletop_envs.make("vaalbara_v1"), bad)
