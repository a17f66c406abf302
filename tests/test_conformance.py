"""The conformance suite every registered game passes at every player count it supports.

A game joins by registering in ``tabletop_envs.GAMES``; nothing here is written per game.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tabletop_envs
from tabletop_envs.core.game import GameCore

CASES = [
    (name, players)
    for name in sorted(tabletop_envs.GAMES)
    for players in range(
        tabletop_envs.game_module(name).Game.MIN_PLAYERS,
        tabletop_envs.game_module(name).Game.MAX_PLAYERS + 1,
    )
]
IDS = [f"{name}-{players}p" for name, players in CASES]
RANDOM_GAMES = 100


def game_class(name: str) -> type[GameCore]:
    return tabletop_envs.game_module(name).Game


def play_random(game: GameCore, rng: np.random.Generator, max_steps: int | None = None) -> int:
    """Play uniformly random legal actions; the number of decisions taken."""
    steps = 0
    while not game.is_terminal and (max_steps is None or steps < max_steps):
        game.apply(int(rng.choice(game.legal_actions())))
        steps += 1
    return steps


def mid_game_states(name: str, players: int, count: int, seed: int) -> list[GameCore]:
    """Seeded random positions spread over whole games."""
    rng = np.random.default_rng(seed)
    states = []
    for index in range(count):
        game = game_class(name)(players, seed=seed * 1000 + index)
        length = play_random(game.clone(), np.random.default_rng(index))
        play_random(game, np.random.default_rng(index), int(rng.integers(0, max(length, 1))))
        states.append(game)
    return states


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_pettingzoo_api(name: str, players: int) -> None:
    api_test(tabletop_envs.make(name, num_players=players), num_cycles=300)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_pettingzoo_seed(name: str, players: int) -> None:
    seed_test(lambda: tabletop_envs.make(name, num_players=players), num_cycles=300)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_random_games_through_env(name: str, players: int) -> None:
    """Seeded games end within the bound; masks match the core; observations fit the space."""
    for seed in range(RANDOM_GAMES // 10):
        env = tabletop_envs.make(name, num_players=players)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        space = env.observation_space(env.possible_agents[0])
        core = env.unwrapped.game
        steps = 0
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            assert space.contains(observation), f"{agent}: observation outside its space"
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            assert np.array_equal(mask, core.legal_mask())
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        assert steps <= game_class(name).MAX_DECISIONS


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_random_games_in_core(name: str, players: int) -> None:
    """Every legal action applies; returns are consistent; episodes are bounded."""
    cls = game_class(name)
    for seed in range(RANDOM_GAMES):
        game = cls(players, seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while not game.is_terminal:
            assert not game.returns().any(), "returns before the end"
            legal = game.legal_actions()
            assert legal, "a live game with no legal action"
            game.apply(int(rng.choice(legal)))
            steps += 1
            assert steps <= cls.MAX_DECISIONS
        returns = game.returns()
        assert returns.shape == (players,)
        assert np.all(np.abs(returns) <= 1.0)
        if cls.COOPERATIVE:
            assert np.all(returns == returns[0])
        else:
            winners = game.winners()
            assert winners, "a finished competitive game has a winner"
            assert all(returns[w] > 0 for w in winners)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_every_masked_action_applies_and_unmasked_ones_raise(name: str, players: int) -> None:
    for game in mid_game_states(name, players, 6, seed=11):
        if game.is_terminal:
            continue
        mask = game.legal_mask()
        before = game.to_json()
        for action in range(mask.shape[0]):
            trial = game.clone()
            if mask[action]:
                trial.apply(action)
            else:
                with pytest.raises(ValueError, match="illegal action"):
                    trial.apply(action)
                assert trial.to_json() == before, "a rejected action changed the state"


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_clone_is_independent(name: str, players: int) -> None:
    for index, game in enumerate(mid_game_states(name, players, 8, seed=3)):
        before = game.to_json()
        clone = game.clone()
        assert clone.to_json() == before
        play_random(clone, np.random.default_rng(index))
        assert game.to_json() == before, "playing on a clone changed the original"
        play_random(game, np.random.default_rng(index))
        assert game.to_json() == clone.to_json(), "a clone must replay the same future"


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_json_round_trip_replays_identically(name: str, players: int) -> None:
    cls = game_class(name)
    for index, game in enumerate(mid_game_states(name, players, 8, seed=5)):
        restored = cls.from_json(game.to_json())
        assert restored.to_json() == game.to_json()
        rng_a, rng_b = np.random.default_rng(index), np.random.default_rng(index)
        while not game.is_terminal:
            for seat in range(players):
                assert np.array_equal(game.observation(seat), restored.observation(seat))
            assert np.array_equal(game.legal_mask(), restored.legal_mask())
            game.apply(int(rng_a.choice(game.legal_actions())))
            restored.apply(int(rng_b.choice(restored.legal_actions())))
        assert restored.is_terminal
        assert np.array_equal(game.returns(), restored.returns())


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_hidden_information_invariance(name: str, players: int) -> None:
    """Redrawing what a player cannot see never changes that player's observation."""
    changed = 0
    trials = 0
    for index, game in enumerate(mid_game_states(name, players, 12, seed=7)):
        for seat in range(players):
            for draw in range(3):
                rng = np.random.default_rng([index, seat, draw])
                other = game.resample_hidden(seat, rng)
                trials += 1
                assert np.array_equal(game.observation(seat), other.observation(seat)), (
                    f"player {seat}'s observation changed when only hidden state was redrawn"
                )
                if game.current_player == seat:
                    assert np.array_equal(game.legal_mask(), other.legal_mask())
                changed += other.to_json() != game.to_json()
    assert changed > trials // 2, "resample_hidden hardly ever changes anything"


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_seeded_games_are_deterministic(name: str, players: int) -> None:
    cls = game_class(name)
    first, second = cls(players, seed=42), cls(players, seed=42)
    assert first.to_json() == second.to_json()
    play_random(first, np.random.default_rng(1))
    play_random(second, np.random.default_rng(1))
    assert first.to_json() == second.to_json()
    assert cls(players, seed=43).to_json() != cls(players, seed=42).to_json()


