"""Training's vector envs: many single-seat games per process, for stable-baselines3.

The single-seat game itself (:class:`~tabletop_envs.agents.gym_env.SeatGame`, with
opponents moved by :func:`~tabletop_envs.agents.gym_env.advance_opponents`) and its plain
gymnasium env (:class:`~tabletop_envs.agents.gym_env.SingleSeatEnv`) need the base install
only and live in ``tabletop_envs.agents.gym_env``; :class:`SelfPlayVecEnv` runs many tables
at once in this process and batches each opponent's forward pass across all of them.
:class:`ParallelSelfPlayVecEnv` splits the tables over worker processes, each a
:class:`SelfPlayVecEnv` with its own copy of the opponent pool, so the games' rules (most of
a rollout's time) run on several cores while the learner's forward pass stays in the main
process.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
import torch
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env.base_vec_env import VecEnv
from tabletop_envs.agents.gym_env import DrawOpponent, SeatGame, advance_opponents, spaces_for
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.training.config import TrainConfig
from tabletop_envs.training.opponents import OpponentPool


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
        advice: str = "",
    ) -> None:
        seeds = np.random.SeedSequence(seed).generate_state(count)
        self.tables = [SeatGame(game_name, players, options or {}, int(s), advice) for s in seeds]
        self.draw_opponent = draw_opponent
        self.actions: np.ndarray | None = None
        observation_space, action_space = spaces_for(game_name, advice)
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


@dataclass(frozen=True)
class WorkerSpec:
    """What a worker process needs to build its share of the tables and its pool copy."""

    game_name: str
    players: int
    count: int
    options: dict[str, Any]
    seed: int
    pool: dict[str, Any]
    advice: str


def _serve(spec: WorkerSpec, connection: Connection) -> None:
    """A worker's loop: run its tables on request until told to close."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by start_workers
    torch.set_num_threads(1)
    pool = OpponentPool(**spec.pool)
    env = SelfPlayVecEnv(
        spec.game_name,
        spec.players,
        spec.count,
        pool.draw,
        options=spec.options,
        seed=spec.seed,
        advice=spec.advice,
    )
    while True:
        try:
            command, argument = connection.recv()
        except (EOFError, ConnectionError):  # the main process is gone: nothing left to serve
            return
        if command == "close":
            connection.close()
            return
        try:
            reply = _handle(env, pool, command, argument)
        except Exception as error:  # the main process raises it with the worker's message
            reply = WorkerError(f"{type(error).__name__}: {error}")
        if reply is not None:
            connection.send(reply)


@dataclass(frozen=True)
class WorkerError:
    """A worker's failure, sent back instead of its reply."""

    message: str


def _handle(env: SelfPlayVecEnv, pool: OpponentPool, command: str, argument: Any) -> Any:
    if command == "reset":
        return env.reset(), env.action_masks()
    if command == "step":
        env.step_async(argument)
        return (*env.step_wait(), env.action_masks())
    pool.add_snapshot(*argument)
    return None


