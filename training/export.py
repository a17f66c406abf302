"""Export the actor of a MaskablePPO policy as an ``tabletop_envs.agents.policy.PolicyNetwork``."""

from __future__ import annotations

from typing import Any

import numpy as np
from tabletop_envs.agents.policy import PolicyNetwork
from torch import nn

ACTIVATION_MODULES = {"tanh": nn.Tanh, "relu": nn.ReLU}


def activation_module(name: str) -> type[nn.Module]:
    try:
        return ACTIVATION_MODULES[name]
    except KeyError:
        raise ValueError(
            f"activation {name!r} unknown; expected one of {sorted(ACTIVATION_MODULES)}"
        ) from None


def export_actor(policy: Any, activation: str, meta: dict[str, Any]) -> PolicyNetwork:
    """The actor's dense layers (shared extractor, policy branch, action head) as numpy."""
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    layers.append(policy.action_net)
    weights = [layer.weight.detach().cpu().numpy().astype(np.float32) for layer in layers]
    biases = [layer.bias.detach().cpu().numpy().astype(np.float32) for layer in layers]
    return PolicyNetwork(weights, biases, activation, dict(meta))
