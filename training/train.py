"""``tabletop-train``: self-play MaskablePPO with an opponent pool, evaluation and checkpoints.

The run folder holds config.json (the settings, read back by --resume), checkpoints/
(checkpoint_N.pt to resume from and policy_N.npz, the newest few and the best evaluated,
named in best.json), pool/ (the snapshots opponents are drawn from), learning_curve.csv and
.png, TensorBoard logs under tb/, the final policy.npz (a bot for tabletop-eval and
tabletop-play) and final_eval.json.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shlex
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.vec_env import VecEnv
from tabletop_envs.agents.files import check_output_folder, write_atomic
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.agents.policy import PolicyNetwork, read_policy
from tabletop_envs.training import warmstart
from tabletop_envs.training.config import TrainConfig, check_config, load_config
from tabletop_envs.training.evaluation import EvalResult, evaluate, headline, is_cooperative
from tabletop_envs.training.export import activation_module, export_actor
from tabletop_envs.training.opponents import OpponentPool
from tabletop_envs.training.run import Run, RunSettings, read_settings
from tabletop_envs.training.selfplay import rollout_callbacks, selfplay_env
from tqdm import tqdm

import tabletop_envs
from tabletop_envs.cli import (
    EXIT_INTERRUPTED,
    OneLineParser,
    fail,
    positive_float,
    positive_int,
    seed_int,
)

PROG = "tabletop-train"
DEFAULT_MINUTES = 5.0
LOW_PPO_SHARE = 0.5  # warn when the warm start leaves less than this share of --minutes
BACKENDS = ("sb3", "rllib")
DEFAULT_ENV_RUNNERS = 1
SESSION_KEYS = ("eval_every", "eval_games", "final_eval_games", "keep_checkpoints")
"""Settings a resumed run may change for the new session: they decide what is measured and
kept, not what is trained."""


class Interrupted(Exception):
    """Training stopped by Ctrl-C; the message says what was saved and how to go on."""


@dataclass
class Budget:
    """This session's budget: PPO steps, or wall-clock minutes that include the warm start."""

    steps: int | None
    minutes: float | None
    started: float = field(default_factory=time.monotonic)

    @property
    def deadline(self) -> float | None:
        return None if self.minutes is None else self.started + self.minutes * 60

    def seconds_left(self) -> float:
        deadline = self.deadline
        return float("inf") if deadline is None else max(0.0, deadline - time.monotonic())

    def describe(self) -> str:
        if self.steps is not None:
            return f"{self.steps:,} PPO steps"
        return f"{self.minutes:g} minutes (warm start included)"

    def warm_start_report(self, seconds: float) -> list[str]:
        """The warm start's share of the budget, and a warning when little is left for PPO."""
        if self.minutes is None:
            return [f"warm start: {seconds:.0f} s (the --steps budget counts PPO steps only)"]
        total = self.minutes * 60
        left = self.seconds_left()
        lines = [
            f"warm start: {seconds:.0f} s, {seconds / total:.0%} of the {self.minutes:g}-minute "
            f"budget; {left:.0f} s left for PPO"
        ]
        if left < LOW_PPO_SHARE * total:
            lines.append(
                "warning: the warm start leaves little time for PPO; raise --minutes, or lower "
                "warm_start_decisions with --config"
            )
        return lines


@dataclass
class Session:
    """What this invocation trained, for the final table's title."""

    warm_start: str = ""
    start_steps: int = 0
    end_steps: int = 0
    start_updates: int = 0
    end_updates: int = 0

    def describe(self, n_epochs: int) -> str:
        steps = self.end_steps - self.start_steps
        updates = (self.end_updates - self.start_updates) // n_epochs
        if updates:
            ppo = f"{steps:,} PPO steps ({updates} update{'s' if updates > 1 else ''})"
        else:
            ppo = f"no PPO update ({steps:,} steps collected, less than one rollout)"
        parts = [self.warm_start, ppo] if self.warm_start else [ppo]
        text = " + ".join(parts)
        if self.start_steps:
            text = f"resumed at step {self.start_steps:,}: {text}, {self.end_steps:,} in all"
        return text


