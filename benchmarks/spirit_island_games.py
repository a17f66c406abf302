"""Seeded random games of Spirit Island per player count: every game must finish within
``MAX_DECISIONS`` with every invariant kept after every decision (``--at-end``: at its end
only, faster); prints lengths, outcomes and how each game ended.

    python -m benchmarks.spirit_island_games --games 1000 --players 1 2 3 4
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from tabletop_envs.spirit_island.rules import SpiritIslandGame


def play(players: int, seed: int, every_decision: bool = False) -> SpiritIslandGame:
    """One seeded random game; with ``every_decision`` the invariants are checked after each."""
    game = SpiritIslandGame(players, seed=seed)
    rng = np.random.default_rng(seed)
    while not game.is_terminal:
        game.apply(int(rng.choice(game.legal_actions())))
        if every_decision:
            problems = list(game.check_invariants())
            assert not problems, (players, seed, game.decisions, problems)
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--at-end", action="store_true", help="check invariants at the end only")
    args = parser.parse_args(argv)
    for players in args.players:
        start, lengths, wins, endings = time.perf_counter(), [], 0, Counter()
        for seed in range(args.games):
            game = play(players, seed, every_decision=not args.at_end)
            problems = list(game.check_invariants())
            assert not problems, (players, seed, problems)
            assert game.outcome in (-1, 1) and game.end_reason, (players, seed)
            assert game.decisions <= SpiritIslandGame.MAX_DECISIONS, (players, seed)
            lengths.append(game.decisions)
            wins += game.outcome > 0
            endings[game.end_reason] += 1
        print(
            f"{players} player(s): {args.games} games finished in "
            f"{time.perf_counter() - start:.0f}s; decisions mean {np.mean(lengths):.0f}, "
            f"max {max(lengths)}; {wins} victories"
        )
        for reason, count in endings.most_common():
            print(f"    {count:5d}  {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
