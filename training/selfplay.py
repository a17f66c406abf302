"""Single-agent views of any game for learning, with the other seats played inside ``step()``.

:class:`SeatGame` is one game from the learner's side: the learner holds one seat (drawn anew
each game), or every seat in a cooperative game (one shared policy, team reward). Opponents
move until the learner must decide or the game ends, so the learner receives every one of
its own transitions, including the last one of a game it loses.

:class:`SelfPlayEnv` is the plain ``gymnasium.Env`` over one such game; :class:`SelfPlayVecEnv`
runs many in one process for stable-baselines3 and batches each opponent's forward pass
across all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

import tabletop_envs
from tabletop_envs.core.game import GameCore
from training.opponents import Opponent

DrawOpponent = Callable[[], Opponent]


class SeatGame:
    """One game seen from the learner's seat(s)."""

    render_mode = None  # read by stable-baselines3's VecEnv, which warns when it is missing

    def __init__(self, game_name: str, players: int, options: dict[str, Any], seed: int) -> None:
        self.core_class: type[GameCore] = tabletop_envs.game_module(game_name).Game
        self.players = players
        self.options = options
        self.rng = np.random.default_rng(seed)
        self.cooperative = self.core_class.COOPERATIVE
        self.game: GameCore = self.core_class(players, seed=0, **options)
        self.learner = 0
        self.opponents: dict[int, Opponent] = {}

    def new_game(self, draw_opponent: DrawOpponent) -> None:
        """Deal a seeded game, seat the learner, draw an opponent for every other seat."""
        self.game = self.core_class(
            self.players, seed=int(self.rng.integers(2**63)), **self.options
        )
        self.learner = int(self.rng.integers(self.players))
        seats = [] if self.cooperative else range(self.players)
        self.opponents = {seat: draw_opponent() for seat in seats if seat != self.learner}

    def waiting_opponent(self) -> Opponent | None:
        """The opponent that must move now, if any."""
        game = self.game
        if game.is_terminal:
            return None
        return self.opponents.get(game.current_player)

    def learner_seat(self) -> int:
        """The seat whose observation the learner sees now."""
        if self.cooperative and not self.game.is_terminal:
            return self.game.current_player
        return self.learner

    def observation(self) -> np.ndarray:
        return self.game.observation(self.learner_seat())

    def mover_observation(self) -> tuple[np.ndarray, np.ndarray]:
        game = self.game
        return game.observation(game.current_player), game.legal_mask()

    def action_masks(self) -> np.ndarray:
        game = self.game
        if game.is_terminal:
            return np.ones(game.LAYOUT.total, dtype=bool)
        return game.legal_mask().astype(bool)

    def final_reward(self) -> float:
        return float(self.game.returns()[self.learner])


def advance_opponents(tables: Sequence[SeatGame]) -> None:
    """Let opponents move, batched per opponent, until every table waits on its learner."""
    pending = list(tables)
    while pending:
        groups: dict[int, tuple[Opponent, list[SeatGame]]] = {}
        for table in pending:
            opponent = table.waiting_opponent()
            if opponent is not None:
                groups.setdefault(id(opponent), (opponent, []))[1].append(table)
        pending = []
        for opponent, waiting in groups.values():
            observations, masks = zip(
                *(table.mover_observation() for table in waiting), strict=True
            )
            actions = opponent.act(np.stack(observations), np.stack(masks))
            for table, action in zip(waiting, actions, strict=True):
                table.game.apply(int(action))
            pending.extend(waiting)


def spaces_for(game_name: str) -> tuple[spaces.Box, spaces.Discrete]:
    core = tabletop_envs.game_module(game_name).Game
    observation = spaces.Box(0.0, 1.0, (core.SCHEMA.size,), dtype=np.float32)
    return observation, spaces.Discrete(core.LAYOUT.total)


class SelfPlayEnv(gymnasium.Env):
    """One game as a gymnasium env for any single-agent learner; masks via ``action_masks()``."""

    metadata: ClassVar[dict] = {"render_modes": []}

    def __init__(
        self,
        game_name: str,
        players: int,
        draw_opponent: DrawOpponent,
        options: dict[str, Any] | None = None,
        seed: int = 0,
    ) -> None:
        self.table = SeatGame(game_name, players, options or {}, seed)
        self.draw_opponent = draw_opponent
        self.observation_space, self.action_space = spaces_for(game_name)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self.table.rng = np.random.default_rng(seed)
        self.table.new_game(self.draw_opponent)
        advance_opponents([self.table])
        return self.table.observation(), {"seat": self.table.learner}

    def step(self, action: int):
        table = self.table
        table.game.apply(int(action))
        advance_opponents([table])
        done = table.game.is_terminal
        reward = table.final_reward() if done else 0.0
        return table.observation(), reward, done, False, {"seat": table.learner}

    def action_masks(self) -> np.ndarray:
        return self.table.action_masks()


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
