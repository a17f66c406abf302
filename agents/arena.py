"""Play many games between agents with rotated seats, in parallel, reproducibly.

Game ``i`` is dealt from the seed ``(seed, i)`` and seats the agents by :func:`lineup`, so
every agent plays every seat equally often over a multiple of ``players`` games (and every
seating order over ``players!`` games); the results depend on neither the worker count nor
the order games finish in. The games asked for come back with their replay (recorded in the
worker, written by the caller).
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import signal
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from tabletop_envs.agents.base import Agent
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.agents.search import InformationSet

from tabletop_envs import make
from tabletop_envs.core.env import TabletopAECEnv
from tabletop_envs.core.replay import Replay


@dataclass(frozen=True)
class MatchSpec:
    """What to play: the environment, the agent specs (one per seat) and the master seed."""

    game: str
    agents: tuple[str, ...]
    seed: int
    options: tuple[tuple[str, Any], ...] = ()
    """Game options as (name, value) pairs (the game's ``OPTIONS``); none: its defaults."""

    @property
    def players(self) -> int:
        return len(self.agents)


@dataclass
class GameRecord:
    """The outcome of one game; ``lineup[seat]`` is the index of the agent in that seat."""

    index: int
    seed: int
    lineup: list[int]
    returns: list[float]
    winners: list[int]
    scores: list[float] | None
    progress: float | None
    turns: int | None
    decisions: int
    ending: str | None = None
    """How the game ended, where the game says (``GameCore.ending``)."""
    end_facts: dict[str, float] = field(default_factory=dict)
    """The game's numbers at the end (``GameCore.end_facts``)."""
    replay: Replay | None = None
    """The game's replay, seats labelled by agent spec, when it was asked for."""
    cpu_seconds: float = field(default=0.0, compare=False)
    """CPU time the playing process spent on the game: every agent's thinking and the
    engine's steps (unlike wall time, barely moved by other processes on the machine); a
    measurement, not part of the outcome, so left out of equality and ``to_dict``."""

    def to_dict(self) -> dict:
        """The outcome as JSON-ready data (the replay is written on its own)."""
        data = asdict(self)
        del data["replay"], data["cpu_seconds"]
        return data


@functools.cache
def seating_orders(players: int) -> list[tuple[int, ...]]:
    """Every order of the agents around the table, agent 0 first (``(players - 1)!``)."""
    return [(0, *rest) for rest in itertools.permutations(range(1, players))]


def lineup(index: int, players: int) -> list[int]:
    """Agent index per seat in game ``index``.

    Each block of ``players`` games rotates one seating order through every seat (so seats
    are balanced over any multiple of ``players`` games); successive blocks take the next
    order, so over ``players!`` games who sits next to whom is balanced too (neighbours
    matter in several games).
    """
    orders = seating_orders(players)
    order = orders[(index // players) % len(orders)]
    shift = index % players
    return [order[(seat - shift) % players] for seat in range(players)]


def game_seeds(seed: int, index: int, players: int) -> tuple[int, list[int]]:
    """The deal seed of game ``index`` and one seed per agent, all from ``(seed, index)``."""
    words = np.random.SeedSequence([seed, index]).generate_state(players + 1, dtype=np.uint32)
    return int(words[0]), [int(word) for word in words[1:]]


class Table:
    """One process's environment and agents, reused across its games; the games in
    ``replays`` are recorded."""

    def __init__(self, match: MatchSpec, replays: Collection[int] = ()) -> None:
        self.match = match
        self.replays = frozenset(replays)
        self.env: TabletopAECEnv = make(
            match.game,
            raw=True,
            num_players=match.players,
            illegal_action="raise",
            **dict(match.options),
        )
        self.agents: list[Agent] = [
            agent_factory(spec, match.game, match.players)(None) for spec in match.agents
        ]

    def play(self, index: int) -> GameRecord:
        players = self.match.players
        deal_seed, agent_seeds = game_seeds(self.match.seed, index, players)
        seats = lineup(index, players)
        for agent, agent_seed in zip(self.agents, agent_seeds, strict=True):
            agent.reset(agent_seed)
        env = self.env
        start = time.process_time()
        env.reset(seed=deal_seed)
        decisions = 0
        while not env.game.is_terminal:
            name = env.agent_selection
            seat = env.agent_name_mapping[name]
            agent = self.agents[seats[seat]]
            agent.see(InformationSet(env.game, seat))
            env.step(agent.act(env.observe(name), name))
            decisions += 1
        game = env.game
        labels = [self.match.agents[agent] for agent in seats]
        return GameRecord(
            index=index,
            seed=deal_seed,
            lineup=seats,
            returns=[float(value) for value in game.returns()],
            winners=[int(seat) for seat in game.winners()],
            scores=game.scores(),
            progress=game.progress(),
            turns=game.turns(),
            decisions=decisions,
            ending=game.ending(),
            end_facts=game.end_facts(),
            replay=env.replay(labels) if index in self.replays else None,
            cpu_seconds=time.process_time() - start,
        )


_worker_table: Table | None = None


def _init_worker(match: MatchSpec, replays: frozenset[int]) -> None:
    """Build the worker's table; Ctrl-C is left to the parent, which stops the pool."""
    global _worker_table
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_table = Table(match, replays)


def _play_in_worker(index: int) -> GameRecord:
    assert _worker_table is not None, "worker not initialised"
    return _worker_table.play(index)


def play_games(
    match: MatchSpec,
    games: int,
    workers: int = 1,
    on_record: Callable[[GameRecord], None] | None = None,
    replays: Collection[int] = (),
) -> list[GameRecord]:
    """Play games ``0..games-1`` on ``workers`` processes; records sorted by game index.

    ``on_record`` is called as each game finishes (e.g. to advance a progress bar); the
    records of the games in ``replays`` carry their replay.
    """
    records = []
    for record in _records(match, games, workers, frozenset(replays)):
        records.append(record)
        if on_record is not None:
            on_record(record)
    return sorted(records, key=lambda record: record.index)


def _records(
    match: MatchSpec, games: int, workers: int, replays: frozenset[int]
) -> Iterator[GameRecord]:
    workers = min(workers, games)  # a process with no game to play is not started
    if workers <= 1:
        table = Table(match, replays)
        for index in range(games):
            yield table.play(index)
        return
    chunk = max(1, min(64, games // (workers * 8)))
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=_init_worker, initargs=(match, replays)) as pool:
        yield from pool.imap_unordered(_play_in_worker, range(games), chunksize=chunk)