class StopRequest:
    """The first Ctrl-C asks training to stop after the current step (a checkpoint is then
    saved); a second one stops at once, without saving."""

    def __init__(self) -> None:
        self.requested = False
        self.previous: Any = None

    def __enter__(self) -> StopRequest:
        self.previous = signal.signal(signal.SIGINT, self.handle)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGINT, self.previous)

    def handle(self, signum: int, frame: object) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        print(
            "\nCtrl-C: stopping after this step to save a checkpoint "
            "(Ctrl-C again stops at once, without saving)",
            file=sys.stderr,
        )


class SelfPlayCallback(BaseCallback):
    """Snapshots into the pool, periodic evaluation, checkpoints, the budget, progress."""

    def __init__(self, trainer: Trainer, bar: tqdm, stop: StopRequest) -> None:
        super().__init__()
        self.trainer = trainer
        self.run = trainer.run
        self.bar = bar
        self.stop = stop
        self.rollouts = 0
        self.next_eval = 0
        self.next_checkpoint = 0
        self.latest: dict[str, float] = {}

    def _on_training_start(self) -> None:
        config = self.run.config
        steps = self.num_timesteps
        self.next_eval = steps + config.eval_every
        self.next_checkpoint = steps + config.checkpoint_every
        if not self.trainer.pool.snapshots:
            self.add_snapshot()
        self.show_postfix()

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        if self.num_timesteps >= self.next_eval:
            self.evaluate()
        elif self.num_timesteps >= self.next_checkpoint:
            self.checkpoint()
        return not self.stop.requested and self.trainer.budget.seconds_left() > 0

    def _on_rollout_end(self) -> None:
        self.rollouts += 1
        if self.rollouts % self.run.config.snapshot_every == 0:
            self.add_snapshot()
        self.show_postfix()

    def show_postfix(self) -> None:
        parts = [f"vs {name} {rate:.0%}" for name, rate in self.latest.items()]
        left = self.trainer.budget.seconds_left()
        if left != float("inf"):
            parts.append(f"ETA {int(left // 60):02d}:{int(left % 60):02d}")
        self.bar.set_postfix_str(", ".join(parts))

    def add_snapshot(self) -> None:
        network = self.trainer.network()
        path = self.run.pool_dir / f"snapshot_{self.num_timesteps}.npz"
        network.save(path)
        self.trainer.pool.add_snapshot(network, path.stem)

    def checkpoint(self) -> None:
        self.next_checkpoint = self.num_timesteps + self.run.config.checkpoint_every
        self.trainer.checkpoint()

    def evaluate(self) -> None:
        """A checkpoint, its policy against the baselines, the curve and the best step."""
        config = self.run.config
        self.next_eval = self.num_timesteps + config.eval_every
        self.next_checkpoint = self.num_timesteps + config.checkpoint_every
        steps = self.num_timesteps
        self.trainer.checkpoint()
        policy = self.run.policy_path(steps)
        results = evaluate(policy, self.run.game, config.players, config.eval_games, seed=steps)
        self.run.add_to_curve(steps, self.trainer.minutes(), results)
        for result in results:
            self.logger.record(f"eval/win_rate_{result.label.replace(' ', '_')}", result.win_rate)
            self.latest[result.label] = result.win_rate
        if self.run.record_best(steps, headline(results, self.run.game)):
            self.run.prune(steps)
        self.show_postfix()


