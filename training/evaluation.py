"""Evaluate a saved policy through the tournament runner (``tabletop_envs.agents.arena``).

Competitive games: the policy holds one seat, the baseline every other, seats rotated.
Cooperative games: a team of the policy in every seat, reported beside the baseline teams.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from tabletop_envs.agents.arena import MatchSpec, play_games
from tabletop_envs.agents.heuristics import HEURISTIC_BOTS
from tabletop_envs.agents.stats import wilson_interval

import tabletop_envs

BASELINES = ("random", "heuristic")
TRAINED = "trained policy"


@dataclass(frozen=True)
class EvalResult:
    """``label`` is the opponent (competitive) or the team evaluated (cooperative)."""

    label: str
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    mean_return: float

    def to_dict(self) -> dict:
        return asdict(self)


def baselines(game_name: str) -> list[str]:
    """The baseline bots this game has."""
    return [name for name in BASELINES if name != "heuristic" or game_name in HEURISTIC_BOTS]


def is_cooperative(game_name: str) -> bool:
    return tabletop_envs.game_module(game_name).Game.COOPERATIVE


def _result(label: str, wins: float, returns: float, games: int) -> EvalResult:
    low, high = wilson_interval(wins, games)
    return EvalResult(label, games, wins, wins / games, low, high, returns / games)


def versus(
    policy: Path,
    game_name: str,
    players: int,
    opponent: str,
    games: int,
    seed: int,
    workers: int = 1,
) -> EvalResult:
    """The policy in one seat against ``opponent`` in every other, seats rotated."""
    match = MatchSpec(game_name, (str(policy),) + (opponent,) * (players - 1), seed)
    wins = returns = 0.0
    for record in play_games(match, games, workers):
        seat = record.lineup.index(0)
        if seat in record.winners:
            wins += 1.0 / len(record.winners)
        returns += record.returns[seat]
    return _result(opponent, wins, returns, games)


def team_label(member: str, players: int) -> str:
    """A cooperative team by its makeup, e.g. ``3 × heuristic``."""
    return f"{players} × {member}"


def team(
    spec: str,
    game_name: str,
    players: int,
    games: int,
    seed: int,
    workers: int = 1,
    member: str = "",
) -> EvalResult:
    """A cooperative team of ``spec`` in every seat: its win rate."""
    match = MatchSpec(game_name, (spec,) * players, seed)
    records = play_games(match, games, workers)
    wins = sum(1.0 for record in records if record.winners)
    returns = sum(record.returns[0] for record in records)
    return _result(team_label(member or spec, players), wins, returns, games)


def evaluate(
    policy: Path, game_name: str, players: int, games: int, seed: int, workers: int = 1
) -> list[EvalResult]:
    """The policy against each baseline (competitive), or its team beside theirs (cooperative)."""
    if is_cooperative(game_name):
        results = [team(str(policy), game_name, players, games, seed, workers, TRAINED)]
        return results + [
            team(name, game_name, players, games, seed, workers) for name in baselines(game_name)
        ]
    return [
        versus(policy, game_name, players, name, games, seed, workers)
        for name in baselines(game_name)
    ]


def headline(results: list[EvalResult], game_name: str) -> EvalResult:
    """The result that ranks policies: the trained team's (cooperative), else the win rate
    against the strongest baseline (the heuristic bot where the game has one)."""
    return results[0] if is_cooperative(game_name) else results[-1]
