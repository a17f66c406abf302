"""Who sits in the other seats during self-play: frozen snapshots of the learner and bots.

Every opponent acts on a batch of observations at once (one torch forward pass per snapshot
for all environments waiting on it), so self-play pays no per-call policy overhead. Torch
rather than numpy: a multi-threaded BLAS thrashes on small batches on a busy 2-core machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import torch
from tabletop_envs.agents.base import RandomAgent
from tabletop_envs.agents.gym_env import BotOpponent, Opponent
from tabletop_envs.agents.heuristics import heuristic_agent
from tabletop_envs.agents.policy import PolicyNetwork, masked_choice
from tabletop_envs.training.config import TrainConfig


class SnapshotOpponent(Opponent):
    """A frozen copy of the learner, sampling from its masked softmax; forward pass in torch."""

    def __init__(self, network: PolicyNetwork, rng: np.random.Generator, label: str) -> None:
        self.rng = rng
        self.label = label
        self.network = network
        self.advised = bool(network.advice)
        self.layers = [
            (torch.from_numpy(weight.T.copy()), torch.from_numpy(bias))
            for weight, bias in zip(network.weights, network.biases, strict=True)
        ]
        self.activation = torch.tanh if network.activation == "tanh" else torch.relu

    @torch.no_grad()
    def logits(self, observations: Sequence[np.ndarray]) -> np.ndarray:
        hidden = torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32))
        for index, (weight, bias) in enumerate(self.layers):
            hidden = torch.addmm(bias, hidden, weight)
            if index < len(self.layers) - 1:
                hidden = self.activation(hidden)
        return hidden.numpy()

    def act(self, observations: Sequence[np.ndarray], masks: Sequence[np.ndarray]) -> np.ndarray:
        return masked_choice(self.logits(observations), masks, self.rng)


@dataclass
class OpponentPool:
    """Snapshots of the learner plus random and heuristic bots, drawn per seat per game.

    With probability ``random_share`` a seat gets the random bot, ``heuristic_share`` the
    heuristic bot (where the game has one); otherwise a snapshot: the newest with probability
    ``newest_prob``, else one drawn uniformly from the pool (at most ``max_snapshots`` kept).
    """

    game: str
    seed: int
    newest_prob: float = 0.5
    random_share: float = 0.1
    heuristic_share: float = 0.1
    max_snapshots: int = 20
    snapshots: list[SnapshotOpponent] = field(default_factory=list)
    subscribers: list[Callable[[PolicyNetwork, str], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.bots: list[tuple[float, Opponent]] = [
            (self.random_share, BotOpponent(RandomAgent(self.seed), "random"))
        ]
        try:
            heuristic = heuristic_agent(self.game, seed=self.seed)
        except ValueError:
            heuristic = None
        if heuristic is not None:
            self.bots.append((self.heuristic_share, BotOpponent(heuristic, "heuristic")))

    @classmethod
    def from_config(cls, game_name: str, config: TrainConfig, seed: int) -> OpponentPool:
        """A training run's pool, from its settings."""
        return cls(
            game=game_name,
            seed=seed,
            newest_prob=config.newest_prob,
            random_share=config.random_share,
            heuristic_share=config.heuristic_share,
            max_snapshots=config.max_snapshots,
        )

    def settings(self, seed: int) -> dict[str, object]:
        """This pool's settings with another seed: how a worker process builds its copy."""
        return {
            "game": self.game,
            "seed": seed,
            "newest_prob": self.newest_prob,
            "random_share": self.random_share,
            "heuristic_share": self.heuristic_share,
            "max_snapshots": self.max_snapshots,
        }

    def add_snapshot(self, network: PolicyNetwork, label: str) -> None:
        """Add a snapshot (dropping the oldest beyond ``max_snapshots``); tell the subscribers."""
        self.snapshots.append(SnapshotOpponent(network, self.rng, label))
        if len(self.snapshots) > self.max_snapshots:
            del self.snapshots[0]
        for subscriber in self.subscribers:
            subscriber(network, label)

    def draw(self) -> Opponent:
        roll = self.rng.random()
        for share, bot in self.bots:
            if roll < share or not self.snapshots:
                return bot
            roll -= share
        if self.rng.random() < self.newest_prob:
            return self.snapshots[-1]
        return self.snapshots[int(self.rng.integers(len(self.snapshots)))]