class Trainer:
    """One session of a run: the model (fresh, or restored from the latest checkpoint), its
    opponents and environments, and the budget."""

    def __init__(self, run: Run, budget: Budget, resume: bool) -> None:
        self.run = run
        self.budget = budget
        config = run.config
        torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
        self.previous_minutes = 0.0
        seed = run.settings.seed
        if resume:
            latest = run.latest_checkpoint()
            seed = seed + int(latest.stem[11:])  # new games and draws in each session
        self.pool = OpponentPool(
            run.game,
            seed,
            config.newest_prob,
            config.random_share,
            config.heuristic_share,
            config.max_snapshots,
        )
        self.env = selfplay_env(
            run.game,
            config.players,
            config.n_envs,
            self.pool,
            config.env_workers,
            config.game_options,
            seed,
            config.advice,
        )
        self.model = build_model(config, self.env, seed, run.out)
        self.session = Session()
        if resume:
            checkpoint = run.load_checkpoint(self.model, latest)
            self.previous_minutes = checkpoint.minutes
            self.session.start_steps = checkpoint.steps
            self.session.start_updates = checkpoint.updates
            self.restore_pool(checkpoint.steps)

    def minutes(self) -> float:
        """Training minutes of the run so far, all sessions together."""
        return self.previous_minutes + (time.monotonic() - self.budget.started) / 60

    def network(self) -> PolicyNetwork:
        steps = self.model.num_timesteps
        return export_actor(self.model.policy, self.run.config.activation, self.run.meta(steps))

    def checkpoint(self) -> Path:
        path = self.run.save_checkpoint(self.model, self.network(), self.minutes())
        best = self.run.best()
        self.run.prune(None if best is None else best["steps"])
        return path

    def resume_command(self) -> str:
        return f"tabletop-train {self.run.game} --resume --out {shlex.quote(str(self.run.out))}"

    def warm_start(self) -> None:
        """Clone ``warm_start_bot``'s play into the fresh policy (off when no bot is named).
        An advised policy starts as its advisor instead, and the bot's games teach only its
        critic (the returns of the play it starts from); it has no DAgger rounds."""
        config, run = self.run.config, self.run
        if config.advice:
            actions = int(self.env.action_space.n)
            warmstart.start_as_advisor(self.model.policy, actions, config.advice_weight)
            print(f"advised policy: starts as the {config.advice} bot's moves")
            self.session.warm_start = f"started as the {config.advice} bot (advice)"
        if not config.warm_start_bot or config.warm_start_decisions <= 0:
            return
        started, bot = time.monotonic(), config.warm_start_bot
        try:
            data = warmstart.collect(
                run.game,
                config.players,
                config.game_options,
                bot,
                config.warm_start_decisions,
                run.settings.seed,
                config.advice,
                config.gamma,
            )
            accuracy = warmstart.clone_into(
                self.model.policy,
                data,
                config.warm_start_epochs,
                config.batch_size,
                run.settings.seed,
                actor=not config.advice,
            )
            agreements: list[float] = []
            if not config.advice:
                data, agreements = warmstart.dagger(
                    self.model.policy,
                    data,
                    self.cloning(),
                    config.warm_start_dagger_rounds,
                    config.warm_start_dagger_decisions,
                )
        except KeyboardInterrupt:
            raise Interrupted(
                f"interrupted during the warm start, before any checkpoint; start again with "
                f"--overwrite to reuse {run.out}"
            ) from None
        decisions = f"{len(data.actions):,} decisions"
        if config.advice:
            print(f"warm start: the critic learnt the returns of {decisions} of {bot}; the")
            print(f"  advised actor, unchanged, plays {bot}'s move on {accuracy:.1%} of them")
            self.session.warm_start += f", critic fitted to {decisions} of {bot}"
        else:
            print(f"warm start: the policy matches {bot} on {accuracy:.1%} of moves")
            if agreements:
                rounds = ", ".join(f"{a:.1%}" for a in agreements)
                print(f"warm start: DAgger rounds, agreement on the policy's own states: {rounds}")
                decisions += f", {len(agreements)} DAgger rounds"
            self.session.warm_start = f"warm start (clone of {bot}, {decisions})"
        for line in self.budget.warm_start_report(time.monotonic() - started):
            print(line)

    def cloning(self) -> warmstart.Cloning:
        """The warm start's games and fitting settings, for its DAgger rounds."""
        config = self.run.config
        return warmstart.Cloning(
            self.run.game,
            config.players,
            config.game_options,
            config.warm_start_bot,
            config.activation,
            config.warm_start_epochs,
            config.batch_size,
            self.run.settings.seed,
            config.gamma,
        )

    def learn(self) -> None:
        """PPO until the budget is spent or Ctrl-C; then a checkpoint."""
        model, budget, run = self.model, self.budget, self.run
        total = budget.steps if budget.steps is not None else 10**12
        resume = self.session.start_steps > 0
        with progress_bar(budget, run.game) as bar, StopRequest() as stop:
            callback = CallbackList(
                [SelfPlayCallback(self, bar, stop), *rollout_callbacks(self.env)]
            )
            try:
                model.learn(total, callback=callback, reset_num_timesteps=not resume)
            except KeyboardInterrupt:
                steps = run.checkpoint_steps()
                latest = f"the latest is {run.checkpoint_path(steps[-1])}" if steps else "none yet"
                raise Interrupted(f"stopped without saving a checkpoint ({latest})") from None
        path = self.checkpoint()
        self.session.end_steps = int(model.num_timesteps)
        self.session.end_updates = int(model._n_updates)
        if stop.requested:
            raise Interrupted(
                f"interrupted at step {model.num_timesteps:,}: checkpoint saved to {path}\n"
                f"resume with: {self.resume_command()}"
            )

    def finish(self) -> Path:
        """The final policy file."""
        final = self.run.out / "policy.npz"
        self.network().save(final)
        return final

    def restore_pool(self, steps: int) -> None:
        """The pool as it was at ``steps`` (a damaged snapshot file raises ValueError)."""
        snapshots = [p for p in self.run.snapshots() if int(p.stem[9:]) <= steps]
        for path in snapshots[-self.pool.max_snapshots :]:
            self.pool.add_snapshot(read_policy(path), path.stem)