def split(count: int, parts: int) -> list[int]:
    """``count`` tables over ``parts`` workers, as evenly as possible."""
    return [count // parts + (index < count % parts) for index in range(parts)]


class ParallelSelfPlayVecEnv(VecEnv):
    """:class:`SelfPlayVecEnv` tables spread over worker processes, for several cores.

    Each worker keeps its own copy of ``pool`` (same settings, its own seed) and draws its
    tables' opponents from it; every snapshot added to ``pool`` afterwards is sent to all of
    them. Deterministic for a seed and a worker count.
    """

    def __init__(
        self,
        game_name: str,
        players: int,
        count: int,
        pool: OpponentPool,
        workers: int,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        advice: str = "",
    ) -> None:
        if not 1 <= workers <= count:
            raise ValueError(f"workers must be between 1 and the {count} tables; got {workers}")
        seeds = np.random.SeedSequence(seed).generate_state(2 * workers)
        context = multiprocessing.get_context("spawn")
        self.specs = [
            WorkerSpec(
                game_name=game_name,
                players=players,
                count=share,
                options=options or {},
                seed=int(seeds[2 * index]),
                pool=pool.settings(seed=int(seeds[2 * index + 1])),
                advice=advice,
            )
            for index, share in enumerate(split(count, workers))
        ]
        self.connections: list[Connection] = []
        self.processes = []
        # A Ctrl-C while a worker is still importing would print its traceback: the workers
        # start with SIGINT blocked (the mask is inherited) until they ignore it.
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for spec in self.specs:
                ours, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(spec, theirs), daemon=True)
                process.start()
                theirs.close()
                self.connections.append(ours)
                self.processes.append(process)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        for snapshot in pool.snapshots:
            self.send_snapshot(snapshot.network, snapshot.label)
        pool.subscribers.append(self.send_snapshot)
        self.masks = np.zeros((0, 0), dtype=bool)
        observation_space, action_space = spaces_for(game_name, advice)
        super().__init__(count, observation_space, action_space)

    def send_snapshot(self, network: PolicyNetwork, label: str) -> None:
        for connection in self.connections:
            connection.send(("snapshot", (network, label)))

    def replies(self) -> list[Any]:
        """Every worker's reply, in table order; a worker's failure raises here."""
        replies = [connection.recv() for connection in self.connections]
        for index, reply in enumerate(replies):
            if isinstance(reply, WorkerError):
                raise RuntimeError(f"self-play worker {index} failed: {reply.message}")
        return replies

    def reset(self) -> np.ndarray:
        for connection in self.connections:
            connection.send(("reset", None))
        replies = self.replies()
        self.masks = np.concatenate([masks for _, masks in replies])
        return np.concatenate([observations for observations, _ in replies])

    def step_async(self, actions: np.ndarray) -> None:
        start = 0
        for connection, spec in zip(self.connections, self.specs, strict=True):
            connection.send(("step", actions[start : start + spec.count]))
            start += spec.count

    def step_wait(self):
        observations, rewards, dones, infos, masks = zip(*self.replies(), strict=True)
        self.masks = np.concatenate(masks)
        return (
            np.concatenate(observations),
            np.concatenate(rewards),
            np.concatenate(dones),
            [info for part in infos for info in part],
        )

    def action_masks(self) -> np.ndarray:
        return self.masks

    def close(self) -> None:
        for connection in self.connections:
            with contextlib.suppress(OSError):  # that worker may be gone already
                connection.send(("close", None))
        for process in self.processes:
            process.join(timeout=10)
        self.connections, self.processes = [], []

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """Only ``render_mode`` (None: stable-baselines3 asks for it), as the tables are remote."""
        if attr_name != "render_mode":
            raise AttributeError(f"{attr_name!r}: the tables live in worker processes")
        return [None] * len(self._rows(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise NotImplementedError("the tables live in worker processes")

    def env_method(self, method_name: str, *args, indices: Any = None, **kwargs) -> list[Any]:
        """Only ``action_masks`` (what MaskablePPO asks for), from the last step's replies."""
        if method_name != "action_masks":
            raise NotImplementedError(f"{method_name!r}: the tables live in worker processes")
        return [self.masks[index] for index in self._rows(indices)]

    def _rows(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * self.num_envs

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"


def selfplay_env(game_name: str, config: TrainConfig, pool: OpponentPool, seed: int) -> VecEnv:
    """The config's ``n_envs`` tables against ``pool``: in this process, or over its
    ``env_workers`` processes; with its ``advice``, the learner's observations carry its
    advisor's move."""
    tables = {
        "options": config.game_options,
        "seed": seed,
        "advice": config.advice,
    }
    if config.env_workers > 1:
        return ParallelSelfPlayVecEnv(
            game_name, config.players, config.n_envs, pool, config.env_workers, **tables
        )
    return SelfPlayVecEnv(game_name, config.players, config.n_envs, pool.draw, **tables)


class OneThreadWhileCollecting(BaseCallback):
    """Torch on one thread while worker processes step the games, back to its count for the
    PPO update. The learner's forward pass on a batch of tables gains little from a second
    thread, and that thread spinning between calls takes a core the workers need (measured in
    ``benchmarks/training_throughput.py``)."""

    def __init__(self) -> None:
        super().__init__()
        self.update_threads = torch.get_num_threads()

    def _on_rollout_start(self) -> None:
        self.update_threads = torch.get_num_threads()
        torch.set_num_threads(1)

    def _on_rollout_end(self) -> None:
        torch.set_num_threads(self.update_threads)

    def _on_step(self) -> bool:
        return True


def rollout_callbacks(env: VecEnv) -> list[BaseCallback]:
    """The callbacks ``env`` wants during ``learn``: one torch thread while workers step."""
    return [OneThreadWhileCollecting()] if isinstance(env, ParallelSelfPlayVecEnv) else []
