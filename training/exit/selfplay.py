"""Search games that record what expert iteration learns from: at each searched decision,
the seat's observation, its legal mask and the search's visit shares; at the end, every
seat's outcome from that seat's side (relative seats, as the value head counts them)."""

from __future__ import annotations

import functools
import io
import multiprocessing
import signal
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tabletop_envs.agents.arena import game_seeds
from tabletop_envs.agents.az import AZAgent, az_factory
from tabletop_envs.agents.base import Agent, InformationSet
from tabletop_envs.agents.files import write_atomic
from tabletop_envs.agents.heuristics import heuristic_agent

from tabletop_envs import game_module, resolve_name
from tabletop_envs.core.game import GameCore

FIELDS = ("observations", "masks", "visits", "outcomes")


@dataclass
class Samples:
    """Training examples: observation, legal mask, visit shares (targets of the policy) and
    outcomes per relative seat (targets of the value)."""

    observations: np.ndarray
    masks: np.ndarray
    visits: np.ndarray
    outcomes: np.ndarray
    source: str = ""
    """The file the samples were read from, if any (named in errors)."""

    def __len__(self) -> int:
        return len(self.observations)

    @staticmethod
    def join(parts: list[Samples], sizes: tuple[int, int, int] | None = None) -> Samples:
        """The parts in order; with ``sizes`` (observation, actions, seats), each part's
        shapes are checked against them (a ValueError for a file from another game)."""
        if sizes is not None:
            for part in parts:
                part.check(sizes)
        return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS))

    def check(self, sizes: tuple[int, int, int]) -> None:
        observation, actions, seats = sizes
        rows = len(self.observations)
        expected = {
            "observations": (rows, observation),
            "masks": (rows, actions),
            "visits": (rows, actions),
            "outcomes": (rows, seats),
        }
        for name, shape in expected.items():
            if getattr(self, name).shape != shape:
                where = f" in {self.source}" if self.source else ""
                raise ValueError(
                    f"samples{where}: {name} of shape {getattr(self, name).shape}; "
                    f"this run's are {shape}"
                )

    def save(self, path: Path) -> None:
        """Written compressed (observations are mostly zeros) and atomically."""
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **{field: getattr(self, field) for field in FIELDS})
        write_atomic(path, buffer.getvalue())

    @staticmethod
    def load(path: Path) -> Samples:
        """The samples saved at ``path``; ValueError for a missing or damaged file."""
        try:
            with np.load(path, allow_pickle=False) as data:
                samples = Samples(*(data[field] for field in FIELDS))
        except FileNotFoundError:
            raise ValueError(f"round samples {path} are missing") from None
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
            raise ValueError(f"round samples {path} are damaged ({error})") from None
        samples.source = str(path)
        return samples


@dataclass(frozen=True)
class SelfPlay:
    """One round's games: the searcher's spec, who sits opposite, exploration."""

    game: str
    players: int
    searcher: str
    """An ``az:N,...`` spec: the searcher that plays (and teaches) every searching seat."""
    seed: int
    games: int
    heuristic_share: float = 0.0
    """Share of games in which one searcher plays against the scripted bots."""
    root_noise: float = 0.25
    sample_moves: bool = True


def play_game(plan: SelfPlay, index: int) -> Samples:
    """Game ``index`` of the round: searching seats record their decisions."""
    deal_seed, seeds = game_seeds(plan.seed, index, plan.players)
    name = resolve_name(plan.game)
    game = game_module(name).Game(plan.players, seed=deal_seed)
    make = az_factory(plan.searcher, name, plan.players)
    against_bots = index < round(plan.heuristic_share * plan.games)
    searching_seat = index % plan.players
    agents: list[Agent] = []
    for seat, seed in enumerate(seeds):
        if against_bots and seat != searching_seat:
            agents.append(heuristic_agent(name, seed=seed))
            continue
        agent = make(seed)
        agent.root_noise, agent.sample_moves = plan.root_noise, plan.sample_moves
        agents.append(agent)
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
    while not game.is_terminal:
        seat = game.current_player
        agent = agents[seat]
        observation = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
        agent.see(InformationSet(game, seat))
        action = agent.act(observation, f"player_{seat}")
        if isinstance(agent, AZAgent) and agent.last_visits:
            rows.append((*_visit_row(observation, agent.last_visits), seat))
        game.apply(action)
    return _samples(rows, game.returns(), game)


def play_round(
    plan: SelfPlay, workers: int = 1, on_game: Callable[[], None] | None = None
) -> Samples:
    """The round's ``plan.games`` games on ``workers`` processes, joined in game order (the
    samples depend on neither the worker count nor the order games finish in); ``on_game``
    is called as each game ends."""
    indices = range(plan.games)
    if workers <= 1:
        games = (play_game(plan, index) for index in indices)
        return Samples.join([_counted(part, on_game) for part in games])
    parts = []
    with multiprocessing.get_context("fork").Pool(workers, initializer=_leave_ctrl_c) as pool:
        for part in pool.imap(functools.partial(play_game, plan), indices):
            parts.append(_counted(part, on_game))
    return Samples.join(parts)


def _counted(part: Samples, on_game: Callable[[], None] | None) -> Samples:
    if on_game is not None:
        on_game()
    return part


def _leave_ctrl_c() -> None:
    """Ctrl-C is the parent's to handle (it stops the pool), as in the arena's workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _visit_row(
    observation: dict, visits: dict[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mask = np.asarray(observation["action_mask"], dtype=bool)
    shares = np.zeros(mask.size, dtype=np.float32)
    for action, count in visits.items():
        shares[action] = count
    shares /= max(shares.sum(), 1.0)
    return np.asarray(observation["observation"], dtype=np.float32), mask, shares


def _samples(rows: list, returns: np.ndarray, game: GameCore) -> Samples:
    """The game's rows with each seat's outcome, seats counted from the row's own."""
    if not rows:
        actions = game.LAYOUT.total
        return Samples(
            np.zeros((0, game.SCHEMA.size), np.float32),
            np.zeros((0, actions), bool),
            np.zeros((0, actions), np.float32),
            np.zeros((0, game.num_players), np.float32),
        )
    outcomes = [np.roll(returns, -seat).astype(np.float32) for *_, seat in rows]
    return Samples(
        np.stack([row[0] for row in rows]),
        np.stack([row[1] for row in rows]),
        np.stack([row[2] for row in rows]),
        np.stack(outcomes),
    )
