"""The Valenor heuristic bot's cost per choice, today's against an earlier commit's, on the
same recorded decisions.

The decisions of ``benchmarks.heuristic_choices`` (seeded games through ``env()``, even seeds
following the bot, odd seeds random) are recorded first; then each bot answers every recorded
decision of a game in order, a fresh bot per seat and game, and the choices are compared. For
an instruction count (``valgrind --tool=callgrind``), run once with ``--bots`` and once with
``--bots none`` and subtract: the difference is the bots' cost alone.

    python -m experiments.valenor_bot_replay --players 3 --seeds 16 --bots new old --rounds 5
"""

from __future__ import annotations

import subprocess
import sys
import time
import types
from collections.abc import Callable, Sequence

import numpy as np
from tabletop_envs.agents.base import Agent
from tabletop_envs.agents.heuristics import heuristic_agent
from tabletop_envs.agents.valenor_bot import ValenorHeuristicAgent

import tabletop_envs
from tabletop_envs.cli import OneLineParser, positive_int
from tabletop_envs.valenor import spec as S

NAME = "valenor_v2"
OLD_COMMIT = "c46f8ad"
Decision = tuple[str, dict[str, np.ndarray]]


def record(players: int, seed: int, **options: object) -> list[Decision]:
    """Every decision of one seeded game played as ``benchmarks.heuristic_choices`` plays it
    (``options``: the game's, e.g. ``signalling=True``)."""
    env = tabletop_envs.make(NAME, num_players=players, **options)
    env.reset(seed=seed)
    bots = {agent: heuristic_agent(NAME, seed=seed * 100 + i) for i, agent in enumerate(env.agents)}
    rng = np.random.default_rng(seed)
    decisions = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        decisions.append((agent, {k: v.copy() for k, v in observation.items()}))
        choice = bots[agent].act(observation, agent)
        if seed % 2:
            choice = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(choice)
    return decisions


def module_at(commit: str) -> types.ModuleType:
    """The bot module at ``commit``, with the rules' ``invader_spots`` of the same commit."""
    rules = _load(commit, "tabletop_envs/valenor/rules.py", "_valenor_rules_then")
    bot = _load(commit, "agents/valenor_bot.py", "_valenor_bot_then")
    bot.invader_spots = rules.invader_spots
    return bot


def _load(commit: str, path: str, name: str) -> types.ModuleType:
    source = subprocess.run(
        ["git", "show", f"{commit}:{path}"], capture_output=True, text=True, check=True
    ).stdout
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(source, f"{commit}:{path}", "exec"), module.__dict__)
    return module


def replay(make: Callable[[], Agent], games: list[list[Decision]]) -> tuple[list[int], float]:
    """Every choice of a fresh bot per seat and game, and the CPU seconds of ``act``."""
    choices, seconds = [], 0.0
    for decisions in games:
        bots: dict[str, Agent] = {}
        for agent, observation in decisions:
            if agent not in bots:
                bots[agent] = make()
            bot = bots[agent]
            start = time.process_time()
            choices.append(bot.act(observation, agent))
            seconds += time.process_time() - start
    return choices, seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m experiments.valenor_bot_replay")
    parser.add_argument("--players", type=positive_int, default=3)
    parser.add_argument("--seeds", type=positive_int, default=16)
    parser.add_argument("--rounds", type=positive_int, default=1)
    parser.add_argument("--bots", nargs="+", choices=["new", "old", "none"], default=["new"])
    parser.add_argument("--scenario", default=S.DEFAULT_SCENARIO, choices=sorted(S.SCENARIOS))
    parser.add_argument("--signalling", action="store_true", help="table talk on")
    parser.add_argument("--threshold", type=int, default=None, help="the bots' play threshold")
    args = parser.parse_args(argv)
    options = {"scenario": args.scenario, "signalling": args.signalling}
    games = [record(args.players, seed, **options) for seed in range(args.seeds)]
    count = sum(map(len, games))
    tuning = {} if args.threshold is None else {"threshold": args.threshold}
    old = module_at(OLD_COMMIT).ValenorHeuristicAgent
    makers = {"new": lambda: ValenorHeuristicAgent(**tuning), "old": lambda: old(**tuning)}
    bots = [b for b in args.bots if b != "none"]
    best: dict[str, float] = {}
    answers: dict[str, list[int]] = {}
    for _ in range(args.rounds):
        for bot in bots:
            answers[bot], seconds = replay(makers[bot], games)
            best[bot] = min(best.get(bot, seconds), seconds)
    same = len({tuple(a) for a in answers.values()}) <= 1
    print(f"{args.players}p {count} decisions, choices identical: {same}")
    for bot in bots:
        print(f"  {bot}: {1e6 * best[bot] / count:.1f} us/choice (min of {args.rounds})")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
