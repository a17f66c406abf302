"""parallel_env(): the Parallel API for the games with simultaneous choices (Vaalbara's picks
and Fighter poll, Valiant Wars' REVEAL-or-STOP), checked against the AEC env."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from tabletop_envs import spirit_island_v1, vaalbara_v1, valenor_v2, valiant_wars_v3
from tabletop_envs.core.parallel import parallel_env as to_parallel
from tabletop_envs.vaalbara.spec import Decision as VaalbaraDecision
from tabletop_envs.valiant_wars.spec import Decision as ValiantWarsDecision

PARALLEL = {"vaalbara_v1": vaalbara_v1, "valiant_wars_v3": valiant_wars_v3}
SIMULTANEOUS = {"vaalbara_v1": {"SELECT", "FIGHTER"}, "valiant_wars_v3": {"REVEAL_OR_STOP"}}
PLAYERS = (2, 3, 4, 5)
DECISIONS = {"vaalbara_v1": VaalbaraDecision, "valiant_wars_v3": ValiantWarsDecision}


@pytest.mark.parametrize("name", sorted(PARALLEL))
@pytest.mark.parametrize("players", PLAYERS)
def test_parallel_api_test_passes(name: str, players: int) -> None:
    parallel_api_test(PARALLEL[name].parallel_env(num_players=players), num_cycles=2000)


def play_parallel_and_aec(name: str, players: int, seed: int) -> dict[str, int]:
    """Play a random Parallel game and the same actions through the AEC env in the rules'
    order: each acting agent's Parallel observation and mask must be exactly what the AEC env
    shows it when it is asked, and the games must stay equal. The largest group per decision."""
    module = PARALLEL[name]
    par, aec = module.parallel_env(num_players=players), module.raw_env(num_players=players)
    observations, infos = par.reset(seed=seed)
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    largest: dict[str, int] = {}
    while par.agents:
        acting = par.acting_agents
        assert acting and {a for a in par.agents if infos[a]["acting"]} == set(acting)
        for agent in set(par.agents) - set(acting):
            assert not observations[agent]["action_mask"].any(), "a waiting agent has no move"
        kind = DECISIONS[name](aec.game.pending_kind()).name
        largest[kind] = max(largest.get(kind, 0), len(acting))
        actions = {
            agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
            for agent in acting
        }
        for agent in acting:
            assert aec.agent_selection == agent
            shown = aec.observe(agent)
            np.testing.assert_array_equal(shown["observation"], observations[agent]["observation"])
            np.testing.assert_array_equal(shown["action_mask"], observations[agent]["action_mask"])
            aec.step(actions[agent])
        observations, rewards, terminations, _, infos = par.step(actions)
        assert par.unwrapped.game.to_json() == aec.game.to_json()
    assert all(terminations.values())
    assert rewards == {agent: aec.rewards[agent] for agent in aec.possible_agents}
    return largest


@pytest.mark.parametrize("name", sorted(PARALLEL))
@pytest.mark.parametrize("players", PLAYERS)
def test_each_agent_observes_what_the_aec_env_shows_it_when_asked(name: str, players: int) -> None:
    """The simultaneous decisions are one step for the whole group, the others one seat's."""
    largest: dict[str, int] = {}
    for seed in range(4):
        for kind, size in play_parallel_and_aec(name, players, seed).items():
            largest[kind] = max(largest.get(kind, 0), size)
    together = {kind for kind, size in largest.items() if size > 1}
    assert together <= SIMULTANEOUS[name], "only simultaneous decisions act together"
    assert largest.get("SELECT", players) == players, "every seat picks its character at once"
    if players > 2 or name == "valiant_wars_v3":
        assert together == SIMULTANEOUS[name], largest


@pytest.mark.parametrize("illegal_action", ["terminate", "raise"])
def test_an_illegal_action_in_a_group_plays_none_of_the_group(illegal_action: str) -> None:
    env = vaalbara_v1.parallel_env(num_players=3, illegal_action=illegal_action)
    observations, _ = env.reset(seed=1)
    saved = env.unwrapped.game.to_json()
    actions = {
        agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) for agent in env.agents
    }
    unplayable = np.flatnonzero(observations["player_2"]["action_mask"] == 0)[0]
    actions["player_2"] = int(unplayable)
    if illegal_action == "raise":
        with pytest.raises(ValueError, match=r"illegal action .* by player_2"):
            env.step(actions)
        assert env.unwrapped.game.to_json() == saved and env.agents
        return
    with pytest.warns(UserWarning, match="player_2 played illegal action"):
        _, rewards, terminations, _, infos = env.step(actions)
    assert rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0}
    assert all(terminations.values()) and not env.agents
    assert infos["player_2"]["illegal_action"] == "player_2"
    assert env.unwrapped.game.to_json() == saved, "no pick of the group was played"


def test_bad_steps_are_refused_naming_what_is_expected() -> None:
    env = valiant_wars_v3.parallel_env(num_players=2)
    observations, _ = env.reset(seed=0)
    first = env.acting_agents[0]
    with pytest.raises(ValueError, match=rf"no action for \['{first}', '.*'\]"):
        env.step({})
    with pytest.raises(ValueError, match="not an integer"):
        env.step(dict.fromkeys(env.acting_agents, 2.5))
    ignored = 0
    while env.agents:
        actions: dict[str, int | None] = {
            agent: int(np.flatnonzero(observations[agent]["action_mask"])[0])
            for agent in env.acting_agents
        }
        waiting = [agent for agent in env.agents if agent not in actions]
        ignored += len(waiting)
        actions |= dict.fromkeys(waiting)  # a waiting agent's action is ignored, whatever it is
        observations, *_ = env.step(actions)
    assert ignored > 0
    with pytest.raises(ValueError, match="after the game ended"):
        env.step({})


def test_games_whose_turns_are_sequential_have_no_parallel_env() -> None:
    """Valenor's turns pass from seat to seat and its spirit draft is in seat order; Spirit
    Island's Spirit Phase runs Spirit by Spirit, each seeing the last one's growth."""
    for module in (valenor_v2, spirit_island_v1):
        assert not hasattr(module, "parallel_env")
        with pytest.raises(ValueError, match="no simultaneous decisions"):
            to_parallel(module.raw_env())
    for module in PARALLEL.values():
        assert "parallel_env" in module.__all__


def test_state_and_render_pass_through() -> None:
    env = vaalbara_v1.parallel_env(num_players=2, render_mode="ansi")
    env.reset(seed=3)
    assert env.state_space.contains(env.state())
    assert isinstance(env.render(), str) and env.render()
