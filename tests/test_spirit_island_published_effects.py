"""Every published Power and Fear card the effect language can say, applied once in one
prepared island, its outcome worked by hand from the card's published text.

Powers: 2 players (River on board A, Lightning on board B, Lightning's 2 Presence in B5). The
target land is A5 (an inland Wetland) with 2 Explorers, 1 Town, 1 City, 2 Dahan and 1 Blight;
its neighbour A6 holds 1 Explorer and 1 Dahan, A1 a City; River has 1 Presence in A5 and 2 in
A8, so its Sacred Sites are A5 (a Wetland) and A8. River uses the card with the Elements the
case names (none by default); a card targeting a Spirit targets Lightning. Every choice takes
the first legal option unless the case names others: Damage goes to Explorers, then Towns, then
Cities; pushes go to A1 (A5's lowest-numbered neighbour); gathers come from A6; a cascade goes
to A1; a choice takes its first effect.

Fear cards: the island of ``test_spirit_island_fear_blight.py`` (1 player, River): A1 1
Explorer; A2 1 Town, 1 Explorer, 1 Dahan; A3 1 Dahan; A5 1 City, 2 Explorers, 2 Dahan, 1
Blight; A6 1 Town; A8 1 Explorer, 2 Dahan; River's Presence in A3 and A5 (A5, a Wetland, is
its Sacred Site). "Each player picks a land" picks the lowest-numbered land that qualifies.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import invaders, phases, published, spec, text
from tabletop_envs.spirit_island.observer import SCHEMA, view
from tabletop_envs.spirit_island.rules import PURPOSE_NAMES, STEP, SpiritIslandGame
from tabletop_envs.spirit_island.spec import BLIGHT, CITY, CITY_1, CITY_2, DAHAN, DAHAN_1

A1, A5, A6, A8 = 0, 4, 5, 7
BURN = {"B": 1, "Bx": 1, "P": -1}
"""Blight added to A5, which has Blight: it cascades to A1 and destroys River's Presence."""

