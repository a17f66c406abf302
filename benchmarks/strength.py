"""Every bot's strength in one table: each game and player count, the same opponents and deals.

    python -m benchmarks.strength [--games 40] [--seed 0] [--workers 2] [--only vaalbara]

For every registered game at every player count it takes, each subject (``random``,
``heuristic``, the game's cheap search spec below and, where one ships, ``pretrained``) plays
a ``tabletop-eval`` tournament: in a competitive game one seat against the heuristic bot in
every other seat, then against random play; in a cooperative game a team of the subject. Every
row plays the same deals (game ``i`` dealt from ``(seed, i)``, seats rotated every game), so
rows compare on equal terms. The table, with the commit and the machine's load, replaces the
``strength`` section of benchmarks/RESULTS.md (``--no-write``: print it only). The default,
40 games a row, takes about 850 CPU-seconds: 7-8 minutes on 2 quiet CPUs.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletop_envs.agents.arena import play_games
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.tools.evaluate import check_match
from tabletop_envs.tools.report import summarise

from benchmarks.results_page import RESULTS_MD, RunLoad, measured_at, publish
from tabletop_envs import GAMES, game_module, resolve_name
from tabletop_envs.cli import (
    OneLineParser,
    UsageError,
    add_workers_flags,
    check_workers,
    cpu_count,
    fail,
    positive_int,
    seed_int,
)

PROG = "python -m benchmarks.strength"
SECTION = "strength"
OPPONENTS = ("heuristic", "random")
SEARCH_SPECS = {
    "vaalbara": "ismcts:100,c=1.4",
    "valiant_wars": "ismcts:50,depth=20",
    "valenor": "ismcts:4,rollout=heuristic,depth=10",
    "spirit_island": "ismcts:20,depth=10",
}
"""A cheap search spec per game (by the game's NAME): strength at a fraction of a second a
move, not the strongest settings (docs/agents.md has those)."""


@dataclass(frozen=True)
class Row:
    """One tournament: ``subject`` in seat 0 against ``opponent`` in the others, or, with no
    opponent (a cooperative game), a whole team of ``subject``."""

    env: str
    players: int
    subject: str
    opponent: str | None

    @property
    def lineup(self) -> tuple[str, ...]:
        if self.opponent is None:
            return (self.subject,) * self.players
        return (self.subject,) + (self.opponent,) * (self.players - 1)


def available(spec: str, env: str, players: int) -> bool:
    """Whether ``spec`` has a bot or policy for this game and player count."""
    try:
        agent_factory(spec, env, players)
    except ValueError:
        return False
    return True


def subjects(env: str, players: int) -> list[str]:
    """random, heuristic, the game's search spec and pretrained: those this game has."""
    search = SEARCH_SPECS.get(game_module(env).Game.NAME, "")
    candidates = ("random", "heuristic", search, "pretrained")
    return [spec for spec in candidates if spec and available(spec, env, players)]


def table_rows(envs: Sequence[str]) -> list[Row]:
    """Every row of the table for these environments, at every player count they take."""
    rows = []
    for env in envs:
        game = game_module(env).Game
        for players in range(game.MIN_PLAYERS, game.MAX_PLAYERS + 1):
            opponents: Sequence[str | None] = (None,)
            if not game.COOPERATIVE:
                opponents = [spec for spec in OPPONENTS if available(spec, env, players)]
            rows += [
                Row(env, players, subject, opponent)
                for opponent in opponents
                for subject in subjects(env, players)
                if subject != opponent
            ]
    return rows


def play_row(row: Row, games: int, seed: int, workers: int) -> dict[str, Any]:
    """One row's tournament through the evaluation harness: its summary and wall time."""
    match = check_match(row.env, row.lineup, row.players, seed)
    start = time.perf_counter()
    records = play_games(match, games, workers)
    seconds = time.perf_counter() - start
    summary = summarise(match, records, bool(game_module(row.env).Game.COOPERATIVE))
    stats = summary["team"] if summary["cooperative"] else summary["agents"][0]
    return {"row": row, "stats": stats, "games": len(records), "seconds": seconds}


def against(row: Row) -> str:
    if row.opponent is None:
        return "(team game)"
    others = row.players - 1
    return row.opponent if others == 1 else f"{others} × {row.opponent}"


def margin_or_progress(stats: dict[str, Any]) -> str:
    """The subject's mean score margin (competitive games) or the team's mean progress."""
    if stats.get("mean_margin") is not None:
        return f"{stats['mean_margin']:+.1f}"
    if stats.get("mean_progress") is not None:
        return f"{stats['mean_progress']:.3f}"
    return "-"


def markdown(results: Sequence[dict[str, Any]], provenance: str, games: int, seed: int) -> str:
    """The section: how it was measured, then one line per row in the order played."""
    lines = [
        provenance,
        "",
        f"{games} games a row, master seed {seed}: every row plays the same deals. A seat's "
        "par is 1 / players; a cooperative row is a whole team of the subject. Margin: the "
        "subject's mean score minus the best other score; progress: the team's mean share "
        "of the way to a win.",
        "",
        "| game | players | subject | against | wins | win rate | 95 % interval "
        "| margin or progress | s / game |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for result in results:
        row, stats = result["row"], result["stats"]
        lines.append(
            f"| {row.env} | {row.players} | `{row.subject}` | {against(row)} "
            f"| {stats['wins']:g} / {result['games']} | {stats['win_rate']:.3f} "
            f"| [{stats['win_low']:.3f}, {stats['win_high']:.3f}] "
            f"| {margin_or_progress(stats)} | {result['seconds'] / result['games']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=positive_int, default=40, help="games per row")
    parser.add_argument("--seed", type=seed_int, default=0, help="master seed, from 0")
    add_workers_flags(parser, min(2, cpu_count()), "processes per row")
    parser.add_argument(
        "--only", nargs="+", metavar="GAME", help=f"only these games (default: all of {GAMES})"
    )
    parser.add_argument(
        "--no-write",
        action="store_true",
        help=f"print the table only; RESULTS.md's {SECTION!r} section stays as it is",
    )
    return parser


def chosen_envs(names: Sequence[str] | None) -> list[str]:
    """The environments named (resolved to their latest version), or every registered one."""
    if not names:
        return sorted(GAMES)
    try:
        return sorted({resolve_name(name) for name in names})
    except ValueError as error:
        raise UsageError(str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        rows = table_rows(chosen_envs(args.only))
        check_workers(args)
    except UsageError as error:
        return fail(PROG, str(error))
    start = RunLoad.now()
    results = []
    for number, row in enumerate(rows, 1):
        results.append(play_row(row, args.games, args.seed, args.workers))
        print(
            f"[{number}/{len(rows)}] {row.env} {' '.join(row.lineup)}: "
            f"{results[-1]['stats']['wins']:g} of {args.games} won, "
            f"{results[-1]['seconds']:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    command = " ".join([PROG, *(sys.argv[1:] if argv is None else argv)])
    provenance = measured_at(command, start)
    text = markdown(results, provenance, args.games, args.seed)
    publish(SECTION, text, RESULTS_MD, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
