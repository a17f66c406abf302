"""A person at a terminal: sees one seat's own view, picks from numbered legal actions.

The agent never touches the game: a :class:`SeatWindow` gives it that seat's readable view
(the game's ``readable_view(seat)``, nothing more) and the names of actions. Bad input is
re-asked with a clear message; end of input or ``q`` raises :class:`QuitGame`, leaving the
game exactly as it was.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, Protocol, TextIO

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from tabletop_envs.agents.base import Agent

QUIT_WORDS = ("q", "quit", "exit")


class QuitGame(Exception):
    """The person stopped (end of input or ``q``); no action was taken."""


class SeatWindow(Protocol):
    """What a person in one seat may look at."""

    def readable_view(self) -> Mapping[str, Any]: ...

    def action_to_str(self, action: int) -> str: ...


class EnvSeatWindow:
    """One seat's window onto a (possibly wrapped) tabletop env: its own view only."""

    def __init__(self, env: Any, seat: int) -> None:
        self.env = env
        self.seat = seat

    def readable_view(self) -> Mapping[str, Any]:
        return self.env.unwrapped.game.readable_view(self.seat)

    def action_to_str(self, action: int) -> str:
        return self.env.unwrapped.game.action_to_str(action)


def format_value(value: Any) -> str:
    """A readable one-line rendering of view data (lists, dicts, arrays, scalars)."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, Mapping):
        return "; ".join(f"{key}: {format_value(item)}" for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(item) for item in value) or "—"
    return str(value)


def is_record_list(value: Any) -> bool:
    return (
        isinstance(value, (list, tuple))
        and bool(value)
        and all(isinstance(item, Mapping) for item in value)
    )


def is_seat_mapping(value: Any) -> bool:
    """A mapping keyed by seat numbers (``{"0": ..., "1": ...}``) whose values are records or
    lists: one row per seat reads better than one long line."""
    return (
        isinstance(value, Mapping)
        and bool(value)
        and all(str(key).isdigit() for key in value)
        and all(isinstance(item, (Mapping, list, tuple)) for item in value.values())
    )


def records_table(title: str, records: list[Mapping[str, Any]]) -> Table:
    """A rich table with one row per record and one column per key; records without a seat
    are numbered from 1, as the actions name them (``place at Location 2``)."""
    table = Table(title=title)
    columns = list(dict.fromkeys(key for record in records for key in record))
    numbered = not {"seat", "player"} & set(columns)
    if numbered:
        table.add_column("#", justify="right")
    for column in columns:
        table.add_column(str(column))
    for number, record in enumerate(records, start=1):
        cells = [escape(format_value(record[c])) if c in record else "" for c in columns]
        table.add_row(*([str(number)] if numbered else []), *cells)
    return table


def seat_table(title: str, by_seat: Mapping[str, Any]) -> Table:
    """One row per seat: a record's fields as columns, or a list as one column."""
    rows = [
        {
            "player": f"player_{key}",
            **(dict(value) if isinstance(value, Mapping) else {title: value}),
        }
        for key, value in by_seat.items()
    ]
    return records_table(title, rows)


class HumanAgent(Agent):
    """Reads a choice from ``input_stream`` for the seat behind ``window``."""

    name = "human"

    def __init__(
        self,
        window: SeatWindow,
        input_stream: TextIO | None = None,
        output_stream: TextIO | None = None,
    ) -> None:
        self.window = window
        self.input = input_stream if input_stream is not None else sys.stdin
        self.console = Console(
            file=output_stream if output_stream is not None else sys.stdout, highlight=False
        )
        self.news: list[str] = []

    def say(self, text: str) -> None:
        """One message as it is: no markup, never wrapped (paths stay whole)."""
        self.console.print(text, markup=False, soft_wrap=True)

    def tell(self, line: str) -> None:
        """Something the person should know before their next decision (another's move)."""
        self.news.append(line)

    def show_news(self) -> None:
        """What happened since the person's last turn, then forget it."""
        if self.news:
            self.say("Since your last turn:")
            for line in self.news:
                self.say(f"  {line}")
            self.news.clear()

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        if not legal:
            raise ValueError(f"{agent} has no legal action to choose from")
        self.show_view(f"{agent}: your view")
        self.show_actions(legal)
        return legal[self.ask_choice(len(legal)) - 1]

    def show_view(self, title: str) -> None:
        """What happened since the last turn, then the seat's readable view: plain entries in
        one table, lists of records and per-seat data as tables of their own."""
        self.show_news()
        summary = Table(title=title, show_header=False)
        summary.add_column(style="bold")
        summary.add_column()
        tables = []
        for key, value in self.window.readable_view().items():
            if is_record_list(value):
                tables.append(records_table(str(key), value))
            elif is_seat_mapping(value):
                tables.append(seat_table(str(key), value))
            else:
                summary.add_row(escape(str(key)), escape(format_value(value)))
        for table in (*tables, summary):
            self.console.print(table)

    def show_actions(self, legal: list[int]) -> None:
        for number, action in enumerate(legal, start=1):
            self.console.print(f"  {number:>3}. {escape(self.window.action_to_str(action))}")

    def ask_choice(self, count: int) -> int:
        """A number in 1..count read from the input; re-asks until one is given."""
        while True:
            self.console.print(f"Choose 1-{count} (q to quit): ", end="")
            line = self.input.readline()
            if not line:
                self.console.print("\nend of input: quitting")
                raise QuitGame("end of input")
            text = line.strip()
            if text.lower() in QUIT_WORDS:
                raise QuitGame("quit")
            if text.isdigit() and 1 <= int(text) <= count:
                return int(text)
            self.console.print(
                f"[red]{escape(repr(text))} is not a choice[/red]: "
                f"enter a number from 1 to {count}, or q to quit"
            )