# name -> (changes, Elements River has); see the module docstring for the island
POWERS: dict[str, tuple[dict[str, int], dict[str, int]]] = {
    "Call of the Dahan Ways": ({"E": -1, "D": 1}, {}),  # an Explorer becomes a Dahan
    "Call to Bloodshed": ({"E": -2}, {}),  # 1 Damage per Dahan (2)
    "Call to Isolation": ({"E": -2, "oE": 2}, {}),  # push 1 Explorer / Town per Dahan
    "Call to Migrate": ({"D": -2, "oD": 2, "dA1": 3}, {}),  # gather A6's Dahan, then push 3 to A1
    "Call to Tend": ({"B": -1}, {}),
    "Dark and Tangled Woods": ({"fear": 2}, {}),  # a Wetland: no Defend
    "Delusions of Danger": ({"E": -1, "oE": 1}, {}),
    "Devouring Ants": ({"fear": 1, "E": -1, "D": -1}, {}),  # no Jungle / Sands bonus
    "Drift Down into Slumber": ({"def": 1}, {}),  # not Jungle / Sands: Defend 1
    "Drought": ({"T": -1, "fear": 1, "C": -1, "c": 1, **BURN}, {}),
    "Drought (3 Sun)": ({"T": -1, "C": -1, "fear": 3, **BURN}, {"sun": 3}),  # + the City
    "Elemental Boon": ({"el0": 3, "el1": 3}, {}),  # Lightning picks 3, River gains them too
    "Encompassing Ward": ({"dx": 2}, {}),  # Lightning's one land with Presence, B5
    "Enticing Splendor": ({"E": 1, "oE": -1}, {}),
    "Entrancing Apparitions": ({"def": 2}, {}),  # Invaders there: no gather
    "Gift of Living Energy": ({"en1": 3}, {}),  # 1, another Spirit 1, 2 Sacred Sites 1
    "Gift of Constancy": ({"en1": 2, "keep0": 1, "keep1": 1}, {}),  # another Spirit: both keep
    "Gift of Power": ({"hand1": 1}, {}),  # Lightning keeps 1 of 4 Minors
    "Gnawing Rootbiters": ({"T": -1, "oT": 1}, {}),
    "Land of Haunts and Embers": (
        {"fear": 4, "E": -2, "T": -1, "oE": 2, "oT": 1, **BURN},
        {},
    ),  # Blight there: 4 Fear, push up to 4, then add 1 Blight
    "Lure of the Unknown": ({"E": 1, "oE": -1}, {}),
    "Nature's Resilience": ({"def": 6}, {}),
    "Pull Beneath the Hungry Earth": ({"fear": 1, "E": -2}, {}),  # Presence and Wetland
    "Purifying Flame": ({"E": -1}, {}),  # 1 Blight: 1 Damage (a Wetland: no choice)
    "Quicken the Earth's Struggles": ({"T": -1, "t": 1, "C": -1, "c": 1}, {}),
    "Rain of Blood": ({"fear": 3}, {}),  # a Town and a City: +1
    "Reaching Grasp": ({"range1": 2}, {}),
    "Rouse the Trees and Stones": ({"E": -2}, {}),  # no Explorer left to push
    "Sap the Strength of Multitudes": ({"def": 5}, {}),
    "Savage Mawbeasts": ({"fear": 1, "E": -1}, {}),  # a Wetland
    "Savage Mawbeasts (3 Animal)": ({"fear": 1, "E": -2}, {"animal": 3}),
    "Shadows of the Burning Forest": ({"fear": 2}, {}),  # not Mountain / Jungle
    "Song of Sanctity": ({"E": -2, "oE": 2}, {}),  # Explorers: push them all
    "Steam Vents": ({"E": -1}, {}),
    "Uncanny Melting": ({"fear": 1, "B": -1}, {}),
    "Veil the Night's Hunt": ({"E": -2}, {}),  # 2 Dahan strike the 2 Explorers
    "Visions of Fiery Doom": ({"fear": 1, "E": -1, "oE": 1}, {}),
    "Voracious Growth": ({"E": -2}, {}),
    "Accelerated Rot": ({"fear": 3, "E": -2, "T": -1}, {}),  # 4 Damage: E, E, Town
    "Accelerated Rot (threshold)": (
        {"fear": 5, "E": -2, "T": -1, "C": -1, "B": -1},
        {"sun": 3, "water": 2, "plant": 3},
    ),  # 9 Damage clears the land; a Blight removed
    "Blazing Renewal": ({}, {}),  # Lightning has no destroyed Presence: nothing happens
    "Cleansing Floods": ({"E": -2, "T": -1, "fear": 1, "B": -1}, {}),
    "Indomitable Claim": ({"P": 1, "def": 20}, {}),  # Presence from the Energy track
    "Indomitable Claim (threshold)": (
        {"P": 1, "def": 20, "fear": 3, "skip": 7},
        {"sun": 2, "earth": 3},
    ),
    "Paralyzing Fright": ({"fear": 4, "skip": 7}, {}),
    "Paralyzing Fright (threshold)": ({"fear": 8, "skip": 7}, {"air": 2, "earth": 3}),
    "Pillar of Living Flame": ({"fear": 4, "E": -2, "T": -1, "C": -1, "c": 1, **BURN}, {}),
    "Poisoned Land": ({"fear": 4, "E": -2, "T": -1, "C": -1, "D": -2, **BURN}, {}),
    "Powerstorm": ({"en1": 3, "rep1": 1}, {}),  # Lightning: 3 Energy, 1 paid repeat
    "Powerstorm (threshold)": ({"en1": 3, "rep1": 3}, {"sun": 2, "fire": 2, "air": 3}),
    "Talons of Lightning": ({"fear": 4, "E": -2, "T": -1, "C": -1, "c": 1}, {}),
    "Terrifying Nightmares": ({"fear": 2, "E": -2, "T": -1, "oE": 2, "oT": 1}, {}),
    "The Jungle Hungers": ({"E": -2, "T": -1, "fear": 1, "D": -2}, {}),
    "The Jungle Hungers (threshold)": (
        {"E": -2, "T": -1, "C": -1, "fear": 3},
        {"moon": 2, "plant": 3},
    ),  # a City instead of the Dahan
    "The Land Thrashes in Furious Pain": ({"E": -2}, {}),  # no Blight next door
    "The Land Thrashes in Furious Pain (threshold)": (
        {"E": -2, "oc": 1},
        {"moon": 3, "earth": 3},
    ),  # again in A1: A5's Blight next door, 1 Damage to its City
    "Tsunami": ({"fear": 5, "E": -2, "T": -1, "C": -1, "D": -2}, {}),  # 8 Damage
    "Tsunami (threshold)": (
        {"fear": 10, "E": -2, "T": -1, "C": -1, "D": -2, "oC": -1},
        {"water": 3, "earth": 2},
    ),  # A1, A2, A3: 1 Fear each; A1's City destroyed (2 Fear)
    "Dissolve the Bonds of Kinship": (
        {"E": -2, "T": -1, "C": -1, "D": -1, "oE": 6},
        {},
    ),  # the City 2 Explorers, the Town 1, a Dahan 1: 6 Explorers pushed, none destroyed
    "Mists of Oblivion": ({"E": -2, "T": -1, "t": 1, "C": -1, "c": 1}, {}),  # 1 Damage each
    "Mists of Oblivion (threshold)": (
        {"E": -2, "T": -1, "C": -1, "fear": 5},
        {"moon": 2, "air": 3, "water": 2},
    ),  # 3 Damage end the damaged Town and City: their 3 Fear and 1 each from the card
    "The Trees and Stones Speak of War": ({"E": -2, "def": 4}, {}),  # 2 Dahan: 2 Damage, Defend 4
    "The Trees and Stones Speak of War (threshold)": (
        {"E": -2, "D": -2, "oD": 2, "dA1": 2, "dx": 4},
        {"sun": 2, "earth": 2, "plant": 2},
    ),  # both Dahan pushed to A1, each taking Defend 2 along; none left for Defend in A5
    "Vigor of the Breaking Dawn": ({"E": -2, "T": -1, "fear": 1}, {}),  # 4 Damage: E, E, Town
    "Vigor of the Breaking Dawn (threshold)": (
        {"E": -2, "T": -1, "fear": 3, "D": -2, "oD": 2, "dA1": 2, "oC": -1},
        {"sun": 3, "animal": 2},
    ),  # both Dahan to A1: 4 Damage there once (one land), its City destroyed
    "Winds of Rust and Atrophy": ({"fear": 1, "def": 6, "C": -1, "T": 1}, {}),
    "Winds of Rust and Atrophy (threshold)": (
        {"fear": 2, "def": 6, "C": -1, "T": 1, "dx": 6, "oC": -1, "oT": 1},
        {"air": 3, "water": 3, "animal": 2},
    ),  # repeated on A1, the first land within range 3 of a Sacred Site: its City a Town
    "Wrap in Wings of Sunlight": ({"D": -2, "oD": 2, "dA1": 2, "dx": 5}, {}),  # to A1
    "Wrap in Wings of Sunlight (threshold)": (
        {"D": -2, "oD": 2, "dA1": 3, "dx": 5},
        {"sun": 2, "air": 2, "animal": 2},
    ),  # A6's Dahan gathered first, so 3 fly to A1
}


