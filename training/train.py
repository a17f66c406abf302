"""``tabletop-train``: self-play MaskablePPO with an opponent pool, evaluation and checkpoints.

The run directory holds ``config.json``, ``checkpoints/`` (SB3 model zips for ``--resume`` and
policy files), ``pool/`` (snapshots the opponents are drawn from), ``learning_curve.csv`` and
``.png``, TensorBoard logs under ``tb/``, the final ``policy.npz`` (a bot for
``tabletop-eval`` and ``tabletop-play``) and ``final_eval.json``.
"""

from __future__ import annotations

import csv
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

import tabletop_envs
from agents.cli import OneLineParser, fail, positive_int
from agents.loading import agent_factory
from agents.policy import PolicyNetwork, read_policy
from training import warmstart
from training.config import TrainConfig, load_config
from training.evaluation import EvalResult, evaluate, is_cooperative
from training.export import activation_module, export_actor
from training.opponents import OpponentPool
from training.selfplay import SelfPlayVecEnv

CURVE_FIELDS = ["steps", "minutes", "against", "games", "win_rate", "low", "high"]


class Run:
    """Paths and bookkeeping of one training run directory."""

    def __init__(self, out: Path, game: str, config: TrainConfig) -> None:
        self.out = out
        self.game = game
        self.config = config
        self.checkpoints = out / "checkpoints"
        self.pool_dir = out / "pool"
        self.curve = out / "learning_curve.csv"

    def meta(self, steps: int) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.config.players,
            "package_version": tabletop_envs.__version__,
            "trained_steps": int(steps),
        }

    def latest_checkpoint(self) -> Path:
        zips = sorted(self.checkpoints.glob("model_*.zip"), key=lambda p: int(p.stem[6:]))
        if not zips:
            raise ValueError(f"nothing to resume: no checkpoints/model_*.zip under {self.out}")
        return zips[-1]

    def append_curve(self, steps: int, minutes: float, result: EvalResult) -> None:
        new = not self.curve.exists()
        with self.curve.open("a", newline="") as stream:
            writer = csv.writer(stream)
            if new:
                writer.writerow(CURVE_FIELDS)
            writer.writerow(
                [steps, f"{minutes:.2f}", result.label, result.games]
                + [f"{value:.4f}" for value in (result.win_rate, result.low, result.high)]
            )


def write_json_atomic(path: Path, data: Any) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(handle, "w") as stream:
        json.dump(data, stream, indent=2)
    os.replace(temporary, path)


class SelfPlayCallback(BaseCallback):
    """Snapshots into the pool, periodic evaluation, checkpoints, time budget, progress bar."""

    def __init__(self, run: Run, pool: OpponentPool, deadline: float | None, bar: tqdm) -> None:
        super().__init__()
        self.run = run
        self.pool = pool
        self.deadline = deadline
        self.bar = bar
        self.rollouts = 0
        self.started = time.monotonic()
        self.next_eval = 0
        self.next_checkpoint = 0
        self.latest: dict[str, float] = {}

    def _on_training_start(self) -> None:
        config = self.run.config
        steps = self.num_timesteps
        self.next_eval = steps + config.eval_every
        self.next_checkpoint = steps + config.checkpoint_every
        if not self.pool.snapshots:
            self.add_snapshot()

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        if self.num_timesteps >= self.next_checkpoint:
            self.checkpoint()
        if self.num_timesteps >= self.next_eval:
            self.evaluate()
        return self.deadline is None or time.monotonic() < self.deadline

    def _on_rollout_end(self) -> None:
        self.rollouts += 1
        if self.rollouts % self.run.config.snapshot_every == 0:
            self.add_snapshot()

    def network(self) -> PolicyNetwork:
        return export_actor(
            self.model.policy, self.run.config.activation, self.run.meta(self.num_timesteps)
        )

    def add_snapshot(self) -> None:
        network = self.network()
        path = self.run.pool_dir / f"snapshot_{self.num_timesteps}.npz"
        network.save(path)
        self.pool.add_snapshot(network, path.stem)

    def checkpoint(self) -> Path:
        self.next_checkpoint = self.num_timesteps + self.run.config.checkpoint_every
        return save_checkpoint(self.model, self.run, self.network())

    def evaluate(self) -> None:
        config = self.run.config
        self.next_eval = self.num_timesteps + config.eval_every
        path = self.run.checkpoints / f"policy_{self.num_timesteps}.npz"
        self.network().save(path)
        minutes = (time.monotonic() - self.started) / 60
        game, players = self.run.game, config.players
        for result in evaluate(path, game, players, config.eval_games, seed=self.num_timesteps):
            self.run.append_curve(self.num_timesteps, minutes, result)
            self.logger.record(f"eval/win_rate_{result.label.replace(' ', '_')}", result.win_rate)
            self.latest[result.label] = result.win_rate
        elapsed = max(time.monotonic() - self.started, 1e-9)
        self.bar.set_postfix(
            {"steps/s": f"{self.bar.n / elapsed:.0f}"}
            | {f"vs {name}": f"{rate:.0%}" for name, rate in self.latest.items()}
        )


