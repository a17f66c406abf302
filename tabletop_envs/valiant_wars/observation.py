"""Valiant Wars observations: one seat's view as schema fields, and the same view in words.

Seats in the view are relative: index 0 is the observer, 1 its left neighbour (next seat),
and so on; indices past the player count stay zero. Never read here: any deck's order
(except the top cards the observer's own Oracle showed), the Champion deck's order, the
Location deck below the top, and reveal-or-STOP choices not yet resolved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import Field, ObservationSchema
from tabletop_envs.valiant_wars.cards import (
    ALL_CARDS,
    BUYING,
    CHAMPION_BASE,
    CHAMPIONS,
    GOLD,
    LOCATIONS,
    MARKET_SIZE,
    MAX_PLAYERS,
    MAX_TARGET_VP,
    NO_CARD,
    NUM_CHAMPION_CARDS,
    NUM_CODES,
    NUM_KINDS,
    NUM_LOCATIONS,
    OMEN,
    ORACLE_LOOK,
    REVEALING,
    SOLDIER,
    SUPPLY_GOLD,
    Decision,
    Kind,
    Terrain,
    card_name,
    is_champion,
)

if TYPE_CHECKING:
    from tabletop_envs.valiant_wars.rules import ValiantWarsGame

P = MAX_PLAYERS
SLOTS = NUM_CHAMPION_CARDS
TOTAL_SCALE = 200
"""Sword and Gold totals above this are shown as this (no real line comes close)."""
LINE_COUNTS = ("gold", "omens", "cancelled_omens", "soldiers", "flipped_soldiers", "locations")

SCHEMA = ObservationSchema(
    [
        Field("decision", (len(Decision),)),
        Field("effect", (NUM_KINDS,)),
        Field("subject", (P,)),
        Field("draw_amount", (1,), SLOTS),
        Field("to_move", (P,)),
        Field("players", (P,)),
        Field("first_player", (P,)),
        Field("round", (1,), NUM_LOCATIONS),
        Field("step", (1,), ALL_CARDS),
        Field("buying", (1,)),
        Field("target_vp", (1,), MAX_TARGET_VP),
        Field("vp", (P,), MAX_TARGET_VP),
        Field("drawing", (P,)),
        Field("stopped", (P,)),
        Field("out", (P,)),
        Field("stop_step", (P,), ALL_CARDS),
        Field("swords", (P,), TOTAL_SCALE),
        Field("gold", (P,), TOTAL_SCALE),
        Field("line_counts", (P, len(LINE_COUNTS)), SUPPLY_GOLD),
        Field("line_champions", (P, SLOTS), NUM_KINDS),
        Field("line_champion_up", (P, SLOTS)),
        Field("line_champion_copy", (P, SLOTS), NUM_KINDS),
        Field("line_saint_used", (P, SLOTS)),
        Field("deck", (P, NUM_CODES), SUPPLY_GOLD),
        Field("deck_size", (P,), ALL_CARDS),
        Field("known_top", (P,), ORACLE_LOOK),
        Field("my_top", (ORACLE_LOOK, NUM_CODES)),
        Field("market", (MARKET_SIZE, NUM_KINDS)),
        Field("champion_deck", (NUM_KINDS,), 4),
        Field("supply", (3,), SUPPLY_GOLD),
        Field("location", (NUM_LOCATIONS,)),
        Field("location_vp", (1,), 4),
        Field("terrain", (len(Terrain),)),
        Field("locations_left", (NUM_LOCATIONS,)),
        Field("purchase", (3,), TOTAL_SCALE),
    ]
)


def build_view(game: ValiantWarsGame, player: int) -> dict[str, Any]:
    """``player``'s view as the numeric fields of :data:`SCHEMA`."""
    n = game.num_players
    view = {field.name: np.zeros(field.shape, dtype=np.float32) for field in SCHEMA.fields}
    if game.decider == player and game.decision >= 0:
        _pending(game, player, view)
    if game.decider >= 0:
        view["to_move"][(game.decider - player) % n] = 1
    view["players"][:n] = 1
    view["first_player"][(game.first - player) % n] = 1
    view["round"][0] = game.round
    view["step"][0] = min(game.step, ALL_CARDS)
    view["buying"][0] = game.phase == BUYING
    view["target_vp"][0] = game.target
    for r in range(n):
        _public_seat(game, (player + r) % n, r, view)
    deck = game.decks[player]
    for depth in range(game.known_top[player]):
        view["my_top"][depth, deck[-1 - depth]] = 1
    for slot, kind in enumerate(game.market):
        if kind != NO_CARD:
            view["market"][slot, kind] = 1
    for kind in game.champion_deck:
        view["champion_deck"][kind] += 1
    view["supply"][:] = game.supply
    if game.location_deck:
        location = LOCATIONS[game.location]
        view["location"][game.location] = 1
        view["location_vp"][0] = location.vp
        view["terrain"][location.terrain] = 1
        view["locations_left"][game.location_deck] = 1
    if game.phase == BUYING and game.decider == player:
        view["purchase"][:] = (
            min(game.gold_left, TOTAL_SCALE),
            game.bought_champion,
            game.took_soldier,
        )
    return view


