"""Spirit Island's invariants: what a state must satisfy to be a position of the game (sizes
per seat and per land, counts in range, Presence and cards conserved, the decks, the queue
of steps and the pending decision consistent with the state). Each check yields (field,
problem) pairs; ``SpiritIslandGame.check_invariants`` chains them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from tabletop_envs.core.game import NO_SEAT
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.spec import (
    BLIGHT_CARDS,
    BLOCKS,
    CARDS,
    DAHAN_KINDS,
    DRAW,
    FEAR_CARDS,
    FEAR_DECK_SIZE,
    INVADER_CARDS,
    INVADER_DECK_STAGES,
    INVADER_KINDS,
    KINDS,
    MAJOR,
    MAJORS,
    MAX_CARDS,
    MINORS,
    PENDING_OPS,
    PURPOSE_NAMES,
    PURPOSES,
    STEP,
    STEP_ARGS,
    STEP_NAMES,
    TARGETS_SPIRIT,
)

if TYPE_CHECKING:
    from tabletop_envs.spirit_island.rules import SpiritIslandGame

Problems = Iterator[tuple[str, str]]
MAX_TURNS = len(INVADER_DECK_STAGES) + 1
COUNT_CAP = 10_000
"""Above any count the rules reach (pieces in a land, Presence, Elements, Defend, Energy): a
game lasts at most MAX_TURNS turns, in each of which a land gains a few pieces and a Spirit a
few Energy and Elements; a save above it is a hand edit."""


def check_all(game: SpiritIslandGame) -> Problems:
    """Every invariant; the sizes first (the later checks index by seat and land)."""
    sizes = list(check_sizes(game))
    if sizes:
        yield from sizes
        return
    yield from check_counts(game)
    for seat in range(game.num_players):
        yield from check_seat(game, seat)
    yield from check_power_cards(game)
    yield from check_invader_deck(game)
    yield from check_fear_and_blight(game)
    yield from check_flow(game)
    yield from check_queue(game)
    if game.pending:
        yield from check_pending(game)


def check_sizes(game: SpiritIslandGame) -> Problems:
    """One entry per seat in each per-seat field, one per land in each per-land field."""
    n, lands = game.num_players, len(game.island.terrain)
    per_seat = {
        "presence": game.presence,
        "destroyed_presence": game.destroyed_presence,
        "energy_track": game.energy_track,
        "card_track": game.card_track,
        "energy": game.energy,
        "plays_left": game.plays_left,
        "elements": game.elements,
        "hand": game.hand,
        "played": game.played,
        "discard": game.discard,
        "unresolved": game.unresolved,
        "progression": game.progression,
        "resolved": game.resolved,
        "hastened": game.hastened,
        "hasten": game.hasten,
        "repeat_cost": game.repeat_cost,
        "paid_repeats": game.paid_repeats,
        "passed": game.passed,
        "range_bonus": game.range_bonus,
        "keep_cards": game.keep_cards,
    }
    for name, value in per_seat.items():
        if len(value) != n:
            yield name, f"needs one entry per seat ({n})"
            return
    per_land = {
        "pieces": game.pieces,
        "defend": game.defend,
        "skips": game.skips,
        "isolated": game.isolated,
    }
    for name, value in per_land.items():
        if len(value) != lands:
            yield name, f"needs one entry per land ({lands})"
            return


def check_counts(game: SpiritIslandGame) -> Problems:
    """Pieces, Presence, Elements, Defend and skip flags in range."""
    lands = len(game.pieces)
    if any(len(row) != KINDS or min(row) < 0 for row in game.pieces):
        yield "pieces", f"each land needs {KINDS} counts, none negative"
    if any(len(row) != lands or min(row) < 0 for row in game.presence):
        yield "presence", "each Spirit needs a count per land, none negative"
    if any(len(row) != len(spec.ELEMENTS) or min(row) < 0 for row in game.elements):
        yield "elements", "each Spirit needs a count per element, none negative"
    if min(game.defend) < 0 or any(not 0 <= s < spec.SKIP_FLAGS for s in game.skips):
        yield "defend", "Defend and skip flags out of range"
    for name in ("pieces", "presence", "elements", "defend", "energy"):
        values = getattr(game, name)
        rows = values if values and isinstance(values[0], list) else [values]
        if any(count > COUNT_CAP for row in rows for count in row):
            yield name, f"a count above {COUNT_CAP}, which no game reaches"


def check_seat(game: SpiritIslandGame, seat: int) -> Problems:
    """One Spirit's tracks, Presence, Energy, card plays and Powers of the turn."""
    spirit = game.spirit(seat)
    if any(not 0 <= c < len(CARDS) for c in game.resolved[seat]):
        yield "resolved", f"player_{seat}: not a Power card"
    if any(
        not (0 <= c < len(CARDS) or 0 <= c - MAX_CARDS < len(spirit.innates))
        for c in game.hastened[seat]
    ):
        yield "hastened", f"player_{seat}: not a Power"
    if not 0 <= game.hasten[seat] <= 2 * len(CARDS):
        yield "hasten", f"player_{seat}: {game.hasten[seat]} out of range"
    elif game.swift_left(seat) < 0:
        yield "hastened", f"player_{seat}: more Slow Powers used as Fast than allowed"
    if not -1 <= game.repeat_cost[seat] <= 99:
        yield "repeat_cost", f"player_{seat}: {game.repeat_cost[seat]} out of range"
    if game.passed[seat] not in (0, 1) or (game.passed[seat] and game.unresolved[seat]):
        yield "passed", f"player_{seat}: a flag, and a Spirit that passed has no Powers listed"
    if not 0 <= game.paid_repeats[seat] <= 99:
        yield "paid_repeats", f"player_{seat}: {game.paid_repeats[seat]} out of range"
    if not 0 <= game.range_bonus[seat] <= 99:
        yield "range_bonus", f"player_{seat}: {game.range_bonus[seat]} out of range"
    if not 0 <= game.keep_cards[seat] <= len(CARDS):
        yield "keep_cards", f"player_{seat}: {game.keep_cards[seat]} out of range"
    if not 0 <= game.energy_track[seat] < len(spirit.energy_track):
        yield "energy_track", f"player_{seat}: {game.energy_track[seat]} outside the track"
    if not 0 <= game.card_track[seat] < len(spirit.card_track):
        yield "card_track", f"player_{seat}: {game.card_track[seat]} outside the track"
    setup = sum(count for _, count in spirit.setup)
    on_island = sum(game.presence[seat]) + game.destroyed_presence[seat]
    if on_island != setup + game.energy_track[seat] + game.card_track[seat]:
        yield "presence", f"player_{seat}: Presence is not conserved"
    if game.energy[seat] < 0 or game.plays_left[seat] < 0:
        yield "energy", f"player_{seat}: negative Energy or card plays"
    if game.plays_left[seat] > max(spirit.card_track):
        yield "plays_left", f"player_{seat}: more card plays than the track gives"
    yield from check_unresolved(game, seat)