def effect_of(name: str) -> tuple[Any, ...]:
    """The compiled effect of the Power card ``name``, as the game deals it."""
    return spec.CARDS[spec.CARD_ID[name]].effect


def fear_effect(name: str, level: int) -> tuple[Any, ...]:
    """The compiled effect of Fear card ``name`` at Terror Level ``level``."""
    return dict(spec.FEAR_CARDS)[name][level - 1]


def prepared(elements: dict[str, int]) -> SpiritIslandGame:
    game = SpiritIslandGame(2, seed=0, spirits="river,lightning")
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    row = game.pieces[A5]
    row[spec.EXPLORER], row[spec.TOWN], row[CITY], row[DAHAN], row[BLIGHT] = 2, 1, 1, 2, 1
    game.pieces[A6][spec.EXPLORER] = 1
    game.pieces[A6][DAHAN] = 1
    game.pieces[A1][CITY] = 1
    game.presence[0] = [0] * len(game.lands)
    game.presence[0][A5], game.presence[0][A8] = 1, 2
    game.energy_track[0] = 2  # the 2 Presence added to River's setup one came from there
    game.energy = [10, 0]
    game.elements = [[0] * len(spec.ELEMENTS) for _ in range(2)]
    for element, count in elements.items():
        game.elements[0][spec.ELEMENT_INDEX[element]] = count
    return game


def summary(game: SpiritIslandGame) -> dict[str, int]:
    row = game.pieces[A5]
    outside = [game.pieces[x] for x in game.lands if x != A5]
    return {
        "E": row[spec.EXPLORER],
        "T": row[spec.TOWN],
        "t": row[spec.TOWN_1],
        "C": row[CITY],
        "c": row[CITY_1] + row[CITY_2],
        "D": row[DAHAN] + row[DAHAN_1],
        "B": row[BLIGHT],
        "Bx": sum(r[BLIGHT] for r in outside),
        "oE": sum(r[spec.EXPLORER] for r in outside),
        "oT": sum(r[spec.TOWN] + r[spec.TOWN_1] for r in outside),
        "oC": sum(r[CITY] + r[CITY_1] + r[CITY_2] for r in outside),
        "oc": sum(r[CITY_1] + r[CITY_2] for r in outside),
        "oD": sum(r[DAHAN] + r[DAHAN_1] for r in outside),
        "dA1": game.pieces[A1][DAHAN] + game.pieces[A1][DAHAN_1],
        "fear": -game.fear_pool + 8 * game.cards_earned(),
        "en0": game.energy[0],
        "en1": game.energy[1],
        "def": game.defend[A5],
        "dx": sum(game.defend) - game.defend[A5],
        "skip": game.skips[A5],
        "P": game.presence[0][A5],
        "hand1": len(game.hand[1]),
        "el0": sum(game.elements[0]),
        "el1": sum(game.elements[1]),
        "keep0": game.keep_cards[0],
        "keep1": game.keep_cards[1],
        "range1": game.range_bonus[1],
        "rep1": game.paid_repeats[1],
    }


def run_effect(game: SpiritIslandGame, effect: Any, land: int, target: int) -> None:
    """Run ``effect`` by River at ``land`` / ``target``, taking the first option each time."""
    game.pending, game.pending_options = [], []
    block = spec.block_of(effect)
    game.queue = [[STEP["turn"]], [STEP["effect"], block, 0, land, 0, target]]
    game.run()
    while game.pending and PURPOSE_NAMES[game.pending[2]] not in ("growth",):
        game.apply(game.legal_actions()[0])
    assert not game.outcome, game.end_reason


def test_every_expressible_power_has_a_case() -> None:
    expressible = {
        card["name"]
        for card in (*published.MINOR_CARDS, *published.MAJOR_CARDS)
        if card["effect"] is not None
    }
    assert {name.split(" (")[0] for name in POWERS} == expressible


@pytest.mark.parametrize("case", list(POWERS))
def test_each_published_power_does_what_its_text_says(case: str) -> None:
    name = case.split(" (")[0]
    card = published.POWER_BY_NAME[name]
    changes, elements = POWERS[case]
    game = prepared(elements)
    before = summary(game)
    spirit = card["target"] in ("spirit", "other")
    run_effect(game, effect_of(name), -1 if spirit else A5, 1 if spirit else -1)
    after = summary(game)
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == changes


def each_land(key: str, value: int, lands: str) -> dict[str, int]:
    return {f"A{n} {key}": value for n in lands}


