"""Spirit Island's guided rollouts: the heuristic bot reading the world against reading the
observation.

    python -m benchmarks.spirit_island_rollouts [--players 1 2] [--positions 40] [--runs 5]

Over positions of seeded heuristic games (one at each searched decision), a guided rollout
(the heuristic for every seat, to the end of the turn) is played from each with the bot
reading its seat's observation and the action mask (``act``, the reference) and with the bot
reading the world itself (``act_in``, what ``heuristic_rollout`` uses). Both must end every
rollout in the same state; the figure is the time of all rollouts, each path's median over
``--runs`` interleaved runs, and their ratio. The machine load is printed first.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from tabletop_envs.agents.search import rollout
from tabletop_envs.agents.spirit_island_bot import SpiritIslandHeuristicAgent
from tabletop_envs.agents.spirit_island_guide import IslandGuide

from benchmarks.results_page import load_average
from tabletop_envs.spirit_island.rules import SpiritIslandGame

Policy = Callable[[SpiritIslandGame, np.random.Generator], int]
BOT = SpiritIslandHeuristicAgent(seed=0)
GUIDE = IslandGuide()


def reading_the_observation(game: SpiritIslandGame, rng: np.random.Generator) -> int:
    seat = game.current_player
    view = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
    return BOT.act(view, f"player_{seat}")


def reading_the_world(game: SpiritIslandGame, rng: np.random.Generator) -> int:
    return BOT.act_in(game, game.current_player)


def positions(players: int, count: int) -> list[SpiritIslandGame]:
    """``count`` positions of seeded heuristic games where the guide searches."""
    found: list[SpiritIslandGame] = []
    seed = 0
    while len(found) < count:
        game = SpiritIslandGame(players, seed=seed)
        while not game.is_terminal and len(found) < count:
            if GUIDE.searches(game.observation(game.current_player)):
                found.append(game.clone())
            game.apply_unchecked(reading_the_world(game, None))  # type: ignore[arg-type]
        seed += 1
    return found


def play_all(start: list[SpiritIslandGame], policy: Policy) -> tuple[float, list[str]]:
    """Seconds to play a guided rollout from every position; the states they end in."""
    games = [game.clone() for game in start]
    began = time.perf_counter()
    for game in games:
        rollout(game, policy, np.random.default_rng(0), within=_same_turn(game))
    return time.perf_counter() - began, [game.to_json() for game in games]


def _same_turn(game: SpiritIslandGame) -> Callable[[SpiritIslandGame], bool]:
    turn = game.turn
    return lambda later: later.turn == turn


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"load average (1, 5, 15 min): {load_average()}")
    for players in args.players:
        start = positions(players, args.positions)
        seconds: dict[str, list[float]] = {"observation": [], "world": []}
        for _ in range(args.runs):
            observed, reference = play_all(start, reading_the_observation)
            direct, states = play_all(start, reading_the_world)
            if states != reference:
                raise SystemExit(f"{players}p: reading the world played other rollouts")
            seconds["observation"].append(observed)
            seconds["world"].append(direct)
        observed, direct = (statistics.median(seconds[key]) for key in ("observation", "world"))
        print(
            f"{players}p, {len(start)} rollouts: observation {1000 * observed:.0f} ms, world "
            f"{1000 * direct:.0f} ms (medians of {args.runs}); world / observation "
            f"{direct / observed:.2f}"
        )
    print(f"load average at the end: {load_average()}")


if __name__ == "__main__":
    main()
