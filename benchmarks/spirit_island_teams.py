"""Spirit Island's teams at every player count and difficulty level, on the same deals.

    python -m benchmarks.spirit_island_teams [--games 300] [--players 1 2 3 4]
        [--levels base easy easiest hard] [--teams random heuristic pimc:4,guide=heuristic]
        [--seed 0] [--workers 1] [--no-write] [--fresh]

``--games`` takes one number for every row or one per player count (``--games 300 300 100
100``: fewer deals where games are long).

Each team (every seat the same agent spec) plays ``--games`` games at each player count and
difficulty level through the evaluation harness: game ``i`` is dealt from ``(seed, i)``, so
every team meets the same deals. A row gives the wins with their 95 % Wilson interval, the
mean turn the games ended, the Fear cards earned, the CPU time per decision (the playing
processes' own, so the same with any ``--workers``: the agent's thinking and the engine's
steps together) and how the games ended (the defeat causes from ``end_facts``).

Rows are kept in ``benchmarks/spirit_island_teams.json`` with the run that measured each
(command, commit, load) and which deals it won (``won``: one digit a deal in game order, for
deal-by-deal comparisons of two teams): a run replaces the rows it plays and keeps the others,
so a slow team (a search) joins the tables without replaying the rest. The ``spirit-island-
teams`` section of benchmarks/RESULTS.md is then rewritten from every kept row, one table per
level (``--no-write``: print the run's rows only, keep both files; ``--fresh``: drop the kept
rows, needed to change the master seed, since every row of a table plays the same deals).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop_envs.agents.arena import play_games
from tabletop_envs.agents.files import write_atomic
from tabletop_envs.agents.stats import sign_test
from tabletop_envs.tools.evaluate import check_match
from tabletop_envs.tools.report import summarise

from benchmarks.results_page import RESULTS_MD, RunLoad, measured_at, publish
from tabletop_envs.cli import (
    OneLineParser,
    UsageError,
    add_workers_flags,
    check_workers,
    fail,
    positive_int,
    seed_int,
)
from tabletop_envs.spirit_island.rules import SpiritIslandGame

PROG = "python -m benchmarks.spirit_island_teams"
SECTION = "spirit-island-teams"
ENV = "spirit_island_v1"
LEVELS = tuple(SpiritIslandGame.OPTIONS["difficulty"].choices)
PLAYERS = tuple(range(SpiritIslandGame.MIN_PLAYERS, SpiritIslandGame.MAX_PLAYERS + 1))
TEAMS = ("random", "heuristic")
STORE = Path(__file__).with_name("spirit_island_teams.json")
SHORT_ENDINGS = {
    "no Blight left on the Blight card": "Blight",
    "the Invader deck ran out: time is up": "time",
    "every Fear card earned": "won: Fear",
}
"""Short names of the endings in the table (others keep their text up to a colon; a Spirit
with no Presence left is "Presence")."""


def short_ending(ending: str) -> str:
    if ending in SHORT_ENDINGS:
        return SHORT_ENDINGS[ending]
    if "no Presence left" in ending:
        return "Presence"
    if ending.startswith("Terror Level"):
        return "won: " + ending.split(":")[0]
    return ending.split(":")[0]


def play_row(team: str, players: int, level: str, games: int, seed: int, workers: int) -> dict:
    """One team at one player count and level: the harness's team summary and CPU time."""
    match = check_match(ENV, (team,) * players, players, seed, [f"difficulty={level}"])
    records = play_games(match, games, workers)
    cpu_seconds = sum(record.cpu_seconds for record in records)
    team_stats = summarise(match, records, True)["team"]
    fear = [r.end_facts.get("fear cards earned", 0.0) for r in records]
    return {
        "team": team,
        "players": players,
        "level": level,
        "games": len(records),
        "stats": team_stats,
        "fear": sum(fear) / len(fear),
        "cpu_ms_per_decision": 1000 * cpu_seconds / max(1, sum(r.decisions for r in records)),
        "deals": [record.seed for record in records],
        "won": "".join("1" if record.winners else "0" for record in records),
    }


def endings_cell(result: dict[str, Any]) -> str:
    """How the games ended, most frequent first: share and mean turn of each (endings with
    one short name, such as each seat's Spirit losing its last Presence, counted together)."""
    games = result["games"]
    merged: dict[str, list[float]] = {}
    for ending in result["stats"]["endings"]:
        entry = merged.setdefault(short_ending(ending["ending"]), [0.0, 0.0])
        entry[0] += ending["games"]
        entry[1] += ending["games"] * ending["mean_turns"]
    ranked = sorted(merged.items(), key=lambda item: -item[1][0])
    parts = [
        f"{name} {100 * count / games:.0f} % (turn {turns / count:.1f})"
        for name, (count, turns) in ranked
    ]
    return ", ".join(parts) or "-"


