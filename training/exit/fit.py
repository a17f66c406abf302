"""Fitting the policy-value network to search games: a validation split, early stop."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import torch
from tabletop_envs.agents.az import PolicyValueNetwork
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
    policy = network.policy
    hidden = [int(weight.shape[0]) for weight in policy.weights[:-1]]
    module = PolicyValueModule(
        policy.observation_size,
        policy.action_size,
        network.seats,
        hidden=hidden,
        value_hidden=int(network.value_weights[0].shape[0]),
        activation=policy.activation,
    )
    linear = [m for m in module.trunk if isinstance(m, torch.nn.Linear)] + [module.policy_head]
    linear += [m for m in module.value_head if isinstance(m, torch.nn.Linear)]
    weights = [*policy.weights, *network.value_weights]
    biases = [*policy.biases, *network.value_biases]
    if len(linear) != len(weights):
        raise ValueError(
            f"the network has a {len(network.value_weights)}-layer value head; expected 2"
        )
    with torch.no_grad():
        for layer, weight, bias in zip(linear, weights, biases, strict=True):
            layer.weight.copy_(torch.from_numpy(weight))
            layer.bias.copy_(torch.from_numpy(bias))
    return module


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
