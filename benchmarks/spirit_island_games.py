"""Seeded games of Spirit Island per player count, by a random team (or ``--team
heuristic``): every game must finish within ``MAX_DECISIONS`` with every invariant kept after
every decision (``--at-end``: at its end only, faster); prints lengths, victories, the mean
``progress()`` and how each game ended.

    python -m benchmarks.spirit_island_games --games 1000 --players 1 2 3 4
    python -m benchmarks.spirit_island_games --games 500 --team heuristic --at-end
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np
from tabletop_envs.agents.heuristics import heuristic_agent

from tabletop_envs.spirit_island.rules import SpiritIslandGame


def play(
    players: int, seed: int, every_decision: bool = False, team: str = "random"
) -> SpiritIslandGame:
    """One seeded game of a random or heuristic team; with ``every_decision`` the invariants
    are checked after each decision."""
    game = SpiritIslandGame(players, seed=seed)
    rng = np.random.default_rng(seed)
    bot = heuristic_agent("spirit_island_v1", seed=seed) if team == "heuristic" else None
    while not game.is_terminal:
        if bot is None:
            action = int(rng.choice(game.legal_actions()))
        else:
            seat = game.current_player
            seen = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
            action = int(bot.act(seen, f"player_{seat}"))
        game.apply(action)
        if every_decision:
            problems = list(game.check_invariants())
            assert not problems, (players, seed, game.decisions, problems)
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--at-end", action="store_true", help="check invariants at the end only")
    parser.add_argument("--team", choices=("random", "heuristic"), default="random")
    args = parser.parse_args(argv)
    for players in args.players:
        start, lengths, wins, endings = time.perf_counter(), [], 0, Counter()
        progress = []
        for seed in range(args.games):
            game = play(players, seed, every_decision=not args.at_end, team=args.team)
            problems = list(game.check_invariants())
            assert not problems, (players, seed, problems)
            assert game.outcome in (-1, 1) and game.end_reason, (players, seed)
            assert game.decisions <= SpiritIslandGame.MAX_DECISIONS, (players, seed)
            lengths.append(game.decisions)
            wins += game.outcome > 0
            endings[game.end_reason] += 1
            progress.append(game.progress())
        print(
            f"{players} player(s), {args.team} team: {args.games} games finished in "
            f"{time.perf_counter() - start:.0f}s; decisions mean {np.mean(lengths):.0f}, "
            f"max {max(lengths)}; {wins} victories; mean progress {np.mean(progress):.3f}"
        )
        for reason, count in endings.most_common():
            print(f"    {count:5d}  {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
