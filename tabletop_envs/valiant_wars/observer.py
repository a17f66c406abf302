"""Valiant Wars' observer: one seat's view as the fields of :data:`SCHEMA`.

Seats in the view are relative: index 0 is the observer, 1 its left neighbour (next seat),
and so on; indices past the player count stay zero. Never read here: any deck's order
(except the top cards the observer's own Oracle showed), the Champion deck's order, the
Location deck below the top, and reveal-or-STOP choices not yet resolved.

Two ways to the same view, sharing no code: :func:`view`, the plain reference, written
field by field from the state and the rulebook (its Sword and Gold totals counted here
from the card texts); and :func:`observation`, the per-step path. What every seat sees is
kept once per game in table seat order (:data:`TABLE`), a block per seat and a few for the
table, each encoded again only when its key (the state it shows) changes; an observer's
vector is that store turned to face it plus its own fields. The conformance suite checks
``observation(game, p) == SCHEMA.encode(view(game, p))`` at every step of random games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import (
    SEATS,
    Field,
    KeptObservation,
    ObservationSchema,
    TableLayout,
)
from tabletop_envs.core.game import NO_SEAT
from tabletop_envs.valiant_wars.spec import (
    ALL_CARDS,
    BUYING,
    CHAMPION_BASE,
    CHAMPIONS,
    CTX_AMOUNT,
    CTX_EFFECT,
    CTX_SUBJECT,
    EMPTY,
    GOLD,
    LOCATION_BASE,
    LOCATION_TERRAINS,
    LOCATIONS,
    MARKET_SIZE,
    MAX_PLAYERS,
    MAX_TARGET_VP,
    MERCENARY_CAP,
    NO_CARD,
    NUM_CHAMPION_CARDS,
    NUM_CODES,
    NUM_KINDS,
    NUM_LOCATIONS,
    OMEN,
    ORACLE_LOOK,
    OVER,
    REVEALING,
    SOLDIER,
    SUPPLY_GOLD,
    ChampionType,
    Decision,
    Kind,
    Terrain,
)

if TYPE_CHECKING:
    from tabletop_envs.valiant_wars.rules import ValiantWarsGame

P = MAX_PLAYERS
SLOTS = NUM_CHAMPION_CARDS
TOTAL_SCALE = 200
"""Sword and Gold totals above this are shown as this (no real line comes close)."""
PERCENT = 100
NEAR_SCALE = 30
"""The scale of the derived Sword margins and stakes: differences that decide a Battle."""
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
        Field("omen_chance", (P,), PERCENT),
        Field("at_risk", (P,)),
        Field("out_chance", (P,), PERCENT),
        Field("sword_margin", (P, 2), NEAR_SCALE),
        Field("stake", (P, 2), NEAR_SCALE),
    ]
)
"""The last five fields (``valiant_wars_v2``) are derived from the rest of the view, on scales
that make a Reveal's risk easy to read: ``omen_chance`` the percent chance (rounded down) that
the seat's next card is a Dark Omen, from its deck's public contents (for the observer, exact
when its Oracle showed the top card); ``at_risk`` a face-up Dark Omen and no unused face-up
Saint, so the next Omen puts the seat OUT; ``out_chance`` that chance when at risk, else 0;
``sword_margin`` how many Swords the seat is ahead of, and behind, the best other seat not
OUT; ``stake`` its Gold and Swords on a finer scale. Values past ``NEAR_SCALE`` show as it."""


SEAT_FIELDS = (
    "players",
    "vp",
    "stopped",
    "out",
    "stop_step",
    "swords",
    "gold",
    "line_counts",
    "line_champions",
    "line_champion_up",
    "line_champion_copy",
    "line_saint_used",
    "deck",
    "deck_size",
    "known_top",
    "omen_chance",
    "at_risk",
    "out_chance",
    "stake",
)
"""What everyone sees of one seat, kept as that seat's block (``omen_chance`` there is the
public one; the observer's own row is made exact after its Oracle)."""
ROUND_FIELDS = ("first_player", "round", "step", "buying", "target_vp")
MARKET_FIELDS = ("market", "supply")
LOCATION_FIELDS = ("location", "location_vp", "terrain", "locations_left")
TABLE = TableLayout(
    SCHEMA, P, dict.fromkeys(("first_player", *SEAT_FIELDS, "drawing", "sword_margin"), SEATS)
)
"""The view stored in table seat order; the observer's own fields (``to_move`` among them,
one write) are written after. ``sword_margin`` is written whenever a seat's block is;
``drawing`` is a block of its own (it changes with the phase, when nothing else of a seat
need change)."""
ROUND_BLOCK, MARKET_BLOCK, SUPPLY_BLOCK, CHAMPION_DECK_BLOCK, LOCATION_BLOCK, DRAWING_BLOCK = range(
    P, P + 6
)
BLOCKS = P + 6
_SEAT_POSITIONS = tuple(TABLE.positions(SEAT_FIELDS, seat) for seat in range(P))
_MARKET_POSITIONS = TABLE.positions(["market"])
_SUPPLY_POSITIONS = TABLE.positions(["supply"])
_CHAMPION_DECK_POSITIONS = TABLE.positions(["champion_deck"])
_LOCATION_POSITIONS = TABLE.positions(LOCATION_FIELDS)
_SEAT_AT = tuple({name: TABLE.at(name, seat) for name in SEAT_FIELDS} for seat in range(P))
"""Where each field of a seat's block starts in the store."""
_FIRST_AT = tuple(TABLE.at("first_player", seat) for seat in range(P))
_ROUND_AT = tuple(TABLE.at(name) for name in ROUND_FIELDS[1:])
"""The round block's entries besides each seat's first-player flag: the round, the reveal
step, the buying flag and the VP target."""
_SEAT_SCALARS_AT = tuple(
    tuple(
        TABLE.at(name, seat)
        for name in (
            "players",
            "vp",
            "stopped",
            "out",
            "stop_step",
            "deck_size",
            "known_top",
            "omen_chance",
        )
    )
    for seat in range(P)
)
"""The one-value fields of a seat's block, in the order :func:`_keep_seat` writes them."""
_SEAT_TOTALS_AT = tuple(
    (
        TABLE.at("swords", seat),
        TABLE.at("gold", seat),
        *(TABLE.at("stake", seat) + i for i in (0, 1)),
    )
    for seat in range(P)
)
"""Where a seat's Swords, Gold and stake (Gold, then Swords) are kept."""
_SWORDS, _OUT, _MARGINS = TABLE.at("swords"), TABLE.at("out"), TABLE.at("sword_margin")
_DRAWING = TABLE.at("drawing")
"""Each seat field keeps its rows in seat order: these start the Swords, OUT, margins and
drawing flags."""
_STORED_AT = {
    name: TABLE.at(name)
    for name in (*ROUND_FIELDS[1:], *MARKET_FIELDS, "champion_deck", *LOCATION_FIELDS)
}
"""Where each table field starts in the store."""
_AT = {field.name: SCHEMA.offset(field.name) for field in SCHEMA.fields}
"""Where the observer's own fields start in its vector."""
_SCALES = SCHEMA.scales
_SIZE = SCHEMA.size
_SCALE = _SCALES.tolist()
"""Each observation entry's scale, as :meth:`ObservationSchema.scale` applies it: the store
is kept unscaled and scaled as it is turned to face the observer, so the observer's own
fields are written after as ``value * _SCALE[at]`` (two float32 numbers' product is exact
in a Python float, so it rounds to the float32 that scaling the written value gives)."""


