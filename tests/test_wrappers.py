"""env()'s wrappers behave as PettingZoo's stock OrderEnforcing(AssertOutOfBounds(raw)).

The project's subclasses read the per-step state straight from the unwrapped env; every value,
check and error stays what the stock stack gives, except one on purpose: an action that is no
integer in range raises the env's ValueError naming the range, not a bare AssertionError.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils import wrappers

import tabletop_envs
from tabletop_envs.core.env import HOT_ATTRIBUTES

GAMES = sorted(tabletop_envs.GAMES)


def stock_env(name: str, **kwargs):
    raw = tabletop_envs.make(name, raw=True, **kwargs)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw))


def outcome(call):
    """What a call gives: ("ok", value) or (exception type, message)."""
    try:
        return ("ok", call())
    except Exception as error:  # the comparison is the point
        return (type(error), str(error))


@pytest.mark.parametrize("name", GAMES)
def test_env_is_the_stock_wrapper_stack(name: str) -> None:
    env = tabletop_envs.make(name)
    assert isinstance(env, wrappers.OrderEnforcingWrapper)
    assert isinstance(env.env, wrappers.AssertOutOfBoundsWrapper)
    assert env.unwrapped is env.env.env
    assert str(env) == str(env.unwrapped)


@pytest.mark.parametrize("name", GAMES)
def test_before_reset_the_same_errors(name: str) -> None:
    ours, stock = tabletop_envs.make(name), stock_env(name)
    for attribute in (*HOT_ATTRIBUTES, "num_agents", "possible_agents", "metadata"):
        mine = outcome(lambda e=ours, a=attribute: getattr(e, a))
        theirs = outcome(lambda e=stock, a=attribute: getattr(e, a))
        assert mine == theirs, attribute
    assert outcome(ours.last)[0] is outcome(stock.last)[0] is AttributeError


@pytest.mark.parametrize("name", GAMES)
def test_a_game_reads_the_same_through_both_stacks(name: str) -> None:
    ours, stock = tabletop_envs.make(name), stock_env(name)
    ours.reset(seed=3)
    stock.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in ours.agent_iter():
        assert agent == stock.agent_selection
        mine, theirs = ours.last(), stock.last()
        assert np.array_equal(mine[0]["observation"], theirs[0]["observation"])
        assert np.array_equal(mine[0]["action_mask"], theirs[0]["action_mask"])
        assert mine[1:] == theirs[1:]
        for attribute in HOT_ATTRIBUTES:
            assert getattr(ours, attribute) == getattr(stock, attribute)
        if mine[2] or mine[3]:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(mine[0]["action_mask"])))
        ours.step(action)
        stock.step(action)
    assert not stock.agents
    assert ours.rewards == stock.rewards


@pytest.mark.parametrize("name", GAMES)
def test_actions_that_are_no_integer_in_range_raise_a_value_error(name: str) -> None:
    """In both illegal_action modes, through env() and raw_env(): a ValueError naming the
    accepted range, and nothing changes (the stock wrapper raised a bare AssertionError)."""
    for mode in ("terminate", "raise"):
        for raw in (False, True):
            env = tabletop_envs.make(name, raw=raw, illegal_action=mode)
            env.reset(seed=0)
            total = env.action_space(env.agent_selection).n
            before = env.unwrapped.game.to_json()
            bad_actions = (total, 999, -1, 1.5, 3.0, float("nan"), "0", None, True, np.bool_(1))
            for bad in (*bad_actions, np.array([0]), np.array(total), np.int64(total)):
                with pytest.raises(ValueError, match=rf"not an integer in 0\.\.{total - 1}"):
                    env.step(bad)
            assert env.unwrapped.game.to_json() == before
            assert not any(env.unwrapped.terminations.values())
    legal = np.flatnonzero(env.last()[0]["action_mask"])
    before = env.unwrapped.game.to_json()
    env.step(np.int64(legal[0]))  # numpy integers pass, as with the stock check
    assert env.unwrapped.game.to_json() != before


@pytest.mark.parametrize("name", GAMES)
def test_agent_iter_enforces_the_same_order(name: str) -> None:
    """``agent_iter`` (read straight from the unwrapped env): the same error before reset,
    the same assertion when an agent is not stepped, and the same ``max_iter`` stop."""
    ours, stock = tabletop_envs.make(name), stock_env(name)
    assert outcome(ours.agent_iter) == outcome(stock.agent_iter)
    for env in (ours, stock):
        env.reset(seed=5)
    unstepped = [outcome(lambda: [next(iter(ours.agent_iter())) for _ in range(2)])]
    unstepped.append(outcome(lambda: [next(iter(stock.agent_iter())) for _ in range(2)]))
    assert unstepped[0][0] is unstepped[1][0] is AssertionError
    assert unstepped[0] == unstepped[1]
    for env in (ours, stock):
        env.reset(seed=5)
    seen = {}
    for label, env in (("ours", ours), ("stock", stock)):
        agents = []
        for agent in env.agent_iter(max_iter=3):
            agents.append(agent)
            observation, _, termination, truncation, _ = env.last()
            ended = termination or truncation
            env.step(None if ended else int(np.flatnonzero(observation["action_mask"])[0]))
        seen[label] = agents
    assert len(seen["ours"]) == 3
    assert seen["ours"] == seen["stock"]
