"""The policy-value network in torch, for fitting, and its export to the numpy file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from tabletop_envs.agents.az import PolicyValueNetwork
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.training.export import activation_module
from torch import nn


class PolicyValueModule(nn.Module):
    """Trunk of dense layers over the observation; policy logits over every action (the
    mask is applied to them, not fed in) and a ``tanh`` value per seat (relative seats)."""

    VALUE_HIDDEN = 64
    """The value head's hidden width unless one is given."""

    def __init__(
        self,
        observation_size: int,
        action_size: int,
        seats: int,
        hidden: Sequence[int] = (128, 128),
        value_hidden: int = VALUE_HIDDEN,
        activation: str = "relu",
    ) -> None:
        super().__init__()
        if not hidden:
            raise ValueError("a policy-value network needs at least one hidden layer")
        self.activation = activation
        act = activation_module(activation)
        layers: list[nn.Module] = []
        width = observation_size
        for size in hidden:
            layers += [nn.Linear(width, size), act()]
            width = size
        self.trunk = nn.Sequential(*layers)
        self.policy_head = nn.Linear(width, action_size)
        self.value_head = nn.Sequential(
            nn.Linear(width, value_hidden), act(), nn.Linear(value_hidden, seats), nn.Tanh()
        )

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = self.trunk(observations)
        return self.policy_head(hidden), self.value_head(hidden)

    def export(self, meta: dict[str, Any]) -> PolicyValueNetwork:
        """The numpy network with the same weights; ``meta`` goes into its header."""
        policy_layers = [m for m in self.trunk if isinstance(m, nn.Linear)] + [self.policy_head]
        value_layers = [m for m in self.value_head if isinstance(m, nn.Linear)]
        weights, biases = _arrays(policy_layers)
        value_weights, value_biases = _arrays(value_layers)
        policy = PolicyNetwork(weights, biases, self.activation, dict(meta))
        return PolicyValueNetwork(policy, value_weights, value_biases)


def _arrays(layers: list[nn.Linear]) -> tuple[list, list]:
    weights = [layer.weight.detach().cpu().float().numpy().copy() for layer in layers]
    biases = [layer.bias.detach().cpu().float().numpy().copy() for layer in layers]
    return weights, biases
