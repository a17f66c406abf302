"""Powers and the effect interpreter: a Power's target and its effect, every operation of
the effect language (``effect_language.OPS``), and the piece-by-piece steps an effect queues
(Damage, destroy, remove, push, gather, a land picked, Presence moved or destroyed) with the
options and the resolution of each decision they ask.

An effect runs as an ``effect`` step (block, pc, land, seat, target): the operation at ``pc``
of effect block ``block`` runs through ``OPERATIONS``, after queueing the rest of the block.
Every function takes the game first; ``rules.py`` finds the steps through ``STEP_RUN`` and the
decisions through ``DECISIONS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tabletop_envs.spirit_island import phases, spec
from tabletop_envs.spirit_island.blight_fear import add_fear, destroy_presence
from tabletop_envs.spirit_island.effect_language import OPS, Op
from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    BLOCKS,
    BUILDING_KINDS,
    DAHAN_KINDS,
    DAMAGED,
    FEAR_OF,
    INVADER_KINDS,
    LANDS_PER_BOARD,
    MAX_CARDS,
    NO_CITY_BUILD,
    PIECE_STOP,
    PRESENCE_OPTION,
    PUSH_TOWARD_BUILDINGS,
    PUSH_UPTO,
    SKIP_BIT,
    SPARE_DAHAN,
    STEP,
    block_of,
    in_mask,
    kinds_mask,
)

if TYPE_CHECKING:
    from tabletop_envs.spirit_island.rules import SpiritIslandGame


# ----- a Power's target and its effect ---------------------------------------------------------
def opt_target_land(game: SpiritIslandGame, seat: int, option: int) -> list[int]:
    return game.targets(seat, option)


def opt_target_spirit(game: SpiritIslandGame, seat: int, option: int) -> list[int]:
    return game.targets(seat, option)


def res_target_land(game: SpiritIslandGame, seat: int, land: int, option: int) -> None:
    if game.shadows_pay(seat, option, land):
        game.energy[seat] -= 1
    start_power(game, seat, option, land, -1)


def res_target_spirit(game: SpiritIslandGame, seat: int, target: int, option: int) -> None:
    start_power(game, seat, option, -1, target)


def start_power(game: SpiritIslandGame, seat: int, option: int, land: int, target: int) -> None:
    """Queue a card's effect, or the effects of an innate Power's tiers that apply."""
    power = game.power_of(seat, option)
    if option < MAX_CARDS:
        frame(game, power.effect, land, seat, target)
        return
    for tier in reversed(game.innate_tiers(seat, power)):
        frame(game, power.tiers[tier][2], land, seat, target)


def frame(game: SpiritIslandGame, ops: tuple[Op, ...], land: int, seat: int, target: int) -> None:
    """Queue effect ``ops`` in ``land`` (-1: none), by ``seat``, at ``target`` (-1: none)."""
    if ops:
        game.push("effect", block_of(ops), 0, land, seat, target)


def step_effect(
    game: SpiritIslandGame, block: int, pc: int, land: int, seat: int, target: int
) -> None:
    """Run operation ``pc`` of effect ``block``, the rest of the block queued after it."""
    ops = BLOCKS[block]
    if pc >= len(ops):
        return
    if pc + 1 < len(ops):
        game.push("effect", block, pc + 1, land, seat, target)
    op = ops[pc]
    OPERATIONS[op[0]](game, land, seat, target, block, pc, *op[1:])


# ----- pieces ------------------------------------------------------------------------------------
def destroy_piece(game: SpiritIslandGame, land: int, kind: int) -> None:
    """One piece destroyed: a Town gives 1 Fear, a City 2."""
    game.pieces[land][kind] -= 1
    add_fear(game, FEAR_OF.get(kind, 0))


def damage_piece(game: SpiritIslandGame, land: int, kind: int, amount: int = 1) -> None:
    """``amount`` Damage to one piece of ``kind``; destroyed at no health left."""
    for _ in range(amount):
        after = DAMAGED[kind]
        if after is None:
            destroy_piece(game, land, kind)
            return
        game.pieces[land][kind] -= 1
        game.pieces[land][after] += 1
        kind = after


def invader_options(game: SpiritIslandGame, land: int, mask: int) -> list[int]:
    """The kinds of ``mask`` present in ``land``."""
    row = game.pieces[land]
    return [k for k in in_mask(mask) if row[k] > 0]


def movable_to(game: SpiritIslandGame, land: int) -> list[int]:
    """The neighbours pieces may move between with ``land`` (none across an Isolate)."""
    if game.isolated[land]:
        return []
    return [x for x in game.island.neighbours[land] if not game.isolated[x]]


# ----- the operations (argument lists: see effect_language.OPS) -----------------------------------
def op_damage(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    if land >= 0 and n:
        game.push("damage", land, seat, n)


def op_damage_each(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    n: int,
    kinds: tuple[int, ...],
) -> None:
    if land < 0:
        return
    row = game.pieces[land]
    before = [row[k] for k in kinds]
    for kind, count in zip(kinds, before, strict=True):
        for _ in range(count):
            damage_piece(game, land, kind, n)


def op_destroy(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    kinds: tuple[int, ...],
    n: int,
) -> None:
    if land >= 0:
        game.push("destroy", land, seat, kinds_mask(kinds), n)


def op_remove(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    kinds: tuple[int, ...],
    n: int,
) -> None:
    if land >= 0:
        game.push("remove", land, seat, kinds_mask(kinds), n)


def op_push(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    kinds: tuple[int, ...],
    n: int,
    upto: bool,
    toward_buildings: bool,
) -> None:
    if land >= 0:
        flags = PUSH_UPTO * upto | PUSH_TOWARD_BUILDINGS * toward_buildings
        game.push("push", land, seat, kinds_mask(kinds), n, flags)


def op_gather(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    kinds: tuple[int, ...],
    n: int,
    upto: bool,
) -> None:
    if land >= 0:
        game.push("gather", land, seat, kinds_mask(kinds), n, int(upto))


def op_add(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    kind: int,
    n: int,
) -> None:
    if land < 0:
        return
    if kind == BLIGHT:
        for _ in range(n):
            game.push("add_blight", land)
    else:
        game.pieces[land][kind] += n


def op_remove_blight(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    if land >= 0:
        taken = min(n, game.pieces[land][BLIGHT])
        game.pieces[land][BLIGHT] -= taken
        game.blight_pool += taken


def op_defend(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    if land >= 0:
        game.defend[land] += n


def op_fear(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    add_fear(game, n)


def op_energy(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    game.energy[target if target >= 0 else seat] += n


def op_energy_per_card(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    who = target if target >= 0 else seat
    game.energy[who] += len(game.played[who])


def op_isolate(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    if land >= 0:
        game.isolated[land] = True


def op_skip(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, action: int
) -> None:
    if land >= 0:
        game.skips[land] |= SKIP_BIT[action]


def op_dahan_damage(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    if land >= 0:
        damage = n * game.count(land, DAHAN_KINDS)
        if damage and game.invaders(land):
            game.push("damage", land, seat, damage)


def op_if(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    cond: tuple[Any, ...],
    ops: tuple[Op, ...],
    otherwise: tuple[Op, ...],
) -> None:
    chosen = ops if game.condition(cond, land, seat, target) else otherwise
    frame(game, chosen, land, seat, target)


def op_choose(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, *effects: Any
) -> None:
    game.ask("choose", seat, block, pc, land, target)


def op_each_land(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    conditions: Any,
    ops: Any,
) -> None:
    for each in reversed([x for x in game.lands if game.land_matches(x, conditions)]):
        frame(game, ops, each, game.owner(each), -1)


def op_spirit_land(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    conditions: Any,
    ops: Any,
    different: bool,
) -> None:
    game.push("spirit_land", block, pc, 0, 0)


def op_own_land(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    conditions: Any,
    ops: Any,
) -> None:
    game.push("spirit_land", block, pc, target if target >= 0 else seat, 0)


def op_pick_land(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    conditions: Any,
    ops: Any,
) -> None:
    game.push("spirit_land", block, pc, seat, 0)


def op_seat_lands(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    conditions: Any,
    ops: Any,
) -> None:
    for each in reversed([x for x in game.lands if game.land_matches(x, conditions, seat)]):
        frame(game, ops, each, seat, target)


def op_land_in_range(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    conditions: Any,
    ops: Any,
    distance: int,
    sacred: bool,
) -> None:
    game.push("spirit_land", block, pc, seat, 0)


def op_move_to_land(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    conditions: Any,
    ops: Any,
    kinds: Any,
    n: int,
) -> None:
    if land >= 0:  # the land the pieces leave is the one "taken" land: no destination
        game.push("spirit_land", block, pc, seat, 1 << land)


def op_per(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    kinds: Any,
    ops: Any,
) -> None:
    if land >= 0:
        for _ in range(game.count(land, kinds)):
            frame(game, ops, land, seat, target)


def op_per_adjacent(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    kinds: Any,
    ops: Any,
) -> None:
    if land >= 0:
        for _ in range(sum(game.count(x, kinds) for x in game.island.neighbours[land])):
            frame(game, ops, land, seat, target)


def op_target_lands(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, ops: Any
) -> None:
    who = target if target >= 0 else seat
    for each in reversed([x for x in game.lands if game.presence[who][x] > 0]):
        frame(game, ops, each, seat, target)


def op_each_adjacent(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, ops: Any
) -> None:
    if land >= 0:
        for each in reversed(game.island.neighbours[land]):
            frame(game, ops, each, seat, target)


def op_adjacent(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, ops: Any
) -> None:
    if land >= 0:
        game.ask("adjacent_land", seat, block, pc, land, target)


def op_board_lands(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    conditions: Any,
    ops: Any,
) -> None:
    if land < 0:
        return
    board = land // LANDS_PER_BOARD
    same_board = [x for x in game.lands if x // LANDS_PER_BOARD == board and x != land]
    for each in reversed([x for x in same_board if game.land_matches(x, conditions, seat)]):
        frame(game, ops, each, seat, target)


def op_gain_minor(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    phases.res_deck(game, target if target >= 0 else seat, 0)


def op_add_presence(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    if land >= 0:
        game.ask("claim_track", seat, land)


def op_remove_health(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    n: int,
    per_presence: bool,
) -> None:
    if land >= 0:
        health = n * game.presence[seat][land] if per_presence else n
        game.push("remove_health", land, seat, health)


def op_dahan_strike(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    if land >= 0:
        game.push("strike", land, seat, game.count(land, DAHAN_KINDS), 0)


def op_each_spirit(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, ops: Any
) -> None:
    for each in reversed(range(game.num_players)):
        frame(game, ops, land, each, -1)


def op_hasten(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    who = target if target >= 0 else seat
    game.hasten[who] += n
    fast_phase = any(e[0] == STEP["powers"] and e[1] == spec.FAST for e in game.queue)
    if game.unresolved[who] or who == seat or not fast_phase:
        return
    # a Spirit that passed may use its hastened Slow Powers in this phase after all
    game.passed[who] = 0
    game.unresolved[who] = [
        o
        for o in [
            *game.played[who],
            *(MAX_CARDS + i for i in range(len(game.spirit(who).innates))),
        ]
        if o not in game.hastened[who] and o not in game.resolved[who]
    ]


def op_repeat(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    who = target if target >= 0 else seat
    game.repeat_cost[who] = max(game.repeat_cost[who], n)


def op_repeat_paid(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    game.paid_repeats[target if target >= 0 else seat] += n


def op_range_bonus(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    game.range_bonus[target if target >= 0 else seat] += n


def op_keep_played(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    game.keep_cards[target if target >= 0 else seat] += 1


def op_gain_elements(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    game.ask("element", target if target >= 0 else seat, n, 0, seat)


def op_you(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, ops: Any
) -> None:
    frame(game, ops, land, seat, -1)


def op_spare_dahan(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    if land >= 0:
        game.skips[land] |= SPARE_DAHAN


def op_no_city_build(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    if land >= 0:
        game.skips[land] |= NO_CITY_BUILD


def op_destroy_presence(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    game.push("destroy_presence", seat, n)


def op_gather_presence(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int
) -> None:
    if land >= 0:
        game.push("gather_presence", land, seat, n)


def op_forget(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    game.push("forget", seat)


def op_push_then(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    kinds: Any,
    n: int,
    ops: Any,
    per_land: bool,
) -> None:
    if land >= 0:
        game.push("push_then", block, pc, land, seat, n, 0)


def op_push_spread(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    kinds: Any,
    n: int,
) -> None:
    if land >= 0:
        game.push("push_then", block, pc, land, seat, n, 0)


def op_invaders_fight(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int
) -> None:
    """Explorers and Towns / Cities damage each other, both counted before either is dealt."""
    if land < 0:
        return
    row = game.pieces[land]
    to_buildings = row[spec.EXPLORER] * spec.INVADER_DAMAGE[spec.EXPLORER]
    to_explorers = sum(row[k] * spec.INVADER_DAMAGE[k] for k in BUILDING_KINDS)
    game.push("damage_of", land, seat, kinds_mask((spec.EXPLORER,)), min(to_explorers, 99))
    game.push("damage_of", land, seat, kinds_mask(BUILDING_KINDS), min(to_buildings, 99))


def op_building_fear(
    game: SpiritIslandGame, land: int, seat: int, target: int, block: int, pc: int, n: int, ops: Any
) -> None:
    if land >= 0:
        game.push("building_fear", land, game.count(land, BUILDING_KINDS), n)
        frame(game, ops, land, seat, target)


def op_restore_presence(
    game: SpiritIslandGame,
    land: int,
    seat: int,
    target: int,
    block: int,
    pc: int,
    n: int,
    distance: int,
    ops: Any,
) -> None:
    who = target if target >= 0 else seat
    if game.destroyed_presence[who]:
        game.ask("restore_land", seat, block, pc, who)


OPERATIONS: dict[str, Callable[..., None]] = {
    "damage": op_damage,
    "damage_each": op_damage_each,
    "destroy": op_destroy,
    "remove": op_remove,
    "push": op_push,
    "gather": op_gather,
    "add": op_add,
    "remove_blight": op_remove_blight,
    "defend": op_defend,
    "fear": op_fear,
    "energy": op_energy,
    "energy_per_card": op_energy_per_card,
    "isolate": op_isolate,
    "skip": op_skip,
    "dahan_damage": op_dahan_damage,
    "if": op_if,
    "choose": op_choose,
    "each_land": op_each_land,
    "spirit_land": op_spirit_land,
    "each_spirit": op_each_spirit,
    "destroy_presence": op_destroy_presence,
    "gather_presence": op_gather_presence,
    "forget": op_forget,
    "hasten": op_hasten,
    "repeat": op_repeat,
    "repeat_paid": op_repeat_paid,
    "spare_dahan": op_spare_dahan,
    "range_bonus": op_range_bonus,
    "keep_played": op_keep_played,
    "gain_elements": op_gain_elements,
    "you": op_you,
    "no_city_build": op_no_city_build,
    "own_land": op_own_land,
    "pick_land": op_pick_land,
    "per": op_per,
    "per_adjacent": op_per_adjacent,
    "target_lands": op_target_lands,
    "each_adjacent": op_each_adjacent,
    "adjacent": op_adjacent,
    "board_lands": op_board_lands,
    "gain_minor": op_gain_minor,
    "seat_lands": op_seat_lands,
    "land_in_range": op_land_in_range,
    "add_presence": op_add_presence,
    "remove_health": op_remove_health,
    "dahan_strike": op_dahan_strike,
    "move_to_land": op_move_to_land,
    "restore_presence": op_restore_presence,
    "push_then": op_push_then,
    "push_spread": op_push_spread,
    "invaders_fight": op_invaders_fight,
    "building_fear": op_building_fear,
}
"""Each operation of the effect language -> the function that runs it."""
if OPERATIONS.keys() != OPS.keys():
    raise RuntimeError(f"operations without a handler: {sorted(OPS.keys() ^ OPERATIONS.keys())}")


# ----- piece-by-piece steps ---------------------------------------------------------------------
def step_damage(game: SpiritIslandGame, land: int, seat: int, n: int) -> None:
    if n > 0:
        game.ask("damage", seat, land, n)


def step_destroy(game: SpiritIslandGame, land: int, seat: int, mask: int, n: int) -> None:
    if n > 0:
        game.ask("destroy", seat, land, mask, n)


def step_remove(game: SpiritIslandGame, land: int, seat: int, mask: int, n: int) -> None:
    if n > 0:
        game.ask("remove", seat, land, mask, n)


def step_push(game: SpiritIslandGame, land: int, seat: int, mask: int, n: int, flags: int) -> None:
    if n > 0:
        game.ask("push_piece", seat, land, mask, n, flags)


def step_gather(game: SpiritIslandGame, land: int, seat: int, mask: int, n: int, upto: int) -> None:
    if n > 0:
        game.ask("gather_piece", seat, land, mask, n, upto)


def step_spirit_land(game: SpiritIslandGame, block: int, pc: int, seat: int, taken: int) -> None:
    """``seat`` picks its land (``taken``: the lands picked before it, as bits); for "each
    Spirit picks", the next Spirit picks once this one's effect has run."""
    if opt_spirit_land(game, seat, block, pc, taken):
        game.ask("spirit_land", seat, block, pc, taken)
    else:
        next_pick(game, block, pc, seat, taken)