def check_unresolved(game: SpiritIslandGame, seat: int) -> Problems:
    """The Powers still to resolve: played cards or innates, each listed once."""
    unresolved = game.unresolved[seat]
    if any(not (c in game.played[seat] or c >= MAX_CARDS) for c in unresolved):
        yield "unresolved", f"player_{seat}: an unresolved Power was not played"
    elif any(c - MAX_CARDS >= len(game.spirit(seat).innates) for c in unresolved):
        yield "unresolved", f"player_{seat}: no such innate Power"
    elif len(set(unresolved)) != len(unresolved):
        yield "unresolved", f"player_{seat}: a Power is listed twice"


def check_power_cards(game: SpiritIslandGame) -> Problems:
    """Every Power card in exactly one place; drawn cards held by one seat, from one deck."""
    n = game.num_players
    places = [
        *game.progression,
        *game.hand,
        *game.played,
        *game.discard,
        game.forgotten,
        game.minor_deck,
        game.minor_discard,
        game.major_deck,
        game.major_discard,
        game.drawn,
    ]
    cards = sorted(c for pile in places for c in pile)
    expected = sorted([u for s in range(n) for u in game.spirit(s).uniques] + [*MINORS, *MAJORS])
    if cards != expected:
        yield "hand", "the Power cards are not each in exactly one place"
    if game.drawn and (not 0 <= game.drawn_by < n or len(game.drawn) > DRAW):
        yield "drawn", "drawn cards need the seat that drew them"
    if not game.drawn and (game.drawn_by != NO_SEAT or game.drawn_major):
        yield "drawn_by", "no cards are drawn"
    if game.drawn and any((CARDS[c].kind == MAJOR) != game.drawn_major for c in game.drawn):
        yield "drawn_major", "drawn cards come from one deck"


def check_invader_deck(game: SpiritIslandGame) -> Problems:
    """Three slots; 12 distinct Invader cards between deck, slots and discard; the deck's
    stages in order."""
    if len(game.invader_slots) != 3:
        yield "invader_slots", "three slots: Ravage, Build, Explore"
        return
    slots = [c for c in game.invader_slots if c != -1]
    invaders = [*game.invader_deck, *slots, *game.invader_discard]
    if len(set(invaders)) != len(invaders) or any(
        not 0 <= c < len(INVADER_CARDS) for c in invaders
    ):
        yield "invader_deck", "Invader cards must be distinct cards"
    elif [INVADER_CARDS[c].stage for c in game.invader_deck] != list(
        INVADER_DECK_STAGES[len(INVADER_DECK_STAGES) - len(game.invader_deck) :]
    ):
        yield "invader_deck", "the Invader deck's stages are out of order"
    elif len(invaders) != len(INVADER_DECK_STAGES):
        yield "invader_discard", "12 Invader cards in play"


