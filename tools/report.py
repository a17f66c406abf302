"""Turn game records into statistics, terminal tables and result files.

Competitive games: per agent, wins (a shared win counts ``1/k`` to each of ``k`` winners),
win rate with its 95% Wilson interval, mean score and margin over the best other score
(when the core has a ``scores()`` hook), per-seat win rates, a head-to-head table (how often
the row agent finished above the column agent, ties counting half) and OpenSkill ratings.
Cooperative games: the team's win rate with its interval, mean turns, decisions and progress.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tabletop_envs.agents.arena import GameRecord, MatchSpec
from tabletop_envs.agents.az import AZ_SPEC
from tabletop_envs.agents.files import write_all_atomic
from tabletop_envs.agents.search import SEARCH_SPECS
from tabletop_envs.agents.stats import wilson_interval

NA = "n/a"


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Unique display names: ``random``, ``random#2``, ...; a policy file by its name, with as
    many of its folders as it takes to tell it from other files (``runA/policy.npz``)."""
    paths = {spec for spec in specs if is_path(spec)}
    labels, seen = [], {}
    for spec in specs:
        base = path_label(spec, paths - {spec}) if spec in paths else spec
        seen[base] = seen.get(base, 0) + 1
        labels.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return labels


def is_path(spec: str) -> bool:
    """Whether ``spec`` names a policy file (a search spec such as ``az:N,net=PATH`` is shown
    whole, not as its network's file name)."""
    if spec.partition(":")[0] in (*SEARCH_SPECS, AZ_SPEC):
        return False
    return os.sep in spec or "." in spec


def path_label(spec: str, others: set[str]) -> str:
    """The shortest tail of ``spec``'s path that no other path ends with."""
    parts = Path(os.path.abspath(spec)).parts
    other_parts = [Path(os.path.abspath(other)).parts for other in others]
    for length in range(1, len(parts) + 1):
        tail = parts[-length:]
        if all(other[-length:] != tail for other in other_parts):
            return "/".join(tail)
    return spec


def _win_summary(wins: float, games: int) -> dict[str, float]:
    """Games, wins, win rate and its 95% Wilson interval."""
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "win_low": low,
        "win_high": high,
    }


def _mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if values else None


def _placement_keys(record: GameRecord) -> list[tuple[float, float]]:
    """Per seat, a key that sorts better finishes higher: (win share, score or return)."""
    share = 1.0 / len(record.winners) if record.winners else 0.0
    tiebreak = record.scores if record.scores is not None else record.returns
    return [
        (share if seat in record.winners else 0.0, tiebreak[seat])
        for seat in range(len(record.lineup))
    ]


def _ranks(keys: list[tuple[float, float]]) -> list[int]:
    """Rank 1 for the best key; equal keys share a rank."""
    return [1 + sum(other > key for other in keys) for key in keys]


def _ratings(records: Sequence[GameRecord], players: int) -> list[dict[str, float]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating() for _ in range(players)]
    for record in records:
        ranks = _ranks(_placement_keys(record))
        order = list(record.lineup)  # agent in each seat
        teams = model.rate([[ratings[agent]] for agent in order], ranks=ranks)
        for seat, agent in enumerate(order):
            ratings[agent] = teams[seat][0]
    return [
        {"mu": float(r.mu), "sigma": float(r.sigma), "ordinal": float(r.ordinal())} for r in ratings
    ]


def _agent_stats(records: Sequence[GameRecord], agent: int, players: int) -> dict[str, Any]:
    wins, scores, margins = 0.0, [], []
    seat_games, seat_wins = [0] * players, [0.0] * players
    for record in records:
        seat = record.lineup.index(agent)
        won = 1.0 / len(record.winners) if seat in record.winners else 0.0
        wins += won
        seat_games[seat] += 1
        seat_wins[seat] += won
        if record.scores is not None:
            own = record.scores[seat]
            scores.append(own)
            margins.append(own - max(s for i, s in enumerate(record.scores) if i != seat))
    return {
        **_win_summary(wins, len(records)),
        "mean_score": _mean(scores),
        "mean_margin": _mean(margins),
        "seat_games": seat_games,
        "seat_win_rates": [
            w / g if g else None for w, g in zip(seat_wins, seat_games, strict=True)
        ],
    }


def _head_to_head(records: Sequence[GameRecord], players: int) -> list[list[float | None]]:
    """``matrix[a][b]``: the fraction of games agent ``a`` finished above agent ``b``."""
    above = np.zeros((players, players))
    for record in records:
        keys = _placement_keys(record)
        for seat_a, agent_a in enumerate(record.lineup):
            for seat_b, agent_b in enumerate(record.lineup):
                if keys[seat_a] > keys[seat_b]:
                    above[agent_a, agent_b] += 1.0
                elif keys[seat_a] == keys[seat_b]:
                    above[agent_a, agent_b] += 0.5
    total = max(1, len(records))
    return [
        [None if a == b else float(above[a, b] / total) for b in range(players)]
        for a in range(players)
    ]