def next_pick(game: SpiritIslandGame, block: int, pc: int, seat: int, taken: int) -> None:
    """Queue the next Spirit's pick of an "each Spirit picks a land" operation."""
    if BLOCKS[block][pc][0] == "spirit_land" and seat + 1 < game.num_players:
        game.push("spirit_land", block, pc, seat + 1, taken)


def step_remove_health(game: SpiritIslandGame, land: int, seat: int, n: int) -> None:
    if n > 0:
        game.ask("remove_health", seat, land, n)


def step_strike(game: SpiritIslandGame, land: int, seat: int, n: int, struck: int) -> None:
    """Pick the next Invader a Dahan strikes; once all have, deal the Damage (the most
    damaged kinds first, so no piece is struck twice)."""
    if n > 0 and opt_strike(game, seat, land, n, struck):
        game.ask("strike", seat, land, n, struck)
        return
    for index in reversed(range(len(INVADER_KINDS))):
        for _ in range(struck >> spec.STRIKE_BITS * index & (1 << spec.STRIKE_BITS) - 1):
            damage_piece(game, land, INVADER_KINDS[index])


def step_move(game: SpiritIslandGame, land: int, to: int, seat: int, mask: int, n: int) -> None:
    if n > 0:
        game.ask("move_piece", seat, land, to, mask, n)


