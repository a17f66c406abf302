"""What a person at the table sees, in words: a few facts and aligned tables.

Each game's ``text.screen(game, viewer)`` builds a :class:`Screen` from what ``viewer`` may
know: facts as short labelled sentences ("Your hand": "Oracle (4), Rider (9)") and tables
whose rows and columns are things at the table (one row per player, one per land). Labels,
headers and cells are words for people, never field names, ``None`` or sentinel numbers
(``tests/test_text_views.py`` checks every game). ``tabletop-play`` draws it with rich;
:meth:`Screen.plain` gives the same as aligned plain text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """A titled table: a header per column, one row of words per thing at the table."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.title!r}: row {row} does not match {self.columns}")

    def plain(self) -> str:
        """The table as aligned text: the title, the header, then the rows."""
        widths = [
            max(len(cell) for cell in column)
            for column in zip(self.columns, *self.rows, strict=True)
        ]
        lines = [self.title]
        for row in (self.columns, *self.rows):
            cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
            lines.append("  " + "  ".join(cells).rstrip())
        return "\n".join(lines)


@dataclass(frozen=True)
class Screen:
    """One seat's (or everyone's) view of the table: a title, facts, tables."""

    title: str
    facts: tuple[tuple[str, str], ...]
    tables: tuple[Table, ...] = ()

    def plain(self) -> str:
        """The screen as aligned plain text."""
        width = max((len(label) for label, _ in self.facts), default=0)
        lines = [self.title, *(f"  {label.ljust(width)}  {text}" for label, text in self.facts)]
        return "\n\n".join(["\n".join(lines), *(table.plain() for table in self.tables)])


def table(title: str, columns: Sequence[str], rows: Iterable[Sequence[object]]) -> Table:
    """A :class:`Table` whose cells are written with ``str``."""
    return Table(title, tuple(columns), tuple(tuple(str(cell) for cell in row) for row in rows))


def listing(items: Iterable[object], empty: str = "none") -> str:
    """``a, b, c``, or ``empty`` when there is nothing."""
    words = [str(item) for item in items]
    return ", ".join(words) if words else empty


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``1 card``, ``3 cards``, ``no cards``."""
    word = noun if count == 1 else plural or f"{noun}s"
    return f"{count} {word}" if count else f"no {word}"
