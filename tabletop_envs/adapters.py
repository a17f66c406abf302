"""Adapters for RL libraries that expect another shape than the AEC env's Dict observation.

- :class:`MaskedParallelEnv` (:func:`masked_parallel`): PettingZoo's Parallel API over a
  turn-based AEC env, the observation a plain vector and the mask in
  ``info[agent]["action_mask"]``, as AgileRL's multi-agent algorithms read it.
- :class:`FlatObservation`: the observation and the mask in one ``Box`` vector, which
  SuperSuit's observation wrappers accept (they refuse a Dict observation).
- :class:`MaskedFrameStack`: each agent's last ``k`` observations stacked, the mask the
  current one.

All are generic over the games (and over one another: ``masked_parallel(MaskedFrameStack(
env(), 4))`` works); docs/ecosystem.md shows them with each library.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.wrappers import BaseWrapper

WAITING_ACTION = 0
"""What a waiting agent's Parallel mask allows: a placeholder action that is ignored."""


def observation_box(env: AECEnv, agent: str) -> spaces.Box:
    """The ``observation`` entry of ``agent``'s Dict observation space."""
    return env.observation_space(agent)["observation"]


def action_size(env: AECEnv, agent: str) -> int:
    return int(env.action_space(agent).n)


class MaskedParallelEnv(ParallelEnv):
    """The Parallel API over a turn-based AEC env; the mask in ``info[agent]["action_mask"]``.

    Every live agent gets its observation vector each step; only the mover's action is
    played. The mover's info has ``action_mask`` (its legal actions) and ``acting: True``;
    a waiting agent's mask allows only :data:`WAITING_ACTION` (so a masked sampler is never
    handed an empty mask), its ``acting`` is False and ``env_defined_actions`` is that
    placeholder (AgileRL then records the env's action, not the policy's). Rewards are the
    AEC env's for the step, so at the end every agent receives its own return.
    """

    def __init__(self, aec_env: AECEnv) -> None:
        self.aec_env = aec_env
        self.possible_agents = list(aec_env.possible_agents)
        self.agents: list[str] = []
        self.metadata = {**aec_env.metadata, "is_parallelizable": True}
        self.render_mode = getattr(aec_env.unwrapped, "render_mode", None)
        self._waiting_mask = np.zeros(action_size(aec_env, self.possible_agents[0]), np.int8)
        self._waiting_mask[WAITING_ACTION] = 1

    def observation_space(self, agent: str) -> spaces.Box:
        return observation_box(self.aec_env, agent)

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.aec_env.action_space(agent)

    @property
    def unwrapped(self) -> AECEnv:
        return self.aec_env.unwrapped

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, dict[str, Any]]]:
        self.aec_env.reset(seed=seed, options=options)
        self.agents = list(self.aec_env.agents)
        return self._observe_all()

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        env = self.aec_env
        mover = env.agent_selection
        if mover not in actions:
            raise ValueError(f"no action for {mover}, whose turn it is; got {sorted(actions)}")
        env.step(actions[mover])
        rewards = {agent: float(env.rewards[agent]) for agent in self.agents}
        terminations = {agent: bool(env.terminations[agent]) for agent in self.agents}
        truncations = {agent: bool(env.truncations[agent]) for agent in self.agents}
        observations, infos = self._observe_all()
        for agent, info in infos.items():
            info.update(env.infos[agent])
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def _observe_all(self) -> tuple[dict[str, np.ndarray], dict[str, dict[str, Any]]]:
        env = self.aec_env
        observations, infos = {}, {}
        for agent in self.agents:
            seen = env.observe(agent)
            observations[agent] = seen["observation"]
            acting = agent == env.agent_selection and not env.terminations[agent]
            if acting:
                infos[agent] = {"action_mask": seen["action_mask"], "acting": True}
            else:
                infos[agent] = {
                    "action_mask": self._waiting_mask.copy(),
                    "acting": False,
                    "env_defined_actions": WAITING_ACTION,
                }
        return observations, infos

    def render(self) -> Any:
        return self.aec_env.render()

    def close(self) -> None:
        self.aec_env.close()


def masked_parallel(aec_env: AECEnv) -> MaskedParallelEnv:
    """``aec_env`` (e.g. ``vaalbara_v1.env()``) as a Parallel env with masks in ``info``."""
    return MaskedParallelEnv(aec_env)


class FlatObservation(BaseWrapper):
    """Observation ``Box(0, 1, (N + A,), float32)``: the vector, then the mask as 0/1 floats.

    For SuperSuit's observation wrappers and other tools that take a Box only; the mask is
    the last ``A`` entries (:func:`split_flat` takes them apart again).
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        agent = env.possible_agents[0]
        size = observation_box(env, agent).shape[0] + action_size(env, agent)
        self._space = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)

    def observation_space(self, agent: str) -> spaces.Box:
        return self._space

    def observe(self, agent: str) -> np.ndarray:
        seen = self.env.observe(agent)
        return np.concatenate([seen["observation"], seen["action_mask"].astype(np.float32)])


def split_flat(flat: np.ndarray, actions: int) -> tuple[np.ndarray, np.ndarray]:
    """A :class:`FlatObservation` vector (or the last frame of a stack) as (vector, mask)."""
    return flat[..., :-actions], flat[..., -actions:].astype(np.int8)


class MaskedFrameStack(BaseWrapper):
    """Each agent's observation: its last ``k`` observations, oldest first; mask the current.

    The history is the agent's own: the observations at its last ``k - 1`` moves (zeros
    before its first), then the current one, so it does not depend on who calls
    ``observe`` when.
    """

    def __init__(self, env: AECEnv, k: int) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k={k!r}; expected a whole number of frames >= 1")
        super().__init__(env)
        self.k = k
        agent = env.possible_agents[0]
        box = observation_box(env, agent)
        self._frame = box.shape[0]
        self._space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (k * self._frame,), dtype=np.float32),
                "action_mask": env.observation_space(agent)["action_mask"],
            }
        )
        self._history: dict[str, deque[np.ndarray]] = {}

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        blank = np.zeros(self._frame, dtype=np.float32)
        self._history = {
            agent: deque([blank] * (self.k - 1), maxlen=self.k - 1)
            for agent in self.possible_agents
        }

    def step(self, action: Any) -> None:
        mover = self.env.agent_selection
        moving = not (self.env.terminations[mover] or self.env.truncations[mover])
        before = self.env.observe(mover)["observation"] if moving else None
        super().step(action)
        if before is not None and self.k > 1:
            self._history[mover].append(before)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seen = self.env.observe(agent)
        frames = [*self._history[agent], seen["observation"]]
        return {"observation": np.concatenate(frames), "action_mask": seen["action_mask"]}