def check_fear_and_blight(game: SpiritIslandGame) -> Problems:
    """The Fear cards and pool, the Blight card and what is left on it."""
    fear = [*game.fear_deck, *game.fear_earned, *game.fear_discard]
    if (
        len(fear) != FEAR_DECK_SIZE
        or len(set(fear)) != len(fear)
        or any(not 0 <= c < len(FEAR_CARDS) for c in fear)
    ):
        yield "fear_deck", f"{FEAR_DECK_SIZE} distinct Fear cards"
    if not 0 < game.fear_pool <= game.fear_per_card():
        yield "fear_pool", f"outside 1..{game.fear_per_card()}"
    if not 0 <= game.blight_card < len(BLIGHT_CARDS):
        yield "blight_card", "no such Blight card"
    most = spec.blight_in_game(game.num_players)
    total = game.blight_pool + sum(row[spec.BLIGHT] for row in game.pieces)
    if total > most:
        yield "blight_pool", f"{total} Blight on the card and the island, more than a game has"
    if game.blight_pool < 0 or (
        game.blight_pool == 0 and game.outcome == 0 and not game.loss_pending
    ):
        yield "blight_pool", "the Blight card is empty while the game goes on"


def check_flow(game: SpiritIslandGame) -> Problems:
    """The outcome, the pending decision against it, the turn count."""
    if game.outcome not in (-1, 0, 1):
        yield "outcome", "must be -1, 0 or 1"
    if game.outcome == 0 and not game.pending:
        yield "pending", "a game that goes on waits for a decision"
    if game.outcome != 0 and (game.pending or game.pending_options):
        yield "pending", "a finished game has no decision"
    if game.loss_pending and game.outcome == 0 and waits_between_effects(game):
        yield "loss_pending", "a defeat that did not end the game once its effect resolved"
    if not 0 <= game.turn <= MAX_TURNS or game.decisions < 0:
        yield "turn", f"outside 0..{MAX_TURNS}"
    if game.decisions > game.MAX_DECISIONS:
        yield "decisions", f"{game.decisions} is beyond a game's {game.MAX_DECISIONS}"


def waits_between_effects(game: SpiritIslandGame) -> bool:
    """Whether the pending decision is one only the turn asks, between effects (growth, card
    plays, which Power to use next)."""
    purpose = game.pending[2] if len(game.pending) > 2 else -1
    return 0 <= purpose < len(PURPOSE_NAMES) and PURPOSE_NAMES[purpose] in TURN_DECISIONS


TURN_DECISIONS = ("growth", "growth_step", "play", "power")


# ----- the queue and the pending decision -------------------------------------------------------
def arg_ok(game: SpiritIslandGame, kind: str, value: int) -> bool:
    """Whether ``value`` is in range for a step's or a decision's argument of ``kind``."""
    n, lands = game.num_players, len(game.pieces)
    if kind == "seat":
        return 0 <= value < n
    if kind == "seat?":
        return -1 <= value < n
    if kind == "land":
        return 0 <= value < lands
    if kind == "land?":
        return -1 <= value < lands
    if kind == "block":
        return 0 <= value < len(BLOCKS)
    if kind == "pc":
        return 0 <= value < 16
    if kind in ("count", "range"):
        return 0 <= value <= 99
    if kind == "taken":
        return 0 <= value < 1 << len(game.pieces)
    if kind == "struck":
        return 0 <= value < 1 << spec.STRIKE_BITS * len(INVADER_KINDS)
    if kind == "mask":
        return 0 < value < 1 << spec.BLIGHT
    if kind == "done":
        return 0 <= value < 1 << spec.MAX_GROWTH
    if kind == "elements":
        return 0 <= value < 1 << len(spec.ELEMENTS)
    if kind == "push_flags":
        return 0 <= value <= spec.PUSH_UPTO | spec.PUSH_TOWARD_BUILDINGS
    if kind in ("flag", "speed", "track"):
        return value in (0, 1)
    if kind == "group":
        return 0 <= value < spec.MAX_GROWTH
    if kind == "power":
        return 0 <= value < len(CARDS) or MAX_CARDS <= value < MAX_CARDS + spec.MAX_INNATES
    if kind == "kind":
        return value in INVADER_KINDS or value in DAHAN_KINDS
    return False


