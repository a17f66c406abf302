"""RLlib training throughput: env steps per second of ``tabletop-train --backend rllib``.

The same PPO iteration as a training run (the game's config: ``n_envs * n_steps`` steps per
iteration, its minibatches, epochs and network, the league for competitive games), on a
local Ray instance, for each env-runner count given; one warm-up iteration, then the timed
ones (sampling and the update both counted). Compare with ``benchmarks.training_throughput``
(the SB3 path) run on the same machine at the same time.

    python -m benchmarks.rllib_throughput --game vaalbara --players 2 --env-runners 1 2
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from tabletop_envs.training.config import load_config
from tabletop_envs.training.rllib import connect, disconnect
from tabletop_envs.training.rllib.trainer import STEPS_KEY, build_algorithm
from tabletop_envs.training.run import Run, RunSettings

import tabletop_envs
from benchmarks.results_page import load_average
from tabletop_envs.cli import OneLineParser, positive_int, seed_int


def steps_per_second(game_name: str, players: int, runners: int, iterations: int) -> float:
    config = load_config(tabletop_envs.game_module(game_name).Game.NAME).replace(players=players)
    with tempfile.TemporaryDirectory() as folder:
        run = Run(Path(folder), RunSettings(game_name, 0, config))
        connect("rllib_throughput", None, runners)
        algo = build_algorithm(run, runners)
        try:
            before = int(algo.train()["env_runners"][STEPS_KEY])  # warm-up
            start = time.perf_counter()
            for _ in range(iterations):
                after = int(algo.train()["env_runners"][STEPS_KEY])
            return (after - before) / (time.perf_counter() - start)
        finally:
            algo.stop()
            disconnect()


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="rllib_throughput", description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="vaalbara", help="the game to train on")
    parser.add_argument("--players", type=positive_int, default=2, help="players")
    parser.add_argument(
        "--env-runners", type=seed_int, nargs="+", default=[1, 2], help="env-runner counts"
    )
    parser.add_argument("--iterations", type=positive_int, default=3, help="timed iterations")
    args = parser.parse_args(argv)
    game = tabletop_envs.resolve_name(args.game)
    print(f"load average before: {load_average()}")
    print("| setup | env steps/s |")
    print("|---|---|")
    for runners in args.env_runners:
        rate = steps_per_second(game, args.players, runners, args.iterations)
        print(f"| {args.game} {args.players}p, RLlib PPO, {runners} env runner(s) | {rate:.0f} |")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
