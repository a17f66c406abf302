"""``python -m tabletop_envs.training.exit GAME``: expert iteration (see ``loop.py``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tabletop_envs.training.exit.fit import FitSettings
from tabletop_envs.training.exit.loop import ExitRun, ExitSettings

import tabletop_envs
from tabletop_envs.cli import (
    EXIT_INTERRUPTED,
    OneLineParser,
    UsageError,
    add_workers_flags,
    check_workers,
    fail,
    positive_int,
    seed_int,
)

PROG = "python -m tabletop_envs.training.exit"


def share(text: str) -> float:
    """A number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{value} is not a share from 0 to 1")
    return value


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__)
    parser.add_argument("game", help=f"one of {sorted(tabletop_envs.GAMES)}")
    parser.add_argument("--players", type=positive_int, default=2, help="player count")
    parser.add_argument("--rounds", type=positive_int, required=True, help="rounds in all")
    parser.add_argument("--out", type=Path, required=True, help="run folder")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    parser.add_argument("--seed", type=seed_int, default=0)
    defaults = ExitSettings("", 0)
    for flag, kind, what in (
        ("--iterations", positive_int, "search iterations per move"),
        ("--games", positive_int, "search games per round"),
        ("--gate-games", positive_int, "games of the new searcher against the current one"),
        ("--curve-games", int, "games against the heuristic per round (0: none)"),
        ("--window", positive_int, "newest rounds of games fitted on"),
        ("--rollout-depth", positive_int, "heuristic rollout cut-off, in decisions"),
        ("--mix", share, "rollouts' share of a leaf's value once there is a network"),
        ("--policy-prior", share, "share of the first searcher's priors on the heuristic's move"),
        ("--heuristic-share", share, "share of games against the scripted bots"),
        ("--gate-margin", share, "score above one half the new network needs"),
    ):
        key = flag[2:].replace("-", "_")
        parser.add_argument(flag, type=kind, default=getattr(defaults, key), help=what)
    parser.add_argument("--epochs", type=positive_int, default=FitSettings().epochs)
    add_workers_flags(parser, 1, "processes playing games")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        workers = check_workers(args)
        settings = None
        if not args.resume:
            settings = ExitSettings(
                game=tabletop_envs.resolve_name(args.game),
                players=args.players,
                seed=args.seed,
                iterations=args.iterations,
                rollout_depth=args.rollout_depth,
                mix=args.mix,
                policy_prior=args.policy_prior,
                games=args.games,
                heuristic_share=args.heuristic_share,
                window=args.window,
                gate_games=args.gate_games,
                gate_margin=args.gate_margin,
                curve_games=max(args.curve_games, 0),
                fit=FitSettings(epochs=args.epochs),
            )
        run = ExitRun.open(args.out, settings, args.resume)
        while run.state["rounds"] < args.rounds:
            run.play_round(workers)
    except (UsageError, ValueError) as error:
        return fail(PROG, str(error))
    except KeyboardInterrupt:
        print(f"{PROG}: stopped; --resume plays the unfinished round again", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(f"{run.state['rounds']} rounds in {args.out}; accepted network: {run.state['best']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
