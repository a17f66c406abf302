"""``tabletop-play``: play a game in the terminal against bots.

Example::

    tabletop-play vaalbara --players 4 --seat 0 --opponents heuristic --seed 7

Opponents are ``random``, ``heuristic`` or the path of a trained policy. You see only your
own seat's view, in words and tables, and what happened since your last turn: every move, a
choice made in secret as such until it is shown, and what the moves set off (reveals, the
Invader Phase step by step). Enter ``q`` (or end the input, or press Ctrl-C) to stop. With
``--save FILE`` the game is written there as a replay when it ends or you stop
(``tabletop-view FILE`` shows it); ``--load FILE`` rebuilds a replay and continues it, or
continues a game state written by --save before replays existed. Without --save, nothing is
kept.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np
import tabletop_envs.agents.pretrained as pretrained
from pettingzoo import AECEnv
from tabletop_envs.agents.base import Agent
from tabletop_envs.agents.files import check_output_file, write_atomic
from tabletop_envs.agents.human import EnvSeatWindow, HumanAgent, QuitGame
from tabletop_envs.agents.loading import agent_factory, describe_accepted
from tabletop_envs.agents.search import InformationSet

from tabletop_envs import GAMES, game_module, make, resolve_name
from tabletop_envs.cli import (
    EXIT_INTERRUPTED,
    OneLineParser,
    UsageError,
    fail,
    positive_int,
    seed_int,
)
from tabletop_envs.core.env import TabletopAECEnv
from tabletop_envs.core.game import GameCore
from tabletop_envs.core.replay import Replay

PROG = "tabletop-play"


@dataclass(frozen=True)
class Setup:
    """A checked command line: the game, the seats, the opponents and the files."""

    name: str
    players: int
    seat: int
    opponents: str
    seed: int | None
    save: Path | None
    saved: Replay | GameCore | None
    """What --load gave: a replay (checked), or a game state saved before replays."""


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help=f"environment name, one of {sorted(GAMES)}")
    parser.add_argument(
        "--players",
        type=positive_int,
        help="players (default: a count with a shipped policy, and in a cooperative game at "
        "least 2, so a bot team plays beside you)",
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat, from 0")
    parser.add_argument("--opponents", default="heuristic", help=describe_accepted())
    parser.add_argument(
        "--seed", type=seed_int, help="seed for the deal and the bots, from 0 (default: random)"
    )
    parser.add_argument(
        "--save",
        type=Path,
        help="write the game here as a replay when it ends or you stop (default: not kept); "
        "missing folders are made",
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="let --save replace an existing file"
    )
    parser.add_argument(
        "--load",
        type=Path,
        help="continue a game written by --save: a replay, rebuilt and checked, or a game "
        "state saved before replays (default: a new deal)",
    )
    return parser


def read_saved(path: Path, name: str) -> Replay | GameCore:
    """The replay in ``path``, rebuilt and checked as a game of ``name``, or a game state
    written by --save before replays; a ValueError names the path and the problem."""
    try:
        text = path.read_text()
    except OSError as error:
        raise ValueError(f"--load {path}: cannot read it ({error.strerror})") from None
    except UnicodeDecodeError:
        raise ValueError(f"--load {path}: not a replay (not text)") from None
    try:
        data = json.loads(text)
        if isinstance(data, dict) and "state" in data and "format" not in data:
            return game_module(name).Game.from_json(text)  # written by --save before replays
        replay = Replay.from_dict(data)
        if replay.game_class() is not game_module(name).Game:
            raise ValueError(f"a replay of {replay.env}, not of {name}")
        replay.game()
    except json.JSONDecodeError as error:
        raise ValueError(f"--load {path}: not a replay (not JSON: {error})") from None
    except ValueError as error:
        raise ValueError(f"--load {path}: {error}") from None
    return replay


def check_setup(args: argparse.Namespace) -> Setup:
    """The checked setup, or a UsageError saying what is wrong and what is accepted."""
    try:
        name = resolve_name(args.game)
        game_class = game_module(name).Game
        saved = None if args.load is None else read_saved(args.load, name)
        players = args.players or (saved.num_players if saved else default_players(name))
        count = game_class.check_players(players)
        if saved is not None and saved.num_players != count:
            raise ValueError(f"--load {args.load} is a {saved.num_players}-player game")
        if not 0 <= args.seat < count:
            raise ValueError(f"--seat {args.seat} is not a seat; expected 0 to {count - 1}")
        agent_factory(args.opponents, name, count)
        if args.save is not None:
            check_save(args.save, args.load, args.overwrite)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return Setup(name, count, args.seat, args.opponents, args.seed, args.save, saved)


def default_players(name: str) -> int:
    """The game's own count if a policy ships for it, else the smallest count with one; in a
    cooperative game at least 2 (you and a bot team)."""
    game_class = game_module(name).Game
    shipped = sorted(entry["players"] for entry in pretrained.shipped() if entry["env"] == name)
    players = game_class.DEFAULT_PLAYERS
    if shipped and players not in shipped:
        players = shipped[0]
    if game_class.COOPERATIVE:
        players = max(players, 2, game_class.MIN_PLAYERS)
    return players


def check_save(save: Path, load: Path | None, overwrite: bool) -> None:
    """Refuse a --save that cannot be written, or that would replace a file (other than the
    game being continued) without --overwrite."""
    check_output_file(save, "--save")
    same_as_load = load is not None and save.exists() and save.resolve() == load.resolve()
    if save.exists() and not (overwrite or same_as_load):
        raise ValueError(f"--save {save} exists; pass --overwrite to replace it")


def seat_name(game: GameCore, seat: int) -> str:
    """A seat as the game names it (``player_1 (Purple)``), else ``player_1``."""
    label = game.readable_view(seat).get("you")
    return label if isinstance(label, str) and label.startswith("player_") else f"player_{seat}"


def is_secret(game: GameCore, viewer: int) -> bool:
    """Whether the pending decision is a choice the rules keep from ``viewer`` until all
    have chosen (a face-down pick, a hidden REVEAL-or-STOP): another seat's part of a
    simultaneous decision (``GameCore.simultaneous_seats``)."""
    return game.current_player != viewer and bool(game.simultaneous_seats())


@dataclass
class Move:
    """One decision as ``tabletop-play`` tells it."""

    mover: int
    words: str
    """The action in words, named before it was applied (slots name what was there)."""
    action: int
    index: int
    """Its place among the game's actions since the chronicle began."""
    before: GameCore | None
    """For a secret choice, the game before it, to tell later whether it is still secret."""
    events: list[str]
    """What it set off, as the viewer saw it (``GameCore.narrate``)."""


