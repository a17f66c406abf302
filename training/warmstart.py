"""Warm start: clone a scripted bot's play into the policy before self-play begins.

The bot plays every seat of seeded games through the pure core; each of its decisions is
kept with the observation, the mask and, once the game ends, that seat's return. The actor
learns the bot's choices (masked cross-entropy) and the critic the returns (squared error),
so PPO starts from the bot's level instead of from random play.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from tqdm import tqdm

import tabletop_envs
from agents.loading import make_agent


@dataclass
class Demonstrations:
    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray


def collect(
    game: str, players: int, options: dict, bot: str, decisions: int, seed: int
) -> Demonstrations:
    """At least ``decisions`` decisions of ``bot`` playing every seat of seeded games."""
    core = tabletop_envs.game_module(game).Game
    agents = [make_agent(bot, game, seed=seed + seat, players=players) for seat in range(players)]
    observations, masks, actions, returns = [], [], [], []
    index = 0
    with tqdm(total=decisions, desc=f"warm start: {bot} demonstrations", unit="dec") as bar:
        while len(actions) < decisions:
            state = core(players, seed=seed * 100_003 + index, **options)
            seats = []
            while not state.is_terminal:
                seat = state.current_player
                view = {"observation": state.observation(seat), "action_mask": state.legal_mask()}
                action = agents[seat].act(view, f"player_{seat}")
                observations.append(view["observation"])
                masks.append(view["action_mask"])
                actions.append(action)
                seats.append(seat)
                state.apply(action)
            final = state.returns()
            returns.extend(float(final[seat]) for seat in seats)
            bar.update(len(seats))
            index += 1
    return Demonstrations(
        np.stack(observations), np.stack(masks).astype(bool), np.array(actions), np.array(returns)
    )


def clone_into(policy, data: Demonstrations, epochs: int, batch_size: int, seed: int) -> float:
    """Fit the policy's actor to the actions and its critic to the returns; last accuracy."""
    generator = torch.Generator().manual_seed(seed)
    tensors = [
        torch.as_tensor(data.observations, dtype=torch.float32),
        torch.as_tensor(data.masks),
        torch.as_tensor(data.actions, dtype=torch.long),
        torch.as_tensor(data.returns, dtype=torch.float32),
    ]
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-3)
    accuracy = 0.0
    for _ in tqdm(range(epochs), desc="warm start: cloning", unit="epoch"):
        order = torch.randperm(len(tensors[2]), generator=generator)
        hits = 0
        for start in range(0, len(order), batch_size):
            obs, mask, action, target = (t[order[start : start + batch_size]] for t in tensors)
            latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(obs))
            logits = policy.action_net(latent_pi).masked_fill(~mask, -1e9)
            value = policy.value_net(latent_vf).squeeze(-1)
            loss = torch.nn.functional.cross_entropy(logits, action)
            loss = loss + 0.5 * torch.nn.functional.mse_loss(value, target)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            hits += int((logits.argmax(-1) == action).sum())
        accuracy = hits / len(order)
    return accuracy
