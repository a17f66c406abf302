"""Fingerprints of seeded games: one sha256 per game and player count over every step.

A refactor that must not change any game's observations, masks, rewards or flow runs this
before and after and compares the lines. Each step hashes the mover, its legal mask, every
seat's observation and the returns; along the way the game is replaced by a clone or by a
JSON round trip every few steps, so those paths are fingerprinted too.

    python -m benchmarks.trace [--games vaalbara valenor] [--seeds 20] > traces.txt
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np

import tabletop_envs
from tabletop_envs.cli import OneLineParser, fail, positive_int


def game_trace(name: str, players: int, seed: int) -> str:
    """The sha256 of one seeded random game, played through the core."""
    game_class = tabletop_envs.game_module(name).Game
    game = game_class(players, seed=seed)
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()
    step = 0
    while not game.is_terminal:
        mask = game.legal_mask()
        digest.update(np.int64(game.current_player).tobytes() + mask.tobytes())
        for seat in range(players):
            digest.update(game.observation(seat).tobytes())
        game.apply(int(rng.choice(np.flatnonzero(mask))))
        step += 1
        if step % 7 == 0:
            game = game.clone()
        elif step % 11 == 0:
            game = game_class.from_json(game.to_json())
    digest.update(np.asarray(game.returns(), dtype=np.float64).tobytes())
    for seat in range(players):
        digest.update(game.observation(seat).tobytes())
    return digest.hexdigest()


def env_trace(name: str, players: int, seed: int) -> str:
    """The sha256 of one seeded random game through ``env()``: observations and rewards."""
    env = tabletop_envs.make(name, num_players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        digest.update(agent.encode() + np.float64(reward).tobytes())
        digest.update(observation["observation"].tobytes() + observation["action_mask"].tobytes())
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    prog = "python -m benchmarks.trace"
    parser = OneLineParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=None, help="games (default: all)")
    parser.add_argument("--seeds", type=positive_int, default=20, help="games per player count")
    args = parser.parse_args(argv)
    try:
        names = [tabletop_envs.resolve_name(g) for g in args.games] if args.games else None
    except ValueError as error:
        return fail(prog, str(error))
    for name in names or sorted(tabletop_envs.GAMES):
        game_class = tabletop_envs.game_module(name).Game
        for players in range(game_class.MIN_PLAYERS, game_class.MAX_PLAYERS + 1):
            core = hashlib.sha256()
            env = hashlib.sha256()
            for seed in range(args.seeds):
                core.update(game_trace(name, players, seed).encode())
                env.update(env_trace(name, players, seed).encode())
            print(f"{name} {players}p core {core.hexdigest()[:16]} env {env.hexdigest()[:16]}")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
