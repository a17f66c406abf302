"""How often an agent chooses what a reference bot would, on states each of them leads to.

Imitation accuracy on a clone's own demonstrations says little: this plays seeded games with
the reference in every seat, then with the agent in every seat, and at every decision asks
both for their choice, so a cloned policy's agreement on new games and on its own states can
be read beside its results.

    python -m experiments.agreement valenor POLICY.npz --reference heuristic --players 3
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from tabletop_envs.agents.base import Agent
from tabletop_envs.agents.loading import make_agent

import tabletop_envs
from tabletop_envs.cli import OneLineParser, fail, positive_int, seed_int


@dataclass
class Agreement:
    driver: str
    decisions: int
    agreed: int
    wins: int
    games: int
    progress: float | None

    @property
    def rate(self) -> float:
        return self.agreed / self.decisions if self.decisions else 0.0


def measure(
    game_name: str,
    agent: Agent,
    reference: Agent,
    drive_with_agent: bool,
    players: int,
    games: int,
    seed: int,
) -> Agreement:
    """Both agents' choices at every decision of ``games`` seeded games played by one of them."""
    core = tabletop_envs.game_module(game_name).Game
    decisions = agreed = wins = 0
    progress: list[float] = []
    for index in range(games):
        state = core(players, seed=seed + index)
        while not state.is_terminal:
            name = f"player_{state.current_player}"
            view = {
                "observation": state.observation(state.current_player),
                "action_mask": state.legal_mask(),
            }
            mine, theirs = agent.act(view, name), reference.act(view, name)
            decisions += 1
            agreed += mine == theirs
            state.apply(mine if drive_with_agent else theirs)
        wins += bool(state.winners())
        if state.progress() is not None:
            progress.append(state.progress())
    driver = "agent" if drive_with_agent else "reference"
    mean = float(np.mean(progress)) if progress else None
    return Agreement(driver, decisions, agreed, wins, games, mean)


def table(results: Sequence[Agreement]) -> str:
    lines = [
        "| games played by | decisions | agreement | wins | mean progress |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        progress = "-" if r.progress is None else f"{r.progress:.2f}"
        lines.append(
            f"| {r.driver} | {r.decisions} | {r.rate:.3f} | {r.wins} / {r.games} | {progress} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m experiments.agreement"
    parser = OneLineParser(prog=prog, description=__doc__)
    parser.add_argument("game", help=f"one of {sorted(tabletop_envs.GAMES)}")
    parser.add_argument("agent", help="random, heuristic or a policy file")
    parser.add_argument("--reference", default="heuristic", help="the bot to compare with")
    parser.add_argument("--players", type=positive_int, help="players (default: the game's)")
    parser.add_argument("--games", type=positive_int, default=20, help="games per driver")
    parser.add_argument("--seed", type=seed_int, default=5000, help="first game seed, from 0")
    args = parser.parse_args(argv)
    try:
        game = tabletop_envs.resolve_name(args.game)
        players = args.players or tabletop_envs.game_module(game).Game.DEFAULT_PLAYERS
        agent = make_agent(args.agent, game, seed=args.seed, players=players)
        reference = make_agent(args.reference, game, seed=args.seed, players=players)
    except ValueError as error:
        return fail(prog, str(error))
    results = []
    for drive_with_agent in (False, True):
        print(
            f"playing {args.games} games driven by the "
            f"{'agent' if drive_with_agent else 'reference'}...",
            file=sys.stderr,
        )
        results.append(
            measure(game, agent, reference, drive_with_agent, players, args.games, args.seed)
        )
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