DAHAN_GATHERED = {"A1 D": 2, "A2 D": -1, "A5 D": -1, "A1 E": -1}
"""A1 (the lowest land) gathers A2's and A5's Dahan; then its Explorer takes 1 Damage."""
# (Fear card, Terror Level) -> changes on the Fear island (module docstring)
FEAR: dict[tuple[str, int], dict[str, int]] = {
    ("Avoid the Dahan", 1): each_land("skip", 4, "58"),  # 2+ Dahan: no Explore into them
    ("Avoid the Dahan", 2): each_land("skip", 2, "358"),  # Dahan outnumber Towns / Cities
    ("Avoid the Dahan", 3): each_land("skip", 2, "2358"),  # any Dahan
    ("Belief Takes Root", 1): each_land("def", 2, "35"),  # River's two lands
    ("Belief Takes Root", 2): {**each_land("def", 2, "35"), "energy": 1},  # A5: Invaders
    ("Belief Takes Root", 3): {"A5 E": -2},  # 1 Presence: 2 Health, 2 Explorers (the City: 3)
    ("Dahan Enheartened", 1): {},  # A1 has Invaders but no Dahan to push
    ("Dahan Enheartened", 2): DAHAN_GATHERED,
    ("Dahan Enheartened", 3): DAHAN_GATHERED,  # 1 Damage per Dahan: one Explorer to hit
    ("Dahan on their Guard", 1): {"A2 def": 1, "A3 def": 1, "A5 def": 2, "A8 def": 2},
    ("Dahan on their Guard", 2): {"A2 def": 2, "A3 def": 2, "A5 def": 3, "A8 def": 3},
    ("Dahan on their Guard", 3): {"A2 def": 2, "A3 def": 2, "A5 def": 4, "A8 def": 4},
    ("Dahan Raid", 1): {"A2 E": -1},  # A2: 1 Damage to its Explorer
    ("Dahan Raid", 2): {"A2 E": -1},  # 1 Dahan there: 1 Damage
    ("Dahan Raid", 3): {"A2 E": -1, "A2 t": 1},  # 2 Damage: the Explorer, then the Town
    ("Emigration Accelerates", 1): {"A1 E": -1},
    ("Emigration Accelerates", 2): {"A1 E": -1},
    ("Emigration Accelerates", 3): {"A1 E": -1},
    ("Fear of the Unseen", 1): {"A5 E": -1},  # A5 is the Sacred Site with Invaders
    ("Fear of the Unseen", 2): {"A5 E": -1},  # A3 has Presence but no Invaders
    ("Fear of the Unseen", 3): {"A5 E": -1},
    ("Isolation", 1): {"A1 E": -1},  # A1's Explorer is its only Invader
    ("Isolation", 2): {"A1 E": -1},
    ("Isolation", 3): {"A1 E": -1},
    ("Overseas Trade Seem Safer", 1): each_land("def", 3, "123"),
    ("Overseas Trade Seem Safer", 2): {
        **each_land("def", 6, "123"),
        **each_land("skip", spec.NO_CITY_BUILD, "123"),
    },  # the coastal lands: Defend 6, no City built there this turn
    ("Overseas Trade Seem Safer", 3): {**each_land("def", 9, "123"), **each_land("skip", 2, "123")},
    ("Retreat!", 1): {"A5 E": -2, "A1 E": 2},  # inland with Explorers: A5, up to 2 to A1
    ("Retreat!", 2): {"A5 E": -2, "A1 E": 2},  # the City stays
    ("Retreat!", 3): {"A1 E": -1, "A2 E": 1},  # A1: all its Explorers and Towns to A2
    ("Scapegoats", 1): {"A2 E": -1},  # A2's Town destroys its Explorer; A6's has none
    ("Scapegoats", 2): {"A2 E": -1, "A5 E": -2},  # and A5's City 2 Explorers
    ("Scapegoats", 3): {"A2 E": -1, "A5 E": -2},  # all Explorers by Towns / Cities
    ("Seek Safety", 1): {"A1 E": -1, "A2 E": 1},  # A1 (no Town / City) into A2 (a Town)
    ("Seek Safety", 2): {"A1 E": -1, "A2 E": 1},  # into A2 (a Town) from A1
    ("Seek Safety", 3): {"A1 E": -1},  # A1, no City: its one Explorer (up to 3 Health)
    ("Tall Tales of Savagery", 1): {"A2 E": -1},
    ("Tall Tales of Savagery", 2): {"A2 E": -1},  # 2 Explorers (1 there)
    ("Tall Tales of Savagery", 3): {"A2 E": -1, "A5 E": -2, "A8 E": -1, "A5 C": -1},
    ("Trade Suffers", 1): {"A5 skip": 2},  # the City's land
    ("Trade Suffers", 2): {"A2 T": -1, "A2 E": 1},  # A2's Town becomes an Explorer
    ("Trade Suffers", 3): {},  # the first choice, a City into a Town: A2 has none
    ("Wary of the Interior", 1): {"A5 E": -1},
    ("Wary of the Interior", 2): {"A5 E": -1},
    ("Wary of the Interior", 3): {"A1 E": -1},
}


def fear_island(players: int = 1) -> SpiritIslandGame:
    game = SpiritIslandGame(players, seed=0, spirits=",".join(["river", "lightning"][:players]))
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    for land, kinds in {
        0: {spec.EXPLORER: 1},
        1: {spec.TOWN: 1, spec.EXPLORER: 1, DAHAN: 1},
        2: {DAHAN: 1},
        4: {CITY: 1, spec.EXPLORER: 2, DAHAN: 2, BLIGHT: 1},
        5: {spec.TOWN: 1},
        7: {spec.EXPLORER: 1, DAHAN: 2},
    }.items():
        for kind, count in kinds.items():
            game.pieces[land][kind] = count
    game.presence[0] = [0] * len(game.lands)
    game.presence[0][2] = game.presence[0][4] = 1
    return game