def progress_bar(budget: Budget, game: str) -> tqdm:
    """One rate (steps/s) and the time left: tqdm's for --steps, the deadline's for --minutes."""
    if budget.steps is not None:
        layout = "{desc}: {n_fmt}/{total_fmt} steps [{elapsed}<{remaining}, {rate_fmt}{postfix}]"
    else:
        layout = "{desc}: {n_fmt} steps [{elapsed}, {rate_fmt}{postfix}]"
    return tqdm(
        total=budget.steps,
        desc=f"training {game}",
        unit=" steps",
        bar_format=layout,
        dynamic_ncols=True,
    )


def build_model(config: TrainConfig, env: VecEnv, seed: int, out: Path) -> MaskablePPO:
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


def train(trainer: Trainer, resume: bool) -> Path:
    """Run one session (warm start first on a fresh run); the path of the final policy."""
    run = trainer.run
    if resume:
        run.drop_after(trainer.session.start_steps)
        print(
            f"resuming {run.out} at step {trainer.session.start_steps:,} "
            f"for {trainer.budget.describe()} more"
        )
    else:
        run.create()
        print(f"training {run.game} into {run.out} for {trainer.budget.describe()}")
        trainer.warm_start()
    try:
        trainer.learn()
    finally:
        trainer.env.close()
    return trainer.finish()


