"""The Invader actions: Ravage (with the Dahan's counterattack), Build, Explore and the
advance of the Invader cards.

Every function takes the game first; ``rules.py`` finds the steps through ``STEP_RUN``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.spec import (
    CITY_KINDS,
    COASTAL,
    DAHAN,
    DAHAN_1,
    DAHAN_KINDS,
    EXPLORER,
    INVADER_CARDS,
    INVADER_DAMAGE,
    INVADER_KINDS,
    SKIP_BIT,
    SPARE_DAHAN,
    TOWN,
    TOWN_KINDS,
)

if TYPE_CHECKING:
    from tabletop_envs.spirit_island.rules import SpiritIslandGame


def lands_of(game: SpiritIslandGame, card: int) -> list[int]:
    """The lands an Invader card names (none for an empty slot)."""
    if card < 0:
        return []
    terrains = INVADER_CARDS[card].terrains
    if terrains == (COASTAL,):
        return [land for land in game.lands if game.island.coastal[land]]
    return [land for land in game.lands if game.island.terrain[land] in terrains]


# ----- Ravage ----------------------------------------------------------------------------------
def step_ravage(game: SpiritIslandGame) -> None:
    """Queue a Ravage in each land of the Ravage card with Invaders (unless skipped)."""
    for land in reversed(lands_of(game, game.invader_slots[0])):
        if game.invaders(land) and not game.skips[land] & SKIP_BIT[0]:
            game.push("ravage_land", land)


def step_ravage_land(game: SpiritIslandGame, land: int) -> None:
    """The Invaders' Damage, less Defend, to the land (Blight at 2 or more) and its Dahan;
    then the surviving Dahan fight back."""
    if not game.invaders(land):
        return
    row = game.pieces[land]
    damage = sum(INVADER_DAMAGE[k] * row[k] for k in INVADER_KINDS)
    damage = max(0, damage - game.defend[land] - vitality(game, land))
    game.push("dahan_fight", land)
    if not game.skips[land] & SPARE_DAHAN:
        game.push("ravage_dahan", land, damage)
    if damage >= 2:
        game.push("add_blight", land)


def vitality(game: SpiritIslandGame, land: int) -> int:
    """Defend 3 in each Sacred Site of a Spirit with Earth's vitality."""
    return 3 * sum(
        1
        for seat in range(game.num_players)
        if game.spirit(seat).special == "vitality" and land in game.sacred_sites(seat)
    )


def step_ravage_dahan(game: SpiritIslandGame, land: int, damage: int) -> None:
    """Invaders destroy Dahan as efficiently as possible: damaged ones first."""
    row = game.pieces[land]
    kill = min(row[DAHAN_1], damage)
    row[DAHAN_1] -= kill
    damage -= kill
    kill = min(row[DAHAN], damage // 2)
    row[DAHAN] -= kill
    damage -= 2 * kill
    if damage and row[DAHAN]:
        row[DAHAN] -= 1
        row[DAHAN_1] += 1


def step_dahan_fight(game: SpiritIslandGame, land: int) -> None:
    """Each surviving Dahan deals 2 Damage, split among the Invaders by the land's owner."""
    damage = 2 * game.count(land, DAHAN_KINDS)
    if damage and game.invaders(land):
        game.push("damage", land, game.owner(land), damage)


# ----- Build and Explore -----------------------------------------------------------------------
def step_build(game: SpiritIslandGame) -> None:
    """A Town in each land of the Build card with Invaders, a City where Towns outnumber
    Cities (none where Cities are not built this turn)."""
    for land in lands_of(game, game.invader_slots[1]):
        if game.invaders(land) and not game.skips[land] & SKIP_BIT[1]:
            towns = game.count(land, TOWN_KINDS)
            cities = game.count(land, CITY_KINDS)
            if towns <= cities:
                game.pieces[land][TOWN] += 1
            elif not game.skips[land] & spec.NO_CITY_BUILD:
                game.pieces[land][spec.CITY] += 1


def step_explore(game: SpiritIslandGame) -> None:
    """Reveal the next Invader card and Explore with it; none left is a defeat."""
    if not game.invader_deck:
        game.lose("the Invader deck ran out: time is up")
        return
    card = game.invader_deck.pop(0)
    game.invader_slots[2] = card
    explore_lands(game, card)


def explore_lands(game: SpiritIslandGame, card: int) -> list[int]:
    """One Explorer in each land of the card's terrain that holds a Town or City, or
    neighbours one or the Ocean; the lands explored, in order."""
    explored = []
    for land in lands_of(game, card):
        if game.skips[land] & SKIP_BIT[2]:
            continue
        if explorable(game, land):
            explored.append(land)
    for land in explored:
        game.pieces[land][EXPLORER] += 1
    return explored


def explorable(game: SpiritIslandGame, land: int) -> bool:
    """Whether Explorers reach ``land``: it is coastal or holds a Town or City, or a
    neighbour holds one (Isolate cuts the neighbours off)."""
    buildings = TOWN_KINDS + CITY_KINDS
    if game.island.coastal[land] or game.count(land, buildings):
        return True
    if game.isolated[land]:
        return False
    return any(
        not game.isolated[other] and game.count(other, buildings)
        for other in game.island.neighbours[land]
    )


def step_advance(game: SpiritIslandGame) -> None:
    """Advance the Invader cards: Ravage's card to the discard, Build's to Ravage, Explore's
    to Build."""
    ravage, build, explore = game.invader_slots
    if ravage >= 0:
        game.invader_discard.append(ravage)
    game.invader_slots = [build, explore, -1]
