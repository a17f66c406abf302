"""A masked actor-critic RLModule for PPO whose actor exports as a
``tabletop_envs.agents.policy`` file.

The actor is the same stack as stable-baselines3's ``MlpPolicy`` actor (hidden ``Linear``
layers with the activation between them, then the logits), the critic a separate stack of
the same widths, so :func:`export_actor` writes the ``.npz`` that ``tabletop-eval`` and
``tabletop-play`` load. Illegal actions get the smallest float as their logit, so they are
never sampled and carry no probability in the loss.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.training.export import activation_module
from torch import nn

from tabletop_envs.adapters_rllib import ACTION_MASK, OBSERVATIONS

FLOAT_MIN = float(torch.finfo(torch.float32).min)


def mlp(sizes: list[int], activation: str) -> nn.Sequential:
    """Linear layers through ``sizes`` with the activation between them (none after the last)."""
    layers: list[nn.Module] = []
    for index, (width_in, width_out) in enumerate(itertools.pairwise(sizes)):
        layers.append(nn.Linear(width_in, width_out))
        if index < len(sizes) - 2:
            layers.append(activation_module(activation)())
    return nn.Sequential(*layers)


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """``model_config``: ``hiddens`` (layer widths) and ``activation`` (``relu`` or ``tanh``)."""

    def setup(self) -> None:
        hiddens = list(self.model_config["hiddens"])
        activation = self.model_config["activation"]
        observation_size = self.observation_space[OBSERVATIONS].shape[0]
        self.pi = mlp([observation_size, *hiddens, self.action_space.n], activation)
        self.vf = mlp([observation_size, *hiddens, 1], activation)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        observation = batch[Columns.OBS]
        logits = self.pi(observation[OBSERVATIONS])
        legal = observation[ACTION_MASK] > 0
        return {Columns.ACTION_DIST_INPUTS: logits.masked_fill(~legal, FLOAT_MIN)}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.vf(batch[Columns.OBS][OBSERVATIONS]).squeeze(-1)


def export_actor(module: MaskedActorCritic, activation: str, meta: dict[str, Any]) -> PolicyNetwork:
    """The module's actor as a numpy policy (the critic stays behind)."""
    layers = [layer for layer in module.pi if isinstance(layer, nn.Linear)]
    weights = [layer.weight.detach().cpu().numpy().astype(np.float32) for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().astype(np.float32) for layer in layers]
    return PolicyNetwork(weights, biases, activation, dict(meta))
