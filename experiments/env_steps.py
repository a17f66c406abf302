"""Seeded random games through ``env()``, for counting a step's instructions.

    valgrind --tool=callgrind python -m experiments.env_steps valiant_wars --players 2 --games 20
    valgrind --tool=callgrind python -m experiments.env_steps valiant_wars --games 0

Plays ``--games`` seeded games (seeds 0, 1, ...) with random legal actions, as
``benchmarks.throughput`` does, and prints the steps taken. Counted in instructions (valgrind
callgrind, with a fixed ``PYTHONHASHSEED``) minus the same command with ``--games 0`` (the
imports and the first env), divided by the steps, it gives the instructions per step: a
load-free figure for before/after comparisons and for the ratio to ``connect_four_v3``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np
from pettingzoo.classic import connect_four_v3

import tabletop_envs
from benchmarks.throughput import play_aec
from tabletop_envs.cli import OneLineParser, positive_int


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m experiments.env_steps", description=__doc__)
    parser.add_argument("game", help="a registered game, or connect_four_v3")
    parser.add_argument("--players", type=positive_int, default=2)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    if args.game == "connect_four_v3":
        env = connect_four_v3.env()
    else:
        env = tabletop_envs.make(args.game, num_players=args.players)
    rng = np.random.default_rng(0)
    steps = sum(play_aec(env, seed, rng) for seed in range(args.games))
    print(f"{args.game} {args.players}p: {args.games} games, {steps} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
