"""Evaluate a saved policy against the baseline bots through the tournament runner."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agents.arena import MatchSpec, play_games
from agents.stats import wilson_interval


@dataclass(frozen=True)
class EvalResult:
    opponent: str
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    mean_return: float


def evaluate_policy(
    policy: Path, game: str, players: int, opponent: str, games: int, seed: int, workers: int = 1
) -> EvalResult:
    """Win rate of ``policy`` in one seat against ``opponent`` in every other, seats rotated."""
    match = MatchSpec(game, (str(policy),) + (opponent,) * (players - 1), seed)
    records = play_games(match, games, workers)
    wins = 0.0
    total_return = 0.0
    for record in records:
        seat = record.lineup.index(0)
        if seat in record.winners:
            wins += 1.0 / len(record.winners)
        total_return += record.returns[seat]
    low, high = wilson_interval(wins, games)
    return EvalResult(opponent, games, wins, wins / games, low, high, total_return / games)