def _team_stats(records: Sequence[GameRecord]) -> dict[str, Any]:
    wins = sum(1 for record in records if record.winners)
    progress = [r.progress for r in records if r.progress is not None]
    turns = [r.turns for r in records if r.turns is not None]
    return {
        **_win_summary(wins, len(records)),
        "mean_turns": _mean(turns),
        "mean_progress": _mean(progress),
        "endings": _endings(records),
    }


def _endings(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per way the games ended (most frequent first): how many, the mean turn and the mean of
    each end fact; empty when the game names no endings."""
    groups: dict[str, list[GameRecord]] = {}
    for record in records:
        if record.ending is not None:
            groups.setdefault(record.ending, []).append(record)
    rows = []
    for ending, group in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        facts = sorted({name for record in group for name in record.end_facts})
        rows.append(
            {
                "ending": ending,
                "games": len(group),
                "mean_turns": _mean([r.turns for r in group if r.turns is not None]),
                "facts": {
                    name: _mean([r.end_facts[name] for r in group if name in r.end_facts])
                    for name in facts
                },
            }
        )
    return rows


def summarise(match: MatchSpec, records: Sequence[GameRecord], cooperative: bool) -> dict[str, Any]:
    """All statistics of a tournament as JSON-ready data."""
    players = match.players
    labels = agent_labels(match.agents)
    summary: dict[str, Any] = {
        "game": match.game,
        "players": players,
        "games": len(records),
        "seed": match.seed,
        "options": dict(match.options),
        "cooperative": cooperative,
        "mean_decisions": _mean([r.decisions for r in records]),
        "mean_turns": _mean([r.turns for r in records if r.turns is not None]),
        "agents": [
            {"label": label, "spec": spec} for label, spec in zip(labels, match.agents, strict=True)
        ],
    }
    if cooperative:
        summary["team"] = _team_stats(records)
        return summary
    ratings = _ratings(records, players)
    for agent, entry in enumerate(summary["agents"]):
        entry.update(_agent_stats(records, agent, players))
        entry["rating"] = ratings[agent]
    summary["head_to_head"] = _head_to_head(records, players)
    return summary


# ----- presentation ----------------------------------------------------------------------
def _fmt(value: float | None, pattern: str = "{:.3f}") -> str:
    return NA if value is None else pattern.format(value)


def _interval(entry: dict[str, Any]) -> str:
    return f"[{_fmt(entry['win_low'])}, {_fmt(entry['win_high'])}]"


def _table(title: str, columns: Sequence[str], caption: str | None = None) -> Any:
    """A rich table whose first column is left-aligned and the others right-aligned."""
    from rich.table import Table

    table = Table(title=title, caption=caption, caption_justify="left")
    for number, column in enumerate(columns):
        table.add_column(column, justify="left" if number == 0 else "right")
    return table


def _endings_table(endings: list[dict[str, Any]]) -> list[Any]:
    """How the team's games ended (why they were lost), with the mean turn and end facts."""
    if not endings:
        return []
    facts = sorted({name for row in endings for name in row["facts"]})
    table = _table("how the games ended", ["ending", "games", "mean turn", *facts])
    for row in endings:
        table.add_row(
            row["ending"],
            str(row["games"]),
            _fmt(row["mean_turns"], "{:.1f}"),
            *(_fmt(row["facts"].get(name), "{:.1f}") for name in facts),
        )
    return [table]


FEW_GAMES = 100
"""Below this many games a rating's uncertainty is the first thing to read."""


def rating_note(games: int) -> str:
    """The caption under the ratings: what the numbers are and how far to trust them."""
    note = (
        "rating: OpenSkill (Plackett-Luce) μ±σ, updated game by game in play order, so the "
        "order of the games moves μ; μ-3σ is the conservative rating. Two ratings are told "
        "apart only when their μ±2σ do not overlap; the win rate's 95% interval is the result."
    )
    if games < FEW_GAMES:
        note += (
            f" With {games} games the ratings are uncertain (σ is large) and may disagree "
            "with the wins: read the win column."
        )
    return note


def render_tables(summary: dict[str, Any]) -> list[Any]:
    """rich tables for the terminal: results, per-seat win rates, head to head."""
    title = (
        f"{summary['game']}: {summary['games']} games, {summary['players']} players, "
        f"seed {summary['seed']}, mean decisions {_fmt(summary['mean_decisions'], '{:.1f}')}, "
        f"mean turns {_fmt(summary['mean_turns'], '{:.1f}')}"
    )
    if summary["cooperative"]:
        team = summary["team"]
        table = _table(
            title, ["", "games", "wins", "win rate", "95% interval", "mean turns", "mean progress"]
        )
        table.add_row(
            "team",
            str(team["games"]),
            str(team["wins"]),
            _fmt(team["win_rate"]),
            _interval(team),
            _fmt(team["mean_turns"], "{:.1f}"),
            _fmt(team["mean_progress"]),
        )
        return [table, *_endings_table(team["endings"])]
    agents = summary["agents"]
    main = _table(
        title,
        [
            "agent",
            "games",
            "wins",
            "win rate",
            "95% interval",
            "score",
            "margin",
            "rating μ±σ",
            "rating μ-3σ",
        ],
        caption=rating_note(summary["games"]),
    )
    seats = _table("win rate by seat", ["agent", *(f"seat {s}" for s in range(summary["players"]))])
    duel = _table(
        "head to head: share of games the row finished above the column",
        ["", *(entry["label"] for entry in agents)],
    )
    for entry, row in zip(agents, summary["head_to_head"], strict=True):
        rating = entry["rating"]
        main.add_row(
            entry["label"],
            str(entry["games"]),
            f"{entry['wins']:g}",
            _fmt(entry["win_rate"]),
            _interval(entry),
            _fmt(entry["mean_score"], "{:.2f}"),
            _fmt(entry["mean_margin"], "{:+.2f}"),
            f"{rating['mu']:.1f}±{rating['sigma']:.1f}",
            f"{rating['ordinal']:.1f}",
        )
        seats.add_row(entry["label"], *(_fmt(rate) for rate in entry["seat_win_rates"]))
        duel.add_row(entry["label"], *("—" if v is None else f"{v:.3f}" for v in row))
    return [main, seats, duel]


CSV_COLUMNS = (
    "label",
    "spec",
    "games",
    "wins",
    "win_rate",
    "win_low",
    "win_high",
    "mean_score",
    "mean_margin",
    "rating_mu",
    "rating_sigma",
    "rating_ordinal",
)


def csv_text(summary: dict[str, Any]) -> str:
    """One row per agent (competitive) or one team row (cooperative)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if summary["cooperative"]:
        team = summary["team"]
        columns = [
            "games",
            "wins",
            "win_rate",
            "win_low",
            "win_high",
            "mean_turns",
            "mean_progress",
        ]
        writer.writerow(["label", *columns])
        writer.writerow(["team", *(NA if team[c] is None else team[c] for c in columns)])
        return out.getvalue()
    players = summary["players"]
    writer.writerow([*CSV_COLUMNS, *(f"seat{seat}_win_rate" for seat in range(players))])
    for entry in summary["agents"]:
        rating = entry["rating"]
        flat = {
            **entry,
            "rating_mu": rating["mu"],
            "rating_sigma": rating["sigma"],
            "rating_ordinal": rating["ordinal"],
        }
        writer.writerow(
            [NA if flat[c] is None else flat[c] for c in CSV_COLUMNS]
            + [NA if r is None else r for r in entry["seat_win_rates"]]
        )
    return out.getvalue()


def plot_png(summary: dict[str, Any]) -> bytes:
    """A bar plot of win rates with their 95% intervals, and the fair share for reference."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    entries = [summary["team"] | {"label": "team"}] if summary["cooperative"] else summary["agents"]
    labels = [e["label"] for e in entries]
    rates = np.array([e["win_rate"] for e in entries])
    errors = np.array(
        [
            [r - e["win_low"] for r, e in zip(rates, entries, strict=True)],
            [e["win_high"] - r for r, e in zip(rates, entries, strict=True)],
        ]
    )
    figure = Figure(figsize=(max(4.0, 1.2 * len(labels) + 2), 4))
    axes = figure.subplots()
    axes.bar(labels, rates, yerr=errors, capsize=6, color="tab:blue")
    if not summary["cooperative"]:
        axes.axhline(1 / summary["players"], color="grey", linestyle="--", label="fair share")
        axes.legend()
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_title(f"{summary['game']}, {summary['players']} players, {summary['games']} games")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    return buffer.getvalue()


def write_results(
    summary: dict[str, Any], records: Sequence[GameRecord], out_dir: Path
) -> list[Path]:
    """results.json (summary and every game), results.csv and winrates.png in ``out_dir``:
    all three are written before any replaces its previous version."""
    payload = {
        "results.json": json.dumps(
            {"summary": summary, "records": [r.to_dict() for r in records]}, indent=1
        ).encode(),
        "results.csv": csv_text(summary).encode(),
        "winrates.png": plot_png(summary),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {out_dir / name: data for name, data in payload.items()}
    write_all_atomic(files)
    return list(files)
