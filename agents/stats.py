"""Interval estimates for tournament results."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (``(0, 1)`` without trials).

    ``successes`` may be fractional (a shared win counts ``1/k`` for each of ``k`` winners).
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # The interval always holds p; clamping also absorbs rounding at p = 0 or 1.
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def sign_test(wins_a: int, wins_b: int) -> float:
    """The exact two-sided p-value that two sides are even, given ``wins_a`` and ``wins_b``
    wins among the pairs only one side won (McNemar's exact test for paired games)."""
    if wins_a < 0 or wins_b < 0:
        raise ValueError(f"need non-negative counts, got {wins_a} and {wins_b}")
    pairs = wins_a + wins_b
    tail = sum(math.comb(pairs, i) for i in range(min(wins_a, wins_b) + 1)) / 2**pairs
    return min(1.0, 2 * tail)