def check_step(game: SpiritIslandGame, code: int, args: list[int]) -> str:
    """What is wrong with one queued step ("" if nothing)."""
    if not 0 <= code < len(STEP_NAMES):
        return f"unknown step {code}"
    kinds = STEP_ARGS[code]
    if len(args) != len(kinds):
        return f"{STEP_NAMES[code]} takes {len(kinds)} arguments"
    for kind, value in zip(kinds, args, strict=True):
        if not arg_ok(game, kind, value):
            return f"{STEP_NAMES[code]}: {kind} {value} out of range"
    name = STEP_NAMES[code]
    if name in ("effect", "spirit_land", "push_then"):
        block, pc = args[0], args[1]
        if pc >= len(BLOCKS[block]):
            return f"{name}: no operation {pc} in effect {block}"
        if name == "spirit_land" and BLOCKS[block][pc][0] not in PENDING_OPS["spirit_land"]:
            return "spirit_land: the operation picks no land"
        if name == "push_then" and BLOCKS[block][pc][0] not in PENDING_OPS["push_then_piece"]:
            return "push_then: the operation pushes nothing"
    if name == "growth_steps":
        if args[1] >= len(game.spirit(args[0]).growth):
            return "growth_steps: no such group"
        if args[2] >= 1 << len(game.spirit(args[0]).growth[args[1]]):
            return "growth_steps: bad mask"
    innates = len(game.spirit(args[0]).innates) if name == "use" else 0
    if name == "use" and args[1] >= MAX_CARDS and args[1] - MAX_CARDS >= innates:
        return "use: no such innate"
    return ""


def check_queue(game: SpiritIslandGame) -> Problems:
    """Every queued step well formed; the next turn at the bottom while the game goes on."""
    if game.outcome == 0 and not game.queue:
        yield "queue", "a game that goes on has steps to run"
    for step in game.queue:
        if not step:
            yield "queue", "an empty step"
            return
        problem = check_step(game, step[0], step[1:])
        if problem:
            yield "queue", problem
            return
    if game.queue and game.queue[0] != [STEP["turn"]] and game.outcome == 0:
        yield "queue", "the bottom step must be the next turn"


def pending_problem(game: SpiritIslandGame) -> str:
    """What is wrong with the pending decision's kind, seat and context ("" if nothing)."""
    if len(game.pending) < 3 or not 0 <= game.pending[2] < len(PURPOSE_NAMES):
        return "no such decision"
    kind, seat, purpose, *ctx = game.pending
    name = PURPOSE_NAMES[purpose]
    expected_kind, arg_kinds = PURPOSES[name]
    if kind != expected_kind or not 0 <= seat < game.num_players:
        return "the decision's kind or seat does not fit"
    if len(ctx) != len(arg_kinds) or not all(
        arg_ok(game, k, v) for k, v in zip(arg_kinds, ctx, strict=True)
    ):
        return f"{name}: context out of range"
    if name in PENDING_OPS:
        block, pc = ctx[0], ctx[1]
        if pc >= len(BLOCKS[block]) or BLOCKS[block][pc][0] not in PENDING_OPS[name]:
            return f"{name}: the operation does not match"
    if name == "growth_step" and (
        ctx[0] >= len(game.spirit(seat).growth)
        or ctx[1] >= 1 << len(game.spirit(seat).growth[ctx[0]])
    ):
        return "growth_step: no such group"
    if name in ("target_land", "target_spirit"):
        return target_problem(game, seat, ctx[0], name)
    if name == "keep" and game.drawn_by != seat:
        return "keep: the seat did not draw"
    if name in ("push_dest", "gather_source") and not 0 <= ctx[4] < KINDS:
        return "no such piece"
    return ""


def target_problem(game: SpiritIslandGame, seat: int, option: int, name: str) -> str:
    """What is wrong with a pending target decision for Power ``option`` ("" if nothing)."""
    if option >= MAX_CARDS and option - MAX_CARDS >= len(game.spirit(seat).innates):
        return "no such innate"
    targets_spirit = game.power_of(seat, option).target == TARGETS_SPIRIT
    if targets_spirit != (name == "target_spirit"):
        return "the Power's target kind does not fit"
    return ""


def check_pending(game: SpiritIslandGame) -> Problems:
    """The pending decision well formed, its options those the state gives."""
    problem = pending_problem(game)
    if problem:
        yield "pending", problem
        return
    _, seat, purpose, *ctx = game.pending
    options = game.options_for(PURPOSE_NAMES[purpose], seat, ctx)
    if options != game.pending_options or len(options) < 2:
        yield "pending_options", "the legal options do not follow from the state"
