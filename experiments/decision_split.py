"""Which decisions cost an agent its games: one seat plays ``--agent`` on some decision kinds
and ``--teacher`` on the others, every other seat plays the teacher.

    python -m experiments.decision_split vaalbara --players 4 --agent pretrained --split select

Rows: the teacher alone, the agent alone, and for each ``--split KINDS`` (action segment
names, comma-separated) the agent on those kinds only, then on every other kind only. Every
row plays the same deals (one master seed, seats rotated); a shared win counts as a fraction;
95 % Wilson intervals. A row near the teacher-alone row shows kinds the agent plays as well
as its teacher; a row below it, kinds that lose games.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from tabletop_envs.agents.arena import MatchSpec, Table
from tabletop_envs.agents.base import Agent
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.agents.stats import wilson_interval

from tabletop_envs import game_module, make, resolve_name
from tabletop_envs.cli import OneLineParser, fail, positive_int, seed_int
from tabletop_envs.core.actions import ActionLayout

if TYPE_CHECKING:
    from tabletop_envs.agents.search import InformationSet

PROG = "python -m experiments.decision_split"


class SplitAgent(Agent):
    """``agent`` on the decisions whose action segment is in ``kinds``, ``other`` elsewhere."""

    def __init__(
        self, agent: Agent, other: Agent, layout: ActionLayout, kinds: frozenset[str]
    ) -> None:
        self.agent, self.other, self.layout, self.kinds = agent, other, layout, kinds

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)
        self.other.reset(seed)

    def see(self, information: InformationSet) -> None:
        self.agent.see(information)
        self.other.see(information)

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        kind = self.layout.kind_of(observation["action_mask"])
        chooser = self.agent if kind in self.kinds else self.other
        return chooser.act(observation, agent)


@dataclass(frozen=True)
class SplitRow:
    """One row: the agent decides ``kinds`` (by segment name), the teacher the rest."""

    label: str
    kinds: frozenset[str]


def split_rows(segments: Sequence[str], splits: Sequence[str]) -> list[SplitRow]:
    """The teacher alone, the agent alone, and each split and its complement."""
    every = frozenset(segments)
    rows = [SplitRow("nothing (teacher alone)", frozenset()), SplitRow("everything", every)]
    for split in splits:
        kinds = frozenset(name.strip() for name in split.split(","))
        unknown = sorted(kinds - every)
        if unknown:
            raise ValueError(f"unknown decision kinds {unknown}; this game's are {list(segments)}")
        rows.append(SplitRow(", ".join(sorted(kinds)), kinds))
        rows.append(SplitRow(f"all but {', '.join(sorted(kinds))}", every - kinds))
    return rows


def play_split(
    game_name: str, players: int, agent: str, teacher: str, row: SplitRow, games: int, seed: int
) -> float:
    """The split seat's wins over ``games`` games (a shared win counts as a fraction)."""
    table = Table(MatchSpec(game_name, (teacher,) * players, seed))
    layout = game_module(game_name).Game.LAYOUT
    make_agent, make_teacher = (
        agent_factory(agent, game_name, players),
        agent_factory(teacher, game_name, players),
    )
    table.agents[0] = SplitAgent(make_agent(None), make_teacher(None), layout, row.kinds)
    wins = 0.0
    for index in range(games):
        record = table.play(index)
        seat = record.lineup.index(0)
        if seat in record.winners:
            wins += 1.0 / len(record.winners)
    return wins


def markdown(rows: Sequence[SplitRow], wins: Sequence[float], games: int) -> str:
    lines = [
        "| the agent decides | wins | games | win rate | 95 % interval |",
        "|---|---|---|---|---|",
    ]
    for row, won in zip(rows, wins, strict=True):
        low, high = wilson_interval(won, games)
        lines.append(
            f"| {row.label} | {won:g} | {games} | {won / games:.3f} | [{low:.3f}, {high:.3f}] |"
        )
    return "\n".join(lines)


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("game", help="environment name, e.g. vaalbara or valiant_wars_v3")
    parser.add_argument("--players", type=positive_int, required=True, help="seats at the table")
    parser.add_argument("--agent", default="pretrained", help="the agent under study")
    parser.add_argument("--teacher", default="heuristic", help="the other seats, and the rest")
    parser.add_argument(
        "--split",
        action="append",
        default=[],
        help="decision kinds (action segment names, comma-separated) the agent plays alone",
    )
    parser.add_argument("--games", type=positive_int, default=300, help="games per row")
    parser.add_argument("--seed", type=seed_int, default=1, help="master seed (the same deals)")
    parser.add_argument("--jobs", type=positive_int, default=2, help="rows played at once")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        game = resolve_name(args.game)
        make(game, raw=True, num_players=args.players)  # refuses a player count it lacks
        rows = split_rows(game_module(game).Game.LAYOUT.names, args.split)
        for spec in (args.agent, args.teacher):
            agent_factory(spec, game, args.players)
    except ValueError as error:
        return fail(PROG, str(error))
    jobs = [
        (game, args.players, args.agent, args.teacher, row, args.games, args.seed) for row in rows
    ]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(play_split, *job) for job in jobs]
        wins = []
        for row, future in zip(rows, futures, strict=True):
            wins.append(future.result())
            print(f"{PROG}: {row.label}: {wins[-1]:g} of {args.games}", file=sys.stderr)
    print(f"{game}, {args.players} players: {args.agent} in one seat against {args.teacher}")
    print(markdown(rows, wins, args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
