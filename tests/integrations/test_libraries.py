"""docs/ecosystem.md's recipes for Tianshou, AgileRL and SuperSuit, run with the real libraries.

Run by ``make test-integrations`` (which installs the ``integrations`` extra); ``make test``
does not collect this folder. A missing library fails here, it is never skipped.
"""

from __future__ import annotations

import warnings

import numpy as np
from recipes import run_recipe


def own_returns(namespace: dict, fix: bool) -> list[dict[str, float]]:
    """Ten episodes collected with the recipe's algorithm, with or without its fix; per
    episode, each agent's reward summed over its own transitions (what it learns from)."""
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv

    lengths = []

    def hook(episode):
        lengths.append(len(episode))
        return namespace["credit_each_agents_last_move"](episode) if fix else None

    collector = Collector(
        namespace["algorithm"],
        DummyVectorEnv([namespace["make_env"]]),
        VectorReplayBuffer(4000, 1),
        on_episode_done_hook=hook,
    )
    collector.reset()
    collector.collect(n_episode=10)
    data = collector.buffer[np.arange(len(collector.buffer))]
    movers = np.asarray(data.obs.agent_id)
    episodes, start = [], 0
    for length in lengths:
        rows = np.arange(start, start + length)
        start += length
        own = {agent: rows[movers[rows] == agent] for agent in namespace["env"].agents}
        if fix:
            assert all(data.terminated[index[-1]] for index in own.values())
        episodes.append(
            {
                agent: float(data.rew[index, column].sum())
                for column, (agent, index) in enumerate(own.items())
            }
        )
    return episodes


def test_tianshou_no_glue_and_the_terminal_reward_fix() -> None:
    namespace = run_recipe("tianshou")
    assert namespace["stats"].n_collected_episodes == 10
    assert namespace["stats"].n_collected_steps > 200
    for episode in own_returns(namespace, fix=True):
        assert sorted(episode.values()) == [-1.0, 1.0], "each agent learns its own return"
    # The library as it is: the agent that did not move last never sees its return.
    lost = own_returns(namespace, fix=False)
    assert all(sorted(e.values()) in ([-1.0, 0.0], [0.0, 1.0]) for e in lost)
    assert any(-1.0 not in e.values() for e in lost), "a loser's return was lost"


def test_agilerl_ippo_acts_on_the_parallel_adapter_with_masks_in_info() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        namespace = run_recipe("agilerl")
    assert namespace["step"] == 299 and namespace["games"] >= 2
    illegal = [w for w in caught if "illegal action" in str(w.message)]
    assert illegal == [], "the masks in info kept every move legal"


def test_supersuit_wrappers_accept_the_flat_observation() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        namespace = run_recipe("supersuit")
    env = namespace["env"]
    assert namespace["steps"] > 100
    assert env.observation_space("player_0").shape[0] == 3 * (
        env.unwrapped.observation_space("player_0")["observation"].shape[0] + namespace["actions"]
    )
    assert not [w for w in caught if "illegal action" in str(w.message)]
