"""``tabletop-play``: play a game in the terminal against bots.

Example::

    tabletop-play vaalbara --players 4 --seat 0 --opponents heuristic --seed 7

Opponents are ``random``, ``heuristic`` or the path of a trained policy. You see only your
own seat's view. Enter ``q`` (or end the input) to stop; the game is left as it was.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from agents.base import Agent
from agents.cli import OneLineParser, UsageError, fail, positive_int
from agents.human import EnvSeatWindow, HumanAgent, QuitGame
from agents.loading import agent_factory, describe_accepted
from tabletop_envs import GAMES, game_module, make, resolve_name
from tabletop_envs.core.game import GameCore

PROG = "tabletop-play"


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help=f"environment name, one of {sorted(GAMES)}")
    parser.add_argument("--players", type=positive_int, help="players (default: the game's)")
    parser.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0)")
    parser.add_argument(
        "--opponents", default="heuristic", help=f"{describe_accepted()} (default heuristic)"
    )
    parser.add_argument("--seed", type=int, help="seed for the deal and the bots")
    return parser


def check_setup(game: str, players: int | None, seat: int, opponents: str) -> tuple[str, int]:
    """The environment name and player count, or a UsageError saying what is accepted."""
    try:
        name = resolve_name(game)
        game_class = game_module(name).Game
        count = game_class.check_players(game_class.DEFAULT_PLAYERS if players is None else players)
        if not 0 <= seat < count:
            raise ValueError(f"--seat {seat} is not a seat; expected 0 to {count - 1}")
        agent_factory(opponents, name, count)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return name, count


def play(
    name: str,
    players: int,
    seat: int,
    opponents: str,
    seed: int | None,
    stdin: TextIO,
    stdout: TextIO,
) -> int:
    env = make(name, num_players=players)
    env.reset(seed=seed)
    human = HumanAgent(EnvSeatWindow(env, seat), stdin, stdout)
    factory = agent_factory(opponents, name, players)
    agents: list[Agent] = [
        human if other == seat else factory(None if seed is None else seed + 1 + other)
        for other in range(players)
    ]
    for agent_name in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        try:
            action = agents[env.unwrapped.agent_name_mapping[agent_name]].act(
                observation, agent_name
            )
        except QuitGame:
            human.console.print("You left the game; it stays as it was.")
            return 0
        env.step(action)
    show_result(env.unwrapped.game, seat, human)
    return 0


def show_result(game: GameCore, seat: int, human: HumanAgent) -> None:
    """The final table, every player's return and score, and who won."""
    human.console.print(game.render_text(), markup=False)
    scores = game.scores()
    returns = game.returns()
    for player in range(game.num_players):
        you = " (you)" if player == seat else ""
        score = "" if scores is None else f", score {scores[player]:g}"
        human.console.print(f"player_{player}{you}: return {returns[player]:+g}{score}")
    winners = list(game.winners())
    verdict = "You win!" if seat in winners else f"Winner(s): {winners}"
    human.console.print(verdict)


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    args = build_parser().parse_args(argv)
    try:
        name, players = check_setup(args.game, args.players, args.seat, args.opponents)
    except UsageError as error:
        return fail(PROG, str(error))
    return play(
        name,
        players,
        args.seat,
        args.opponents,
        args.seed,
        stdin if stdin is not None else sys.stdin,
        stdout if stdout is not None else sys.stdout,
    )


if __name__ == "__main__":
    sys.exit(main())