def ms_cell(result: dict[str, Any]) -> str:
    """CPU milliseconds a decision: two decimals below 100 ms, whole milliseconds above."""
    ms = result["cpu_ms_per_decision"]
    return f"{ms:.2f}" if ms < 100 else f"{ms:.0f}"


def markdown(results: Sequence[dict[str, Any]], runs: Sequence[str], seed: int) -> str:
    """The section: the runs that measured the rows, how to read them, then one table per
    difficulty level (its rows by player count, the named teams first)."""
    lines = [f"Run {number}: {provenance}" for number, provenance in enumerate(runs, 1)]
    lines += [
        "",
        f"Master seed {seed}: every row of a player count plays the same "
        "deals (game i dealt from (seed, i)). A team is every seat the same agent; no Spirit "
        "Island policy is shipped (see the shipped policies below), so no `pretrained` team. "
        "run: the run above that measured the row. Fear: Fear cards earned (9 win). CPU ms / "
        "decision: the playing processes' CPU time over the row's decisions, the engine's "
        "steps included (a searching team's time a searched decision is higher: its forced "
        "moves cost next to nothing). Endings: Blight = "
        "no Blight left on the Blight card, time = "
        "the Invader deck ran out, Presence = a Spirit lost its last Presence; won: how the "
        "team won. Against the heuristic: on the deals both teams played, the deals only this "
        "team won / only the heuristic team won, of the deals compared, and the exact sign "
        "test's p-value on them (- where a row keeps no deal-by-deal record). Levels: base "
        "is the published game; easy and easiest need 3 and 2 Fear per "
        "player a Fear card, hard puts 1 Blight per player + 1 on the Healthy side (this "
        "project's own levels, docs/rules/spirit_island.md).",
    ]
    results = sorted(results, key=row_order(results))
    for level in dict.fromkeys(result["level"] for result in results):
        lines += [
            "",
            f"**difficulty={level}**",
            "",
            "| players | team | wins | win rate | 95 % interval | mean turn | Fear "
            "| CPU ms / decision | how the games ended | against the heuristic | run |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        lines += [table_line(result, results) for result in results if result["level"] == level]
    return "\n".join(lines) + "\n"


def table_line(result: dict[str, Any], results: Sequence[dict[str, Any]]) -> str:
    stats = result["stats"]
    return (
        f"| {result['players']} | `{result['team']}` | {stats['wins']:g} / "
        f"{result['games']} | {stats['win_rate']:.3f} | [{stats['win_low']:.3f}, "
        f"{stats['win_high']:.3f}] | {stats['mean_turns']:.1f} | {result['fear']:.2f} "
        f"| {ms_cell(result)} | {endings_cell(result)} | {paired_cell(result, results)} "
        f"| {result.get('run', '-')} |"
    )


def paired_cell(result: dict[str, Any], results: Sequence[dict[str, Any]]) -> str:
    """The team against the heuristic team deal by deal on the deals both played: the deals
    only this team won, those only the heuristic won, and the sign test's p-value ("-" for
    the heuristic itself or where either row has no deal-by-deal record)."""
    if result["team"] == "heuristic" or "won" not in result:
        return "-"
    heuristic = next(
        (
            other
            for other in results
            if row_key(other) == (result["level"], result["players"], "heuristic")
        ),
        None,
    )
    if heuristic is None or "won" not in heuristic:
        return "-"
    pairs = list(zip(result["won"], heuristic["won"], strict=False))  # deals 0.. of both
    only_team = sum(team == "1" and other == "0" for team, other in pairs)
    only_heuristic = sum(team == "0" and other == "1" for team, other in pairs)
    p_value = sign_test(only_team, only_heuristic)
    return f"{only_team} / {only_heuristic} of {len(pairs)} (p {p_value:.2g})"


def row_order(results: Sequence[dict[str, Any]]):
    """Sort key: level as the game lists them, player count, then random, heuristic and the
    other teams in the order they first appear."""
    teams = list(dict.fromkeys([*TEAMS, *(result["team"] for result in results)]))
    return lambda result: (
        LEVELS.index(result["level"]),
        result["players"],
        teams.index(result["team"]),
    )


def row_key(result: dict[str, Any]) -> tuple[str, int, str]:
    return result["level"], result["players"], result["team"]


def load_store(path: Path) -> dict[str, Any]:
    """The kept rows and runs (empty when there is no file); a ValueError naming the file
    when it is not a store this script wrote."""
    if not path.exists():
        return fresh_store()
    try:
        store = json.loads(path.read_text())
        if not {"seed", "runs", "rows"} <= store.keys():
            raise ValueError("expected the keys seed, runs and rows")
    except (ValueError, AttributeError) as error:
        raise ValueError(f"{path}: not a stored table of Spirit Island teams ({error})") from None
    return store


def merged_store(
    store: dict[str, Any], results: Sequence[dict[str, Any]], provenance: str, seed: int
) -> dict[str, Any]:
    """The store with this run's rows in place of those of the same level, player count and
    team; runs no row refers to any longer are dropped and the rest renumbered."""
    played = {row_key(result) for result in results}
    kept = [dict(row) for row in store["rows"] if row_key(row) not in played]
    new = [{k: v for k, v in result.items() if k != "deals"} for result in results]
    runs = [*store["runs"], provenance]
    for row in new:
        row["run"] = len(runs)
    rows = kept + new
    used = sorted({row["run"] for row in rows})
    for row in rows:
        row["run"] = used.index(row["run"]) + 1
    return {"seed": seed, "runs": [runs[number - 1] for number in used], "rows": rows}


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        type=positive_int,
        nargs="+",
        default=[300],
        help="games per row: one number, or one per player count of --players",
    )
    parser.add_argument(
        "--players", type=positive_int, nargs="+", default=list(PLAYERS), help="player counts"
    )
    parser.add_argument(
        "--levels", nargs="+", default=list(LEVELS), metavar="LEVEL", help=f"of {list(LEVELS)}"
    )
    parser.add_argument(
        "--teams",
        nargs="+",
        default=list(TEAMS),
        metavar="AGENT",
        help="agent specs, one team each (e.g. random heuristic pimc:8,guide=heuristic)",
    )
    parser.add_argument("--seed", type=seed_int, default=0, help="master seed, from 0")
    add_workers_flags(parser, 1, "processes per row (1: the timings are per process)")
    parser.add_argument(
        "--no-write",
        action="store_true",
        help=f"print the tables only; RESULTS.md's {SECTION!r} section stays as it is",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="drop the kept rows first (to change the master seed)",
    )
    parser.add_argument("--page", type=Path, default=RESULTS_MD, help="the results page")
    parser.add_argument("--store", type=Path, default=STORE, help="the kept rows (JSON)")
    return parser