def step_destroy_presence(game: SpiritIslandGame, seat: int, count: int) -> None:
    if count > 0:
        game.ask("destroy_presence", seat, count)


def step_gather_presence(game: SpiritIslandGame, land: int, seat: int, n: int) -> None:
    if n > 0:
        game.ask("presence_more", seat, land, n)


def step_push_then(
    game: SpiritIslandGame, block: int, pc: int, land: int, seat: int, n: int, taken: int
) -> None:
    """The next piece of a ``push_then`` / ``push_spread`` (``taken``: the lands pieces went
    to, as bits); once done, a per-land ``push_then`` effect runs in each of them."""
    if n > 0 and opt_push_then_piece(game, seat, block, pc, land, n, taken):
        game.ask("push_then_piece", seat, block, pc, land, n, taken)
        return
    op = BLOCKS[block][pc]
    if op[0] == "push_then" and op[4]:
        for each in reversed([x for x in game.lands if taken >> x & 1]):
            frame(game, op[3], each, seat, -1)


def step_damage_of(game: SpiritIslandGame, land: int, seat: int, mask: int, n: int) -> None:
    if n > 0:
        game.ask("damage_of", seat, land, mask, n)


def step_building_fear(game: SpiritIslandGame, land: int, before: int, most: int) -> None:
    """1 Fear per Town and City gone from ``land`` since the effect began, at most ``most``."""
    add_fear(game, min(most, max(0, before - game.count(land, BUILDING_KINDS))))