def fear_summary(game: SpiritIslandGame) -> dict[str, int]:
    out: dict[str, int] = {"energy": game.energy[0]}
    for land in game.lands:
        name = spec.land_name(land)
        row = game.pieces[land]
        out[f"{name} E"] = row[spec.EXPLORER]
        out[f"{name} T"] = row[spec.TOWN] + row[spec.TOWN_1]
        out[f"{name} t"] = row[spec.TOWN_1]
        out[f"{name} C"] = row[CITY] + row[CITY_1] + row[CITY_2]
        out[f"{name} D"] = row[DAHAN] + row[DAHAN_1]
        out[f"{name} def"] = game.defend[land]
        out[f"{name} skip"] = game.skips[land]
    return out


def test_every_expressible_fear_level_has_a_case() -> None:
    expressible = {
        (name, level)
        for name, levels in published.FEAR_CARDS
        for level, effect in enumerate(levels, start=1)
        if effect is not None
    }
    assert set(FEAR) == expressible


@pytest.mark.parametrize("case", list(FEAR), ids=[f"{n} {level}" for n, level in FEAR])
def test_each_published_fear_level_does_what_its_text_says(case: tuple[str, int]) -> None:
    game = fear_island()
    before = fear_summary(game)
    run_effect(game, fear_effect(*case), -1, -1)
    after = fear_summary(game)
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == FEAR[case]


def test_each_player_picks_a_different_land_where_the_card_says_so() -> None:
    """Dahan Raid at 2 players: River picks A2 (the first land with Dahan), so Lightning may
    pick every other land with Dahan but not A2; Tall Tales of Savagery has no such rule."""
    for case, lands_for_lightning in (
        (("Dahan Raid", 1), [2, 4, 7]),
        (("Tall Tales of Savagery", 1), [1, 2, 4, 7]),
    ):
        game = fear_island(2)
        game.pending, game.pending_options = [], []
        block = spec.block_of(fear_effect(*case))
        game.queue = [[STEP["turn"]], [STEP["effect"], block, 0, -1, 0, -1]]
        game.run()
        assert (PURPOSE_NAMES[game.pending[2]], game.pending[1]) == ("spirit_land", 0)
        game.apply(game.legal_actions()[0])  # River: the first land with Dahan, A2
        while game.pending[1] == 0:  # River's effect there
            game.apply(game.legal_actions()[0])
        assert PURPOSE_NAMES[game.pending[2]] == "spirit_land"
        assert game.pending_options == lands_for_lightning, case


def test_seek_safety_pushes_only_into_a_land_with_more_towns_and_cities() -> None:
    """Seek Safety, Terror Level 1, on the Fear island: from A8 (no Town or City) an Explorer
    may go to A5 (a City) or A6 (a Town), not to A7 (none); from A2 (1 Town) to none of A1,
    A3, A4 (none there), so picking A2 pushes nothing."""
    effect = fear_effect("Seek Safety", 1)
    for land, destinations in ((7, [4, 5]), (1, [])):
        game = fear_island()
        game.pending, game.pending_options = [], []
        game.queue = [[STEP["turn"]], [STEP["effect"], spec.block_of(effect), 0, -1, 0, -1]]
        game.run()
        assert game.pending_options == [0, 1, 4, 7]  # the lands with Explorers
        game.apply(spec.LAYOUT.kind_segments[spec.Decision.LAND].offset + land)
        if not destinations:
            assert PURPOSE_NAMES[game.pending[2]] == "growth"
            continue
        assert PURPOSE_NAMES[game.pending[2]] == "push_piece"
        assert game.pending_options == [spec.EXPLORER, spec.PIECE_STOP]  # "may"
        game.apply(spec.LAYOUT.kind_segments[spec.Decision.PIECE].offset + spec.EXPLORER)
        assert PURPOSE_NAMES[game.pending[2]] == "push_dest"
        assert game.pending_options == destinations


def test_a_land_where_cities_are_not_built_builds_no_city_but_still_a_town() -> None:
    """A Build in the coastal lands after Overseas Trade Seem Safer, Terror Level 2: A1 (1
    Town, no City: a City would be built) gets nothing, A2 (made 1 Explorer: a Town is built)
    its Town. Without the Fear card A1 gets its City."""
    coastal_card = next(
        c for c, card in enumerate(spec.INVADER_CARDS) if card.terrains == (spec.COASTAL,)
    )
    for fear_card, a1_cities in ((False, 1), (True, 0)):
        game = fear_island()
        game.pieces[0] = [0] * spec.KINDS
        game.pieces[0][spec.TOWN] = 1
        game.pieces[1] = [0] * spec.KINDS
        game.pieces[1][spec.EXPLORER] = 1
        if fear_card:
            run_effect(game, fear_effect("Overseas Trade Seem Safer", 2), -1, -1)
        game.invader_slots[1] = coastal_card
        invaders.step_build(game)
        assert (game.pieces[0][spec.TOWN], game.pieces[0][CITY]) == (1, a1_cities), fear_card
        assert game.pieces[1][spec.TOWN] == 1


