"""``tabletop-eval``: a tournament between agents with rotated seats and honest statistics.

Example::

    tabletop-eval vaalbara --agents heuristic random random random --games 2000 --workers 8

Agents are ``random``, ``heuristic`` or the path of a trained policy; one per seat (so the
number of agents is the number of players). Game ``i`` is dealt from ``(seed, i)`` and
seats the agents in rotation ``i mod players``; results do not depend on ``--workers``, nor
on ``--backend ray`` (Ray actors, on this machine or a cluster's: docs/scaling.md).
Writes results.json, results.csv and winrates.png to ``--out`` at the end, all three or none
(a failed or interrupted run leaves the previous ones as they were). ``--save-replays N``
also keeps N games drawn from ``--seed`` (the same games for the same seed and game count),
``--save-replays all`` every game, as replay files ``game-00042.json`` (the game's index) in
``--replay-dir`` (default ``OUT/replays``); watch one with ``tabletop-view``.
``--option KEY=VALUE`` (repeatable) sets a game option from the game's options table, e.g.
``tabletop-eval spirit_island_v1 --agents heuristic --option difficulty=easy``; an unknown
key or value is refused with the accepted ones named.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tabletop_envs.agents.arena import GameRecord, MatchSpec, play_games
from tabletop_envs.agents.files import check_output_folder, write_all_atomic
from tabletop_envs.agents.loading import agent_factory, describe_accepted
from tabletop_envs.tools.report import render_tables, summarise, write_results

from tabletop_envs import GAMES, game_module, resolve_name
from tabletop_envs.cli import (
    EXIT_INTERRUPTED,
    OneLineParser,
    UsageError,
    add_workers_flags,
    check_workers,
    cpu_count,
    fail,
    positive_int,
    seed_int,
)
from tabletop_envs.core.game import Option

PROG = "tabletop-eval"
BACKENDS = ("local", "ray")
ALL = "all"
REPLAY_FOLDER = "replays"


def replay_count(text: str) -> int | str:
    """``all`` or a whole number from 0 up: how many games to keep as replays."""
    if text == ALL:
        return ALL
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 0 or 'all'")
    return value


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help=f"environment name, one of {sorted(GAMES)}")
    parser.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="AGENT",
        help=f"one agent per seat: {describe_accepted()}",
    )
    parser.add_argument("--games", type=positive_int, default=100, help="games to play")
    parser.add_argument("--players", type=positive_int, help="players (default: one per agent)")
    add_workers_flags(
        parser, cpu_count(), "parallel processes (default: the CPUs here, %(default)s)"
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local: a process pool here; ray: Ray actors, here or on --address (same results)",
    )
    parser.add_argument(
        "--address",
        help="--backend ray: the Ray cluster, ray://HOST:PORT, HOST:PORT or auto "
        "(default: a local Ray instance)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. difficulty=easy (repeatable; the game's options table)",
    )
    parser.add_argument("--seed", type=seed_int, default=0, help="master seed, from 0")
    parser.add_argument(
        "--out", type=Path, default=Path("eval-results"), help="output folder, new or existing"
    )
    parser.add_argument(
        "--save-replays",
        type=replay_count,
        default=0,
        metavar="N|all",
        help="keep N games drawn from --seed (or all) as replay files game-<index>.json",
    )
    parser.add_argument(
        "--replay-dir",
        type=Path,
        help="folder for --save-replays, new or existing (default: OUT/replays)",
    )
    return parser


def replay_sample(games: int, count: int | str, seed: int) -> list[int]:
    """The indices of the games to keep: ``count`` of ``games`` drawn from ``seed`` (all of
    them if ``count`` is ``all`` or at least ``games``), in order."""
    if count == ALL or count >= games:
        return list(range(games))
    chosen = np.random.default_rng(seed).choice(games, size=count, replace=False)
    return sorted(int(index) for index in chosen)


def replay_files(records: Sequence[GameRecord], folder: Path) -> dict[Path, str]:
    """One replay file per record that carries a replay, named by the game's index."""
    return {
        folder / f"game-{record.index:05d}.json": record.replay.to_json()
        for record in records
        if record.replay is not None
    }


def option_value(option: Option, name: str, text: str) -> Any:
    """``text`` as a value of game option ``name``: one of its choices as written, or a
    value of its default's type; else a UsageError naming the accepted values."""
    if option.choices is not None:
        for choice in option.choices:
            if text == str(choice) or (
                isinstance(choice, bool) and text.lower() == str(choice).lower()
            ):
                return choice
        accepted = ", ".join(str(choice) for choice in option.choices)
        raise UsageError(f"--option {name}={text}: {name} accepts {accepted}")
    kind = type(option.default)
    try:
        return kind(text)
    except ValueError:
        raise UsageError(f"--option {name}={text}: {name} takes a {kind.__name__}") from None


