"""Speed of the search bots' hot path: clone, resample_hidden, and iterations per second.

    python -m benchmarks.search_speed --games vaalbara valenor --players 2 4

For each game (default: all four) and player count, over positions of seeded random games
(one every few decisions): microseconds per ``clone()`` and per ``resample_hidden()``, a
random rollout from there to the end, and the rate of each bot: ISMCTS iterations per second (one
iteration: a world, a descent, a rollout, a backup) and PIMC rollouts per second (one:
a world's clone, one action, a rollout to the end), all in CPU time of this process (the
machine is shared; wall-clock rates are lower under load). Each figure is the median of
``--runs`` runs. The machine load is printed first: the figures mean little without it.

    python -m benchmarks.search_speed evaluate vaalbara --agents ismcts:200 heuristic \
        --games 100 --workers 1 --seed 0 --out /tmp/eval

runs ``tabletop_envs.tools.evaluate`` unchanged (the same games, tables and files) with a clock on
the search bots, and prints their mean time per move after it: over the moves they searched
(two legal actions or more) and over all their moves. ``--workers 1`` keeps the bots in this
process, where the clock is.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from tabletop_envs.agents.search import (
    InformationSet,
    ISMCTSAgent,
    PIMCAgent,
    random_rollout,
    rollout,
)

from tabletop_envs import game_module, resolve_name
from tabletop_envs.core.game import GameCore

GAMES = ("vaalbara", "valiant_wars", "valenor", "spirit_island")
"""Measured by default (Valenor and Spirit Island are cooperative: every seat plans for the
team)."""


def positions(cls: type[GameCore], players: int, count: int, seed: int = 0) -> list[GameCore]:
    """``count`` states from seeded random games, spread over whole games."""
    found: list[GameCore] = []
    game_seed = seed
    while len(found) < count:
        game = cls(players, seed=game_seed)
        rng = np.random.default_rng(game_seed)
        step = 0
        while not game.is_terminal and len(found) < count:
            if step % 7 == 3 and len(game.legal_actions()) > 1:
                found.append(game.clone())
            game.apply(int(rng.choice(game.legal_actions())))
            step += 1
        game_seed += 1
    return found


def per_call(work: Callable[[], object], seconds: float) -> float:
    """CPU microseconds per call of ``work``, repeated for about ``seconds`` of CPU time."""
    calls, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        work()
        calls += 1
    return elapsed / calls * 1e6


def measure(name: str, players: int, seconds: float) -> dict[str, float]:
    cls = game_module(resolve_name(name)).Game
    states = positions(cls, players, 30)
    rng = np.random.default_rng(0)
    cycle = iter(range(1 << 62))

    def state() -> GameCore:
        return states[next(cycle) % len(states)]

    def a_rollout() -> None:
        world = InformationSet(state(), 0).sample(rng)
        rollout(world, random_rollout, rng)

    figures = {
        "clone_us": per_call(lambda: state().clone(), seconds),
        "resample_us": per_call(
            lambda: (s := state()).resample_hidden(s.current_player, rng), seconds
        ),
        "rollout_ms": per_call(a_rollout, seconds) / 1000,
    }
    for label, bot in (
        ("ismcts_per_s", ISMCTSAgent(seed=0, iterations=10**9, milliseconds=seconds * 1000)),
        ("pimc_per_s", PIMCAgent(seed=0, worlds=10**9, rollouts=1, milliseconds=seconds * 1000)),
    ):
        done, spent = 0, 0.0
        for game in states[:5]:
            information = InformationSet(game, game.current_player)
            legal = game.legal_actions()
            start = time.process_time()
            if isinstance(bot, ISMCTSAgent):
                root_visits = _ismcts_iterations(bot, information, legal)
            else:
                root_visits = _pimc_rollouts(bot, information, legal)
            spent += time.process_time() - start
            done += root_visits
        figures[label] = done / spent
    return figures


def _ismcts_iterations(bot: ISMCTSAgent, information: InformationSet, legal: list[int]) -> int:
    counted = []
    original = bot._descend

    def descend(*arguments):
        counted.append(1)
        return original(*arguments)

    bot._descend = descend
    try:
        bot.search(information, legal)
    finally:
        bot._descend = original
    return len(counted)


def _pimc_rollouts(bot: PIMCAgent, information: InformationSet, legal: list[int]) -> int:
    worlds = []
    original = information.sample

    def sample(rng):
        worlds.append(1)
        return original(rng)

    information.sample = sample
    bot.search(information, legal)
    return len(worlds) * len(legal) * bot.rollouts


@contextmanager
def search_clock() -> Iterator[dict[str, float]]:
    """While open, every search bot's move is timed: ``searched``/``search_s`` over the moves
    it searched (two legal actions or more and, for a guided bot, a decision its guide names),
    ``moves``/``move_s`` over all (this process only)."""
    from tabletop_envs.agents.search import SEARCH_SPECS, SearchAgent

    clock = {"searched": 0, "search_s": 0.0, "moves": 0, "move_s": 0.0}
    ran: list[bool] = []
    act = SearchAgent.act
    searches = {cls: cls.search for cls in SEARCH_SPECS.values()}

    def noted(search):
        def search_noted(self, information, legal):
            ran.append(True)
            return search(self, information, legal)

        return search_noted

    def timed_act(self, observation, agent):
        ran.clear()
        start = time.perf_counter()
        try:
            return act(self, observation, agent)
        finally:
            spent = time.perf_counter() - start
            clock["moves"] += 1
            clock["move_s"] += spent
            if ran:
                clock["searched"] += 1
                clock["search_s"] += spent

    SearchAgent.act = timed_act
    for cls, search in searches.items():
        cls.search = noted(search)
    try:
        yield clock
    finally:
        SearchAgent.act = act
        for cls, search in searches.items():
            cls.search = search


def timed_evaluate(argv: list[str]) -> int:
    """``tabletop_envs.tools.evaluate`` with the search bots' time per move printed after it."""
    from tabletop_envs.tools import evaluate

    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load} on {os.cpu_count()} CPUs")
    with search_clock() as clock:
        code = evaluate.main(argv)
    searched, moves = max(clock["searched"], 1), max(clock["moves"], 1)
    print(
        f"search bots: {clock['search_s'] / searched:.3f} s per searched move "
        f"({clock['searched']} moves), {clock['move_s'] / moves:.3f} s per move "
        f"({clock['moves']} moves); load now {os.getloadavg()[0]:.2f}"
    )
    return code


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["evaluate"]:
        sys.exit(timed_evaluate(argv[1:]))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--players", nargs="+", type=int, default=[2, 4])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--seconds", type=float, default=0.5, help="seconds per measurement")
    args = parser.parse_args(argv)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load} on {os.cpu_count()} CPUs")
    columns = ("clone_us", "resample_us", "rollout_ms", "ismcts_per_s", "pimc_per_s")
    print(f"{'game':<16}{'players':>8}" + "".join(f"{c:>14}" for c in columns))
    for name in args.games:
        for players in args.players:
            runs = [measure(name, players, args.seconds) for _ in range(args.runs)]
            medians = [statistics.median(run[c] for run in runs) for c in columns]
            print(f"{name:<16}{players:>8}" + "".join(f"{m:>14.1f}" for m in medians))


if __name__ == "__main__":
    main()
