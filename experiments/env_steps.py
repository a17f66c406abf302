"""Seeded random games through ``env()``, for counting instructions per step.

Under ``valgrind --tool=callgrind``, run once with ``--games N`` and once with ``--games 0``
(the same imports and set-up, no game) and divide the difference by the decisions printed:
instructions per ``env()`` step, free of the machine's load. The games are those of
``benchmarks.throughput`` (``play_aec``: a seeded random legal action at every decision).

    python -m experiments.env_steps valenor --players 4 --games 20
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import tabletop_envs
from benchmarks import throughput
from tabletop_envs.cli import OneLineParser, positive_int


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m experiments.env_steps")
    parser.add_argument("game", help=f"a registered game or {throughput.REFERENCE}")
    parser.add_argument("--players", type=positive_int, default=2)
    parser.add_argument("--games", type=int, default=20, help="games to play (0: set-up only)")
    args = parser.parse_args(argv)
    if args.game == throughput.REFERENCE:
        env = throughput.REFERENCE_MODULES[args.game].env()
    else:
        env = tabletop_envs.make(args.game, num_players=args.players)
    rng = np.random.default_rng(0)
    decisions = sum(throughput.play_aec(env, seed, rng) for seed in range(args.games))
    print(f"{args.game} {args.players}p games {args.games} decisions {decisions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
