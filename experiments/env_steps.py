"""Seeded random games through ``env()``, for counting instructions per step, and an
old-against-new comparison of a game's observer in one process.

Under ``valgrind --tool=callgrind``, run once with ``--games N`` and once with ``--games 0``
(the same imports and set-up, no game) and divide the difference by the decisions printed:
instructions per ``env()`` step, free of the machine's load. The games are those of
``benchmarks.throughput`` (``play_aec``: a seeded random legal action at every decision);
``null_core``, its game without rules, counts the env and its wrappers alone.
``--observer-at COMMIT`` plays them with the game's observer module as it was at ``COMMIT``
(the rest of the code as it is); ``--alternate COMMIT --rounds R`` times the same games with
that observer and with today's in turn, R rounds, and prints the CPU seconds per step of each
(medians), for a before/after on a loaded machine.

    python -m experiments.env_steps valenor --players 4 --games 20
    python -m experiments.env_steps valenor --players 4 --games 40 --alternate HEAD~1 --rounds 7
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import tabletop_envs
from benchmarks import throughput
from tabletop_envs.cli import OneLineParser, positive_int


def observer_at(game_class: Any, commit: str) -> types.ModuleType:
    """The observer module of ``game_class`` as it was at ``commit``."""
    path = Path(game_class.OBSERVER.__file__).resolve()
    top = Path(_git("rev-parse", "--show-toplevel").strip())
    source = _git("show", f"{commit}:{path.relative_to(top).as_posix()}")
    module = types.ModuleType(f"{game_class.OBSERVER.__name__}_at_{commit}")
    sys.modules[module.__name__] = module
    exec(compile(source, f"{commit}:{path.name}", "exec"), module.__dict__)
    return module


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout


def play(env: Any, games: int) -> int:
    """``games`` seeded random games through ``env``; the decisions taken."""
    rng = np.random.default_rng(0)
    return sum(throughput.play_aec(env, seed, rng) for seed in range(games))


def alternate(env: Any, game_class: Any, commit: str, games: int, rounds: int) -> None:
    """CPU seconds per step with the observer of ``commit`` and with today's, in turn."""
    observers = {"then": observer_at(game_class, commit), "now": game_class.OBSERVER}
    seconds: dict[str, list[float]] = {name: [] for name in observers}
    for _ in range(rounds):
        for name, observer in observers.items():
            game_class.OBSERVER = observer
            start = time.process_time()
            decisions = play(env, games)
            seconds[name].append((time.process_time() - start) / decisions)
    game_class.OBSERVER = observers["now"]
    then, now = (statistics.median(seconds[name]) for name in observers)
    print(f"us/step: {commit} {1e6 * then:.1f}, now {1e6 * now:.1f}, now/then {now / then:.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m experiments.env_steps")
    parser.add_argument(
        "game", help=f"a registered game, {throughput.REFERENCE} or {throughput.FLOOR}"
    )
    parser.add_argument("--players", type=positive_int, default=2)
    parser.add_argument("--games", type=int, default=20, help="games to play (0: set-up only)")
    parser.add_argument("--observer-at", metavar="COMMIT", help="the observer of that commit")
    parser.add_argument("--alternate", metavar="COMMIT", help="time that observer against today's")
    parser.add_argument("--rounds", type=positive_int, default=5)
    args = parser.parse_args(argv)
    if args.game == throughput.REFERENCE:
        env = throughput.REFERENCE_MODULES[args.game].env()
        game_class = None
    elif args.game == throughput.FLOOR:
        env, game_class = throughput.floor_target().make_env(), None
    else:
        env = tabletop_envs.make(args.game, num_players=args.players)
        game_class = tabletop_envs.game_module(args.game).Game
    if (args.observer_at or args.alternate) and game_class is None:
        parser.error(f"{args.game} has no observer module to replace")
    if args.alternate:
        alternate(env, game_class, args.alternate, args.games, args.rounds)
        return 0
    if args.observer_at:
        game_class.OBSERVER = observer_at(game_class, args.observer_at)
    decisions = play(env, args.games)
    print(f"{args.game} {args.players}p games {args.games} decisions {decisions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
