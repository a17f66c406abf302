"""A person at a terminal: sees one seat's own view, picks from numbered legal actions.

The agent never touches the game: a :class:`SeatWindow` gives it that seat's screen (the
game's ``screen(seat)``: facts and tables in words, nothing more) and the names of actions.
Bad input is re-asked with a clear message; end of input or ``q`` raises :class:`QuitGame`,
leaving the game exactly as it was.
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

from tabletop_envs.core.screen import Screen

QUIT_WORDS = ("q", "quit", "exit")


class QuitGame(Exception):
    """The person stopped (end of input or ``q``); no action was taken."""


class SeatWindow(Protocol):
    """What a person in one seat may look at."""

    def screen(self) -> Screen: ...

    def action_to_str(self, action: int) -> str: ...


class EnvSeatWindow:
    """One seat's window onto a (possibly wrapped) tabletop env: its own view only."""

    def __init__(self, env: Any, seat: int) -> None:
        self.env = env
        self.seat = seat

    def screen(self) -> Screen:
        return self.env.unwrapped.game.screen(self.seat)

    def action_to_str(self, action: int) -> str:
        return self.env.unwrapped.game.action_to_str(action)


def screen_tables(screen: Screen) -> list[Any]:
    """The screen for rich: its tables, then its facts (ending with who decides), aligned."""
    shown: list[Any] = []
    for table in screen.tables:
        drawn = Table(title=escape(table.title), title_justify="left")
        for column in table.columns:
            drawn.add_column(escape(column))
        for row in table.rows:
            drawn.add_row(*(escape(cell) for cell in row))
        shown.append(drawn)
    facts = Table(title=escape(screen.title), title_justify="left", show_header=False)
    facts.add_column(style="bold")
    facts.add_column()
    for label, text in screen.facts:
        facts.add_row(escape(label), escape(text))
    shown.append(facts)
    return shown


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
        """What happened since the person's last turn, one line each, then forget it."""
        if self.news:
            self.say("What happened since your last turn:")
            for line in self.news:
                self.say(f"  {line}")
            self.news.clear()

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        if not legal:
            raise ValueError(f"{agent} has no legal action to choose from")
        self.show_view()
        self.show_actions(legal)
        return legal[self.ask_choice(len(legal)) - 1]

    def show_view(self, heading: str | None = None) -> None:
        """What happened since the last turn, then the seat's screen: the tables (one row
        per thing at the table), then the facts and who decides."""
        self.show_news()
        if heading:
            self.say(heading)
        for shown in screen_tables(self.window.screen()):
            self.console.print(shown)

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
