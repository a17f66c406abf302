"""The Parallel API for games whose rules have seats choose at the same time.

A game's AEC env asks simultaneous choices (Vaalbara's character picks, Valiant Wars'
REVEAL-or-STOP) one seat after another, each answer hidden until all are given. Here one
Parallel step is one such group: every seat of the group acts in the same ``step``, as at the
table. A decision that one seat takes alone (a land pick, a target) is a step with one acting
agent. Every live agent observes every step; an agent that does not act this step has an
all-zero ``action_mask``, ``info["acting"] == False``, and its action is ignored (it may be
left out of the dict).

PettingZoo's own ``aec_to_parallel`` cannot serve: it requires every agent to act once per
cycle in agent order (``is_parallelizable``), while these games interleave simultaneous
groups with turns of one seat whose order the play decides. The group comes from the rules
(:meth:`~tabletop_envs.core.game.GameCore.simultaneous_seats`). Each member observes the
table as the AEC env shows it when that member is asked; the earlier members' answers are
hidden from it by the rules, so a stand-in answer gives the same observation (tested for
every member of every group in random games).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from tabletop_envs.core.env import TabletopAECEnv
from tabletop_envs.core.game import GameCore, action_index

Observation = dict[str, np.ndarray]


class TabletopParallelEnv(ParallelEnv):
    """PettingZoo's Parallel API over a :class:`TabletopAECEnv` whose game has simultaneous
    decisions: one ``step`` takes a whole simultaneous group's actions, or one seat's."""

    def __init__(self, aec_env: TabletopAECEnv) -> None:
        self.aec_env = aec_env
        self.possible_agents = list(aec_env.possible_agents)
        self.agents: list[str] = []
        self.metadata = {**aec_env.metadata, "is_parallelizable": True}
        self.render_mode = aec_env.render_mode
        self._group: list[tuple[str, np.ndarray]] = []
        """The agents acting this step, in the order the rules ask them, with their masks."""

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec_env.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec_env.action_space(agent)

    @property
    def unwrapped(self) -> TabletopAECEnv:
        return self.aec_env

    @property
    def state_space(self) -> spaces.Box:
        return self.aec_env.state_space

    def state(self) -> np.ndarray:
        return self.aec_env.state()

    @property
    def acting_agents(self) -> list[str]:
        """The agents whose actions the next ``step`` plays, in the rules' order."""
        return [agent for agent, _ in self._group]

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.aec_env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return self._observe()

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the acting agents' actions, all checked before any is played: a missing one
        or one that is no integer in range raises a ValueError; an illegal one ends the game
        as the AEC env does (``illegal_action="terminate"``, -1 to its agent) or raises,
        leaving the game untouched (``"raise"``)."""
        if not self.agents:
            raise ValueError("step() after the game ended: call reset() to deal a new one")
        env = self.aec_env
        missing = [agent for agent in self.acting_agents if agent not in actions]
        if missing:
            raise ValueError(
                f"no action for {missing}: this step's acting agents are {self.acting_agents}"
            )
        choices = [action_index(actions[agent], len(mask)) for agent, mask in self._group]
        played = zip(self._group, choices, strict=True)
        illegal = [(agent, mask) for (agent, mask), choice in played if not mask[choice]]
        if illegal:
            agent, mask = illegal[0]
            env._illegal(agent, actions[agent], mask)  # raises, or ends the game
        else:
            for (agent, _), choice in zip(self._group, choices, strict=True):
                if env.agent_selection != agent:
                    raise RuntimeError(
                        f"{env.metadata['name']}: the rules asked {env.agent_selection} while "
                        f"{agent} was due in the simultaneous group {self.acting_agents}"
                    )
                env.step(choice)
        live = self.agents
        rewards = {agent: float(env.rewards[agent]) for agent in live}
        terminations = {agent: bool(env.terminations[agent]) for agent in live}
        truncations = {agent: bool(env.truncations[agent]) for agent in live}
        observations, infos = self._observe()
        for agent in live:
            infos[agent].update(env.infos[agent])
        self.agents = [agent for agent in live if not (terminations[agent] or truncations[agent])]
        if not self.agents:
            self._group = []
        return observations, rewards, terminations, truncations, infos

    def _observe(self) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Every live agent's observation; the acting ones' as each is asked by the rules."""
        env, game = self.aec_env, self.aec_env.game
        self._group = []
        seen: dict[str, Observation] = {}
        if not game.is_terminal:
            for seat, observation, mask in group_views(game):
                agent = env.possible_agents[seat]
                self._group.append((agent, mask))
                seen[agent] = {"observation": observation, "action_mask": mask.copy()}
        observations = {agent: seen.get(agent) or env.observe(agent) for agent in self.agents}
        infos = {agent: {"acting": agent in seen} for agent in self.agents}
        return observations, infos

    def render(self) -> Any:
        return self.aec_env.render()

    def close(self) -> None:
        self.aec_env.close()


def group_views(game: GameCore) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(seat, observation, legal mask) of each seat acting in the pending step: the
    simultaneous group, each member seen as the rules ask it (on a copy where the members
    before it gave a stand-in answer, hidden from it), or the one seat to decide."""
    seats = game.simultaneous_seats() or (game.current_player,)
    ahead = game
    views = []
    for number, seat in enumerate(seats):
        if ahead.current_player != seat:
            raise RuntimeError(
                f"{game.NAME}: simultaneous_seats() gave {list(seats)}, but seat "
                f"{ahead.current_player} is asked where seat {seat} was due"
            )
        mask = ahead.legal_mask()
        views.append((seat, np.array(ahead.observation(seat)), mask))
        if number + 1 < len(seats):
            ahead = ahead.clone() if ahead is game else ahead
            ahead.apply(int(np.flatnonzero(mask)[0]))
    return views


def parallel_env(aec_env: TabletopAECEnv) -> TabletopParallelEnv:
    """``aec_env`` (a game's ``raw_env``) as a Parallel env, if its game has simultaneous
    decisions; a game whose turns are all taken one seat at a time is refused."""
    game_class = aec_env.game_class
    if game_class.simultaneous_seats is GameCore.simultaneous_seats:
        raise ValueError(
            f"{game_class.NAME} has no simultaneous decisions, so no parallel_env(); use its "
            "env(), or tabletop_envs.adapters.masked_parallel for a turn-based Parallel API"
        )
    return TabletopParallelEnv(aec_env)
