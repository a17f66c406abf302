"""Play and print one seeded game between masked random players (`python -m tabletop_envs.demo`)."""

from __future__ import annotations

import argparse
import sys

import numpy as np

import tabletop_envs


def play_random_game(name: str, players: int, seed: int) -> str:
    """Play one game through ``env()`` with masked random actions; the rendered log."""
    env = tabletop_envs.make(name, num_players=players, render_mode="ansi")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    core = env.unwrapped.game
    log = [env.render()]
    last_round = getattr(core, "round", None)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            log.append(f"{agent}: final reward {reward:+.2f}")
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        log.append(f"{agent}: {core.action_to_str(action)}")
        env.step(action)
        if getattr(core, "round", None) != last_round or core.is_terminal:
            last_round = getattr(core, "round", None)
            log.append(env.render())
    return "\n".join(log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="vaalbara", help=f"one of {sorted(tabletop_envs.GAMES)}")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        print(play_random_game(args.game, args.players, args.seed))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