def test_the_observation_shows_where_cities_are_not_built_until_time_passes() -> None:
    """After Overseas Trade Seem Safer, level 2, at 2 players ``no_city_build`` marks the
    coastal lands A1, A2, A3, B1, B2, B3 for every player, the fast encoder equal to the
    reference view; Time Passes clears it."""
    game = fear_island(2)
    run_effect(game, fear_effect("Overseas Trade Seem Safer", 2), -1, -1)
    for seat in (0, 1):
        fields = SCHEMA.decode(game.observation(seat))
        assert np.array_equal(SCHEMA.encode(view(game, seat)), game.observation(seat))
        assert np.flatnonzero(fields["no_city_build"]).tolist() == [0, 1, 2, 8, 9, 10]
    phases.step_time_passes(game)
    assert SCHEMA.decode(game.observation(0))["no_city_build"].sum() == 0


def test_each_dahan_strikes_a_different_invader() -> None:
    """Veil the Night's Hunt with 3 Dahan against 1 Explorer and 1 Town: the Explorer and the
    Town take 1 Damage each and the third Dahan has no Invader left to strike."""
    game = prepared({})
    row = game.pieces[A5]
    row[spec.EXPLORER], row[spec.TOWN], row[CITY], row[DAHAN], row[BLIGHT] = 1, 1, 0, 3, 0
    run_effect(game, effect_of("Veil the Night's Hunt"), A5, -1)
    assert (row[spec.EXPLORER], row[spec.TOWN], row[spec.TOWN_1], row[DAHAN]) == (0, 0, 1, 3)


@pytest.mark.parametrize("last", [False, True], ids=["first options", "last options"])
def test_every_published_effect_keeps_the_invariants_and_names_its_options(last: bool) -> None:
    """Each expressible card (with no Elements and with 4 of each) and Fear level, every
    decision taken by its first or its last option: the state stays valid at every decision,
    and every option reads as words."""
    cases = [(spec.CARDS[card].effect, spec.CARDS[card].name) for card in spec.MINORS]
    cases += [(spec.CARDS[card].effect, spec.CARDS[card].name) for card in spec.MAJORS]
    cases += [(effect, name) for name, levels in spec.FEAR_CARDS for effect in levels]
    seen = set()
    for effect, name in cases:
        spirit = name in published.POWER_BY_NAME and published.POWER_BY_NAME[name]["target"] in (
            "spirit",
            "other",
        )
        for elements in ({}, dict.fromkeys(spec.ELEMENTS, 4)):
            game = prepared(elements)
            game.pending, game.pending_options = [], []
            land, target = (-1, 1) if spirit else (A5, -1)
            game.queue = [
                [STEP["turn"]],
                [STEP["effect"], spec.block_of(effect), 0, land, 0, target],
            ]
            game.run()
            while game.pending and PURPOSE_NAMES[game.pending[2]] != "growth":
                seen.add(PURPOSE_NAMES[game.pending[2]])
                assert all(text.action_to_str(game, a) for a in game.legal_actions())
                assert not list(game.check_invariants()), name
                game.apply(game.legal_actions()[-1 if last else 0])
            assert not list(game.check_invariants()), name
    new_decisions = {"adjacent_land", "claim_track", "remove_health", "move_piece"}
    assert new_decisions | ({"push_piece"} if last else {"strike"}) <= seen


def pick(game: SpiritIslandGame, kind: spec.Decision, option: int) -> None:
    """Take ``option`` of the pending decision, of kind ``kind``."""
    assert game.pending[0] == kind, PURPOSE_NAMES[game.pending[2]]
    game.apply(spec.LAYOUT.kind_segments[kind].offset + option)


def test_elemental_boon_gives_three_different_elements_the_target_chooses() -> None:
    """Elemental Boon on Lightning: Lightning (not River) picks, each Element once (a picked
    one leaves the options); River gains the same three. On River itself: gained once."""
    water, earth, animal = (spec.ELEMENT_INDEX[e] for e in ("water", "earth", "animal"))
    effect = effect_of("Elemental Boon")
    for target, river_gains in ((1, 1), (0, 1)):
        game = prepared({})
        game.pending, game.pending_options = [], []
        game.queue = [[STEP["turn"]], [STEP["effect"], spec.block_of(effect), 0, -1, 0, target]]
        game.run()
        assert (PURPOSE_NAMES[game.pending[2]], game.pending[1]) == ("element", target)
        assert game.pending_options == list(range(8))
        pick(game, spec.Decision.ELEMENT, water)
        assert water not in game.pending_options and len(game.pending_options) == 7
        pick(game, spec.Decision.ELEMENT, earth)
        pick(game, spec.Decision.ELEMENT, animal)
        assert PURPOSE_NAMES[game.pending[2]] == "growth"
        gained = [0] * 8
        gained[water] = gained[earth] = gained[animal] = 1
        assert game.elements[target] == gained
        assert game.elements[0] == [river_gains * g for g in gained]


def test_reaching_grasp_extends_every_range_of_the_spirit_for_the_turn() -> None:
    """River with Presence only in A3 and Crops Wither and Fade (range 0): A3 alone; after
    Reaching Grasp on River, range 2: A1 (via A2), A2, A3, A4, A5 (via A4); after Time Passes
    A3 alone again."""
    game = SpiritIslandGame(1, seed=0, spirits="river")
    game.presence[0] = [0] * len(game.lands)
    game.presence[0][2] = 1
    crops = next(c for c, card in enumerate(spec.CARDS) if card.name == "Crops Wither and Fade")
    assert game.targets(0, crops) == [2]
    run_effect(game, effect_of("Reaching Grasp"), -1, 0)
    assert game.targets(0, crops) == [0, 1, 2, 3, 4]
    phases.step_time_passes(game)
    assert game.targets(0, crops) == [2]


