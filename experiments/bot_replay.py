"""A heuristic bot's cost per choice on recorded decisions, against an older copy of its module.

    git show c46f8ad:agents/valiant_wars_bot.py > old_bot.py
    python -m experiments.bot_replay valiant_wars --players 2 --old old_bot.py
    python -m experiments.bot_replay valiant_wars --players 2 --old old_bot.py --bots none
    python -m experiments.bot_replay valenor --players 3 --old old_bot.py --option signalling=true

The decisions of ``--seeds`` seeded games are recorded first (through ``env()``, as
``benchmarks.heuristic_choices`` plays them: even seeds follow the bot, the old one if given,
odd seeds play random legal actions). Then each bot (``current``, and ``old``: the module
file given by ``--old``) answers every recorded decision, ``--rounds`` times in alternation;
the CPU ms per choice (the minimum over rounds) is printed, and the run fails if the two bots
ever choose differently. With ``--bots none`` only the recording runs: counted in
instructions (valgrind callgrind) and subtracted from a run with ``--bots current`` or
``--bots old`` (the same ``--old``, ``--seeds`` and ``--rounds``), it gives a bot's own cost.
With ``--fresh`` each round starts a new instance of each bot with its module's caches
emptied (``cache_clear`` of each ``functools`` cache, ``clear`` of each
:class:`~tabletop_envs.core.cache.BoundedCache`): the cost of a bot that meets the decisions
for the first time, not of one warmed by earlier rounds.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from tabletop_envs.agents.base import Agent
from tabletop_envs.agents.heuristics import heuristic_agent
from tabletop_envs.tools.evaluate import parse_options

import tabletop_envs
from tabletop_envs.cli import OneLineParser, UsageError, positive_int
from tabletop_envs.core.cache import BoundedCache

Decision = tuple[dict[str, np.ndarray], str, dict | None]
"""(observation, agent, the recording bot's generator state when the decision came up)."""


def generator_state(bot: Agent) -> dict | None:
    """The bot's random generator state (None for a bot without one)."""
    rng = getattr(bot, "rng", None)
    return None if rng is None else rng.bit_generator.state


def record(
    name: str, players: int, seeds: int, bot: Agent, options: dict[str, Any] | None = None
) -> list[Decision]:
    """Every decision of ``seeds`` seeded games (observation, agent), even seeds following
    ``bot``; ``options``: the game's (``--option KEY=VALUE``)."""
    decisions: list[Decision] = []
    for seed in range(seeds):
        env = tabletop_envs.make(name, num_players=players, **(options or {}))
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            copied = {key: value.copy() for key, value in observation.items()}
            decisions.append((copied, agent, generator_state(bot)))
            if seed % 2 == 0:
                choice = bot.act(observation, agent)
            else:
                choice = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(choice)
    return decisions


def old_bot(path: str, name: str) -> Agent:
    """The heuristic agent class of the module file at ``path``, built like the current one."""
    spec = importlib.util.spec_from_file_location("old_bot", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load a module from {path!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_bot"] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    current = type(heuristic_agent(name, seed=0))
    return getattr(module, current.__name__)(seed=0)


def answer(bot: Agent, decisions: list[Decision]) -> tuple[list[int], float]:
    """The bot's choice at every decision, its generator set as the recording bot's was
    (a bot that draws differently on the way still meets each decision as recorded), and the
    CPU seconds the choices took."""
    choices, seconds = [], 0.0
    for observation, agent, state in decisions:
        if state is not None:
            bot.rng.bit_generator.state = state
        start = time.process_time()
        choices.append(bot.act(observation, agent))
        seconds += time.process_time() - start
    return choices, seconds


def fresh(bot: Agent) -> Agent:
    """A new instance of ``bot``'s class (built as :func:`old_bot` builds one), its module's
    caches emptied."""
    for value in vars(sys.modules[type(bot).__module__]).values():
        if isinstance(value, BoundedCache):
            value.clear()
        elif callable(getattr(value, "cache_clear", None)):
            value.cache_clear()
    return type(bot)(seed=0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m experiments.bot_replay", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--players", type=positive_int, default=2)
    parser.add_argument("--seeds", type=positive_int, default=8)
    parser.add_argument("--rounds", type=positive_int, default=3)
    parser.add_argument("--old", default=None, help="an older copy of the bot's module file")
    parser.add_argument("--bots", choices=("both", "current", "old", "none"), default="both")
    parser.add_argument(
        "--fresh", action="store_true", help="a new bot, its module's caches emptied, each round"
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option"
    )
    args = parser.parse_args(argv)
    name = tabletop_envs.resolve_name(args.game)
    if args.old is None and args.bots in ("both", "old"):
        parser.error("--old is needed for --bots both/old")
    old = old_bot(args.old, name) if args.old else None
    current = heuristic_agent(name, seed=0)
    try:
        options = dict(parse_options(tabletop_envs.game_module(name).Game, args.option))
    except UsageError as error:
        parser.error(str(error))
    decisions = record(name, args.players, args.seeds, old or current, options)
    bots: dict[str, Agent] = {}
    if args.bots in ("both", "current"):
        bots["current"] = current
    if old is not None and args.bots in ("both", "old"):
        bots["old"] = old
    best: dict[str, float] = {label: float("inf") for label in bots}
    answers: dict[str, list[int]] = {}
    for _ in range(args.rounds if bots else 0):
        for label, bot in bots.items():
            if args.fresh:
                bot = bots[label] = fresh(bot)
            answers[label], seconds = answer(bot, decisions)
            best[label] = min(best[label], seconds)
    for label in bots:
        per_choice = 1000 * best[label] / len(decisions)
        print(f"{name} {args.players}p {label}: {per_choice:.4f} ms/choice")
    if len(answers) == 2 and answers["current"] != answers["old"]:
        print("the bots chose differently", file=sys.stderr)
        return 1
    print(f"{len(decisions)} decisions" + (", the same choices" if len(answers) == 2 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