def observation(game: ValiantWarsGame, player: int) -> np.ndarray:
    """``player``'s observation vector, ``SCHEMA.encode(view(game, player))`` (the per-step
    path: the kept table view turned to face ``player`` and scaled, then whose move it is,
    its pending decision, its purchase and the top cards it knows, written scaled)."""
    kept = KeptObservation.of(game, TABLE, BLOCKS)
    cells = memoryview(kept.values)
    n = game.num_players
    location_deck = game.location_deck
    terrain = LOCATION_TERRAINS[location_deck[-1]] if location_deck else _PLAIN
    changed = False
    for seat, key in enumerate(_seat_keys(game, terrain)):
        if kept.keys[seat] != key:
            changed = _keep_seat(game, kept, cells, seat, key) or changed
    if changed:
        _keep_margins(cells, n)
    revealing = game.phase == REVEALING
    if kept.keys[DRAWING_BLOCK] != (revealing, game.stopped, game.out):
        kept.keys[DRAWING_BLOCK] = (revealing, game.stopped[:], game.out[:])
        for seat, (stopped, out) in enumerate(zip(game.stopped, game.out, strict=True)):
            cells[_DRAWING + seat] = revealing and not stopped and not out
    _keep_round(game, kept, cells)
    _keep_market(game, kept, cells)
    _keep_location(game, kept, cells)
    if kept.stale(CHAMPION_DECK_BLOCK, game.champion_deck, _CHAMPION_DECK_POSITIONS):
        _keep_counts(game.champion_deck, _STORED_AT["champion_deck"], NUM_KINDS, kept.values)
    out = _facing(kept.values, n, player)
    decider = game.decider
    if decider >= 0:
        out[_AT["to_move"] + (decider - player) % n] = _SCALE[_AT["to_move"]]
    if decider == player:
        _own_decision(game, player, out)
    deck, my_top = game.decks[player], _AT["my_top"]
    for depth in range(game.known_top[player]):
        out[my_top + depth * NUM_CODES + deck[-1 - depth]] = _SCALE[my_top]
    if game.known_top[player]:
        _put_known_omen(deck[-1] == OMEN, out)
    return out


