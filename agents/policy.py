"""Trained policies as bots: a small numpy MLP read from a self-describing ``.npz`` file.

Training (``training/``) exports the actor of a MaskablePPO policy into this format, so
playing a trained agent needs numpy only. The file records the environment, package
version, player count and observation and action sizes; loading checks each against the game
it is asked to play and says clearly what does not match.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import SeededAgent

FORMAT = "tabletop-envs-policy"
FORMAT_VERSION = 1
ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


@dataclass
class PolicyNetwork:
    """Dense layers ``(weight[out, in], bias[out])``, activation between them, logits last."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    activation: str
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"activation {self.activation!r} unknown; expected one of {sorted(ACTIVATIONS)}"
            )
        for weight, bias in zip(self.weights, self.biases, strict=True):
            if weight.ndim != 2 or bias.shape != (weight.shape[0],):
                raise ValueError("policy layers have inconsistent shapes")
        for before, after in zip(self.weights, self.weights[1:], strict=False):
            if after.shape[1] != before.shape[0]:
                raise ValueError("policy layers do not chain")

    @property
    def observation_size(self) -> int:
        return int(self.weights[0].shape[1])

    @property
    def action_size(self) -> int:
        return int(self.weights[-1].shape[0])

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Logits for a batch ``[n, observation_size]`` (or one observation)."""
        hidden = np.asarray(observations, dtype=np.float32)
        activate = ACTIVATIONS[self.activation]
        last = len(self.weights) - 1
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            hidden = hidden @ weight.T + bias
            if index < last:
                hidden = activate(hidden)
        return hidden

    def choose(
        self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator | None
    ) -> np.ndarray:
        """Masked actions for a batch: argmax without ``rng``, else sampled from the softmax."""
        return masked_choice(self.logits(observations), masks, rng)

    def save(self, path: Path) -> None:
        """Write the file atomically (a temporary file, then a rename)."""
        arrays = {"meta": np.array(json.dumps(self.describe()))}
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"weight_{index}"] = weight.astype(np.float32)
            arrays[f"bias_{index}"] = bias.astype(np.float32)
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".npz.tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                np.savez(stream, **arrays)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def describe(self) -> dict[str, Any]:
        return {
            **self.meta,
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "activation": self.activation,
            "observation_size": self.observation_size,
            "action_size": self.action_size,
            "layers": len(self.weights),
        }


def masked_choice(
    logits: np.ndarray, masks: np.ndarray, rng: np.random.Generator | None
) -> np.ndarray:
    """Per row, the best legal action (``rng=None``) or one sampled from the masked softmax."""
    logits = np.where(np.asarray(masks, dtype=bool), logits, -np.inf)
    if rng is None:
        return logits.argmax(axis=-1)
    logits = logits - logits.max(axis=-1, keepdims=True)
    probabilities = np.exp(logits)
    probabilities /= probabilities.sum(axis=-1, keepdims=True)
    cumulative = probabilities.cumsum(axis=-1)
    draws = rng.random((*cumulative.shape[:-1], 1))
    return np.minimum((cumulative < draws).sum(axis=-1), logits.shape[-1] - 1)


def read_policy(path: Path) -> PolicyNetwork:
    """Read a policy file; a missing, corrupt or foreign file raises ValueError."""
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError("it is not a tabletop-envs policy file")
            count = int(meta["layers"])
            weights = [np.array(data[f"weight_{i}"], dtype=np.float32) for i in range(count)]
            biases = [np.array(data[f"bias_{i}"], dtype=np.float32) for i in range(count)]
    except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError, TypeError) as error:
        raise ValueError(f"cannot read policy file {path}: {error}") from None
    except ValueError as error:
        raise ValueError(f"cannot read policy file {path}: {error}") from None
    if meta.get("format_version") != FORMAT_VERSION:
        raise ValueError(
            f"policy file {path} has format version {meta.get('format_version')!r}; "
            f"this package reads version {FORMAT_VERSION}"
        )
    return PolicyNetwork(weights, biases, meta["activation"], meta)


def check_policy_fits(
    network: PolicyNetwork, game: str, players: int | None, sizes: tuple[int, int], path: Path
) -> None:
    """Raise ValueError naming each mismatch between the file and the game to play."""
    meta = network.meta
    expected = {"game": game, "observation_size": sizes[0], "action_size": sizes[1]}
    if players is not None:
        expected["players"] = players
    wrong = [
        f"{key} {meta.get(key)!r} (expected {value!r})"
        for key, value in expected.items()
        if meta.get(key) != value
    ]
    if wrong:
        raise ValueError(f"policy file {path} does not fit: " + ", ".join(wrong))


class PolicyAgent(SeededAgent):
    """Plays a trained policy: argmax over legal actions, or sampled when ``sample=True``."""

    name = "policy"

    def __init__(
        self, network: PolicyNetwork, seed: int | None = None, sample: bool = False
    ) -> None:
        super().__init__(seed)
        self.network = network
        self.sample = sample

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        mask = observation["action_mask"]
        if not mask.any():
            raise ValueError(f"{agent} has no legal action to choose from")
        rng = self.rng if self.sample else None
        return int(self.network.choose(observation["observation"][None], mask[None], rng)[0])


def load_policy(
    path: Path, game: str, seed: int | None = None, players: int | None = None
) -> PolicyAgent:
    """The agent stored at ``path``, checked against environment ``game``."""
    from tabletop_envs import game_module, resolve_name

    name = resolve_name(game)
    core = game_module(name).Game
    network = read_policy(path)
    check_policy_fits(network, name, players, (core.SCHEMA.size, core.LAYOUT.total), path)
    return PolicyAgent(network, seed=seed)
