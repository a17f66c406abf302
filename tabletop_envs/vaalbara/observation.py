"""Vaalbara observations: one seat's view as schema fields, and the same view in words.

Seats in the view are relative: index 0 is the observer, 1 its left neighbour (next seat),
and so on; indices past the player count stay zero. Other players' VP, hands, clan deck
orders, unrevealed picks, hidden Fighter answers and the land deck's unseen fronts are never
read here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import Field, ObservationSchema
from tabletop_envs.vaalbara.cards import (
    CHARACTER_COUNT,
    CLANS,
    EMPTY,
    KIND_TYPE_INDEX,
    LAND_CARDS,
    LAND_KINDS,
    MAX_PLAYERS,
    RIVER_INITIATIVE_CAP,
    ROUNDS,
    Character,
    Decision,
    LandKind,
    cards_in,
    land_reward,
    omen_order,
)

if TYPE_CHECKING:
    from tabletop_envs.vaalbara.rules import VaalbaraGame

P = MAX_PLAYERS
VP_SCALE = 400
"""VP above this are shown as this (no real game comes close)."""
VALUE_SCALE = 60
"""The most one land can be worth (a River with 5 Rivers at initiative 6, doubled)."""

SCHEMA = ObservationSchema(
    [
        Field("decision", (len(Decision),)),
        Field("decider", (P,)),
        Field("active", (P,)),
        Field("round", (ROUNDS,)),
        Field("players", (P - 1,)),
        Field("hand", (CHARACTER_COUNT,)),
        Field("my_pick", (CHARACTER_COUNT,)),
        Field("my_vp", (1,), VP_SCALE),
        Field("picked", (P,)),
        Field("revealed_picks", (P, CHARACTER_COUNT)),
        Field("turn_position", (P, P)),
        Field("done", (P,)),
        Field("discards", (P, CHARACTER_COUNT)),
        Field("known_in_hand", (P, CHARACTER_COUNT)),
        Field("hand_sizes", (P,), 5),
        Field("clan_deck_sizes", (P,), CHARACTER_COUNT),
        Field("realms", (P, LAND_KINDS), ROUNDS),
        Field("row1", (P, LAND_KINDS)),
        Field("row2", (P, LAND_KINDS)),
        Field("omen_ranks", (P, P)),
        Field("deck_top_known", (LAND_KINDS,)),
        Field("deck_bottom_known", (LAND_KINDS,)),
        Field("land_deck_size", (1,), len(LAND_CARDS)),
        Field("rider_slot", (P,)),
        Field("land_values", (2, P), VALUE_SCALE),
    ]
)


BIT_ROWS = np.array(
    [[mask >> card & 1 for card in range(CHARACTER_COUNT)] for mask in range(1 << CHARACTER_COUNT)],
    dtype=np.float32,
)
"""BIT_ROWS[mask]: the characters in a 12-bit hand mask as a 0/1 row."""


def _kind(card: int) -> int:
    return int(LAND_CARDS[card][0])


def build_view(game: VaalbaraGame, player: int) -> dict[str, Any]:
    """``player``'s view as the numeric fields of :data:`SCHEMA`."""
    n = game.num_players
    seats = [(player + r) % n for r in range(n)]
    relative = {seat: r for r, seat in enumerate(seats)}
    view = SCHEMA.new_view()
    if game.decision != EMPTY:
        view["decision"][game.decision] = 1
        view["decider"][relative[game.decider]] = 1
    if game.active != EMPTY:
        view["active"][relative[game.active]] = 1
    view["round"][game.round] = 1
    view["players"][n - 2] = 1
    view["hand"][:] = BIT_ROWS[game.hands[player]]
    if game.picks[player] != EMPTY:
        view["my_pick"][game.picks[player]] = 1
    view["my_vp"][0] = min(game.vp[player], VP_SCALE)
    for r, seat in enumerate(seats):
        _public_seat(game, seat, r, view)
    for row_name, row in (("row1", game.rows[0]), ("row2", game.rows[1])):
        for slot, card in enumerate(row):
            if card != EMPTY:
                view[row_name][slot, _kind(card)] = 1
    for rank, seat in enumerate(omen_order(game.top_back(), n)):
        view["omen_ranks"][relative[seat], rank] = 1
    if game.deck_known[-1]:
        view["deck_top_known"][_kind(game.land_deck[-1])] = 1
    if game.deck_known[0]:
        view["deck_bottom_known"][_kind(game.land_deck[0])] = 1
    view["land_deck_size"][0] = len(game.land_deck)
    if game.rider_slot != EMPTY:
        view["rider_slot"][game.rider_slot] = 1
    _land_values(game, player, view["land_values"])
    return view