def _facing(values: np.ndarray, n: int, player: int) -> np.ndarray:
    """The kept store turned to face ``player`` and scaled (a new vector): seat 0's is the
    store itself, as the store keeps every field in observation order and never writes the
    rows of seats past the player count (scaled in one pass, no copy first); another seat's
    is one gather (``mode="wrap"``: every index is in range, so it gathers the same entries,
    and numpy's wrapping loop runs a fifth to a quarter quicker than its checked one)."""
    if player == 0:
        return np.multiply(values[:_SIZE], _SCALES)
    return SCHEMA.scale(values.take(TABLE.gather(n, player), mode="wrap"))


def _put_known_omen(omen_next: bool, out: np.ndarray) -> None:
    """The observer's own next-card chance once its Oracle showed the top card."""
    chance = PERCENT if omen_next else 0
    out[_AT["omen_chance"]] = chance * _SCALE[_AT["omen_chance"]]
    if out[_AT["at_risk"]]:
        out[_AT["out_chance"]] = chance * _SCALE[_AT["out_chance"]]


def _keep_margins(cells: memoryview, n: int) -> None:
    """Every seat's Sword margin over the best other seat still in (0 if none), from the
    kept Sword totals (written again whenever a seat's block is)."""
    swords = cells[_SWORDS : _SWORDS + n].tolist()
    out = cells[_OUT : _OUT + n].tolist()
    best = second = 0.0
    best_seat = NO_SEAT
    for seat in range(n):
        if out[seat]:
            continue
        if swords[seat] > best:
            best, second, best_seat = swords[seat], best, seat
        elif swords[seat] > second:
            second = swords[seat]
    at = _MARGINS
    for seat in range(n):
        lead = swords[seat] - (second if seat == best_seat else best)
        if lead > 0:
            cells[at], cells[at + 1] = min(lead, NEAR_SCALE), 0.0
        else:  # a tie shows as (0.0, -0.0), as ``max(-lead, 0.0)`` has always written it
            cells[at], cells[at + 1] = 0.0, min(-lead, NEAR_SCALE)
        at += 2


_TARGETING = (int(Decision.CHOOSE_PLAYER), int(Decision.CHOOSE_CARD))
_IGNORE_OMEN = int(Decision.IGNORE_OMEN)
_PLAIN = int(Terrain.PLAIN)
"""Decision kinds and a terrain as plain ints for the per-step path (an enum member read
costs many times a constant's)."""


def _own_decision(game: ValiantWarsGame, player: int, out: np.ndarray) -> None:
    """The decision ``player`` faces and its context, or what its purchase has spent."""
    if game.decision >= 0:
        out[_AT["decision"] + game.decision] = _SCALE[_AT["decision"]]
    if game.decision in _TARGETING:
        effect, subject, _, _, amount = game.pending
        out[_AT["effect"] + effect] = _SCALE[_AT["effect"]]
        if subject >= 0:
            out[_AT["subject"] + (subject - player) % game.num_players] = _SCALE[_AT["subject"]]
        out[_AT["draw_amount"]] = min(amount, SLOTS) * _SCALE[_AT["draw_amount"]]
    elif game.decision == _IGNORE_OMEN:
        out[_AT["effect"] + Kind.SAINT] = _SCALE[_AT["effect"]]
    if game.phase == BUYING:
        purchase, scale = _AT["purchase"], _SCALE[_AT["purchase"]]
        out[purchase] = min(game.gold_left, TOTAL_SCALE) * scale
        out[purchase + 1] = game.bought_champion * scale
        out[purchase + 2] = game.took_soldier * scale


