"""Fitting the policy-value network to search games: a validation split, early stop."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch
from tabletop_envs.agents.az import PolicyValueNetwork
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.training.config import setting, whole
from tabletop_envs.training.exit.network import PolicyValueModule
from tabletop_envs.training.exit.selfplay import Samples


@dataclass(frozen=True)
class FitSettings:
    """How the network is fitted each round."""

    epochs: int = setting(40, whole(1), "most fitting epochs per round (it stops early)")
    batch: int = 256
    learning_rate: float = 1e-3
    validation: float = 0.1
    """Share of the samples held out to decide when to stop."""
    patience: int = 4
    """Epochs without a better validation loss before stopping."""
    value_weight: float = 1.0


@dataclass
class FitReport:
    epochs: int
    best_epoch: int
    train_loss: float
    validation_loss: float
    policy_loss: float
    value_loss: float
    samples: int


def device() -> torch.device:
    """The GPU where there is one (fitting only; nothing depends on it), else the CPU."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def module_from_network(network: PolicyValueNetwork) -> PolicyValueModule:
    """A torch module holding ``network``'s weights (to fit on from where it stopped)."""
    module = _module_shaped_as(
        network.policy, network.seats, int(network.value_weights[0].shape[0])
    )
    linear = _linear_layers(module)
    if len(linear) != len(network.policy.weights) + len(network.value_weights):
        raise ValueError(
            f"the network has a {len(network.value_weights)}-layer value head; expected 2"
        )
    weights = [*network.policy.weights, *network.value_weights]
    biases = [*network.policy.biases, *network.value_biases]
    _copy_into(linear, weights, biases)
    return module


def module_from_policy(policy: PolicyNetwork, seats: int) -> PolicyValueModule:
    """A torch module whose trunk and policy head are ``policy``'s (a trained policy file to
    start expert iteration from); its value head starts untrained."""
    module = _module_shaped_as(policy, seats, PolicyValueModule.VALUE_HIDDEN)
    trunk_and_head = _linear_layers(module)[: len(policy.weights)]
    _copy_into(trunk_and_head, policy.weights, policy.biases)
    return module


def _module_shaped_as(policy: PolicyNetwork, seats: int, value_hidden: int) -> PolicyValueModule:
    return PolicyValueModule(
        policy.observation_size,
        policy.action_size,
        seats,
        hidden=hidden_widths(policy),
        value_hidden=value_hidden,
        activation=policy.activation,
    )


def hidden_widths(policy: PolicyNetwork) -> tuple[int, ...]:
    """The widths of ``policy``'s hidden layers."""
    return tuple(int(weight.shape[0]) for weight in policy.weights[:-1])


def _linear_layers(module: PolicyValueModule) -> list[torch.nn.Linear]:
    """The trunk's layers, the policy head, then the value head's layers."""
    linear = [m for m in module.trunk if isinstance(m, torch.nn.Linear)] + [module.policy_head]
    return linear + [m for m in module.value_head if isinstance(m, torch.nn.Linear)]


def _copy_into(layers: list[torch.nn.Linear], weights: list, biases: list) -> None:
    with torch.no_grad():
        for layer, weight, bias in zip(layers, weights, biases, strict=True):
            layer.weight.copy_(torch.from_numpy(weight))
            layer.bias.copy_(torch.from_numpy(bias))


def losses(
    module: PolicyValueModule, batch: tuple[torch.Tensor, ...], value_weight: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """Cross-entropy of the masked policy against the visit shares; squared value error."""
    observations, masks, visits, outcomes = batch
    logits, values = module(observations)
    logits = logits.masked_fill(~masks, -1e9)
    policy = -(visits * torch.log_softmax(logits, dim=-1)).sum(-1).mean()
    value = ((values - outcomes) ** 2).mean()
    return policy, value_weight * value


def fit(module: PolicyValueModule, samples: Samples, settings: FitSettings, seed: int) -> FitReport:
    """Fit ``module`` in place; it ends with the weights of its best validation epoch."""
    if len(samples) < 10:
        raise ValueError(f"{len(samples)} samples are too few to fit and validate on")
    torch.manual_seed(seed)
    where = device()
    module.to(where)
    order = np.random.default_rng(seed).permutation(len(samples))
    held = max(1, int(len(samples) * settings.validation))
    tensors = [
        torch.as_tensor(getattr(samples, field)).to(where)
        for field in ("observations", "masks", "visits", "outcomes")
    ]
    validation = tuple(t[torch.as_tensor(order[:held], device=where)] for t in tensors)
    training = order[held:]
    optimiser = torch.optim.Adam(module.parameters(), lr=settings.learning_rate)
    best = (_validation_loss(module, validation, settings), 0, copy.deepcopy(module.state_dict()))
    epoch, train_loss = 0, float("nan")
    for epoch in range(1, settings.epochs + 1):
        train_loss = _epoch(module, optimiser, tensors, training, settings, seed + epoch)
        loss = _validation_loss(module, validation, settings)
        if loss < best[0]:
            best = (loss, epoch, copy.deepcopy(module.state_dict()))
        elif epoch - best[1] >= settings.patience:
            break
    module.load_state_dict(best[2])
    with torch.no_grad():
        policy, value = losses(module, validation, settings.value_weight)
    module.cpu()
    return FitReport(epoch, best[1], train_loss, best[0], float(policy), float(value), len(samples))


def _epoch(module, optimiser, tensors, rows: np.ndarray, settings: FitSettings, seed: int) -> float:
    module.train()
    shuffled = np.random.default_rng(seed).permutation(rows)
    total, count = 0.0, 0
    for start in range(0, len(shuffled), settings.batch):
        index = torch.as_tensor(shuffled[start : start + settings.batch], device=tensors[0].device)
        policy, value = losses(module, tuple(t[index] for t in tensors), settings.value_weight)
        loss = policy + value
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        total, count = total + loss.item() * len(index), count + len(index)
    return total / max(count, 1)


def _validation_loss(module, validation, settings: FitSettings) -> float:
    module.eval()
    with torch.no_grad():
        policy, value = losses(module, validation, settings.value_weight)
    return float(policy + value)
