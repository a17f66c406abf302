"""The search bots' strength table: each search spec against the baselines, with its time.

    python -m experiments.search_strength vaalbara --players 2 \
        --specs ismcts:200,c=1.4 ismcts:600,c=1.4 --games 40 --out /tmp/strength/vaalbara-2p

In a competitive game every spec plays one seat against ``--opponents`` (default: the
heuristic bot, then the shipped pretrained policy) in the other seats; in a cooperative game
a team of the spec plays, and each opponent spec's own team is a row beside it. A baseline
without a bot or policy for this game and player count is named and left out. Each row is a
``tabletop-eval`` tournament (seats rotated, game ``i`` dealt from ``(seed, i)``, so every row
plays the same deals) run in a process of its own, ``--jobs`` at a time, with the search
bot's mean wall-clock time per searched move (two legal actions or more). The machine load is
printed first and last: times mean little without it. Ends with a Markdown table; writes
``strength.json`` (every row's summary and each game's outcome, for paired comparisons of
rows played on the same deals) to ``--out``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tabletop_envs.agents.arena import MatchSpec, play_games
from tabletop_envs.agents.files import write_all_atomic
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.tools.report import summarise

from benchmarks.search_speed import search_clock
from tabletop_envs import game_module, resolve_name
from tabletop_envs.cli import OneLineParser, fail, positive_int, seed_int

PROG = "python -m experiments.search_strength"


@dataclass(frozen=True)
class Row:
    """One tournament of the table: the line-up and what it measures."""

    game: str
    lineup: tuple[str, ...]
    subject: str
    """The spec whose results the row reports (the search spec, or a baseline team's)."""
    opponent: str
    """What the subject plays against: an opponent spec, or ``team`` in a cooperative game."""


def lineups(
    game_name: str, players: int, specs: Sequence[str], opponents: Sequence[str]
) -> tuple[list[Row], list[str]]:
    """The rows to play, and a note for each opponent left out (no bot or policy here)."""
    cooperative = bool(game_module(game_name).Game.COOPERATIVE)
    available, notes = [], []
    for opponent in opponents:
        try:
            agent_factory(opponent, game_name, players)
        except ValueError as error:
            notes.append(f"{opponent} left out: {error}")
            continue
        available.append(opponent)
    for spec in specs:
        agent_factory(spec, game_name, players)  # a bad spec fails before any game
    if cooperative:
        teams = [*available, *specs]
        return [Row(game_name, (spec,) * players, spec, "team") for spec in teams], notes
    rows = [
        Row(game_name, (spec,) + (opponent,) * (players - 1), spec, opponent)
        for opponent in available
        for spec in specs
    ]
    return rows, notes


def play_row(row: Row, games: int, seed: int) -> dict[str, Any]:
    """Play one row's tournament in this process; its statistics and the search clock."""
    match = MatchSpec(game=row.game, agents=row.lineup, seed=seed)
    with search_clock() as clock:
        records = play_games(match, games, workers=1)
    cooperative = bool(game_module(row.game).Game.COOPERATIVE)
    summary = summarise(match, records, cooperative)
    searched = clock["searched"]
    return {
        "row": asdict(row),
        "summary": summary,
        "searched_moves": searched,
        "s_per_searched_move": clock["search_s"] / searched if searched else None,
        "games": [record.to_dict() for record in records],
    }


def subject_stats(result: dict[str, Any]) -> dict[str, Any]:
    """The reported side's wins and interval: the team's, or the subject's seat."""
    summary = result["summary"]
    if summary["cooperative"]:
        return summary["team"]
    return summary["agents"][0]


def margin_or_progress(stats: dict[str, Any]) -> str:
    """The mean score margin (competitive games) or the team's mean progress (cooperative)."""
    if stats.get("mean_margin") is not None:
        return f"{stats['mean_margin']:+.2f}"
    if stats.get("mean_progress") is not None:
        return f"{stats['mean_progress']:.3f}"
    return "-"


def markdown(results: Sequence[dict[str, Any]]) -> str:
    """The strength table, one line per row in the order given."""
    lines = [
        "| subject | against | games | wins | win rate | 95 % interval | mean margin or "
        "progress | s per searched move |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for result in results:
        row, stats = result["row"], subject_stats(result)
        seconds = result["s_per_searched_move"]
        against = (
            "team" if row["opponent"] == "team" else f"{len(row['lineup']) - 1} × {row['opponent']}"
        )
        lines.append(
            f"| `{row['subject']}` | {against} | {result['summary']['games']} | "
            f"{int(stats['wins'])} | {stats['win_rate']:.3f} | "
            f"[{stats['win_low']:.3f}, {stats['win_high']:.3f}] | "
            f"{margin_or_progress(stats)} | "
            f"{'-' if seconds is None else f'{seconds:.3f}'} |"
        )
    return "\n".join(lines)


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="environment name, e.g. vaalbara or valiant_wars_v3")
    parser.add_argument("--players", type=positive_int, default=2, help="players per game")
    parser.add_argument("--specs", nargs="+", required=True, help="search agent specs")
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=["heuristic", "pretrained"],
        help="baselines (default: heuristic pretrained)",
    )
    parser.add_argument("--games", type=positive_int, default=40, help="games per row")
    parser.add_argument("--seed", type=seed_int, default=0, help="master seed, from 0")
    parser.add_argument("--jobs", type=positive_int, default=2, help="rows played at once")
    parser.add_argument("--out", type=Path, required=True, help="folder for strength.json")
    return parser


def load_text() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        game = resolve_name(args.game)
        game_module(game).Game.check_players(args.players)
        rows, notes = lineups(game, args.players, args.specs, args.opponents)
    except ValueError as error:
        return fail(PROG, str(error))
    print(f"load average (1, 5, 15 min): {load_text()} on {os.cpu_count()} CPUs", flush=True)
    for note in notes:
        print(note, flush=True)
    results: list[dict[str, Any] | None] = [None] * len(rows)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {
            pool.submit(play_row, row, args.games, args.seed): i for i, row in enumerate(rows)
        }
        for done, future in enumerate(as_completed(futures), 1):
            index = futures[future]
            results[index] = result = future.result()
            stats = subject_stats(result)
            print(
                f"[{done}/{len(rows)}] {' '.join(rows[index].lineup)}: {int(stats['wins'])} of "
                f"{args.games} won; load {os.getloadavg()[0]:.2f}",
                flush=True,
            )
    finished = [result for result in results if result is not None]
    print(f"load average at the end: {load_text()}")
    print(markdown(finished))
    args.out.mkdir(parents=True, exist_ok=True)
    payload = {"load_end": load_text(), "notes": notes, "rows": finished}
    write_all_atomic({args.out / "strength.json": json.dumps(payload, indent=1)})
    print(f"wrote {args.out / 'strength.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