def _seat_keys(game: ValiantWarsGame, terrain: int) -> list[tuple]:
    """Each seat's key: the state its block shows (``terrain`` sets its Sword total), its
    lists compared as they are and copied only when a changed key is kept (``zip`` makes
    the tuples; every per-seat list holds one entry a seat)."""
    return list(
        zip(
            game.vp,
            game.stopped,
            game.out,
            game.stop_step,
            game.stop_gold,
            game.known_top,
            [terrain] * game.num_players,
            game.lines,
            game.face_up,
            game.copies,
            game.used,
            game.decks,
            strict=True,
        )
    )


def _keep_seat(
    game: ValiantWarsGame, kept: KeptObservation, cells: memoryview, seat: int, key: tuple
) -> bool:
    """Encode what everyone sees of ``seat`` again, its ``key`` (:func:`_seat_keys`) having
    changed; whether its Swords or OUT may have (the margins then want updating). A change
    to the deck alone, or to the stop alone, rewrites only the entries it moves; a line one
    card longer, only that card and what it moves."""
    vp, stopped, out, stop_step, stop_gold, known_top, _, line, face_up, copies, used, deck = key
    previous = kept.keys[seat]
    kept.keys[seat] = (*key[:LINE_AT], line[:], face_up[:], copies[:], used[:], deck[:])
    if type(previous) is tuple:
        if previous[:DECK_AT] == key[:DECK_AT]:  # a purchase, or another change to the deck alone
            _put_deck(deck, previous[DECK_AT], cells, _SEAT_AT[seat])
            return False
        if previous[STOP_PARTS] == key[STOP_PARTS] and previous[LATER] == key[LATER]:
            _put_stop(game, seat, cells)
            return False
        if previous[:LINE_AT] == key[:LINE_AT] and _one_card_more(previous, key):
            _put_revealed(game, seat, cells)
            return True
    kept.values[_SEAT_POSITIONS[seat]] = 0.0
    at = _SEAT_AT[seat]
    chance = _omen_chance(deck)
    players_at, vp_at, stopped_at, out_at, step_at, size_at, known_at, chance_at = _SEAT_SCALARS_AT[
        seat
    ]
    cells[players_at] = 1.0
    cells[vp_at] = min(vp, MAX_TARGET_VP)
    cells[stopped_at] = stopped
    cells[out_at] = out
    cells[step_at] = min(stop_step + 1, ALL_CARDS)
    cells[size_at] = len(deck)
    cells[known_at] = known_top
    cells[chance_at] = chance
    _put_deck_counts(deck, at["deck"], cells)
    if line:
        swords, gold = game.line_totals(seat)
        gold = stop_gold if stopped and not out else gold
        _put_totals(swords, gold, _SEAT_TOTALS_AT[seat], cells)
        omens_up = _put_line(line, face_up, copies, used, at, cells)
        if omens_up and game.unused_saint(seat) == EMPTY:
            cells[at["at_risk"]] = 1.0
            cells[at["out_chance"]] = chance
    return True


def _put_totals(swords: int, gold: int, places: tuple[int, ...], cells: memoryview) -> None:
    """A seat's Sword and Gold totals and its stake (Gold, then Swords) at ``places``."""
    swords_at, gold_at, stake_gold_at, stake_swords_at = places
    cells[swords_at] = min(swords, TOTAL_SCALE)
    cells[gold_at] = min(gold, TOTAL_SCALE)
    cells[stake_gold_at] = min(gold, NEAR_SCALE)
    cells[stake_swords_at] = min(swords, NEAR_SCALE)


LINE_AT, DECK_AT = 7, 11
"""The places in :func:`_keep_seat`'s key of the line (then its face-up flags, copies and
used Saints) and of the deck: a key equal before the deck changed the deck alone."""
STOP_PARTS, LATER = slice(0, 3, 2), slice(5, None)
"""The key's VP and OUT, and its parts after the stop's: a key equal in both changed the
stop alone (STOP, its step and the Gold it fixed)."""


def _one_card_more(previous: tuple, key: tuple) -> bool:
    """Whether ``key``'s line is ``previous``'s with the top card of the deck added (the
    cards before it, and their flags, unchanged)."""
    cards, deck_before = len(previous[LINE_AT]), previous[DECK_AT]
    line = key[LINE_AT]
    if len(line) != cards + 1 or not deck_before or deck_before[-1] != line[-1]:
        return False
    if key[DECK_AT] != deck_before[:-1]:
        return False
    was_line, was_up, was_copies, was_used = previous[LINE_AT:DECK_AT]
    _, up, copies, used = key[LINE_AT:DECK_AT]
    return (
        line[:cards] == was_line
        and up[:cards] == was_up
        and copies[:cards] == was_copies
        and used[:cards] == was_used
    )


