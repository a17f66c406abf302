"""Pool several ``experiments.search_strength`` runs of one game (other seeds) into one table.

    python -m experiments.strength_pool /tmp/strength/valenor3-s7 /tmp/strength/valenor3-s8

Rows with the same subject and opponent are summed over the runs: each run dealt its games
from its own seed, so the pooled games are all different deals (two runs of one seed are
refused). In a cooperative game every team played the same deals, so each team is also set
against each other team deal by deal: the deals only one of the two won, and the exact
two-sided sign test on them (McNemar's test), which uses the pairing two intervals ignore.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop_envs.agents.stats import sign_test, wilson_interval

from experiments.search_strength import subject_stats
from tabletop_envs.cli import OneLineParser, fail

PROG = "python -m experiments.strength_pool"


@dataclass
class PooledRow:
    """One subject against one opponent, summed over runs."""

    subject: str
    opponent: str
    games: int = 0
    wins: float = 0.0
    won_deals: dict[tuple[int, int], bool] = field(default_factory=dict)
    """(seed, game index) -> whether the team won that deal (cooperative games)."""


def load_run(folder: Path) -> dict[str, Any]:
    """A run's ``strength.json``; ValueError naming the file when it is missing or unreadable."""
    path = folder / "strength.json"
    try:
        payload = json.loads(path.read_text())
        rows = payload["rows"]
        first = rows[0]["summary"]
        return {"game": first["game"], "players": first["players"], "rows": rows}
    except FileNotFoundError:
        raise ValueError(
            f"{path}: no such file (expected a search_strength --out folder)"
        ) from None
    except (json.JSONDecodeError, KeyError, IndexError, TypeError) as error:
        raise ValueError(f"{path}: not a search_strength result ({error!r})") from None


def pool(runs: Sequence[dict[str, Any]]) -> list[PooledRow]:
    """The runs' rows summed by (subject, opponent), in first-seen order."""
    games = {(run["game"], run["players"]) for run in runs}
    if len(games) > 1:
        raise ValueError(f"runs of different games or player counts: {sorted(games)}")
    pooled: dict[tuple[str, str], PooledRow] = {}
    seen: dict[tuple[str, str], set[int]] = {}
    for run in runs:
        for result in run["rows"]:
            key = (result["row"]["subject"], result["row"]["opponent"])
            seed = result["summary"]["seed"]
            if seed in seen.setdefault(key, set()):
                raise ValueError(f"two runs of seed {seed} for {key[0]} against {key[1]}")
            seen[key].add(seed)
            add_result(pooled.setdefault(key, PooledRow(*key)), result)
    return list(pooled.values())


def add_result(row: PooledRow, result: dict[str, Any]) -> None:
    """Sum one run's row into ``row``, keeping each deal's outcome in a cooperative game."""
    summary = result["summary"]
    row.games += summary["games"]
    row.wins += subject_stats(result)["wins"]
    if summary["cooperative"]:
        for game in result.get("games", []):
            row.won_deals[(summary["seed"], game["index"])] = bool(game["winners"])


def paired(a: PooledRow, b: PooledRow) -> tuple[int, int, int, float] | None:
    """(deals both played, only ``a`` won, only ``b`` won, sign-test p), or None unpaired."""
    deals = a.won_deals.keys() & b.won_deals.keys()
    if not deals:
        return None
    only_a = sum(a.won_deals[d] and not b.won_deals[d] for d in deals)
    only_b = sum(b.won_deals[d] and not a.won_deals[d] for d in deals)
    return len(deals), only_a, only_b, sign_test(only_a, only_b)


def markdown(rows: Sequence[PooledRow]) -> str:
    """The pooled table, then the deal-by-deal comparisons of cooperative teams."""
    lines = [
        "| subject | against | games | wins | win rate | 95 % interval |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        low, high = wilson_interval(row.wins, row.games)
        lines.append(
            f"| `{row.subject}` | {row.opponent} | {row.games} | {row.wins:g} | "
            f"{row.wins / row.games:.3f} | [{low:.3f}, {high:.3f}] |"
        )
    pairs = [(a, b, paired(a, b)) for a, b in itertools.combinations(rows, 2)]
    pairs = [(a, b, result) for a, b, result in pairs if result is not None]
    if pairs:
        lines += [
            "",
            "| team | other team | same deals | only the team won | only the other won | "
            "sign test p |",
            "|---|---|---|---|---|---|",
        ]
        for a, b, (deals, only_a, only_b, p_value) in pairs:
            lines.append(
                f"| `{a.subject}` | `{b.subject}` | {deals} | {only_a} | {only_b} | {p_value:.4f} |"
            )
    return "\n".join(lines)


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="search_strength --out folders")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        rows = pool([load_run(folder) for folder in args.runs])
    except ValueError as error:
        return fail(PROG, str(error))
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