# ----- options of each decision ------------------------------------------------------------------
def opt_damage(game: SpiritIslandGame, seat: int, land: int, n: int) -> list[int]:
    return invader_options(game, land, kinds_mask(INVADER_KINDS))


def opt_destroy(game: SpiritIslandGame, seat: int, land: int, mask: int, n: int) -> list[int]:
    return invader_options(game, land, mask)


def opt_remove(game: SpiritIslandGame, seat: int, land: int, mask: int, n: int) -> list[int]:
    return invader_options(game, land, mask)


def push_destinations(game: SpiritIslandGame, land: int, flags: int) -> list[int]:
    """The lands a push from ``land`` may go to (with ``PUSH_TOWARD_BUILDINGS``: only those
    with more Towns and Cities than ``land``)."""
    lands = movable_to(game, land)
    if flags & PUSH_TOWARD_BUILDINGS:
        here = game.count(land, BUILDING_KINDS)
        lands = [x for x in lands if game.count(x, BUILDING_KINDS) > here]
    return lands


def opt_push_piece(
    game: SpiritIslandGame, seat: int, land: int, mask: int, n: int, flags: int
) -> list[int]:
    if not push_destinations(game, land, flags):
        return []
    options = invader_options(game, land, mask)
    return [*options, PIECE_STOP] if options and flags & PUSH_UPTO else options