def save_checkpoint(model: MaskablePPO, run: Run, network: PolicyNetwork) -> Path:
    """The SB3 model (for ``--resume``) and its policy file, each written atomically."""
    run.checkpoints.mkdir(parents=True, exist_ok=True)
    steps = model.num_timesteps
    target = run.checkpoints / f"model_{steps}.zip"
    temporary = run.checkpoints / f"model_{steps}.zip.tmp"
    model.save(temporary)
    os.replace(temporary, target)
    network.save(run.checkpoints / f"policy_{steps}.npz")
    return target


def build_model(config: TrainConfig, env: SelfPlayVecEnv, seed: int, out: Path) -> MaskablePPO:
    return MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        learning_rate=config.learning_rate,
        gamma=config.gamma,
        gae_lambda=config.gae_lambda,
        ent_coef=config.ent_coef,
        clip_range=config.clip_range,
        policy_kwargs={
            "net_arch": list(config.net_arch),
            "activation_fn": activation_module(config.activation),
        },
        tensorboard_log=str(out / "tb"),
        seed=seed,
        device="cpu",
        verbose=0,
    )


def warm_start(model: MaskablePPO, game: str, config: TrainConfig, seed: int) -> None:
    """Clone ``warm_start_bot``'s play into the fresh policy (off when no bot is named)."""
    if not config.warm_start_bot or config.warm_start_decisions <= 0:
        return
    data = warmstart.collect(
        game,
        config.players,
        config.game_options,
        config.warm_start_bot,
        config.warm_start_decisions,
        seed,
    )
    accuracy = warmstart.clone_into(
        model.policy, data, config.warm_start_epochs, config.batch_size, seed
    )
    print(f"warm start: the policy matches {config.warm_start_bot} on {accuracy:.1%} of moves")


def load_model(path: Path, env: SelfPlayVecEnv) -> MaskablePPO:
    try:
        return MaskablePPO.load(path, env=env, device="cpu")
    except Exception as error:  # SB3 raises many kinds for a damaged zip
        raise ValueError(f"cannot resume from {path}: {type(error).__name__}: {error}") from None


def restore_pool(run: Run, pool: OpponentPool) -> None:
    snapshots = sorted(run.pool_dir.glob("snapshot_*.npz"), key=lambda p: int(p.stem[9:]))
    for path in snapshots[-pool.max_snapshots :]:
        pool.add_snapshot(read_policy(path), path.stem)


def train(
    game: str,
    config: TrainConfig,
    out: Path,
    seed: int,
    steps: int | None,
    minutes: float | None,
    resume: bool,
) -> Path:
    """Run self-play training; the path of the final policy file."""
    deadline = None if minutes is None else time.monotonic() + minutes * 60  # warm start counts
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    run = Run(out, game, config)
    out.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out / "config.json", {"game": game, "seed": seed, **config.to_dict()})
    pool = OpponentPool(
        game,
        seed,
        config.newest_prob,
        config.random_share,
        config.heuristic_share,
        config.max_snapshots,
    )
    env = SelfPlayVecEnv(game, config.players, config.n_envs, pool.draw, config.game_options, seed)
    if resume:
        model = load_model(run.latest_checkpoint(), env)
        restore_pool(run, pool)
    else:
        model = build_model(config, env, seed, out)
        warm_start(model, game, config, seed)
    total = steps if steps is not None else 10**12
    with tqdm(total=steps, unit="step", desc=f"training {game}", dynamic_ncols=True) as bar:
        callback = SelfPlayCallback(run, pool, deadline, bar)
        model.learn(total, callback=callback, reset_num_timesteps=not resume, progress_bar=False)
    network = callback.network()
    save_checkpoint(model, run, network)
    final = out / "policy.npz"
    network.save(final)
    return final


