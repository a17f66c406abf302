"""Valiant Wars observations: one seat's view as schema fields, and the same view in words.

Seats in the view are relative: index 0 is the observer, 1 its left neighbour (next seat),
and so on; indices past the player count stay zero. Never read here: any deck's order
(except the top cards the observer's own Oracle showed), the Champion deck's order, the
Location deck below the top, and reveal-or-STOP choices not yet resolved.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from tabletop_envs.core.encoding import Field, ObservationSchema, SparseView
from tabletop_envs.valiant_wars.cards import (
    ALL_CARDS,
    BUYING,
    CHAMPION_BASE,
    CHAMPIONS,
    GOLD,
    LOCATION_BASE,
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


_AT = {field.name: SCHEMA.offset(field.name) for field in SCHEMA.fields}
_SEAT_AT = tuple(
    {
        name: _AT[name] + r * width
        for name, width in (
            ("vp", 1),
            ("drawing", 1),
            ("stopped", 1),
            ("out", 1),
            ("stop_step", 1),
            ("swords", 1),
            ("gold", 1),
            ("line_counts", len(LINE_COUNTS)),
            ("line_champions", SLOTS),
            ("line_champion_up", SLOTS),
            ("line_champion_copy", SLOTS),
            ("line_saint_used", SLOTS),
            ("deck", NUM_CODES),
            ("deck_size", 1),
            ("known_top", 1),
        )
    }
    for r in range(P)
)
"""Where each field of the seat at relative index ``r`` starts."""
COUNTS_CACHE_SIZE = 4096
_COUNTS: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]] = {}
"""Card counts as entries, by (where, the cards): decks change a card or two a step."""
_PLAYERS = tuple(tuple(range(_AT["players"], _AT["players"] + n)) for n in range(P + 1))


def build_view(game: ValiantWarsGame, player: int) -> dict[str, Any]:
    """``player``'s view as the numeric fields of :data:`SCHEMA`."""
    return SCHEMA.expand(sparse_view(game, player))


def sparse_view(game: ValiantWarsGame, player: int) -> SparseView:
    """``player``'s view as flat entries of :data:`SCHEMA` (the per-step path)."""
    n = game.num_players
    view = SparseView()
    ones, at, values = view.ones, view.at, view.values
    if game.decider == player and game.decision >= 0:
        _pending(game, player, view)
    if game.decider >= 0:
        ones.append(_AT["to_move"] + (game.decider - player) % n)
    ones += _PLAYERS[n]
    ones.append(_AT["first_player"] + (game.first - player) % n)
    buying = game.phase == BUYING
    if buying:
        ones.append(_AT["buying"])
    at += (_AT["round"], _AT["step"], _AT["target_vp"])
    values += (game.round, min(game.step, ALL_CARDS), game.target)
    for r in range(n):
        _public_seat(game, (player + r) % n, r, view)
    deck, my_top = game.decks[player], _AT["my_top"]
    for depth in range(game.known_top[player]):
        ones.append(my_top + depth * NUM_CODES + deck[-1 - depth])
    market = _AT["market"]
    ones += [market + slot * NUM_KINDS + kind for slot, kind in enumerate(game.market) if kind >= 0]
    champion_deck = _AT["champion_deck"]
    _counts(game.champion_deck, champion_deck, view)
    supply = _AT["supply"]
    at += (supply, supply + 1, supply + 2)
    values += game.supply
    if game.location_deck:
        location = LOCATIONS[game.location]
        ones += (_AT["location"] + game.location, _AT["terrain"] + location.terrain)
        at.append(_AT["location_vp"])
        values.append(location.vp)
        ones += map(_AT["locations_left"].__add__, game.location_deck)
    if buying and game.decider == player:
        purchase = _AT["purchase"]
        at += (purchase, purchase + 1, purchase + 2)
        values += (min(game.gold_left, TOTAL_SCALE), game.bought_champion, game.took_soldier)
    return view


def _pending(game: ValiantWarsGame, player: int, view: SparseView) -> None:
    """The decision ``player`` faces and its context."""
    view.ones.append(_AT["decision"] + game.decision)
    if game.decision in (Decision.PLAYER, Decision.CARD):
        effect, subject, _, _, amount = game.pending
        view.ones.append(_AT["effect"] + effect)
        if subject >= 0:
            view.ones.append(_AT["subject"] + (subject - player) % game.num_players)
        view.set(_AT["draw_amount"], min(amount, SLOTS))


def _public_seat(game: ValiantWarsGame, seat: int, r: int, view: SparseView) -> None:
    """What everyone sees of ``seat``, written at relative index ``r``."""
    where = _SEAT_AT[r]
    stopped, out = game.stopped[seat], game.out[seat]
    swords, gold = game.line_totals(seat)
    view.at += (
        where["vp"],
        where["drawing"],
        where["stopped"],
        where["out"],
        where["stop_step"],
        where["swords"],
        where["gold"],
        where["deck_size"],
        where["known_top"],
    )
    view.values += (
        min(game.vp[seat], MAX_TARGET_VP),
        game.phase == REVEALING and not stopped and not out,
        stopped,
        out,
        min(game.stop_step[seat] + 1, ALL_CARDS),
        min(swords, TOTAL_SCALE),
        min(gold, TOTAL_SCALE),
        len(game.decks[seat]),
        game.known_top[seat],
    )
    _line(game, seat, where, view)
    _counts(game.decks[seat], where["deck"], view)


def _counts(cards: list[int], start: int, view: SparseView) -> None:
    """How many of each card ``cards`` holds, at ``start`` + card."""
    key = (start, tuple(cards))
    entries = _COUNTS.get(key)
    if entries is None:
        if len(_COUNTS) >= COUNTS_CACHE_SIZE:
            _COUNTS.clear()
        counts = Counter(cards)
        entries = _COUNTS[key] = (tuple(map(start.__add__, counts)), tuple(counts.values()))
    view.at += entries[0]
    view.values += entries[1]


def _line(game: ValiantWarsGame, seat: int, where: dict[str, int], view: SparseView) -> None:
    """The counts of plain cards and the Champions, slot by slot, in ``seat``'s line."""
    if not game.lines[seat]:
        return
    at, values = view.at, view.values
    counts = [0] * len(LINE_COUNTS)
    slot = 0
    face_up, copies, used = game.face_up[seat], game.copies[seat], game.used[seat]
    for pos, code in enumerate(game.lines[seat]):
        up = face_up[pos]
        if CHAMPION_BASE <= code < LOCATION_BASE:
            at += (
                where["line_champions"] + slot,
                where["line_champion_up"] + slot,
                where["line_champion_copy"] + slot,
                where["line_saint_used"] + slot,
            )
            values += (code - CHAMPION_BASE + 1, up, copies[pos] + 1, used[pos])
            slot += 1
        elif code == GOLD:
            counts[0] += up
        elif code == OMEN:
            counts[1 if up else 2] += 1
        elif code == SOLDIER:
            counts[3 if up else 4] += 1
        else:
            counts[5] += up
    start = where["line_counts"]
    at += range(start, start + len(LINE_COUNTS))
    values += counts


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
