"""What ``tabletop-train --algo exit`` shows at the end of a session: the learning curve as a
table (each round's samples, gate and strength against the heuristic, with 95 % intervals; the
fit's losses are in ``curve.csv``), as a plot (``learning_curve.png``) and how to play the
networks."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from tabletop_envs.agents.files import write_atomic
from tabletop_envs.agents.stats import wilson_interval
from tabletop_envs.training.exit.loop import ExitRun

PLOT = "learning_curve.png"
STRENGTHS = {"searcher_vs_heuristic": "searcher", "network_vs_heuristic": "network alone"}
"""The curve's strength columns and their labels."""


def interval(score: float, games: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a share of points ``score`` over ``games`` games."""
    return wilson_interval(score * games, games)


def strength_text(row: dict[str, Any], key: str, games: int) -> str:
    if key not in row:
        return "-"
    low, high = interval(row[key], games)
    return f"{row[key]:.0%} [{low:.0%}, {high:.0%}]"


def print_table(run: ExitRun) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    settings, games = run.settings, run.settings.curve_games
    table = Table(
        title=f"{settings.game}, {settings.players} players: expert iteration by round; "
        f"score against the heuristic ({games} games each, seats rotated, 95 % interval)",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    columns = ["round", "samples", "gate", "accepted"]
    columns += [*STRENGTHS.values(), "seconds"]
    for column in columns:
        table.add_column(column, justify="right", no_wrap=True)
    for row in run.state["history"]:
        table.add_row(
            str(row["round"]),
            f"{row['samples']:,}",
            f"{row['gate_score']:.2f}",
            "yes" if row["accepted"] else "no",
            *(strength_text(row, key, games) for key in STRENGTHS),
            f"{row['seconds']:.0f}",
        )
    Console().print(table)


def plot_curve(run: ExitRun) -> Path | None:
    """Each strength against the heuristic per round with its 95 % interval, as PNG (None
    when no round measured one)."""
    rows, games = run.state["history"], run.settings.curve_games
    if not games or not rows:
        return None
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4))
    axes = figure.subplots()
    for key, label in STRENGTHS.items():
        measured = [row for row in rows if key in row]
        x = [row["round"] for row in measured]
        bounds = [interval(row[key], games) for row in measured]
        axes.plot(x, [row[key] for row in measured], marker="o", label=label)
        axes.fill_between(x, [b[0] for b in bounds], [b[1] for b in bounds], alpha=0.2)
    axes.axhline(1 / run.settings.players, color="grey", linestyle="--", label="fair share")
    axes.set(
        xlabel="round",
        ylabel="score against the heuristic",
        ylim=(0, 1),
        title=f"{run.settings.game}: expert iteration",
    )
    axes.legend()
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    path = run.out / PLOT
    write_atomic(path, buffer.getvalue())
    return path


def print_report(run: ExitRun) -> None:
    """The table, the plot's path and the networks to play."""
    if not run.state["history"]:
        print(f"no round finished in {run.out}")
        return
    print_table(run)
    plot = plot_curve(run)
    print(f"learning curve: {plot}" if plot else "no learning curve: --curve-games is 0")
    latest = run.path("latest")
    best = run.path("best")
    iterations = run.settings.iterations
    if best is None:
        print(
            f"no network accepted yet: the searcher is still {run.settings.searcher(None)}; "
            f"the newest network: {latest} (alone: --agents {latest})"
        )
    else:
        print(f"accepted network: {best}; play it as az:{iterations},net={best} or alone as {best}")