def test_gift_of_constancy_keeps_a_played_card_in_hand_at_time_passes() -> None:
    """River played two cards and may keep 1: the options are the two and "none"; the one
    kept returns to the hand, the other goes to the discard. Declining keeps none."""
    for keep_second, hand_gets, discarded in ((True, 1, 1), (False, 0, 2)):
        game = SpiritIslandGame(1, seed=0, spirits="river")
        first, second = sorted(game.hand[0])[:2]
        game.hand[0] = [c for c in game.hand[0] if c not in (first, second)]
        game.played[0] = [second, first]
        game.keep_cards[0] = 1
        before = len(game.hand[0])
        game.pending, game.pending_options = [], []
        game.queue = [[STEP["turn"]], [STEP["time_passes"]], [STEP["keep_played"], 0]]
        game.run()
        assert PURPOSE_NAMES[game.pending[2]] == "keep_played"
        assert game.pending_options == [first, second, spec.CARD_DONE]
        pick(game, spec.Decision.CARD, second if keep_second else spec.CARD_DONE)
        assert len(game.hand[0]) - before == hand_gets
        assert (second in game.hand[0]) == keep_second
        assert len(game.discard[0]) == discarded and game.keep_cards[0] == 0


def test_the_observation_shows_range_bonus_and_cards_to_keep_until_time_passes() -> None:
    """After Reaching Grasp and Gift of Constancy on Lightning by River, ``range_bonus`` shows
    2 for Lightning and ``keep_cards`` 1 for each (relative rows), the fast encoder equal to
    the reference view; Time Passes clears both."""
    game = prepared({})
    run_effect(game, effect_of("Reaching Grasp"), -1, 1)
    run_effect(game, effect_of("Gift of Constancy"), -1, 1)
    for seat, lightning_row in ((0, 1), (1, 0)):
        fields = SCHEMA.decode(game.observation(seat))
        assert np.array_equal(SCHEMA.encode(view(game, seat)), game.observation(seat))
        assert fields["range_bonus"][lightning_row] == 2
        assert fields["range_bonus"][1 - lightning_row] == 0
        assert list(fields["keep_cards"][:2]) == [1, 1]
    phases.step_time_passes(game)
    fields = SCHEMA.decode(game.observation(0))
    assert fields["range_bonus"].sum() == fields["keep_cards"].sum() == 0


def test_dissolve_the_bonds_pushes_explorers_to_as_many_lands_as_possible() -> None:
    """Dissolve the Bonds of Kinship in A5 (6 Explorers once the City, the Town and a Dahan
    are replaced), every push taking its first option: each of A5's neighbours gets an
    Explorer before any gets a second (A1, the first option, would otherwise take all 6)."""
    game = prepared({})
    outside = {x: game.pieces[x][spec.EXPLORER] for x in game.island.neighbours[A5]}
    run_effect(game, effect_of("Dissolve the Bonds of Kinship"), A5, -1)
    gained = [game.pieces[x][spec.EXPLORER] - outside[x] for x in outside]
    assert sum(gained) == 6 and game.pieces[A5][spec.EXPLORER] == 0
    assert min(gained) >= 1 if len(gained) <= 6 else max(gained) == 1, gained


def test_dissolve_the_bonds_threshold_explorers_and_buildings_damage_each_other() -> None:
    """With 2 Fire 2 Water 3 Animal, A5 holding 2 Cities, 1 Town, 1 Explorer and no Dahan: a
    City becomes 2 Explorers and the Town 1 (4 Explorers, 1 City). Both sides count before
    either is dealt: the 4 Explorers deal 4 Damage to the City (destroyed, 2 Fear), the City
    3 Damage to the Explorers (3 destroyed); the last Explorer is pushed away."""
    game = prepared({"fire": 2, "water": 2, "animal": 3})
    row = game.pieces[A5]
    row[spec.EXPLORER], row[spec.TOWN], row[CITY], row[DAHAN], row[BLIGHT] = 1, 1, 2, 0, 0
    before = summary(game)
    run_effect(game, effect_of("Dissolve the Bonds of Kinship"), A5, -1)
    after = summary(game)
    changes = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert changes == {"E": -1, "T": -1, "C": -2, "fear": 2, "oE": 1}


def test_mists_of_oblivion_gives_at_most_4_fear_for_the_towns_and_cities_it_destroys() -> None:
    """Mists of Oblivion in A5 holding 5 damaged Towns: 1 Damage to each destroys all 5 (5
    Fear for the Towns), and the card adds 1 Fear per Town destroyed, at most 4: 9 Fear."""
    game = prepared({})
    row = game.pieces[A5]
    row[spec.EXPLORER], row[spec.TOWN], row[CITY] = 0, 0, 0
    row[spec.TOWN_1] = 5
    before = summary(game)["fear"]
    run_effect(game, effect_of("Mists of Oblivion"), A5, -1)
    assert row[spec.TOWN_1] == 0
    assert summary(game)["fear"] - before == 9


