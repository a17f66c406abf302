"""High Card as a picture (SVG) for the replay viewer: each seat's card and stake, the face-up
discards and the deck. A seat's picture comes from ``game.view(seat)`` alone; ``seat=None``
shows every card, the ones only their holder sees outlined dashed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.svg import INK, MUTED, Canvas
from toygame.spec import CARDS, Decision

if TYPE_CHECKING:
    from tabletop_envs.core.game import GameCore

SEAT_WIDTH = 150
ASKS = {Decision.REDRAW: "keep the card, or discard it and draw", Decision.STAKE: "stake 1 or 2"}


@dataclass
class Hand:
    """One seat as the picture shows it; ``card`` is ``None`` when the viewer can't see it."""

    card: int | None
    swapped: bool
    stake: int


@dataclass
class Table:
    viewer: int | None
    hands: list[Hand]
    discards: list[int]
    deck: int
    deciding: int | None
    decision: int | None


def draw(game: GameCore, seat: int | None) -> str:
    """The table as ``seat`` sees it, or everything (``seat=None``)."""
    table = table_of_state(game) if seat is None else table_of_view(game, seat)
    return draw_table(table)


def table_of_view(game: GameCore, seat: int) -> Table:
    """From ``game.view(seat)`` and the public player count only."""
    view, n = game.view(seat), game.num_players
    seats = [(seat + r) % n for r in range(n)]
    hands = [
        Hand(
            card=int(view["card"][0]) if other == seat else None,
            swapped=bool(view["swapped"][r]),
            stake=int(view["stakes"][r]),
        )
        for other, r in sorted(zip(seats, range(n), strict=True))
    ]
    discards = [int(card) for card in np.flatnonzero(view["discards"])]
    mover = np.flatnonzero(view["to_move"])
    decision = np.flatnonzero(view["decision"])
    return Table(
        viewer=seat,
        hands=hands,
        discards=discards,
        deck=CARDS - n - len(discards),
        deciding=seats[int(mover[0])] if len(mover) else None,
        decision=int(decision[0]) if len(decision) else None,
    )


def table_of_state(game: Any) -> Table:
    over = game.is_terminal
    hands = [
        Hand(card, swapped, stake)
        for card, swapped, stake in zip(game.cards, game.swapped, game.stakes, strict=True)
    ]
    return Table(
        viewer=None,
        hands=hands,
        discards=sorted(game.discards),
        deck=len(game.deck),
        deciding=None if over else game.current_player,
        decision=None if over else game.pending_kind(),
    )


def draw_table(table: Table) -> str:
    n = len(table.hands)
    canvas = Canvas(max(n * SEAT_WIDTH + 40, 520), 330, title="High Card")
    canvas.text(20, 30, "High Card", size=20, bold=True)
    who = "everything (dashed: seen by its holder only)" if table.viewer is None else None
    canvas.text(
        canvas.width - 20,
        30,
        who or f"seen by player_{table.viewer}",
        size=12,
        anchor="end",
        fill=MUTED,
    )
    canvas.text(20, 56, _status(table), size=14, bold=True)
    for seat, hand in enumerate(table.hands):
        _seat(canvas, table, seat, hand, 20 + seat * SEAT_WIDTH)
    _middle(canvas, table)
    return canvas.to_svg()


def _status(table: Table) -> str:
    if table.decision is None:
        if table.viewer is not None:
            return "Game over: the highest card wins"
        best = max(hand.card for hand in table.hands)
        winners = [f"player_{s}" for s, hand in enumerate(table.hands) if hand.card == best]
        return f"Game over: {' and '.join(winners)} win with a {best}"
    return f"To decide: player_{table.deciding}: {ASKS[Decision(table.decision)]}"


def _seat(canvas: Canvas, table: Table, seat: int, hand: Hand, x: float) -> None:
    deciding = seat == table.deciding
    canvas.rect(x, 72, SEAT_WIDTH - 12, 150, fill="#eef2f8", stroke=INK if deciding else "none")
    canvas.text(x + 10, 92, f"player_{seat}", size=14, bold=True)
    slot = f"hand/{seat}"
    if hand.card is None:
        canvas.card_back(x + 10, 102, width=60, height=84, slot=slot)
    else:
        secret = (seat,) if table.viewer is None else None
        canvas.card(
            x + 10,
            102,
            str(hand.card),
            detail=str(hand.card),
            width=60,
            height=84,
            slot=slot,
            seen_by=secret,
        )
    canvas.text(x + 78, 124, f"stake {hand.stake or '-'}", size=12)
    if hand.swapped:
        canvas.text(x + 78, 144, "swapped", size=12, fill=MUTED)
    if deciding:
        canvas.badge(x + 74, 160, "deciding", fill=INK, ink="#fff")


def _middle(canvas: Canvas, table: Table) -> None:
    canvas.text(20, 250, "Discards (face up)", size=12, bold=True)
    for index, card in enumerate(table.discards):
        canvas.card(
            20 + index * 50,
            258,
            str(card),
            detail=str(card),
            width=44,
            height=60,
            slot=f"discard/{index}",
        )
    canvas.pile(canvas.width - 90, 232, table.deck, "deck", width=44, height=60)
