"""Policy-value networks in numpy, for search guided by a network (``az:N``).

A :class:`PolicyValueNetwork` is a trained policy (:class:`PolicyNetwork`: a trunk of dense
layers and the policy's logits) with a value head branching off the trunk's last hidden
layer: dense layers, ``tanh`` last, one value in [-1, 1] per seat, seats relative to the
observer (row 0 the observer, 1 the next seat, as the games' observations count them). Its
file is a policy file with the value head's layers as extra ``value_weight_i`` and
``value_bias_i`` entries and ``value_layers`` in the header, so the network alone plays
through the ordinary policy path (``tabletop-eval ... --agents net.npz``) and older readers
simply ignore the value head. Only numbers and a JSON header are read, never pickles.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tabletop_envs.agents.policy import (
    ACTIVATIONS,
    PolicyFileError,
    PolicyNetwork,
    check_policy_fits,
    read_layers,
    read_policy,
    save_arrays,
)

VALUE_PREFIX = "value_"
"""Entry prefix of the value head's layers in the file."""


@dataclass
class PolicyValueNetwork:
    """A policy (trunk and logits) and a value head on the trunk's last hidden layer."""

    policy: PolicyNetwork
    value_weights: list[np.ndarray]
    value_biases: list[np.ndarray]

    def __post_init__(self) -> None:
        if len(self.policy.weights) < 2:
            raise ValueError("a policy-value network needs a hidden layer for its value head")
        if not self.value_weights or len(self.value_weights) != len(self.value_biases):
            raise ValueError("a value head needs at least one layer, each with a weight and bias")
        width = self.policy.weights[-2].shape[0]
        for weight, bias in zip(self.value_weights, self.value_biases, strict=True):
            if weight.ndim != 2 or bias.shape != (weight.shape[0],) or weight.shape[1] != width:
                raise ValueError(
                    f"value head layer of shape {weight.shape} does not take the {width} "
                    "values before it"
                )
            width = weight.shape[0]
        self._activate = ACTIVATIONS[self.policy.activation]
        self._trunk = list(zip(self.policy.weights[:-1], self.policy.biases[:-1], strict=True))
        self._head = (self.policy.weights[-1], self.policy.biases[-1])
        self._value = list(zip(self.value_weights, self.value_biases, strict=True))

    @property
    def seats(self) -> int:
        """How many seats the value head rates."""
        return int(self.value_weights[-1].shape[0])

    def evaluate(self, observation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits over every action and each seat's value (relative seats) for one
        observation (or a batch ``[n, observation_size]``)."""
        hidden = np.asarray(observation, dtype=np.float32)
        for weight, bias in self._trunk:
            hidden = self._activate(hidden @ weight.T + bias)
        logits = hidden @ self._head[0].T + self._head[1]
        value = hidden
        last = len(self._value) - 1
        for index, (weight, bias) in enumerate(self._value):
            value = value @ weight.T + bias
            value = np.tanh(value) if index == last else self._activate(value)
        return logits, value

    def save(self, path: Path) -> None:
        """Write the file atomically: the policy's entries, then the value head's."""
        self.policy.meta["value_layers"] = len(self.value_weights)
        arrays = self.policy.arrays()
        for index, (weight, bias) in enumerate(self._value):
            arrays[f"{VALUE_PREFIX}weight_{index}"] = weight.astype(np.float32)
            arrays[f"{VALUE_PREFIX}bias_{index}"] = bias.astype(np.float32)
        save_arrays(path, arrays)


def read_network(path: Path) -> PolicyValueNetwork:
    """The network stored at ``path``; :class:`PolicyFileError` for a missing, damaged or
    foreign file, or a policy file without a value head."""
    path = Path(path)
    policy = read_policy(path)
    count = policy.meta.get("value_layers")
    if count is None:
        raise PolicyFileError(
            path,
            "is a policy without a value head (no 'value_layers' in its header); an az "
            "bot needs a network written by the expert-iteration trainer",
        )
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise PolicyFileError(
            path, f"header 'value_layers' is {count!r}; expected a whole number >= 1"
        )
    weights, biases = read_layers(path, VALUE_PREFIX, count)
    try:
        return PolicyValueNetwork(policy, weights, biases)
    except ValueError as error:
        raise PolicyFileError(path, str(error)) from None


def load_network(path: Path, game_name: str, players: int | None = None) -> PolicyValueNetwork:
    """The network at ``path``, checked against environment ``game_name`` (and ``players``):
    ValueError naming each mismatch."""
    from tabletop_envs import game_module, resolve_name

    name = resolve_name(game_name)
    core = game_module(name).Game
    network = read_network(path)
    if network.policy.advice:
        raise PolicyFileError(path, "is an advised policy; an az bot reads plain observations")
    check_policy_fits(network.policy, name, players, (core.SCHEMA.size, core.LAYOUT.total), path)
    expected_seats = network.policy.meta.get("players")
    if network.seats != expected_seats:
        raise PolicyFileError(
            path,
            f"value head rates {network.seats} seats; its header says {expected_seats} players",
        )
    return network