def final_evaluation(run: Run, policy: Path, games: int, seed: int) -> list[EvalResult]:
    results = evaluate(policy, run.game, run.config.players, games, seed, workers=2)
    write_json_atomic(run.out / "final_eval.json", [result.to_dict() for result in results])
    return results


def plot_curve(run: Run) -> Path | None:
    """Win rate against each baseline over training, with 95% intervals, as PNG."""
    if not run.curve.exists():
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader(run.curve.open()))
    figure, axes = plt.subplots(figsize=(7, 4))
    for label in sorted({row["against"] for row in rows}):
        own = [row for row in rows if row["against"] == label]
        x = [int(row["steps"]) for row in own]
        axes.plot(x, [float(row["win_rate"]) for row in own], marker="o", label=label)
        axes.fill_between(
            x, [float(r["low"]) for r in own], [float(r["high"]) for r in own], alpha=0.2
        )
    if not is_cooperative(run.game):
        axes.axhline(1 / run.config.players, color="grey", linestyle="--", label="fair share")
    axes.set(xlabel="environment steps", ylabel="win rate", ylim=(0, 1), title=run.game)
    axes.legend()
    figure.tight_layout()
    path = run.out / "learning_curve.png"
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def print_results(results: Sequence[EvalResult], policy: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Trained policy {policy}")
    for column in ("against", "games", "wins", "win rate", "95% interval", "mean return"):
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
    Console().print(table)


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog="tabletop-train", description=__doc__.split("\n")[0])
    parser.add_argument("game", help=f"one of {sorted(tabletop_envs.GAMES)}")
    parser.add_argument("--players", type=positive_int, help="player count (default: config)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, help="wall-clock training budget")
    budget.add_argument("--steps", type=positive_int, help="environment-step budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="run directory (default runs/GAME-Np-sSEED)")
    parser.add_argument("--resume", action="store_true", help="continue from the latest checkpoint")
    parser.add_argument("--config", type=Path, help="TOML file overriding the game's defaults")
    parser.add_argument("--eval-every", type=positive_int, help="steps between evaluations")
    parser.add_argument("--eval-games", type=positive_int, help="games per periodic evaluation")
    parser.add_argument("--final-eval-games", type=positive_int, help="games in the final table")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        game = tabletop_envs.resolve_name(args.game)
        core = tabletop_envs.game_module(game).Game
        config = load_config(core.NAME, args.config).replace(
            players=args.players,
            eval_every=args.eval_every,
            eval_games=args.eval_games,
            final_eval_games=args.final_eval_games,
        )
        core.check_players(config.players)
        core.resolve_options(config.game_options)
        if config.warm_start_bot:
            agent_factory(config.warm_start_bot, game)
        if args.minutes is not None and args.minutes <= 0:
            raise ValueError(f"--minutes must be positive, not {args.minutes}")
        steps = args.steps if args.steps or args.minutes else None
        minutes = args.minutes if args.minutes else (None if steps else 5.0)
        out = args.out or Path("runs") / f"{core.NAME}-{config.players}p-s{args.seed}"
        run = Run(out, game, config)
        policy = train(game, config, out, args.seed, steps, minutes, args.resume)
        results = final_evaluation(run, policy, config.final_eval_games, args.seed + 1)
    except ValueError as error:
        return fail("tabletop-train", str(error))
    print_results(results, policy)
    plot = plot_curve(run)
    print(f"policy: {policy}" + (f"\nlearning curve: {plot}" if plot else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
