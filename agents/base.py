"""The interface every player implements, and the uniform random baseline."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from tabletop_envs.agents.search import InformationSet


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