def final_evaluation(run: Run, policy: Path, games: int, seed: int) -> list[EvalResult]:
    results = evaluate(policy, run.game, run.config.players, games, seed, workers=2)
    write_atomic(run.out / "final_eval.json", json.dumps([r.to_dict() for r in results], indent=2))
    return results


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


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__)
    parser.add_argument("game", help=f"one of {sorted(tabletop_envs.GAMES)}")
    parser.add_argument(
        "--players", type=positive_int, help="player count (default: the game's config)"
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--minutes",
        type=positive_float,
        help=f"wall-clock budget, warm start included (default: {DEFAULT_MINUTES:g} "
        "when --steps is not given)",
    )
    budget.add_argument(
        "--steps", type=positive_int, help="PPO steps; with --resume, steps to add (default: none)"
    )
    parser.add_argument(
        "--seed", type=seed_int, help="seed, from 0 (default: 0, or the run's with --resume)"
    )
    parser.add_argument("--out", type=Path, help="run folder (default: runs/GAME-Np-sSEED)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out from its latest checkpoint, with its settings",
    )
    start.add_argument(
        "--overwrite", action="store_true", help="clear the earlier run in --out and start anew"
    )
    parser.add_argument(
        "--config",
        type=Path,
        help="TOML file overriding the game's settings (default: training/configs/GAME.toml)",
    )
    add_backend_flags(parser)
    for flag, what in (
        ("--eval-every", "steps between evaluations"),
        ("--eval-games", "games per periodic evaluation"),
        ("--final-eval-games", "games in the final table"),
        ("--keep-checkpoints", "newest checkpoints kept (the best is kept too)"),
    ):
        parser.add_argument(flag, type=positive_int, help=f"{what} (default: the config's)")
    return parser


def add_backend_flags(parser: OneLineParser) -> None:
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="sb3",
        help="sb3: MaskablePPO in this process; rllib: RLlib PPO on Ray (docs/scaling.md)",
    )
    parser.add_argument(
        "--num-env-runners",
        type=seed_int,  # a whole number >= 0
        help="--backend rllib: RLlib env runners (processes) sampling games, 0 samples in "
        f"this process (default: {DEFAULT_ENV_RUNNERS})",
    )
    parser.add_argument(
        "--address",
        help="--backend rllib: the Ray cluster to train on, ray://HOST:PORT, HOST:PORT or auto "
        "(default: a local Ray instance)",
    )


def check_backend_flags(args: argparse.Namespace) -> None:
    """Refuse RLlib-only flags without ``--backend rllib``, and what RLlib runs cannot do."""
    if args.backend != "rllib":
        rllib_only = {"--num-env-runners": args.num_env_runners, "--address": args.address}
        given = [flag for flag, value in rllib_only.items() if value is not None]
        if given:
            verb = "apply" if len(given) > 1 else "applies"
            raise ValueError(f"{' and '.join(given)} {verb} to --backend rllib only")
        return
    from tabletop_envs.training.rllib import check_address, require_ray

    if args.resume:
        raise ValueError(
            "--resume is for --backend sb3 runs; an RLlib run starts fresh (--overwrite to "
            "reuse its folder)"
        )
    if args.address is not None:
        check_address(args.address)
    require_ray("--backend rllib")


def resolve_settings(args: argparse.Namespace) -> tuple[RunSettings, Path]:
    """The run's settings and folder: a fresh run's from its config and flags, a resumed
    run's from its config.json, refusing flags that contradict it (ValueError)."""
    game = tabletop_envs.resolve_name(args.game)
    core = tabletop_envs.game_module(game).Game
    config = load_config(core.NAME, args.config).replace(players=args.players)
    seed = 0 if args.seed is None else args.seed
    out = args.out or Path("runs") / f"{core.NAME}-{config.players}p-s{seed}"
    if args.resume:
        settings = read_settings(out)
        check_resume_flags(args, game, config, settings, out)
    else:
        settings = RunSettings(game, seed, config)
    overrides = {key: getattr(args, key) for key in SESSION_KEYS}
    config = check_config(settings.config.replace(**overrides), "the command line")
    settings = RunSettings(settings.game, settings.seed, config)
    core.check_players(config.players)
    core.resolve_options(config.game_options)
    if config.warm_start_bot:
        agent_factory(config.warm_start_bot, game, config.players)
    return settings, out


