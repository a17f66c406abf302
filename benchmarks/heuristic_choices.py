"""Fingerprints of the heuristic bots' choices, and their cost per choice.

A change that must not change a bot's moves (a faster bot, a faster observation) runs this
before and after and compares the hashes. For each game with a heuristic bot, at every player
count, seeded games are played through ``env()`` with one seeded bot per seat; the bot is asked
at every decision and its choice hashed with the seat's name. Even-seeded games follow the
bots; odd-seeded games play a seeded random legal action instead, so the bots are also asked
in positions they would not reach themselves. Each line also gives the bots' CPU time per
choice (``act`` only, not the env), a figure to compare on the same machine only.

    python -m benchmarks.heuristic_choices [--games vaalbara valenor] [--seeds 16]
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from tabletop_envs.agents.heuristics import HEURISTIC_BOTS, heuristic_agent

import tabletop_envs
from tabletop_envs.cli import OneLineParser, fail, positive_int


@dataclass
class Fingerprint:
    """The hash of every choice of some games, how many choices and their CPU seconds."""

    digest: hashlib._Hash
    choices: int = 0
    seconds: float = 0.0


def play(name: str, players: int, seed: int, into: Fingerprint) -> None:
    """One seeded game; every choice of the bots goes into ``into``."""
    env = tabletop_envs.make(name, num_players=players)
    env.reset(seed=seed)
    bots = {agent: heuristic_agent(name, seed=seed * 100 + i) for i, agent in enumerate(env.agents)}
    follow = seed % 2 == 0
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        start = time.process_time()
        choice = bots[agent].act(observation, agent)
        into.seconds += time.process_time() - start
        into.choices += 1
        into.digest.update(agent.encode() + np.int64(choice).tobytes())
        if not follow:
            choice = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(choice)


def fingerprint(name: str, players: int, seeds: int) -> Fingerprint:
    """Every choice of ``seeds`` games of ``name`` at ``players`` players."""
    result = Fingerprint(hashlib.sha256())
    for seed in range(seeds):
        play(name, players, seed, result)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m benchmarks.heuristic_choices"
    parser = OneLineParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=None, help="games (default: every bot's)")
    parser.add_argument("--seeds", type=positive_int, default=16, help="games per player count")
    args = parser.parse_args(argv)
    try:
        names = [tabletop_envs.resolve_name(g) for g in args.games] if args.games else None
    except ValueError as error:
        return fail(prog, str(error))
    for name in names or sorted(HEURISTIC_BOTS):
        if name not in HEURISTIC_BOTS:
            return fail(
                prog, f"no heuristic bot for {name!r}; games with one: {sorted(HEURISTIC_BOTS)}"
            )
        game_class = tabletop_envs.game_module(name).Game
        for players in range(game_class.MIN_PLAYERS, game_class.MAX_PLAYERS + 1):
            result = fingerprint(name, players, args.seeds)
            print(
                f"{name} {players}p choices {result.choices} "
                f"sha256 {result.digest.hexdigest()[:16]} "
                f"ms/choice {1000 * result.seconds / max(1, result.choices):.3f}"
            )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
