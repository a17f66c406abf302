"""Seeded random games of Spirit Island per player count: every game must finish within
``MAX_DECISIONS`` with every invariant kept at its end; prints lengths and outcomes.

    python -m benchmarks.spirit_island_games --games 1000 --players 1 2 3 4
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tabletop_envs.spirit_island.rules import SpiritIslandGame


def play(players: int, seed: int, **options: object) -> SpiritIslandGame:
    game = SpiritIslandGame(players, seed=seed, **options)
    rng = np.random.default_rng(seed)
    while not game.is_terminal:
        game.apply(int(rng.choice(game.legal_actions())))
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4])
    args = parser.parse_args(argv)
    for players in args.players:
        start, lengths, wins = time.perf_counter(), [], 0
        for seed in range(args.games):
            game = play(players, seed)
            problems = list(game.check_invariants())
            assert not problems, (players, seed, problems)
            assert game.outcome in (-1, 1) and game.end_reason, (players, seed)
            assert game.decisions <= SpiritIslandGame.MAX_DECISIONS, (players, seed)
            lengths.append(game.decisions)
            wins += game.outcome > 0
        print(
            f"{players} player(s): {args.games} games finished in "
            f"{time.perf_counter() - start:.0f}s; decisions mean {np.mean(lengths):.0f}, "
            f"max {max(lengths)}; {wins} victories"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