def opt_push_dest(
    game: SpiritIslandGame, seat: int, land: int, mask: int, n: int, flags: int, kind: int
) -> list[int]:
    return push_destinations(game, land, flags) if game.pieces[land][kind] > 0 else []


def opt_gather_piece(
    game: SpiritIslandGame, seat: int, land: int, mask: int, n: int, upto: int
) -> list[int]:
    sources = movable_to(game, land)
    options = [k for k in in_mask(mask) if any(game.pieces[x][k] for x in sources)]
    return [*options, PIECE_STOP] if options and upto else options


def opt_gather_source(
    game: SpiritIslandGame, seat: int, land: int, mask: int, n: int, upto: int, kind: int
) -> list[int]:
    return [x for x in movable_to(game, land) if game.pieces[x][kind] > 0]


def opt_spirit_land(
    game: SpiritIslandGame, seat: int, block: int, pc: int, taken: int
) -> list[int]:
    op = BLOCKS[block][pc]
    own = op[0] == "own_land"
    if op[0] == "land_in_range":
        lands = game.in_range(seat, op[3] + game.range_bonus[seat], op[4])
    else:
        lands = game.lands
    return [
        x
        for x in lands
        if game.land_matches(x, op[1], seat)
        and (not own or game.presence[seat][x] > 0)
        and not taken >> x & 1
    ]