def _put_revealed(game: ValiantWarsGame, seat: int, cells: memoryview) -> None:
    """A seat's line one card longer, the top card of its deck (nothing else of the seat
    changed): that card, the totals, the deck and the risk again."""
    at = _SEAT_AT[seat]
    line, deck = game.lines[seat], game.decks[seat]
    pos = len(line) - 1
    code, up = line[pos], game.face_up[seat][pos]
    if CHAMPION_BASE <= code < LOCATION_BASE:
        slot = sum(map(_IS_CHAMPION.__getitem__, line)) - 1
        cells[at["line_champions"] + slot] = code - CHAMPION_BASE + 1
        cells[at["line_champion_up"] + slot] = up
        cells[at["line_champion_copy"] + slot] = game.copies[seat][pos] + 1
        cells[at["line_saint_used"] + slot] = game.used[seat][pos]
    else:
        counted = _LINE_COUNT_OF[code][up]
        if counted >= 0:
            cells[at["line_counts"] + counted] += 1
    swords, gold = game.line_totals(seat)
    if game.stopped[seat] and not game.out[seat]:
        gold = game.stop_gold[seat]
    _put_totals(swords, gold, _SEAT_TOTALS_AT[seat], cells)
    cells[at["deck"] + code] -= 1
    chance = _omen_chance(deck)
    at_risk = cells[at["line_counts"] + 1] and game.unused_saint(seat) == EMPTY
    cells[at["deck_size"]] = len(deck)
    cells[at["omen_chance"]] = chance
    cells[at["at_risk"]] = 1.0 if at_risk else 0.0
    cells[at["out_chance"]] = chance if at_risk else 0


_IS_CHAMPION = tuple(CHAMPION_BASE <= code < LOCATION_BASE for code in range(NUM_CODES))
_LINE_COUNT_OF = tuple(
    (2, 1) if code == OMEN else (4, 3) if code == SOLDIER else (-1, 0 if code == GOLD else 5)
    for code in range(NUM_CODES)
)
"""The ``line_counts`` entry a card adds one to, face down and face up (-1: none)."""


def _omen_chance(deck: list[int]) -> int:
    """The public chance, in percent, that ``deck``'s next card is a Dark Omen."""
    return PERCENT * deck.count(OMEN) // len(deck) if deck else 0


def _put_deck(
    deck: list[int], deck_before: list[int], cells: memoryview, at: dict[str, int]
) -> None:
    """A seat's deck counts, size and Omen chance again (its risk of going out with them);
    a card put under ``deck_before`` (a purchase) adds one to its count only."""
    start = at["deck"]
    chance = _omen_chance(deck)
    if deck[1:] == deck_before:
        cells[start + deck[0]] += 1
    else:
        for code in range(start, start + NUM_CODES):
            cells[code] = 0.0
        _put_deck_counts(deck, start, cells)
    cells[at["deck_size"]] = len(deck)
    cells[at["omen_chance"]] = chance
    if cells[at["at_risk"]]:
        cells[at["out_chance"]] = chance


def _put_deck_counts(deck: list[int], start: int, cells: memoryview) -> None:
    """How many of each card code ``deck`` holds, at ``start`` + code (the codes it holds)."""
    for code in set(deck):
        cells[start + code] = deck.count(code)


def _put_stop(game: ValiantWarsGame, seat: int, cells: memoryview) -> None:
    """A seat's STOP, its step and the Gold its line shows again (a stop fixes the Gold)."""
    at = _SEAT_AT[seat]
    stopped = game.stopped[seat]
    cells[at["stopped"]] = stopped
    cells[at["stop_step"]] = min(game.stop_step[seat] + 1, ALL_CARDS)
    if game.lines[seat]:
        out = game.out[seat]
        gold = game.stop_gold[seat] if stopped and not out else game.line_totals(seat)[1]
        cells[at["gold"]] = min(gold, TOTAL_SCALE)
        cells[at["stake"]] = min(gold, NEAR_SCALE)