def parse_options(game_class: type, pairs: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    """``--option KEY=VALUE`` pairs as the game's option values, checked against its options
    table (``OPTIONS``); a UsageError names an unknown key or value and what is accepted."""
    known = game_class.OPTIONS
    chosen: dict[str, Any] = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        if not equals or not name:
            raise UsageError(f"--option {pair!r}: expected KEY=VALUE")
        if name not in known:
            accepted = ", ".join(sorted(known)) or "none"
            raise UsageError(
                f"--option {name}: unknown option of {game_class.NAME}; options: {accepted}"
            )
        if name in chosen:
            raise UsageError(f"--option {name} given twice")
        chosen[name] = option_value(known[name], name, text)
        try:
            known[name].check(name, chosen[name])
        except ValueError as error:
            raise UsageError(f"--option {pair}: {error}") from None
    return tuple(chosen.items())


def check_match(
    game_name: str,
    agents: Sequence[str],
    players: int | None,
    seed: int,
    options: Sequence[str] = (),
) -> MatchSpec:
    """The validated match, or a UsageError naming what is wrong and what is accepted."""
    try:
        name = resolve_name(game_name)
    except ValueError as error:
        raise UsageError(str(error)) from None
    game_class = game_module(name).Game
    chosen = parse_options(game_class, options)
    count = len(agents) if players is None else players
    try:
        game_class.check_players(count)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if len(agents) != count:
        raise UsageError(
            f"{count} players need {count} agents (one per seat), got {len(agents)}: "
            f"{' '.join(agents)}"
        )
    for spec in dict.fromkeys(agents):
        try:
            agent_factory(spec, name, count)
        except ValueError as error:
            raise UsageError(str(error)) from None
    return MatchSpec(game=name, agents=tuple(agents), seed=seed, options=chosen)


def check_out(out: Path, replay_dir: Path | None) -> None:
    """Folders we can write in (checked before any game is played; nothing is created)."""
    try:
        check_output_folder(out, "--out")
        if replay_dir is not None:
            check_output_folder(replay_dir, "--replay-dir")
    except ValueError as error:
        raise UsageError(str(error)) from None


def check_backend(backend: str, address: str | None) -> None:
    """Ray present and a valid address for ``--backend ray``; no address without it."""
    if backend != "ray":
        if address is not None:
            raise UsageError("--address applies to --backend ray only")
        return
    from tabletop_envs.training.rllib import check_address, require_ray

    try:
        if address is not None:
            check_address(address)
        require_ray("--backend ray")
    except ValueError as error:
        raise UsageError(str(error)) from None


def run(
    match: MatchSpec,
    games: int,
    workers: int,
    out: Path,
    replays: Sequence[int] = (),
    replay_dir: Path | None = None,
    address: str | None = None,
    on_ray: bool = False,
) -> int:
    """Play the games (on Ray actors with ``on_ray``), print the tables, write the results and
    the replays of ``replays`` (to ``replay_dir``, default ``out/replays``)."""
    from rich.console import Console
    from tqdm import tqdm

    with tqdm(total=games, desc=f"{match.game} games", unit="game", file=sys.stderr) as bar:
        if on_ray:
            from tabletop_envs.tools.ray_eval import play_games_on_ray

            records = play_games_on_ray(
                match, games, workers, address, lambda _: bar.update(), replays
            )
        else:
            records = play_games(match, games, workers, lambda _: bar.update(), replays)
    cooperative = bool(game_module(match.game).Game.COOPERATIVE)
    summary = summarise(match, records, cooperative)
    console = Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, 120))  # files and pipes: no cramped tables
    for table in render_tables(summary):
        console.print(table)
    try:
        paths = write_results(summary, records, out)
    except OSError as error:
        return fail(PROG, f"cannot write the results to {out}: {error}", code=1)
    for path in paths:
        console.print(f"wrote {path}")
    if replays:
        folder = replay_dir or out / REPLAY_FOLDER
        try:
            folder.mkdir(parents=True, exist_ok=True)
            write_all_atomic(replay_files(records, folder))
        except OSError as error:
            return fail(PROG, f"cannot write the replays to {folder}: {error}", code=1)
        console.print(f"wrote {len(replays)} replays to {folder} (tabletop-view shows one)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        match = check_match(args.game, args.agents, args.players, args.seed, args.option)
        replays = replay_sample(args.games, args.save_replays, args.seed)
        replay_dir = args.replay_dir or args.out / REPLAY_FOLDER
        check_out(args.out, replay_dir if replays else None)
        check_backend(args.backend, args.address)
        check_workers(args)
    except UsageError as error:
        return fail(PROG, str(error))
    try:
        on_ray = args.backend == "ray"
        return run(
            match, args.games, args.workers, args.out, replays, replay_dir, args.address, on_ray
        )
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; no results written", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
