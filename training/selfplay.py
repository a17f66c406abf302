"""Training's vector env: many single-seat games in one process, for stable-baselines3.

The single-seat game itself (:class:`~agents.gym_env.SeatGame`, with opponents moved by
:func:`~agents.gym_env.advance_opponents`) and its plain gymnasium env
(:class:`~agents.gym_env.SingleSeatEnv`) need the base install only and live in
``agents.gym_env``; :class:`SelfPlayVecEnv` runs many tables at once and batches each
opponent's forward pass across all of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from agents.gym_env import DrawOpponent, SeatGame, advance_opponents, spaces_for


class SelfPlayVecEnv(VecEnv):
    """Many :class:`SeatGame` tables in one process, auto-reset, for stable-baselines3."""

    def __init__(
        self,
        game_name: str,
        players: int,
        count: int,
        draw_opponent: DrawOpponent,
        options: dict[str, Any] | None = None,
        seed: int = 0,
    ) -> None:
        seeds = np.random.SeedSequence(seed).generate_state(count)
        self.tables = [SeatGame(game_name, players, options or {}, int(s)) for s in seeds]
        self.draw_opponent = draw_opponent
        self.actions: np.ndarray | None = None
        observation_space, action_space = spaces_for(game_name)
        super().__init__(count, observation_space, action_space)

    def reset(self) -> np.ndarray:
        for table in self.tables:
            table.new_game(self.draw_opponent)
        advance_opponents(self.tables)
        return np.stack([table.observation() for table in self.tables])

    def step_async(self, actions: np.ndarray) -> None:
        self.actions = actions

    def step_wait(self):
        for table, action in zip(self.tables, self.actions, strict=True):
            table.game.apply(int(action))
        advance_opponents(self.tables)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in self.tables]
        finished = []
        for index, table in enumerate(self.tables):
            if table.game.is_terminal:
                rewards[index] = table.final_reward()
                dones[index] = True
                infos[index] = {
                    "terminal_observation": table.observation(),
                    "seat": table.learner,
                    "opponents": sorted({o.label for o in table.opponents.values()}),
                    "won": table.learner in table.game.winners(),
                }
                table.new_game(self.draw_opponent)
                finished.append(table)
        advance_opponents(finished)
        observations = np.stack([table.observation() for table in self.tables])
        return observations, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        return np.stack([table.action_masks() for table in self.tables])

    def close(self) -> None:
        pass

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.tables[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        for i in self._indices(indices):
            setattr(self.tables[i], attr_name, value)

    def env_method(self, method_name: str, *args, indices: Any = None, **kwargs) -> list[Any]:
        return [
            getattr(self.tables[i], method_name)(*args, **kwargs) for i in self._indices(indices)
        ]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self.tables[0], attr_name)