class Chronicle:
    """What happened since the viewer's last decision, one line a move or an event: every
    move ("player_1 (Purple): take row 1 slot 2 (Meadow)"; "You: ..." for the viewer's
    own), a secret choice as such until it is shown ("chosen in secret, now shown" once the
    viewer can tell it), then what each move set off (reveals, the Invaders' actions)."""

    def __init__(self, viewer: int) -> None:
        self.viewer = viewer
        self.moves: list[Move] = []
        self.actions: list[int] = []

    def record(self, game: GameCore, action: int) -> None:
        """Call before ``action`` is applied to ``game``."""
        secret = is_secret(game, self.viewer)
        self.moves.append(
            Move(
                game.current_player,
                game.action_to_str(action),
                action,
                len(self.actions),
                game.clone() if secret else None,
                game.narrate(action, self.viewer),
            )
        )
        self.actions.append(action)

    def still_secret(self, move: Move, now: GameCore) -> bool:
        """Whether another choice, followed by the same later moves, would still show the
        viewer what it sees now."""
        later = self.actions[move.index + 1 :]
        seen = now.observation(self.viewer)
        for other in move.before.legal_actions():
            if other == move.action:
                continue
            world = move.before.clone()
            try:
                for action in (other, *later):
                    world.apply(action)
            except ValueError:
                continue
            if np.array_equal(world.observation(self.viewer), seen):
                return True
        return False

    def lines(self, now: GameCore) -> list[str]:
        """The lines since the last call, told as ``now`` shows them, then forgotten."""
        told = []
        for move in self.moves:
            who = "You" if move.mover == self.viewer else seat_name(now, move.mover)
            if move.before is None:
                told.append(f"{who}: {move.words}")
            elif self.still_secret(move, now):
                told.append(f"{who}: a choice made in secret")
            else:
                told.append(f"{who}: {move.words} (chosen in secret, now shown)")
            told.extend(move.events)
        self.moves.clear()
        return told


