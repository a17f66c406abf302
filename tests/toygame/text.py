"""High Card as text: action names, a seat's view in words, the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop_envs.core.screen import Screen, listing, table
from toygame.spec import LAYOUT, STAKES, Decision

if TYPE_CHECKING:
    from toygame.rules import HighCard


def action_to_str(game: HighCard, action: int) -> str:
    segment, option = LAYOUT.locate(action)
    if segment is LAYOUT.segment_of(Decision.REDRAW):
        return ("keep my card", "discard my card and draw")[option]
    return f"stake {STAKES[option]}"


def readable_view(game: HighCard, player: int) -> dict[str, Any]:
    return {
        "you": f"player_{player}",
        "your_card": game.cards[player],
        "swapped": [f"player_{s}" for s in range(game.num_players) if game.swapped[s]],
        "discards": sorted(game.discards),
        "stakes": {f"player_{s}": stake for s, stake in enumerate(game.stakes) if stake},
    }


def render_text(game: HighCard, viewer: int | None = None) -> str:
    lines = ["=== High Card ==="]
    for seat in range(game.num_players):
        card = game.cards[seat] if viewer in (None, seat) else "?"
        lines.append(f"  player_{seat}: card {card}, stake {game.stakes[seat] or '-'}")
    if game.is_terminal:
        lines.append("Winners: " + ", ".join(f"player_{s}" for s in game.winners()))
    else:
        kind = Decision(game.pending_kind()).name.lower()
        lines.append(f"To decide: player_{game.current_player}: {kind}")
    return "\n".join(lines)


def screen(game: HighCard, viewer: int | None = None) -> Screen:
    """Each seat's card (the viewer's own, or all for a spectator) and stake."""
    rows = [
        (
            f"player_{seat}" + (" (you)" if seat == viewer else ""),
            str(game.cards[seat]) if viewer in (None, seat) else "hidden",
            str(game.stakes[seat]) if game.stakes[seat] else "not yet",
        )
        for seat in range(game.num_players)
    ]
    deciding = "nobody, the game is over"
    if not game.is_terminal:
        kind = ("keep or redraw", "stake 1 or 2")[game.pending_kind()]
        deciding = f"player_{game.current_player}: {kind}"
    facts = (("Discarded", listing(sorted(game.discards))), ("To decide", deciding))
    return Screen("High Card", facts, (table("Players", ("player", "card", "stake"), rows),))


def narrate(game: HighCard, action: int, viewer: int) -> list[str]:
    """Nothing happens by itself in High Card."""
    return []
