"""What ``tabletop-train`` shows and keeps at the end of a run: the final evaluation table
(``final_eval.json``), the learning curve's plot and where the policies are."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

from tabletop_envs.agents.files import write_atomic
from tabletop_envs.agents.pretrained import pretrained_path
from tabletop_envs.training.evaluation import (
    EvalResult,
    evaluate,
    headline,
    is_cooperative,
    team,
    versus,
)
from tabletop_envs.training.run import Run


def final_evaluation(run: Run, policy: Path, games: int, seed: int) -> list[EvalResult]:
    results = evaluate(policy, run.game, run.config.players, games, seed, workers=2)
    write_atomic(run.out / "final_eval.json", json.dumps([r.to_dict() for r in results], indent=2))
    return results


def headline_of(policy: Path, run: Run, opponent: str, games: int, seed: int) -> EvalResult:
    """``policy`` measured as the final table's headline row: its team (cooperative) or
    against ``opponent`` in every other seat, on the same deals."""
    players = run.config.players
    if is_cooperative(run.game):
        return team(str(policy), run.game, players, games, seed, workers=2)
    return versus(policy, run.game, players, opponent, games, seed, workers=2)


def comparison(
    run: Run, results: Sequence[EvalResult], games: int, seed: int, minutes: float
) -> str:
    """One line: the trained policy's headline result beside its starting point's and the
    shipped policy's on the same games."""
    final = headline(list(results), run.game)
    against = "as a team" if is_cooperative(run.game) else f"against {final.label}"
    parts = [f"after {minutes:.1f} minutes of training: {rate(final)} {against}"]
    if run.start_policy.is_file():
        start = headline_of(run.start_policy, run, final.label, games, seed)
        parts.append(f"its starting point {rate(start)}")
    try:
        shipped = pretrained_path(run.game, run.config.players)
    except ValueError:
        parts.append(f"no shipped policy for {run.config.players} players to compare")
    else:
        parts.append(
            f"the shipped policy {rate(headline_of(shipped, run, final.label, games, seed))}"
        )
    return "; ".join(parts) + f" (the same {games} games each)"


def rate(result: EvalResult) -> str:
    return f"{result.win_rate:.1%} [{result.low:.1%}, {result.high:.1%}]"


def plot_curve(run: Run) -> Path | None:
    """Win rate against each baseline over training, with 95% intervals, as PNG."""
    if not run.curve_rows:
        return None
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4))
    axes = figure.subplots()
    for label in sorted({row[2] for row in run.curve_rows}):
        own = [row for row in run.curve_rows if row[2] == label]
        x = [int(row[0]) for row in own]
        axes.plot(x, [float(row[4]) for row in own], marker="o", label=label)
        axes.fill_between(x, [float(r[5]) for r in own], [float(r[6]) for r in own], alpha=0.2)
    if not is_cooperative(run.game):
        axes.axhline(1 / run.config.players, color="grey", linestyle="--", label="fair share")
    axes.set(xlabel="environment steps", ylabel="win rate", ylim=(0, 1), title=run.game)
    axes.legend()
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    path = run.out / "learning_curve.png"
    write_atomic(path, buffer.getvalue())
    return path


def print_results(results: Sequence[EvalResult], run: Run, policy: Path, trained: str) -> None:
    from rich.console import Console
    from rich.table import Table

    first = "team (every seat)" if is_cooperative(run.game) else "against"
    console = Console()
    console.print(f"{policy}: {trained}", markup=False, highlight=False, soft_wrap=True)
    table = Table(title=f"{run.game}, {run.config.players} players, seats rotated")
    for column in (first, "games", "wins", "win rate", "95% interval", "mean return"):
        table.add_column(column, justify="right")
    for r in results:
        table.add_row(
            r.label,
            str(r.games),
            f"{r.wins:g}",
            f"{r.win_rate:.1%}",
            f"[{r.low:.1%}, {r.high:.1%}]",
            f"{r.mean_return:+.3f}",
        )
    console.print(table)


def report_curve(run: Run, trained: int) -> None:
    plot = plot_curve(run)
    print(f"policy: {run.out / 'policy.npz'}")
    best = run.best()
    if best is not None:
        print(
            f"best evaluated: step {best['steps']:,}, {best['win_rate']:.1%} "
            f"({best['against']}): {run.checkpoints / best['policy']}"
        )
    if plot is not None:
        print(f"learning curve: {plot}")
    else:
        print(
            f"no learning curve: no evaluation ran (one every {run.config.eval_every:,} steps; "
            f"this session trained {trained:,})"
        )
