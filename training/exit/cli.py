"""``tabletop-train GAME --algo exit``: expert iteration (``loop.py``) behind the training
command line: its flags, settings and run folder, the session's rounds, progress and Ctrl-C,
then the learning curve as a table and a plot (``report.py``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import Field, fields, replace
from pathlib import Path
from typing import Any

from tabletop_envs.agents.policy import read_policy
from tabletop_envs.training.budget import RoundBudget, StopRequest
from tabletop_envs.training.config import load_config
from tabletop_envs.training.exit.fit import FitSettings, hidden_widths
from tabletop_envs.training.exit.loop import ExitRun, ExitSettings
from tabletop_envs.training.exit.report import print_report
from tabletop_envs.training.run import check_fresh_folder, run_algorithm
from tqdm import tqdm

import tabletop_envs
from tabletop_envs.cli import (
    EXIT_INTERRUPTED,
    UsageError,
    add_workers_flags,
    check_workers,
    fail,
    positive_int,
)

PROG = "tabletop-train"


def setting_fields() -> list[tuple[str, Field]]:
    """The settings that are flags: ``("fit", field)`` for the fitting's, ``("", field)``
    for the loop's."""
    own = [("", item) for item in fields(ExitSettings) if item.metadata.get("what")]
    return own + [("fit", item) for item in fields(FitSettings) if item.metadata.get("what")]


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def number_of(kind: type) -> Any:
    """An argparse type reading a whole number (``kind`` int) or a finite number."""

    def read(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise argparse.ArgumentTypeError(f"{text} is not a finite number")
        return value

    return read


EXIT_ONLY = (
    "rounds",
    *(item.name for _, item in setting_fields()),
    "init_policy",
    "workers",
    "oversubscribe",
)
"""The flags of ``--algo exit`` alone (argparse destinations)."""


def add_exit_flags(parser: argparse.ArgumentParser, budget: Any) -> None:
    """``--rounds`` in the ``budget`` group beside ``--minutes`` and ``--steps``, and the
    settings of expert iteration (default None: a flag given to PPO is then refused)."""
    budget.add_argument(
        "--rounds",
        type=positive_int,
        help="--algo exit: rounds to play in this session (default: 1 when --minutes is not given)",
    )
    group = parser.add_argument_group("--algo exit (expert iteration)")
    for _, item in setting_fields():
        default = item.default
        group.add_argument(
            flag(item.name),
            type=number_of(type(default)),
            help=f"{item.metadata['what']} (default: {default:g}; "
            f"{item.metadata['rule'].accepted})",
        )
    group.add_argument(
        "--init-policy",
        type=Path,
        metavar="PATH",
        help="a policy file (.npz, e.g. a shipped one) whose trunk and policy head the first "
        "network starts from, with a fresh value head (default: a fresh network)",
    )
    add_workers_flags(group, None, "processes playing each round's games (default: 1)")


def given(args: argparse.Namespace, names: Iterable[str]) -> list[str]:
    """The flags among ``names`` set on the command line."""
    return [flag(name) for name in names if getattr(args, name, None) not in (None, False)]


def refuse(flags: list[str], algo: str) -> None:
    if flags:
        verb = "apply" if len(flags) > 1 else "applies"
        raise ValueError(f"{', '.join(flags)} {verb} to --algo {algo} only")


def chosen_settings(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The settings given as flags, each checked: ``{"": {...}, "fit": {...}}``."""
    chosen: dict[str, dict[str, Any]] = {"": {}, "fit": {}}
    for owner, item in setting_fields():
        value = getattr(args, item.name)
        if value is None:
            continue
        rule = item.metadata["rule"]
        if not rule.test(value):
            raise ValueError(f"{flag(item.name)} {value}: expected {rule.accepted}")
        chosen[owner][item.name] = value
    return chosen


def resolve(args: argparse.Namespace) -> tuple[ExitSettings, Path]:
    """A fresh run's settings from the flags (players: the game's training config's), or
    the resumed run's, refusing flags that contradict them."""
    game = tabletop_envs.resolve_name(args.game)
    core = tabletop_envs.game_module(game).Game
    players = args.players or load_config(core.NAME).players
    core.check_players(players)
    seed = 0 if args.seed is None else args.seed
    out = args.out or Path("runs") / f"{core.NAME}-{players}p-s{seed}-exit"
    chosen = chosen_settings(args)
    if args.init_policy is not None:
        chosen[""].update(starting_point(args.init_policy))
    fresh = ExitSettings(game, players, seed, **chosen[""])
    fresh = replace(fresh, fit=replace(fresh.fit, **chosen["fit"]))
    if fresh.init_policy:
        fresh.starting_policy("--init-policy")
    return fresh, out


def starting_point(path: Path) -> dict[str, Any]:
    """The settings ``--init-policy PATH`` fixes: the file (absolute, for a resume from
    elsewhere) and the network's hidden widths, which are the file's."""
    try:
        policy = read_policy(path)
    except (OSError, ValueError) as error:
        raise ValueError(f"--init-policy: {error}") from None
    return {"init_policy": str(path.resolve()), "hidden": hidden_widths(policy)}


def check_resume(args: argparse.Namespace, fresh: ExitSettings, saved: ExitSettings) -> None:
    """Refuse flags on ``--resume`` that contradict the run's settings."""
    conflicts = []
    if fresh.game != saved.game:
        conflicts.append(f"game {fresh.game} (the run's is {saved.game})")
    for name, value in (("players", args.players), ("seed", args.seed)):
        if value is not None and value != getattr(saved, name):
            conflicts.append(f"--{name} {value} (the run's is {getattr(saved, name)})")
    for owner, item in setting_fields():
        value = getattr(args, item.name)
        theirs = getattr(saved.fit if owner else saved, item.name)
        if value is not None and value != theirs:
            conflicts.append(f"{flag(item.name)} {value} (the run's is {theirs})")
    if args.init_policy is not None and fresh.init_policy != saved.init_policy:
        theirs = saved.init_policy or "none"
        conflicts.append(f"--init-policy {args.init_policy} (the run's is {theirs})")
    if conflicts:
        raise ValueError(
            "--resume continues the run with its own settings; these contradict it: "
            + "; ".join(conflicts)
            + ". Drop them, or start a new run with another --out"
        )


def open_run(args: argparse.Namespace) -> ExitRun:
    """The run to train: resumed from, or created in, ``--out`` (checked first)."""
    fresh, out = resolve(args)
    if args.resume:
        if run_algorithm(out) == "ppo":
            raise ValueError(f"--resume: {out} holds a PPO run; resume it without --algo exit")
        run = ExitRun.resume(out)
        check_resume(args, fresh, run.settings)
        return run
    check_fresh_folder(out, args.overwrite)
    ExitRun(out, fresh)  # refuses a path an agent spec cannot hold, before the folder changes
    return ExitRun.create(out, fresh)


def train_exit(args: argparse.Namespace, ppo_only: Iterable[str]) -> int:
    """The ``--algo exit`` session: exit code 0, 2 (bad input), 1 (cannot write) or 130."""
    try:
        refuse(given(args, ppo_only), "ppo")
        if args.workers is None:
            args.workers = 1
        workers = check_workers(args)
        budget = RoundBudget(None if args.minutes else args.rounds or 1, args.minutes)
        run = open_run(args)
    except (UsageError, ValueError) as error:
        return fail(PROG, str(error))
    settings = run.settings
    print(
        f"expert iteration on {settings.game}, {settings.players} players, into {run.out} "
        f"for {budget.describe()}, on {workers} worker{'s' if workers > 1 else ''}; "
        f"{run.state['rounds']} round(s) done before"
    )
    resume = f"{PROG} {settings.game} --algo exit --resume --out {run.out}"
    stopping = "stopping after this round (its games, fit and gate are then saved)"
    try:
        with StopRequest(stopping) as stop, progress(run, budget) as bar:
            played, last = 0, None
            while budget.another(played, last) and not stop.requested:
                bar.set_postfix_str(f"round {run.state['rounds'] + 1}")
                row = run.play_round(workers, bar.write, lambda: bar.update(1))
                played, last = played + 1, row["seconds"]
    except KeyboardInterrupt:
        print(
            f"{PROG}: stopped at once; the rounds before are saved and round "
            f"{run.state['rounds'] + 1} is played again by: {resume}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except OSError as error:
        return fail(PROG, f"cannot write the run to {run.out}: {error}", code=1)
    except ValueError as error:
        return fail(PROG, f"round {run.state['rounds'] + 1} failed: {error}", code=1)
    print_report(run)
    if stop.requested:
        print(f"{PROG}: interrupted; continue with: {resume}", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def progress(run: ExitRun, budget: RoundBudget) -> tqdm:
    """Games played (search games, gate and curve) with their rate; the total and the time
    left when the session counts rounds."""
    settings = run.settings
    per_round = settings.games + settings.gate_games + 2 * settings.curve_games
    total = per_round * budget.rounds if budget.rounds is not None else None
    layout = "{desc}: {n_fmt}" + ("/{total_fmt}" if total else "") + " games [{elapsed}"
    layout += ("<{remaining}" if total else "") + ", {rate_fmt}{postfix}]"
    return tqdm(
        total=total,
        desc=f"expert iteration {settings.game}",
        unit=" games",
        bar_format=layout,
        dynamic_ncols=True,
    )