def _keep_counts(cards: list[int], start: int, codes: int, values: np.ndarray) -> None:
    """How many of each of ``codes`` card codes ``cards`` holds, at ``start`` + code."""
    values[start : start + codes] = np.bincount(cards, minlength=codes)


def _put_line(
    line: list[int],
    face_up: list[int],
    copies: list[int],
    used: list[int],
    at: dict[str, int],
    cells: memoryview,
) -> int:
    """The counts of plain cards and the Champions, slot by slot, in a seat's line (whose
    entries are zero); the number of face-up Dark Omens."""
    counts = [0] * len(LINE_COUNTS)
    champions, champion_up = at["line_champions"], at["line_champion_up"]
    champion_copy, saint_used = at["line_champion_copy"], at["line_saint_used"]
    for pos, code in enumerate(line):
        up = face_up[pos]
        if CHAMPION_BASE <= code < LOCATION_BASE:
            cells[champions] = code - CHAMPION_BASE + 1
            cells[champion_up] = up
            cells[champion_copy] = copies[pos] + 1
            cells[saint_used] = used[pos]
            champions, champion_up, champion_copy, saint_used = (
                champions + 1,
                champion_up + 1,
                champion_copy + 1,
                saint_used + 1,
            )
        elif code == GOLD:
            counts[0] += up
        elif code == OMEN:
            counts[1 if up else 2] += 1
        elif code == SOLDIER:
            counts[3 if up else 4] += 1
        else:
            counts[5] += up
    start = at["line_counts"]
    for offset, count in enumerate(counts):
        if count:
            cells[start + offset] = count
    return counts[1]


def _keep_round(game: ValiantWarsGame, kept: KeptObservation, cells: memoryview) -> None:
    """Encode the first player, the round, the reveal step and the phase again if changed
    (the first-player flag moved from the seat the kept key names)."""
    key = (game.first, game.round, game.step, game.phase, game.target)
    previous = kept.keys[ROUND_BLOCK]
    if previous == key:
        return
    kept.keys[ROUND_BLOCK] = key
    if type(previous) is tuple:
        cells[_FIRST_AT[previous[0]]] = 0.0
    cells[_FIRST_AT[game.first]] = 1.0
    round_at, step_at, buying_at, target_at = _ROUND_AT
    cells[round_at] = game.round
    cells[step_at] = min(game.step, ALL_CARDS)
    cells[buying_at] = game.phase == BUYING
    cells[target_at] = game.target


def _keep_market(game: ValiantWarsGame, kept: KeptObservation, cells: memoryview) -> None:
    """Encode the market, and the supply, again if they changed (a Gold or a Soldier bought
    changes the supply alone)."""
    if kept.stale(MARKET_BLOCK, game.market, _MARKET_POSITIONS):
        market = _STORED_AT["market"]
        for slot, kind in enumerate(game.market):
            if kind >= 0:
                cells[market + slot * NUM_KINDS + kind] = 1.0
    if kept.stale(SUPPLY_BLOCK, game.supply, _SUPPLY_POSITIONS):
        supply = _STORED_AT["supply"]
        for pile, left in enumerate(game.supply, supply):
            cells[pile] = left


def _keep_location(game: ValiantWarsGame, kept: KeptObservation, cells: memoryview) -> None:
    """Encode this round's Location and the Locations left again if they changed."""
    key = game.location_deck
    if not kept.stale(LOCATION_BLOCK, key, _LOCATION_POSITIONS) or not key:
        return
    location = LOCATIONS[game.location]
    cells[_STORED_AT["location"] + game.location] = 1.0
    cells[_STORED_AT["terrain"] + location.terrain] = 1.0
    cells[_STORED_AT["location_vp"]] = location.vp
    left = _STORED_AT["locations_left"]
    for card in key:
        cells[left + card] = 1.0


