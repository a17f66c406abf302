"""``tabletop-train``: self-play MaskablePPO with an opponent pool, evaluation and checkpoints
(``--algo ppo``), or expert iteration (``--algo exit``, ``tabletop_envs.training.exit.cli``).

This module is the command line: flags, settings and the run folder, then a backend trains
(``tabletop_envs.training.sb3`` or ``tabletop_envs.training.rllib.trainer``) and
``tabletop_envs.training.report`` shows the result.

The run folder holds config.json (the settings, read back by --resume), checkpoints/
(checkpoint_N.pt to resume from and policy_N.npz, the newest few and the best evaluated,
named in best.json), pool/ (the snapshots opponents are drawn from), learning_curve.csv and
.png, TensorBoard logs under tb/, the final policy.npz (a bot for tabletop-eval and
tabletop-play) and final_eval.json.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tabletop_envs.agents.files import check_output_folder
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.training.budget import Interrupted, StopRequest, TrainingBudget, progress_bar
from tabletop_envs.training.config import TrainConfig, check_config, load_config
from tabletop_envs.training.exit.cli import EXIT_ONLY, add_exit_flags, given, refuse, train_exit
from tabletop_envs.training.report import (
    comparison,
    final_evaluation,
    print_results,
    report_curve,
)
from tabletop_envs.training.run import Run, RunSettings, read_run_settings, run_algorithm
from tabletop_envs.training.sb3 import Trainer, run_session

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

BACKENDS = ("sb3", "rllib")
ALGORITHMS = ("ppo", "exit")
PPO_ONLY = (
    "steps",
    "config",
    "backend",
    "num_env_runners",
    "address",
    "eval_every",
    "eval_every_seconds",
    "eval_games",
    "final_eval_games",
    "keep_checkpoints",
)
"""The flags of ``--algo ppo`` alone (argparse destinations)."""

DEFAULT_ENV_RUNNERS = 1
SESSION_KEYS = (
    "eval_every",
    "eval_every_seconds",
    "eval_games",
    "final_eval_games",
    "keep_checkpoints",
)
"""Settings a resumed run may change for the new session: they decide what is measured and
kept, not what is trained."""


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__)
    parser.add_argument("game", help=f"one of {sorted(tabletop_envs.GAMES)}")
    parser.add_argument(
        "--players", type=positive_int, help="player count (default: the game's config)"
    )
    parser.add_argument(
        "--algo",
        choices=ALGORITHMS,
        default="ppo",
        help="ppo: self-play MaskablePPO; exit: expert iteration, a policy-value network that "
        "learns from search and guides it (docs/training.md)",
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--minutes",
        type=positive_float,
        help=f"wall-clock budget, warm start included (default: {DEFAULT_MINUTES:g} "
        "when --steps is not given; --algo exit: none)",
    )
    budget.add_argument(
        "--steps",
        type=positive_int,
        help="--algo ppo: PPO steps; with --resume, steps to add (default: none)",
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
        help="--algo ppo: TOML file overriding the game's settings (default: "
        "training/configs/GAME.toml)",
    )
    add_backend_flags(parser)
    add_exit_flags(parser, budget)
    for flag, what in (
        ("--eval-every", "steps between evaluations"),
        ("--eval-games", "games per periodic evaluation"),
        ("--final-eval-games", "games in the final table"),
        ("--keep-checkpoints", "newest checkpoints kept (the best is kept too)"),
    ):
        parser.add_argument(
            flag, type=positive_int, help=f"--algo ppo: {what} (default: the config's)"
        )
    parser.add_argument(
        "--eval-every-seconds",
        type=positive_float,
        help="--algo ppo: evaluate every this many seconds of training instead of --eval-every "
        "steps "
        "(default: the config's)",
    )
    return parser


def add_backend_flags(parser: OneLineParser) -> None:
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        help="sb3: MaskablePPO in this process; rllib: RLlib PPO on Ray (docs/scaling.md) "
        "(default: sb3)",
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
        if run_algorithm(out) == "exit":
            raise ValueError(
                f"--resume: {out} holds an expert-iteration run; resume it with --algo exit"
            )
        settings = read_run_settings(out)
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
    game_name: str,
    config: TrainConfig,
    settings: RunSettings,
    out: Path,
) -> None:
    """Refuse --resume flags that contradict the run in ``out``."""
    conflicts = []
    if game_name != settings.game:
        conflicts.append(f"game {game_name} (the run's is {settings.game})")
    if args.players is not None and args.players != settings.config.players:
        conflicts.append(f"--players {args.players} (the run's is {settings.config.players})")
    if args.seed is not None and args.seed != settings.seed:
        conflicts.append(f"--seed {args.seed} (the run's is {settings.seed})")
    if args.config is not None and game_name == settings.game:
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


def budget_from(args: argparse.Namespace) -> TrainingBudget:
    if args.steps is None and args.minutes is None:
        return TrainingBudget(None, DEFAULT_MINUTES)
    return TrainingBudget(args.steps, args.minutes)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.algo == "exit":
        return train_exit(args, PPO_ONLY)
    try:
        refuse(given(args, EXIT_ONLY), "exit")
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
        policy = run_session(trainer, args.resume)
        minutes = trainer.minutes()
        games, seed = run.config.final_eval_games, settings.seed + 1
        results = final_evaluation(run, policy, games, seed)
        print_results(results, run, policy, trainer.session.describe(run.config.n_epochs))
        print(comparison(run, results, games, seed, minutes))
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
    report_curve(run, trainer.session.end_steps - trainer.session.start_steps)
    return 0


def train_on_rllib(run: Run, budget: TrainingBudget, args: argparse.Namespace) -> int:
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


if __name__ == "__main__":
    sys.exit(main())