def play(setup: Setup, stdin: TextIO, stdout: TextIO) -> int:
    env = make(setup.name, num_players=setup.players)
    env.reset(seed=setup.seed)
    if isinstance(setup.saved, Replay):
        env.unwrapped.load_replay(setup.saved)
    elif setup.saved is not None:
        env.load_game(setup.saved)
    human = HumanAgent(EnvSeatWindow(env, setup.seat), stdin, stdout)
    factory = agent_factory(setup.opponents, setup.name, setup.players)
    agents: list[Agent] = [
        human
        if other == setup.seat
        else factory(None if setup.seed is None else setup.seed + 1 + other)
        for other in range(setup.players)
    ]
    labels = ["you" if other == setup.seat else setup.opponents for other in range(setup.players)]
    try:
        play_to_the_end(env, agents, human, setup.seat)
    except QuitGame:
        human.say(f"You left the game; {keep(env.unwrapped, labels, setup.save)}.")
        return 0
    except KeyboardInterrupt:
        human.say(f"\nInterrupted: you left the game; {keep(env.unwrapped, labels, setup.save)}.")
        return EXIT_INTERRUPTED
    show_result(env.unwrapped.game, setup.seat, human)
    if setup.save is not None:
        kept = keep(env.unwrapped, labels, setup.save)
        human.say(kept[0].upper() + kept[1:] + ".")
    return 0


def play_to_the_end(env: AECEnv, agents: list[Agent], human: HumanAgent, seat: int) -> None:
    """Every decision until the game ends; before each of the human's decisions, and at the
    end, the human is told what happened since its last one."""
    chronicle = Chronicle(seat)
    for agent_name in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        game = env.unwrapped.game
        mover = env.unwrapped.agent_name_mapping[agent_name]
        if mover == seat:
            for line in chronicle.lines(game):
                human.tell(line)
        agents[mover].see(InformationSet(game, mover))
        action = agents[mover].act(observation, agent_name)
        chronicle.record(game, action)
        env.step(action)
    for line in chronicle.lines(env.unwrapped.game):
        human.tell(line)


def keep(env: TabletopAECEnv, labels: list[str], save: Path | None) -> str:
    """Save the game where asked, as a replay (a game continued from a game state saved
    before replays has no record of its first moves: as a game state again); say what was
    kept."""
    if save is None:
        return "nothing was saved (--save FILE keeps a game)"
    game = env.game
    save.parent.mkdir(parents=True, exist_ok=True)
    if env.recording:
        write_atomic(save, env.replay(labels).to_json())
        kind = "replay"
    else:
        write_atomic(save, game.to_json())
        kind = "game state (it went on from a game state, so its first moves are unknown)"
    if game.is_terminal:
        return f"the finished game is saved in {save} as a {kind}"
    return f"the game is saved in {save} as a {kind} (continue it with --load {save})"


def shown_points(game: GameCore, seat: int) -> float | None:
    """The points ``seat``'s own view shows (``your_vp``, or its ``vp`` among ``players``)."""
    view = game.readable_view(seat)
    if isinstance(view.get("your_vp"), (int, float)):
        return float(view["your_vp"])
    for record in view.get("players", []):
        if isinstance(record, dict) and record.get("seat") == seat and "vp" in record:
            return float(record["vp"])
    return None


def points_text(game: GameCore, seat: int, scores: list[float]) -> str:
    """``49 points, incl. +5 end bonus`` (the bonus: the score beyond what the view shows)."""
    shown = shown_points(game, seat)
    bonus = None if shown is None else scores[seat] - shown
    return f"{scores[seat]:g} points" + (f", incl. {bonus:+g} end bonus" if bonus else "")


def verdict(game: GameCore, seat: int) -> str:
    """The result in one line."""
    winners = list(game.winners())
    if game.COOPERATIVE:
        progress = game.progress()
        reached = "" if progress is None else f" (progress {progress:.0%})"
        return ("The team wins!" if winners else "The team loses") + reached
    scores = game.scores()
    named = [
        seat_name(game, w) + ("" if scores is None else f" with {points_text(game, w, scores)}")
        for w in winners
    ]
    if not named:
        return "Nobody wins"
    line = ("Winner: " if len(named) == 1 else "Winners (shared): ") + ", ".join(named)
    return line + (" — you win!" if seat in winners else "")


def show_result(game: GameCore, seat: int, human: HumanAgent) -> None:
    """Your final view, every seat's score (with its end bonus) and return, the verdict."""
    human.show_view("The game is over. Your final view:")
    scores = game.scores()
    returns = game.returns()
    for player in range(game.num_players):
        you = " (you)" if player == seat else ""
        score = "" if scores is None else f": {points_text(game, player, scores)}"
        human.say(f"{seat_name(game, player)}{you}{score}, return {returns[player]:+g}")
    human.say(verdict(game, seat))


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    args = build_parser().parse_args(argv)
    try:
        setup = check_setup(args)
    except UsageError as error:
        return fail(PROG, str(error))
    return play(
        setup,
        stdin if stdin is not None else sys.stdin,
        stdout if stdout is not None else sys.stdout,
    )


if __name__ == "__main__":
    sys.exit(main())