# ----- the plain reference view --------------------------------------------------------------
def view(game: ValiantWarsGame, player: int) -> dict[str, Any]:
    """What ``player`` knows, as the unscaled fields of :data:`SCHEMA`, written field by
    field from the state and the rulebook (sharing nothing with :func:`observation`)."""
    n = game.num_players
    fields = {field.name: np.zeros(field.shape) for field in SCHEMA.fields}

    def relative(seat: int) -> int:
        return (seat - player) % n

    # The decision: who decides; the decider alone sees its kind, context and purchase.
    over = game.phase == OVER
    if not over:
        fields["to_move"][relative(game.decider)] = 1
    if not over and game.decider == player:
        fields["decision"][game.decision] = 1
        if game.decision in (Decision.CHOOSE_PLAYER, Decision.CHOOSE_CARD):
            fields["effect"][game.pending[CTX_EFFECT]] = 1
            if game.decision == Decision.CHOOSE_CARD:
                fields["subject"][relative(game.pending[CTX_SUBJECT])] = 1
            fields["draw_amount"][0] = min(game.pending[CTX_AMOUNT], NUM_CHAMPION_CARDS)
        if game.decision == Decision.IGNORE_OMEN:
            fields["effect"][Kind.SAINT] = 1  # the Saint's question
        if game.decision == Decision.BUY:
            fields["purchase"][:] = [
                min(game.gold_left, TOTAL_SCALE),
                game.bought_champion,
                game.took_soldier,
            ]

    # The round.
    fields["first_player"][relative(game.first)] = 1
    fields["round"][0] = game.round
    fields["step"][0] = min(game.step, ALL_CARDS)
    fields["buying"][0] = game.phase == BUYING
    fields["target_vp"][0] = game.target

    # Every seat, counted from the observer.
    for seat in range(n):
        row = relative(seat)
        stopped, out = game.stopped[seat], game.out[seat]
        fields["players"][row] = 1
        fields["vp"][row] = min(game.vp[seat], MAX_TARGET_VP)
        fields["drawing"][row] = game.phase == REVEALING and not stopped and not out
        fields["stopped"][row] = stopped
        fields["out"][row] = out
        fields["stop_step"][row] = 0 if game.stop_step[seat] == EMPTY else game.stop_step[seat] + 1
        swords, gold = _reference_totals(game, seat)
        if stopped and not out:
            gold = game.stop_gold[seat]  # fixed when the seat declared STOP
        fields["swords"][row] = min(swords, TOTAL_SCALE)
        fields["gold"][row] = min(gold, TOTAL_SCALE)
        _reference_line(game, seat, row, fields)
        for code in game.decks[seat]:
            fields["deck"][row, code] += 1
        fields["deck_size"][row] = len(game.decks[seat])
        fields["known_top"][row] = game.known_top[seat]

    # The top cards of its own deck that the observer's Oracle showed it.
    deck = game.decks[player]
    for depth in range(game.known_top[player]):
        fields["my_top"][depth, deck[len(deck) - 1 - depth]] = 1

    # The market, the Champion deck (its contents, not their order) and the supply.
    for slot, kind in enumerate(game.market):
        if kind != NO_CARD:
            fields["market"][slot, kind] = 1
    for kind in game.champion_deck:
        fields["champion_deck"][kind] += 1
    fields["supply"][:] = game.supply

    # The Location fought over, and those still to come (as a set).
    if game.location_deck:
        top = game.location_deck[-1]
        fields["location"][top] = 1
        fields["location_vp"][0] = LOCATIONS[top].vp
        fields["terrain"][LOCATIONS[top].terrain] = 1
        for location in game.location_deck:
            fields["locations_left"][location] = 1
    _reference_risks(game, player, fields)
    return fields


def _reference_risks(game: ValiantWarsGame, player: int, fields: dict[str, Any]) -> None:
    """Each seat's chance of a Dark Omen next, whether one would put it OUT, and its Sword
    margin over the best other seat still in, from the state."""
    n = game.num_players
    for seat in range(n):
        row = (seat - player) % n
        deck = game.decks[seat]
        if seat == player and game.known_top[seat]:
            chance = PERCENT if deck[-1] == OMEN else 0
        else:
            chance = PERCENT * deck.count(OMEN) // len(deck) if deck else 0
        fields["omen_chance"][row] = chance
        line, face_up = game.lines[seat], game.face_up[seat]
        omen_up = any(code == OMEN and face_up[pos] for pos, code in enumerate(line))
        if omen_up and not _reference_saint_ready(game, seat):
            fields["at_risk"][row] = 1
            fields["out_chance"][row] = chance
        rivals = [
            fields["swords"][(other - player) % n]
            for other in range(n)
            if other != seat and not game.out[other]
        ]
        lead = fields["swords"][row] - max(rivals, default=0)
        fields["sword_margin"][row] = [
            min(max(lead, 0), NEAR_SCALE),
            min(max(-lead, 0), NEAR_SCALE),
        ]
        fields["stake"][row] = [
            min(fields["gold"][row], NEAR_SCALE),
            min(fields["swords"][row], NEAR_SCALE),
        ]


