"""A check for CI: has any game got slower against ``connect_four_v3`` than RESULTS.md records?

Plays seeded random legal games through ``env()`` for ``connect_four_v3`` and every registered
game at every player count, ``--repeats`` times round-robin, the reference again after each
game, and takes each game's ratio to the mean of the reference's runs on either side of it.
A game fails when the median of its ratios lies below its ``x C4`` in the throughput section
of benchmarks/RESULTS.md (what ``make bench`` last wrote) by more than its noise margin: the
largest spread (largest less smallest over the median) of any game's ratios in this run (three
ratios of one game say little of the noise; the whole run's say more), and never less than
``--min-margin``. A game with no recorded row (a new
version) fails too: rerun ``make bench``. Exit status 0: all pass; 1: a game failed; 2: bad
input. Nothing is written.

    python -m benchmarks.speed_check [--quick] [--games vaalbara]
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks import throughput
from benchmarks.bench import throughput_ratios
from benchmarks.results_page import RESULTS_MD
from tabletop_envs.cli import OneLineParser, positive_int

PROG = "python -m benchmarks.speed_check"
QUICK = {"repeats": 3, "seconds": 0.2}


@dataclass(frozen=True)
class Verdict:
    """One game at one player count: recorded and measured ratio, the margin, pass or fail."""

    game: str
    players: int
    recorded: float | None
    measured: float
    margin: float

    @property
    def floor(self) -> float | None:
        return None if self.recorded is None else self.recorded * (1 - self.margin)

    @property
    def passed(self) -> bool:
        return self.floor is not None and self.measured >= self.floor

    def line(self) -> str:
        if self.recorded is None:
            return (
                f"FAIL {self.game} {self.players}p: {self.measured:.2f}x, no recorded ratio "
                f"in {RESULTS_MD.name} (run make bench)"
            )
        verdict = "ok  " if self.passed else "FAIL"
        return (
            f"{verdict} {self.game} {self.players}p: {self.measured:.2f}x, recorded "
            f"{self.recorded:.2f}x, margin {self.margin:.0%} (floor {self.floor:.2f}x)"
        )


def env_ratios(
    targets: list[throughput.Target], repeats: int, budget: throughput.MeasurementBudget
) -> dict[str, list[float]]:
    """Each target's env() steps/s over the reference's (``targets[0]``), once per repetition,
    bracketed as in ``make bench`` (``throughput.bracketed_env_runs``): the reference runs
    before the first game and again after each, and a game's ratio is to the mean of the two
    runs around it, so both sides of a ratio see the same load."""
    reference, games = targets[0], targets[1:]
    ratios: dict[str, list[float]] = {target.label: [] for target in targets}
    for repeat in range(repeats):
        status = f"repetition {repeat + 1}/{repeats}: "
        bracket = throughput.bracketed_env_runs(reference, games, budget, 1000 * repeat, status)
        for target, _, ratio in bracket.games:
            ratios[target.label].append(ratio)
        ratios[reference.label].append(1.0)
    throughput.progress("")
    return ratios


def check(
    games: Sequence[str] | None, repeats: int, seconds: float, min_margin: float
) -> list[Verdict]:
    """Measure every game's ratios and judge each against its recorded one."""
    targets = [
        t
        for t in throughput.choose_targets(games)
        if t.game_class or t.name == throughput.REFERENCE
    ]
    if targets[0].name != throughput.REFERENCE:
        raise AssertionError("the reference is measured first")
    recorded = throughput_ratios()
    ratios = env_ratios(targets, repeats, throughput.MeasurementBudget(seconds))
    games = [(target, ratios[target.label]) for target in targets[1:]]
    margin = max([min_margin, *(spread(values) for _, values in games)])
    return [
        Verdict(
            target.name,
            target.players,
            recorded.get(target.name, {}).get(target.players),
            statistics.median(values),
            margin,
        )
        for target, values in games
    ]


def spread(values: Sequence[float]) -> float:
    """How far apart one game's ratios lie: largest less smallest, over their median."""
    return (max(values) - min(values)) / statistics.median(values)


def fraction(text: str) -> float:
    value = float(text)
    if not 0 <= value < 1:
        raise ValueError(f"{value} is not a fraction in [0, 1)")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", help="only these games (default: all)")
    parser.add_argument("--repeats", type=positive_int, default=5, help="repetitions")
    parser.add_argument(
        "--seconds", type=throughput.positive_seconds, default=0.5, help="CPU-seconds a figure"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK['repeats']} repetitions of {QUICK['seconds']} s",
    )
    parser.add_argument(
        "--min-margin", type=fraction, default=0.05, help="the smallest margin (default 0.05)"
    )
    args = parser.parse_args(argv)
    repeats, seconds = (
        (QUICK["repeats"], QUICK["seconds"])
        if args.quick
        else (
            args.repeats,
            args.seconds,
        )
    )
    try:
        verdicts = check(args.games, int(repeats), float(seconds), args.min_margin)
    except ValueError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    for verdict in verdicts:
        print(verdict.line())
    failed = [v for v in verdicts if not v.passed]
    print(f"{len(verdicts) - len(failed)} of {len(verdicts)} at or above their recorded ratio")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