def opt_adjacent_land(
    game: SpiritIslandGame, seat: int, block: int, pc: int, land: int, target: int
) -> list[int]:
    return list(game.island.neighbours[land])


def opt_claim_track(game: SpiritIslandGame, seat: int, land: int) -> list[int]:
    return [t for t in (0, 1) if phases.track_open(game, seat, t)]


def opt_remove_health(game: SpiritIslandGame, seat: int, land: int, n: int) -> list[int]:
    row = game.pieces[land]
    options = [k for k in INVADER_KINDS if row[k] and spec.PRINTED_HEALTH[k] <= n]
    return [*options, PIECE_STOP] if options else []


def opt_strike(game: SpiritIslandGame, seat: int, land: int, n: int, struck: int) -> list[int]:
    row = game.pieces[land]
    width = (1 << spec.STRIKE_BITS) - 1
    return [
        k
        for index, k in enumerate(INVADER_KINDS)
        if min(row[k], width) > struck >> spec.STRIKE_BITS * index & width
    ]


def opt_move_piece(
    game: SpiritIslandGame, seat: int, land: int, to: int, mask: int, n: int
) -> list[int]:
    options = invader_options(game, land, mask)
    return [*options, PIECE_STOP] if options else []


def opt_choose(
    game: SpiritIslandGame, seat: int, block: int, pc: int, land: int, target: int
) -> list[int]:
    return list(range(len(BLOCKS[block][pc]) - 1))


def opt_element(game: SpiritIslandGame, seat: int, n: int, chosen: int, giver: int) -> list[int]:
    return [e for e in range(len(spec.ELEMENTS)) if not chosen >> e & 1] if n > 0 else []