def check_resume_flags(
    args: argparse.Namespace,
    game: str,
    config: TrainConfig,
    settings: RunSettings,
    out: Path,
) -> None:
    """Refuse --resume flags that contradict the run in ``out``."""
    conflicts = []
    if game != settings.game:
        conflicts.append(f"game {game} (the run's is {settings.game})")
    if args.players is not None and args.players != settings.config.players:
        conflicts.append(f"--players {args.players} (the run's is {settings.config.players})")
    if args.seed is not None and args.seed != settings.seed:
        conflicts.append(f"--seed {args.seed} (the run's is {settings.seed})")
    if args.config is not None and game == settings.game:
        ours, theirs = config.to_dict(), settings.config.to_dict()
        differ = [
            f"{key} {ours[key]!r} (run: {theirs[key]!r})"
            for key in ours
            if key not in SESSION_KEYS and ours[key] != theirs[key]
        ]
        if differ:
            conflicts.append(f"--config {args.config} sets " + ", ".join(differ))
    if conflicts:
        raise ValueError(
            f"--resume continues the run in {out} with its own settings; these contradict it: "
            + "; ".join(conflicts)
            + ". Drop them, or start a new run with another --out"
        )


def budget_from(args: argparse.Namespace) -> Budget:
    if args.steps is None and args.minutes is None:
        return Budget(None, DEFAULT_MINUTES)
    return Budget(args.steps, args.minutes)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        check_backend_flags(args)
        settings, out = resolve_settings(args)
        run = Run(out, settings)
        if args.resume:
            check_output_folder(out, "--out")
        else:
            run.check_fresh(args.overwrite)
        trainer = None if args.backend == "rllib" else Trainer(run, budget_from(args), args.resume)
    except ValueError as error:
        return fail(PROG, str(error))
    if trainer is None:
        if run.config.advice:
            return fail(PROG, "advice (an advised policy) is for --backend sb3 runs only")
        return train_on_rllib(run, budget_from(args), args)
    try:
        policy = train(trainer, args.resume)
        results = final_evaluation(run, policy, run.config.final_eval_games, settings.seed + 1)
    except Interrupted as stop:
        print(f"{PROG}: {stop}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print(
            f"{PROG}: interrupted during the final evaluation; the trained policy is saved "
            f"({out / 'policy.npz'}), final_eval.json is not written",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except OSError as error:
        return fail(PROG, f"cannot write the run to {out}: {error}", code=1)
    print_results(results, run, policy, trainer.session.describe(run.config.n_epochs))
    report_curve(run, trainer.session)
    return 0


def train_on_rllib(run: Run, budget: Budget, args: argparse.Namespace) -> int:
    """A fresh run on RLlib (``tabletop_envs.training.rllib``), then the same final table as the
    SB3 path."""
    from tabletop_envs.training.rllib.trainer import Cluster, RLlibTrainer

    if run.config.warm_start_bot:
        print("note: --backend rllib has no warm start; warm_start_bot is not used")
    run.create()
    runners = DEFAULT_ENV_RUNNERS if args.num_env_runners is None else args.num_env_runners
    print(f"training {run.game} on RLlib into {run.out} for {budget.describe()}")
    trainer = RLlibTrainer(run, budget, Cluster(runners, args.address))
    try:
        with progress_bar(budget, run.game) as bar, StopRequest() as stop:
            policy = trainer.train(lambda t: bar.update(t.steps - bar.n), lambda: stop.requested)
    except OSError as error:
        return fail(PROG, f"cannot write the run to {run.out}: {error}", code=1)
    except KeyboardInterrupt:
        print(f"{PROG}: stopped at once; no final policy.npz written", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        trainer.stop()
    if stop.requested:
        print(f"{PROG}: interrupted at step {trainer.steps:,}: {policy} saved", file=sys.stderr)
        return EXIT_INTERRUPTED
    try:
        results = final_evaluation(run, policy, run.config.final_eval_games, run.settings.seed + 1)
    except KeyboardInterrupt:
        print(
            f"{PROG}: interrupted during the final evaluation; {policy} is saved", file=sys.stderr
        )
        return EXIT_INTERRUPTED
    print_results(results, run, policy, trainer.describe())
    return 0


def report_curve(run: Run, session: Session) -> None:
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
        trained = session.end_steps - session.start_steps
        print(
            f"no learning curve: no evaluation ran (one every {run.config.eval_every:,} steps; "
            f"this session trained {trained:,})"
        )


if __name__ == "__main__":
    sys.exit(main())
