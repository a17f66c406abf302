"""Terminal returns shared by the competitive games."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

REWARD_MODES = ("win", "score")


def win_returns(num_players: int, winners: Sequence[int]) -> np.ndarray:
    """+1 split among the winners, -1 to everyone else."""
    returns = np.full(num_players, -1.0)
    if winners:
        returns[list(winners)] = 1.0 / len(winners)
    return returns


def score_margin_returns(scores: Sequence[float]) -> np.ndarray:
    """Each player's margin over the best other score, relative to the two: in [-1, 1].

    ``(mine - best_other) / (|mine| + |best_other|)``: a 20-point win is worth more in a
    60-40 game than in a 200-180 one, and the sign always agrees with the outcome.
    """
    values = np.asarray(scores, dtype=np.float64)
    margins = np.empty_like(values)
    for player in range(len(values)):
        best_other = np.delete(values, player).max()
        scale = max(abs(values[player]) + abs(best_other), 1.0)
        margins[player] = (values[player] - best_other) / scale
    return np.clip(margins, -1.0, 1.0)


def competitive_returns(mode: str, scores: Sequence[float], winners: Sequence[int]) -> np.ndarray:
    """Returns for ``reward=mode``: ``win`` or ``score``."""
    if mode == "win":
        return win_returns(len(scores), winners)
    if mode == "score":
        return score_margin_returns(scores)
    raise ValueError(f"unknown reward mode {mode!r}; expected one of {REWARD_MODES}")
