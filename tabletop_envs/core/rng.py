"""Seeded numpy generators that survive cloning and JSON round trips."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np


def make_rng(seed: int | None) -> np.random.Generator:
    """A PCG64 generator; ``None`` draws fresh entropy."""
    return np.random.Generator(np.random.PCG64(seed))


def rng_state(rng: np.random.Generator) -> dict[str, Any]:
    """The generator's full state as JSON-ready data."""
    return copy.deepcopy(rng.bit_generator.state)


_SEED = np.random.SeedSequence(0)
"""Seeds the bit generator a copy or a restored generator starts from (faster than fresh OS
entropy); the given state then replaces it whole."""


def rng_from_state(state: dict[str, Any]) -> np.random.Generator:
    """A generator restored from :func:`rng_state` output."""
    if not isinstance(state, dict) or state.get("bit_generator") != "PCG64":
        raise ValueError("saved RNG state is not a PCG64 state")
    bit_generator = np.random.PCG64(_SEED)
    bit_generator.state = state
    return np.random.Generator(bit_generator)


def clone_rng(rng: np.random.Generator) -> np.random.Generator:
    """An independent PCG64 generator in ``rng``'s exact state (the same future draws)."""
    bit_generator = np.random.PCG64(_SEED)
    bit_generator.state = rng.bit_generator.state
    return np.random.Generator(bit_generator)