def opt_destroy_presence(game: SpiritIslandGame, seat: int, n: int) -> list[int]:
    return [x for x in game.lands if game.presence[seat][x] > 0]


def opt_presence_more(game: SpiritIslandGame, seat: int, land: int, n: int) -> list[int]:
    if not opt_presence_source(game, seat, land, n):
        return []
    return [PRESENCE_OPTION + seat, PIECE_STOP]


def opt_presence_source(game: SpiritIslandGame, seat: int, land: int, n: int) -> list[int]:
    return [x for x in movable_to(game, land) if game.presence[seat][x] > 0]


def opt_push_then_piece(
    game: SpiritIslandGame, seat: int, block: int, pc: int, land: int, n: int, taken: int
) -> list[int]:
    if not movable_to(game, land):
        return []
    op = BLOCKS[block][pc]
    options = invader_options(game, land, kinds_mask(op[1]))
    return [*options, PIECE_STOP] if options and op[0] == "push_then" else options


def opt_push_then_dest(
    game: SpiritIslandGame,
    seat: int,
    block: int,
    pc: int,
    land: int,
    n: int,
    taken: int,
    kind: int,
) -> list[int]:
    """The neighbours; for ``push_spread`` only those no piece went to yet, while any is left."""
    lands = movable_to(game, land)
    if BLOCKS[block][pc][0] == "push_spread":
        return [x for x in lands if not taken >> x & 1] or lands
    return lands


def opt_damage_of(game: SpiritIslandGame, seat: int, land: int, mask: int, n: int) -> list[int]:
    return invader_options(game, land, mask)


def opt_restore_land(game: SpiritIslandGame, seat: int, block: int, pc: int, who: int) -> list[int]:
    return game.in_range(seat, BLOCKS[block][pc][2] + game.range_bonus[seat])


# ----- resolving a decision ----------------------------------------------------------------------
def res_damage(game: SpiritIslandGame, seat: int, kind: int, land: int, n: int) -> None:
    damage_piece(game, land, kind)
    game.push("damage", land, seat, n - 1)


def res_destroy(game: SpiritIslandGame, seat: int, kind: int, land: int, mask: int, n: int) -> None:
    destroy_piece(game, land, kind)
    game.push("destroy", land, seat, mask, n - 1)


def res_remove(game: SpiritIslandGame, seat: int, kind: int, land: int, mask: int, n: int) -> None:
    game.pieces[land][kind] -= 1
    game.push("remove", land, seat, mask, n - 1)


def res_push_piece(
    game: SpiritIslandGame, seat: int, kind: int, land: int, mask: int, n: int, flags: int
) -> None:
    if kind != PIECE_STOP:
        game.ask("push_dest", seat, land, mask, n, flags, kind)


def res_restore_land(
    game: SpiritIslandGame, seat: int, land: int, block: int, pc: int, who: int
) -> None:
    """``who`` adds up to n of its destroyed Presence to ``land``; the effect runs there."""
    op = BLOCKS[block][pc]
    count = min(op[1], game.destroyed_presence[who])
    game.destroyed_presence[who] -= count
    game.presence[who][land] += count
    if count:
        frame(game, op[3], land, seat, who)


def res_push_then_piece(
    game: SpiritIslandGame,
    seat: int,
    kind: int,
    block: int,
    pc: int,
    land: int,
    n: int,
    taken: int,
) -> None:
    if kind == PIECE_STOP:
        game.push("push_then", block, pc, land, seat, 0, taken)
    else:
        game.ask("push_then_dest", seat, block, pc, land, n, taken, kind)


def res_push_then_dest(
    game: SpiritIslandGame,
    seat: int,
    dest: int,
    block: int,
    pc: int,
    land: int,
    n: int,
    taken: int,
    kind: int,
) -> None:
    """Move the piece; a per-piece ``push_then`` effect runs where it went before the next."""
    game.pieces[land][kind] -= 1
    game.pieces[dest][kind] += 1
    game.push("push_then", block, pc, land, seat, n - 1, taken | 1 << dest)
    op = BLOCKS[block][pc]
    if op[0] == "push_then" and not op[4]:
        frame(game, op[3], dest, seat, -1)