@pytest.mark.parametrize("name", sorted(tabletop_envs.GAMES))
def test_bad_input_is_rejected_with_clear_errors(name: str) -> None:
    cls = game_class(name)
    with pytest.raises(ValueError, match="players"):
        tabletop_envs.make(name, num_players=cls.MAX_PLAYERS + 1)
    with pytest.raises(ValueError, match="unknown option"):
        tabletop_envs.make(name, no_such_option=1)
    with pytest.raises(ValueError, match="render_mode"):
        tabletop_envs.make(name, render_mode="rgb_array")
    with pytest.raises(ValueError, match="not a saved"):
        cls.from_json("{truncated")
    with pytest.raises(ValueError, match="expected"):
        cls.from_json(json.dumps({"game": "another", "state": {}}))


@pytest.mark.parametrize("name", sorted(tabletop_envs.GAMES))
def test_illegal_action_terminates_or_raises(name: str) -> None:
    env = tabletop_envs.make(name, illegal_action="raise")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    before = env.unwrapped.game.to_json()
    with pytest.raises(ValueError, match="legal actions"):
        env.step(illegal)
    assert env.unwrapped.game.to_json() == before

    env = tabletop_envs.make(name)
    env.reset(seed=0)
    offender = env.agent_selection
    with pytest.warns(UserWarning, match="illegal"):
        env.step(illegal)
    assert all(env.terminations.values())
    for agent in env.agents:
        assert env._cumulative_rewards[agent] == (-1.0 if agent == offender else 0.0)


@pytest.mark.parametrize("name", sorted(tabletop_envs.GAMES))
def test_render_and_metadata(name: str) -> None:
    env = tabletop_envs.make(name, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text
    assert env.metadata["name"] == tabletop_envs.resolve_name(name)
    assert env.unwrapped.possible_agents[0] == "player_0"


def test_unknown_game_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid games"):
        tabletop_envs.make("chess")


def test_score_returns_are_relative_margins() -> None:
    from tabletop_envs.core.rewards import competitive_returns

    returns = competitive_returns("score", [60, 40, 10], [0])
    assert np.allclose(returns, [20 / 100, -20 / 100, -50 / 70])
    assert np.allclose(competitive_returns("win", [60, 40, 10], [0]), [1, -1, -1])
    assert np.allclose(competitive_returns("win", [5, 5], [0, 1]), [0.5, 0.5])
    with pytest.raises(ValueError, match="reward mode"):
        competitive_returns("elo", [1, 2], [1])