def _land_values(game: VaalbaraGame, player: int, out: np.ndarray) -> None:
    """VP the observer would score taking each row land now: with its pick's initiative and
    Farmer doubling once picked, else at the River cap (public realms and own pick only)."""
    pick = game.picks[player]
    initiative = RIVER_INITIATIVE_CAP if pick == EMPTY else pick + 1
    factor = 2 if pick == Character.FARMER else 1
    counts = game.type_counts(player)
    meadows = game.neighbour_meadows(player)
    for row, cards in enumerate(game.rows):
        for slot, card in enumerate(cards):
            if card == EMPTY:
                continue
            kind = _kind(card)
            counts[KIND_TYPE_INDEX[kind]] += 1
            value = factor * land_reward(kind, counts, meadows, initiative)
            counts[KIND_TYPE_INDEX[kind]] -= 1
            out[row, slot] = min(value, VALUE_SCALE)


def _public_seat(game: VaalbaraGame, seat: int, r: int, view: dict[str, Any]) -> None:
    """What everyone sees of ``seat``, written at relative index ``r``."""
    view["picked"][r] = game.picks[seat] != EMPTY
    if game.revealed:
        view["revealed_picks"][r, game.picks[seat]] = 1
        position = game.turn_order.index(seat)
        view["turn_position"][r, position] = 1
        view["done"][r] = position < game.turn
    view["discards"][r] = BIT_ROWS[game.discards[seat]]
    view["known_in_hand"][r] = BIT_ROWS[game.known_in_hand[seat]]
    view["hand_sizes"][r] = bin(game.hands[seat]).count("1")
    view["clan_deck_sizes"][r] = len(game.clan_decks[seat])
    for card in game.realms[seat]:
        view["realms"][r, _kind(card)] += 1


def _names(mask: int) -> list[str]:
    return [Character(card).title for card in cards_in(mask)]


def _land(card: int) -> str:
    return "-" if card == EMPTY else LandKind(_kind(card)).title


def readable_view(game: VaalbaraGame, player: int) -> dict[str, Any]:
    """The same information as :func:`build_view`, in words, for people."""
    n = game.num_players
    others = []
    for seat in range(n):
        entry: dict[str, Any] = {
            "seat": seat,
            "clan": CLANS[seat],
            "realm": [_land(card) for card in game.realms[seat]],
            "played": _names(game.discards[seat]),
            "hand_size": bin(game.hands[seat]).count("1"),
            "known_in_hand": _names(game.known_in_hand[seat]),
            "picked": game.picks[seat] != EMPTY,
        }
        if game.revealed:
            entry["pick"] = Character(game.picks[seat]).title
        others.append(entry)
    view: dict[str, Any] = {
        "you": f"player_{player} ({CLANS[player]})",
        "round": game.round + 1,
        "your_hand": _names(game.hands[player]),
        "your_pick": None if game.picks[player] == EMPTY else Character(game.picks[player]).title,
        "your_vp": game.vp[player],
        "players": others,
        "row1": [_land(card) for card in game.rows[0]],
        "row2": [_land(card) for card in game.rows[1]],
        "omens_best_first": [CLANS[s] for s in omen_order(game.top_back(), n)],
        "land_deck": len(game.land_deck),
        "deck_top_known": _land(game.land_deck[-1]) if game.deck_known[-1] else None,
        "deck_bottom_known": _land(game.land_deck[0]) if game.deck_known[0] else None,
    }
    if game.revealed:
        view["turn_order"] = [CLANS[s] for s in game.turn_order]
    if game.decision != EMPTY:
        view["deciding"] = f"player_{game.decider}: {Decision(game.decision).name.lower()}"
    return view