def test_vigor_of_the_breaking_dawn_damages_each_land_pushed_to_once() -> None:
    """With 3 Sun 2 Animal, both of A5's Dahan pushed to A1 (3 Cities, no Dahan): once the
    push is over, 2 Damage per Dahan in A1, 4 Damage: the Cities' 9 Health down to 5 (a land
    gets its Damage once, however many Dahan arrive; after each Dahan it would be 6)."""
    game = prepared({"sun": 3, "animal": 2})
    game.pieces[A1][CITY] = 3
    run_effect(game, effect_of("Vigor of the Breaking Dawn"), A5, -1)
    a1 = game.pieces[A1]
    assert a1[DAHAN] == 2
    assert sum(a1[k] * spec.HEALTH[k] for k in (CITY, CITY_1, CITY_2)) == 5


def test_a_paid_repeat_costs_the_card_again_and_a_free_one_is_used_first() -> None:
    """Lightning resolved a card costing 1 and holds 1 paid repeat (Powerstorm): with 0 Energy
    it may not repeat it; with 2 it may, paying 1, and the allowance is gone. With Gift of
    Strength's free repeat (cost 1 or less) as well, the free one goes first, no Energy paid."""
    for energy, free, offered, energy_after, paid_left in (
        (0, False, False, 0, 1),
        (2, False, True, 1, 0),
        (2, True, True, 2, 1),
    ):
        game = SpiritIslandGame(2, seed=0, spirits="river,lightning")
        card = next(c for c in game.hand[1] if spec.CARDS[c].cost == 1)
        game.hand[1].remove(card)
        game.played[1], game.resolved[1] = [card], [card]
        game.energy[1], game.paid_repeats[1] = energy, 1
        game.repeat_cost[1] = 1 if free else -1
        assert (card in game.candidates(1, spec.SLOW)) == offered
        if offered:
            phases.res_power(game, 1, card, spec.SLOW)
            assert (game.energy[1], game.paid_repeats[1]) == (energy_after, paid_left)
            assert game.repeat_cost[1] == -1


@pytest.mark.parametrize("threshold", [False, True], ids=["plain", "3 Fire 3 Earth 2 Plant"])
def test_blazing_renewal_returns_destroyed_presence_and_burns_towns_and_cities(
    threshold: bool,
) -> None:
    """Blazing Renewal by River on Lightning, which has 3 destroyed Presence: River picks a
    land within 2 of its own Presence (A1, the first: next to A5), Lightning adds 2 of them
    there, then 2 Damage to each Town and City there (A1's City left with 1 Health); with
    3 Fire 3 Earth 2 Plant 4 Damage more (the City destroyed, 2 Fear)."""
    game = prepared({"fire": 3, "earth": 3, "plant": 2} if threshold else {})
    game.destroyed_presence[1] = 3
    fear = summary(game)["fear"]
    effect = effect_of("Blazing Renewal")
    game.pending, game.pending_options = [], []
    game.queue = [[STEP["turn"]], [STEP["effect"], spec.block_of(effect), 0, -1, 0, 1]]
    game.run()
    assert (PURPOSE_NAMES[game.pending[2]], game.pending[1]) == ("restore_land", 0)
    assert game.pending_options == game.in_range(0, 2)
    pick(game, spec.Decision.LAND, A1)
    while game.pending and PURPOSE_NAMES[game.pending[2]] != "growth":
        game.apply(game.legal_actions()[0])
    assert (game.presence[1][A1], game.destroyed_presence[1]) == (2, 1)
    a1 = game.pieces[A1]
    assert (a1[CITY], a1[CITY_2]) == ((0, 0) if threshold else (0, 1))
    assert summary(game)["fear"] - fear == (2 if threshold else 0)


def test_a_paid_repeat_never_repeats_powerstorm_itself() -> None:
    """Lightning resolved Powerstorm (cost 3) and a card costing 1, with 1 paid repeat and 10
    Energy: the other card may be repeated, Powerstorm not (it would pay for itself forever)."""
    game = SpiritIslandGame(2, seed=0, spirits="river,lightning")
    storm = spec.CARD_ID["Powerstorm"]
    other = next(c for c in game.hand[1] if spec.CARDS[c].cost == 1)
    game.played[1] = game.resolved[1] = [storm, other]
    game.energy[1], game.paid_repeats[1] = 10, 1
    assert game.candidates(1, spec.FAST) == [other]


def test_a_spirit_that_passes_is_not_asked_again_in_the_phase_but_keeps_its_repeat() -> None:
    """River resolved Boon of Vigor (cost 0) and may repeat a card costing 0 or less: in the
    Fast phase it is offered the repeat and passes; it is not asked again in that phase, and
    in the Slow phase the repeat is offered again."""
    game = SpiritIslandGame(1, seed=0, spirits="river")
    boon = spec.CARD_ID["Boon of Vigor"]
    game.hand[0].remove(boon)
    game.played[0], game.resolved[0], game.unresolved[0] = [boon], [boon], []
    game.repeat_cost[0] = 0
    game.pending, game.pending_options = [], []
    game.queue = [[STEP["turn"]], [STEP["powers_start"], spec.SLOW], [STEP["powers"], spec.FAST, 0]]
    game.run()
    assert (PURPOSE_NAMES[game.pending[2]], game.pending[3]) == ("power", spec.FAST)
    assert game.pending_options == [boon, spec.POWER_PASS]
    pick(game, spec.Decision.POWER, spec.POWER_PASS)
    assert (PURPOSE_NAMES[game.pending[2]], game.pending[3]) == ("power", spec.SLOW)
    assert game.pending_options == [boon, spec.POWER_PASS] and game.passed == [0]
    assert game.repeat_cost[0] == 0