def games_by_players(games: Sequence[int], players: Sequence[int]) -> dict[int, int]:
    """Games a row per player count: one number for all, or one per player count."""
    if len(games) == 1:
        return dict.fromkeys(players, games[0])
    if len(games) != len(players):
        raise UsageError(
            f"--games: one number, or one per player count ({len(players)}), not {len(games)}"
        )
    return dict(zip(players, games, strict=True))


def check_args(players: Sequence[int], levels: Sequence[str], teams: Sequence[str]) -> None:
    """Every player count, level and team valid before any game; else a UsageError."""
    for level in levels:
        if level not in LEVELS:
            raise UsageError(f"--levels {level}: expected some of {', '.join(LEVELS)}")
    for count in players:
        if count not in PLAYERS:
            raise UsageError(f"--players {count}: Spirit Island takes {PLAYERS[0]}-{PLAYERS[-1]}")
    for team in teams:
        check_match(ENV, (team,) * players[0], players[0], 0)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        check_args(args.players, args.levels, args.teams)
        games = games_by_players(args.games, args.players)
        check_workers(args)
        kept_rows(args)
    except (UsageError, ValueError) as error:
        return fail(PROG, str(error))
    start = RunLoad.now()
    rows = [(level, p, team) for level in args.levels for p in args.players for team in args.teams]
    results = []
    for number, (level, players, team) in enumerate(rows, 1):
        result = play_row(team, players, level, games[players], args.seed, args.workers)
        results.append(result)
        print(
            f"[{number}/{len(rows)}] {level} {players}p {team}: {result['stats']['wins']:g} of "
            f"{result['games']} won, {result['cpu_ms_per_decision']:.2f} CPU ms a decision",
            file=sys.stderr,
            flush=True,
        )
    command = " ".join([PROG, *(sys.argv[1:] if argv is None else argv)])
    provenance = measured_at(command, start)
    if args.no_write:
        print(markdown([{**result, "run": 1} for result in results], [provenance], args.seed))
        return 0
    try:
        store = merged_store(kept_rows(args), results, provenance, args.seed)
    except (UsageError, ValueError) as error:  # another run changed the kept rows meanwhile
        return fail(PROG, str(error))
    write_atomic(args.store, json.dumps(store, indent=1) + "\n")
    publish(SECTION, markdown(store["rows"], store["runs"], args.seed), args.page)
    return 0


def kept_rows(args: argparse.Namespace) -> dict[str, Any]:
    """The kept rows as they are now (other runs may write them while this one plays), checked
    against this run's seed; none with ``--fresh``."""
    store = fresh_store() if args.fresh else load_store(args.store)
    check_seed(store, args.seed)
    return store


def fresh_store() -> dict[str, Any]:
    return {"seed": None, "runs": [], "rows": []}


def check_seed(store: dict[str, Any], seed: int) -> None:
    """A run adds to the kept rows only on their master seed (else a UsageError)."""
    if store["seed"] is not None and store["seed"] != seed:
        raise UsageError(
            f"--seed {seed}: the kept rows are on master seed {store['seed']}; run with "
            f"--seed {store['seed']}, or add --fresh to start the tables again"
        )


if __name__ == "__main__":
    sys.exit(main())