def _pending(game: ValiantWarsGame, player: int, view: dict[str, Any]) -> None:
    """The decision ``player`` faces and its context."""
    view["decision"][game.decision] = 1
    if game.decision in (Decision.PLAYER, Decision.CARD):
        effect, subject, _, _, amount = game.pending
        view["effect"][effect] = 1
        if subject >= 0:
            view["subject"][(subject - player) % game.num_players] = 1
        view["draw_amount"][0] = min(amount, SLOTS)


def _public_seat(game: ValiantWarsGame, seat: int, r: int, view: dict[str, Any]) -> None:
    """What everyone sees of ``seat``, written at relative index ``r``."""
    view["vp"][r] = min(game.vp[seat], MAX_TARGET_VP)
    stopped, out = game.stopped[seat], game.out[seat]
    view["drawing"][r] = game.phase == REVEALING and not stopped and not out
    view["stopped"][r] = stopped
    view["out"][r] = out
    view["stop_step"][r] = min(game.stop_step[seat] + 1, ALL_CARDS)
    view["swords"][r] = min(game.swords(seat), TOTAL_SCALE)
    view["gold"][r] = min(game.gold(seat), TOTAL_SCALE)
    counts = view["line_counts"][r]
    slot = 0
    for pos, code in enumerate(game.lines[seat]):
        up = game.face_up[seat][pos]
        if is_champion(code):
            view["line_champions"][r, slot] = code - CHAMPION_BASE + 1
            view["line_champion_up"][r, slot] = up
            view["line_champion_copy"][r, slot] = game.copies[seat][pos] + 1
            view["line_saint_used"][r, slot] = game.used[seat][pos]
            slot += 1
        elif code == GOLD:
            counts[0] += up
        elif code == OMEN:
            counts[1 if up else 2] += 1
        elif code == SOLDIER:
            counts[3 if up else 4] += 1
        else:
            counts[5] += up
    view["deck"][r] = np.bincount(game.decks[seat], minlength=NUM_CODES)
    view["deck_size"][r] = len(game.decks[seat])
    view["known_top"][r] = game.known_top[seat]


def line_words(game: ValiantWarsGame, seat: int) -> list[str]:
    words = []
    for pos, code in enumerate(game.lines[seat]):
        name = card_name(code)
        if (
            is_champion(code)
            and code - CHAMPION_BASE == Kind.DANCER
            and game.copies[seat][pos] >= 0
        ):
            name += f" (as {Kind(game.copies[seat][pos]).title})"
        if game.used[seat][pos]:
            name += " (used)"
        words.append(name if game.face_up[seat][pos] else f"[{name}, face down]")
    return words


def _composition(cards: list[int]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for code in sorted(cards):
        counts[card_name(code)] = counts.get(card_name(code), 0) + 1
    return counts


def readable_view(game: ValiantWarsGame, player: int) -> dict[str, Any]:
    """The same information as :func:`build_view`, in words, for people."""
    seats = []
    for seat in range(game.num_players):
        status = "out" if game.out[seat] else "stopped" if game.stopped[seat] else "drawing"
        seats.append(
            {
                "seat": seat,
                "vp": game.vp[seat],
                "status": status,
                "line": line_words(game, seat),
                "swords": game.swords(seat),
                "gold": game.gold(seat),
                "deck": _composition(game.decks[seat]),
                "knows_top_cards": game.known_top[seat],
            }
        )
    deck = game.decks[player]
    view: dict[str, Any] = {
        "you": f"player_{player}",
        "round": game.round + 1,
        "first_player": f"player_{game.first}",
        "target_vp": game.target,
        "players": seats,
        "your_known_top_cards": [card_name(deck[-1 - d]) for d in range(game.known_top[player])],
        "market": [
            "-" if kind == NO_CARD else f"{Kind(kind).title} ({CHAMPIONS[kind].cost} Gold)"
            for kind in game.market
        ],
        "champion_deck": len(game.champion_deck),
        "supply": dict(zip(("soldiers", "gold", "omens"), game.supply, strict=True)),
        "locations_left": len(game.location_deck),
    }
    if game.location_deck:
        location = LOCATIONS[game.location]
        view["location"] = f"{location.name} ({location.vp} VP; {location.terrain.text})"
    if game.decider == player and game.decision >= 0:
        view["deciding"] = Decision(game.decision).name.lower()
        if game.decision == Decision.BUY:
            view["gold_left"] = game.gold_left
    return view