def _reference_saint_ready(game: ValiantWarsGame, seat: int) -> bool:
    """A face-up Saint of ``seat``'s line, or a Dancer copying one, that has not ignored an
    Omen yet."""
    for pos, code in enumerate(game.lines[seat]):
        if not CHAMPION_BASE <= code < LOCATION_BASE or not game.face_up[seat][pos]:
            continue
        kind = code - CHAMPION_BASE
        if kind == Kind.DANCER:
            kind = game.copies[seat][pos]
        if kind == Kind.SAINT and not game.used[seat][pos]:
            return True
    return False


def _reference_line(game: ValiantWarsGame, seat: int, row: int, fields: dict[str, Any]) -> None:
    """``seat``'s line: counts of its plain cards, and its Champions in line order."""
    line, face_up = game.lines[seat], game.face_up[seat]
    counts = fields["line_counts"][row]
    k = 0
    for pos, code in enumerate(line):
        up = face_up[pos] == 1
        if code == GOLD:
            counts[0] += up
        elif code == OMEN:
            counts[1 if up else 2] += 1
        elif code == SOLDIER:
            counts[3 if up else 4] += 1
        elif code >= LOCATION_BASE:
            counts[5] += up
        else:
            fields["line_champions"][row, k] = code - CHAMPION_BASE + 1
            fields["line_champion_up"][row, k] = up
            copied = game.copies[seat][pos]
            fields["line_champion_copy"][row, k] = 0 if copied == EMPTY else copied + 1
            fields["line_saint_used"][row, k] = game.used[seat][pos]
            k += 1


def _reference_totals(game: ValiantWarsGame, seat: int) -> tuple[int, int]:
    """``seat``'s Swords and Gold from its face-up cards, as the rulebook counts them."""
    if game.out[seat]:
        return 0, 0
    warrior, mystic, rogue = ChampionType.WARRIOR, ChampionType.MYSTIC, ChampionType.ROGUE
    cards = []  # (card code, printed type or None, the effect it carries or None)
    for pos, code in enumerate(game.lines[seat]):
        if not game.face_up[seat][pos]:
            continue
        if code == SOLDIER:
            cards.append((code, warrior, None))
        elif CHAMPION_BASE <= code < LOCATION_BASE:
            kind = Kind(code - CHAMPION_BASE)
            effect = kind
            if kind == Kind.DANCER:
                copied = game.copies[seat][pos]
                effect = None if copied == EMPTY else Kind(copied)
            cards.append((code, CHAMPIONS[kind].type, effect))
        else:
            cards.append((code, None, None))
    gold_cards = sum(1 for code, _, _ in cards if code == GOLD)
    omens = sum(1 for code, _, _ in cards if code == OMEN)
    locations = sum(1 for code, _, _ in cards if code >= LOCATION_BASE)
    mystics = sum(1 for _, kind, _ in cards if kind == mystic)
    rogues = sum(1 for _, kind, _ in cards if kind == rogue)
    warriors = sum(1 for _, kind, _ in cards if kind == warrior)
    swords = 0
    gold = gold_cards + omens
    for code, card_type, effect in cards:
        if code == SOLDIER:
            swords += 1
        elif card_type is not None:
            swords += CHAMPIONS[code - CHAMPION_BASE].swords
        other_rogues = rogues - (card_type == rogue)
        if effect == Kind.ARCHER and locations:
            swords += 3
        elif effect == Kind.BRIGAND and other_rogues:
            swords += 1
        elif effect == Kind.GUARD and rogues:
            swords += 2
        elif effect == Kind.MERCENARY:
            swords += min(gold_cards, MERCENARY_CAP)
        elif effect == Kind.PALADIN:
            swords += 2 * other_rogues
        elif effect == Kind.RETAINER:
            swords += 2 * mystics
        elif effect == Kind.SENTINEL:
            swords += 2 * locations
        elif effect == Kind.WING_KNIGHT:
            swords += mystics
        elif effect == Kind.MONK:
            gold += 2
        elif effect == Kind.SELLSWORD:
            gold += 1
    terrain = LOCATIONS[game.location_deck[-1]].terrain if game.location_deck else Terrain.PLAIN
    if terrain == Terrain.MARSH:
        swords -= warriors
    elif terrain == Terrain.HAUNTED:
        swords -= 2 * omens
    elif terrain == Terrain.GUARDED:
        swords -= 2 * rogues
    return max(swords, 0), gold
