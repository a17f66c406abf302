"""Replay every decision of the Vaalbara bot's seeded games with other versions of the bot.

The games are those of ``python -m benchmarks.heuristic_choices`` (seeded bots at every seat;
even seeds follow them, odd seeds play random legal moves). Each decision (observation, seat,
the bot's generator state, the choice) is recorded with the current bot, then answered again
by each given module, a copy of ``agents/vaalbara_bot.py`` from some commit, e.g.::

    git show c46f8ad:agents/vaalbara_bot.py > /tmp/bot_old.py
    python -m experiments.bot_replay --players 2 3 4 5 /tmp/bot_old.py agents/vaalbara_bot.py

Every module must make the recorded choice at every decision (a different one fails), and
each one's CPU ms per decision (the best of ``--repeats`` passes, modules alternating) is
printed. ``--once`` answers every decision once with the first module and prints nothing: the
body for an instruction count (``valgrind --tool=callgrind``), with ``--none`` the same run
answering nothing, to subtract.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Sequence
from types import ModuleType

import numpy as np

import tabletop_envs

Decision = tuple[dict[str, np.ndarray], str, dict, int]
"""(observation, seat name, the bot's generator state, its choice)."""


def load(path: str, name: str) -> ModuleType:
    """The bot module at ``path``, imported under ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"bot_replay: cannot import {path!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def record(bot: ModuleType, players: int, seeds: int) -> list[Decision]:
    """Every decision of ``seeds`` games, as ``benchmarks.heuristic_choices`` plays them."""
    decisions = []
    for seed in range(seeds):
        env = tabletop_envs.make("vaalbara_v1", num_players=players)
        env.reset(seed=seed)
        bots = {
            agent: bot.VaalbaraHeuristicAgent(seed=seed * 100 + i)
            for i, agent in enumerate(env.agents)
        }
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            state = bots[agent].rng.bit_generator.state
            observation = {key: value.copy() for key, value in observation.items()}
            choice = bots[agent].act(observation, agent)
            decisions.append((observation, agent, state, choice))
            if seed % 2:
                choice = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(choice)
    return decisions


def replay(bot: ModuleType, decisions: list[Decision]) -> float:
    """Answer every decision again; CPU seconds. A different choice is an error."""
    agent = bot.VaalbaraHeuristicAgent(seed=0)
    seconds = 0.0
    for at, (observation, name, state, choice) in enumerate(decisions):
        agent.rng.bit_generator.state = state
        start = time.process_time()
        again = agent.act(observation, name)
        seconds += time.process_time() - start
        if again != choice:
            raise SystemExit(f"bot_replay: {bot.__name__} chose {again}, not {choice} at {at}")
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m experiments.bot_replay")
    parser.add_argument("modules", nargs="+", help="bot modules (copies of vaalbara_bot.py)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--seeds", type=int, default=16, help="games per player count")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--once", action="store_true", help="one pass of the first module")
    parser.add_argument("--none", action="store_true", help="with --once: answer nothing")
    args = parser.parse_args(argv)
    current = load("agents/vaalbara_bot.py", "bot_replay_current")
    bots = [load(path, f"bot_replay_{i}") for i, path in enumerate(args.modules)]
    for players in args.players:
        decisions = record(current, players, args.seeds)
        if args.once:
            if not args.none:
                replay(bots[0], decisions)
            continue
        best = [float("inf")] * len(bots)
        for _ in range(args.repeats):
            for i, bot in enumerate(bots):
                best[i] = min(best[i], replay(bot, decisions))
        figures = " ".join(f"{1000 * seconds / len(decisions):.3f}" for seconds in best)
        print(f"{players}p decisions {len(decisions)} ms/decision {figures}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