def res_damage_of(
    game: SpiritIslandGame, seat: int, kind: int, land: int, mask: int, n: int
) -> None:
    damage_piece(game, land, kind)
    game.push("damage_of", land, seat, mask, n - 1)


def res_push_dest(
    game: SpiritIslandGame,
    seat: int,
    dest: int,
    land: int,
    mask: int,
    n: int,
    flags: int,
    kind: int,
) -> None:
    game.pieces[land][kind] -= 1
    game.pieces[dest][kind] += 1
    game.push("push", land, seat, mask, n - 1, flags)


def res_gather_piece(
    game: SpiritIslandGame, seat: int, kind: int, land: int, mask: int, n: int, upto: int
) -> None:
    if kind != PIECE_STOP:
        game.ask("gather_source", seat, land, mask, n, upto, kind)


def res_gather_source(
    game: SpiritIslandGame,
    seat: int,
    source: int,
    land: int,
    mask: int,
    n: int,
    upto: int,
    kind: int,
) -> None:
    game.pieces[source][kind] -= 1
    game.pieces[land][kind] += 1
    game.push("gather", land, seat, mask, n - 1, upto)


def res_spirit_land(
    game: SpiritIslandGame, seat: int, land: int, block: int, pc: int, taken: int
) -> None:
    op = BLOCKS[block][pc]
    different = op[0] == "spirit_land" and op[3]
    next_pick(game, block, pc, seat, taken | (1 << land if different else 0))
    frame(game, op[2], land, seat, -1)
    if op[0] == "move_to_land":  # the pieces move before the effect runs there
        game.push("move", taken.bit_length() - 1, land, seat, kinds_mask(op[3]), op[4])


def res_adjacent_land(
    game: SpiritIslandGame, seat: int, chosen: int, block: int, pc: int, land: int, target: int
) -> None:
    frame(game, BLOCKS[block][pc][1], chosen, seat, target)


def res_claim_track(game: SpiritIslandGame, seat: int, track: int, land: int) -> None:
    phases.place_presence(game, seat, land, track)


def res_remove_health(game: SpiritIslandGame, seat: int, kind: int, land: int, n: int) -> None:
    if kind != PIECE_STOP:
        game.pieces[land][kind] -= 1
        game.push("remove_health", land, seat, n - spec.PRINTED_HEALTH[kind])


def res_strike(
    game: SpiritIslandGame, seat: int, kind: int, land: int, n: int, struck: int
) -> None:
    index = INVADER_KINDS.index(kind)
    game.push("strike", land, seat, n - 1, struck + (1 << spec.STRIKE_BITS * index))


def res_move_piece(
    game: SpiritIslandGame, seat: int, kind: int, land: int, to: int, mask: int, n: int
) -> None:
    if kind != PIECE_STOP:
        game.pieces[land][kind] -= 1
        game.pieces[to][kind] += 1
        game.push("move", land, to, seat, mask, n - 1)


def res_choose(
    game: SpiritIslandGame, seat: int, which: int, block: int, pc: int, land: int, target: int
) -> None:
    frame(game, BLOCKS[block][pc][1 + which], land, seat, target)


def res_element(
    game: SpiritIslandGame, seat: int, element: int, n: int, chosen: int, giver: int
) -> None:
    """``seat`` gains the Element, and so does ``giver`` when it is another Spirit."""
    game.elements[seat][element] += 1
    if giver != seat:
        game.elements[giver][element] += 1
    game.ask("element", seat, n - 1, chosen | 1 << element, giver)


def res_destroy_presence(game: SpiritIslandGame, seat: int, land: int, n: int) -> None:
    destroy_presence(game, seat, land)
    game.push("destroy_presence", seat, n - 1)


def res_presence_more(game: SpiritIslandGame, seat: int, option: int, land: int, n: int) -> None:
    if option != PIECE_STOP:
        game.ask("presence_source", seat, land, n)


def res_presence_source(game: SpiritIslandGame, seat: int, source: int, land: int, n: int) -> None:
    game.presence[seat][source] -= 1
    game.presence[seat][land] += 1
    game.push("gather_presence", land, seat, n - 1)
