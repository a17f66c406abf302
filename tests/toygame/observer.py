"""High Card's observer: the plain reference view, and the fast encoder tested against it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import Field, ObservationSchema
from toygame.spec import CARDS, MAX_PLAYERS, STAKES, Decision

if TYPE_CHECKING:
    from toygame.rules import HighCard

P = MAX_PLAYERS
SCHEMA = ObservationSchema(
    [
        Field("card", (1,), CARDS - 1),
        Field("decision", (len(Decision),)),
        Field("to_move", (P,)),
        Field("swapped", (P,)),
        Field("discards", (CARDS,)),
        Field("stakes", (P,), max(STAKES)),
    ]
)


def view(game: HighCard, player: int) -> dict[str, Any]:
    """What ``player`` knows, seats counted from itself: its card, the decision, who moves,
    who swapped, the face-up discards, the stakes. Written from the rules alone, sharing
    nothing with :func:`observation`."""
    n = game.num_players
    to_move = np.zeros(P)
    decision = np.zeros(len(Decision))
    if not game.is_terminal:
        to_move[(game.current_player - player) % n] = 1
        decision[game.pending_kind()] = 1
    seats = [(player + offset) % n for offset in range(n)]
    return {
        "card": [game.cards[player]],
        "decision": decision,
        "to_move": to_move,
        "swapped": [float(game.swapped[seat]) for seat in seats] + [0.0] * (P - n),
        "discards": [float(card in game.discards) for card in range(CARDS)],
        "stakes": [game.stakes[seat] for seat in seats] + [0] * (P - n),
    }


_AT = {name: SCHEMA.offset(name) for name in SCHEMA.slices}


def observation(game: HighCard, player: int) -> np.ndarray:
    """``SCHEMA.encode(view(game, player))``, written straight into the vector."""
    n = game.num_players
    out = np.zeros(SCHEMA.size, dtype=np.float32)
    out[_AT["card"]] = game.cards[player]
    if game.turn < 2 * n:
        out[_AT["decision"] + (game.turn >= n)] = 1
        out[_AT["to_move"] + (game.turn - player) % n] = 1
    out[[_AT["discards"] + card for card in game.discards]] = 1
    for offset in range(n):
        seat = (player + offset) % n
        out[_AT["swapped"] + offset] = game.swapped[seat]
        out[_AT["stakes"] + offset] = game.stakes[seat]
    return SCHEMA.scale(out)
