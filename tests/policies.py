"""A policy file with random weights for tests that need one (numpy only, one layer)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from tabletop_envs.agents.policy import PolicyNetwork

import tabletop_envs


def random_policy(path: Path, env: str = "vaalbara_v1", players: int = 2) -> Path:
    """Write a random one-layer policy for ``env`` at ``players`` to ``path``."""
    core = tabletop_envs.game_module(env).Game
    rng = np.random.default_rng(0)
    weight = rng.normal(size=(core.LAYOUT.total, core.SCHEMA.size)).astype(np.float32)
    bias = np.zeros(core.LAYOUT.total, dtype=np.float32)
    PolicyNetwork([weight], [bias], "relu", {"game": env, "players": players}).save(path)
    return path
