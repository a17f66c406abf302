"""The interface every player implements, what a planning bot sees of the game (an
information set) and what a game's guide tells a search, and the uniform random baseline."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from typing import Protocol

import numpy as np

from tabletop_envs.core.game import GameCore
from tabletop_envs.core.rng import make_rng


class SearchGuide(Protocol):
    """A game's advice to a search bot: which decisions are worth a search (the heuristic bot
    answers the others), where rollouts stop, and what the stopping position is worth."""

    def searches(self, observation: np.ndarray) -> bool:
        """Whether the decision this observation poses (to its own seat) is searched."""
        ...

    def stage(self, game: GameCore) -> Hashable:
        """The stage of play; rollouts stop when it differs from the searched decision's (a
        guide with a ``stages`` attribute above 1 numbers its stages, and rollouts stop that
        many stages on)."""
        ...

    def value(self, game: GameCore) -> np.ndarray:
        """Every seat's value of a position where a rollout stopped."""
        ...


class InformationSet:
    """One seat's access to a game in progress: its legal actions, and sampled worlds."""

    def __init__(self, game: GameCore, seat: int) -> None:
        self._game = game
        self.seat = seat

    def legal_actions(self) -> list[int]:
        """The seat's own legal actions (its action mask shows them)."""
        return self._game.legal_actions()

    def sample(self, rng: np.random.Generator) -> GameCore:
        """A world consistent with the seat's view, with a reseeded generator."""
        world = self._game.resample_hidden(self.seat, rng)
        world.rng = make_rng(int(rng.integers(2**63)))
        return world


class Agent(ABC):
    """Anything that plays: sees one seat's observation dict, returns a legal action."""

    name: str = "agent"

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` makes any randomness reproducible."""

    def see(self, information: InformationSet) -> None:
        """Before each move, the seat's information set (worlds consistent with its view),
        for bots that plan on the game (search); the others ignore it."""

    @abstractmethod
    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        """A legal action for ``agent`` given its observation (with ``action_mask``)."""


class SeededAgent(Agent):
    """An agent whose randomness comes from one generator, reseeded by ``reset(seed)``."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)


class RandomAgent(SeededAgent):
    """Uniform over the legal actions, seeded."""

    name = "random"

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if legal.size == 0:
            raise ValueError(f"{agent} has no legal action to choose from")
        return int(self.rng.choice(legal))
