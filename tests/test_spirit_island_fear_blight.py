"""Every Fear card (at each Terror Level) and every Blight card's effect applied once in one
prepared island, its outcome written by hand from the card's text.

The island: 1 player (River on board A). A1 holds 1 Explorer; A2 1 Town, 1 Explorer and 1
Dahan; A3 1 Dahan; A5 1 City, 2 Explorers, 2 Dahan and 1 Blight; A6 1 Town; A8 1 Explorer and
2 Dahan. River has 1 Presence in A3 and 1 in A5. Every choice takes the first legal option:
"each Spirit picks a land" picks the lowest-numbered land that matches, Damage goes to an
Explorer first, a push goes to the lowest-numbered neighbour, a choice takes its first effect,
a forgotten card is the lowest-numbered one (Boon of Vigor). A1-A3 are coastal, A4 and A7
are Sands, A4-A8 inland.

Changes are written "A2 E" (Explorers in A2), "A2 T", "A2 D", "A2 def" (Defend), "A2 skip"
(Ravage 1, Build 2, Explore 4), "P A3" (River's Presence), "energy", "forgotten".
"""

from __future__ import annotations

import pytest

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.rules import PURPOSE_NAMES, STEP, SpiritIslandGame

INLAND_NO_EXPLORE = {f"A{n} skip": 4 for n in range(4, 9)}

FEAR_LEVEL_1: dict[str, dict[str, int]] = {
    "Second Thoughts": {"A1 E": -1},  # a land with an Explorer: remove 1
    "Wary of the Interior": INLAND_NO_EXPLORE,  # every inland land skips Explore
    "Uneasy Camps": {"A1 E": -1, "A2 E": 1},  # push 1 Explorer
    "Dahan Emboldened": {"A2 E": -1},  # a land with Dahan and Invaders: 1 Damage
    "Hushed Fields": {"A5 def": 1},  # Defend 1 in every land with Blight
    "Fleeing Settlers": {"A1 E": -1},  # a coastal land with an Explorer: remove 1
    "Stalled Expansion": {"A1 skip": 2},  # a land with Invaders skips Build
    "Fraying Courage": {"A2 E": -1},  # a land with a Town: remove 1 Explorer
    "Nightly Terrors": {"A1 def": 1, "A2 def": 1, "A8 def": 1},  # Explorers, no Blight
    "Avoid the Shadows": {"A1 skip": 1},  # a land with Invaders skips Ravage
    "Scattered Outposts": {"A5 E": -1},  # a land with 2 Explorers: remove 1
    "Retreat to the Coast": {"A5 E": -1, "A1 E": 1},  # inland with an Explorer: push 1
    "Quiet Resolve": {"energy": 1},  # each Spirit gains 1 Energy
    "Broken Supply Lines": {"A4 skip": 2},  # a Sands land skips Build
    "Restless Dahan": {"A2 D": 1, "A3 D": -1},  # a land with Dahan gathers up to 1 Dahan
}


def every_land(key: str, value: int, lands: str = "12345678") -> dict[str, int]:
    return {f"A{n} {key}": value for n in lands}


FEAR_LEVEL_2: dict[str, dict[str, int]] = {
    "Second Thoughts": {"A1 E": -1},  # a land with Invaders: remove 1 Explorer or Town
    "Wary of the Interior": every_land("skip", 6, "45678"),  # inland: no Explore, no Build
    "Uneasy Camps": {"A1 E": -1, "A2 E": 1},  # push 1 Explorer or Town
    "Dahan Emboldened": {"A2 E": -1},  # its 1 Dahan deals 1 Damage
    "Hushed Fields": every_land("def", 2),  # Defend 2 everywhere
    "Fleeing Settlers": {"A1 E": -1},  # coastal with Invaders: remove 1 Explorer or Town
    "Stalled Expansion": every_land("skip", 2, "2358"),  # lands with Dahan skip Build
    "Fraying Courage": {"A2 T": -1},  # a land with a Town: remove it
    "Nightly Terrors": {"A1 E": -1},  # 2 Damage where only 1 Explorer stands
    "Avoid the Shadows": every_land("skip", 1, "38"),  # Jungles skip Ravage
    "Scattered Outposts": {"A1 E": -1},  # remove 2 Explorers where there is 1
    "Retreat to the Coast": {"A5 E": -2, "A1 E": 2},  # inland: push up to 2
    "Quiet Resolve": {"energy": 2},
    "Broken Supply Lines": every_land("skip", 2, "1467"),  # Sands and Mountains skip Build
    "Restless Dahan": {"A5 E": -2},  # 2 Dahan with Invaders: 1 Damage each
}
FEAR_LEVEL_3: dict[str, dict[str, int]] = {
    "Second Thoughts": {"A1 E": -1},  # remove 2 where there is 1
    "Wary of the Interior": every_land("skip", 4),  # no Explore anywhere
    "Uneasy Camps": {"A1 E": -1, "A2 E": 1},  # push up to 2 Invaders
    "Dahan Emboldened": {"A2 E": -1, "A5 E": -2, "A8 E": -1},  # in every such land
    "Hushed Fields": every_land("def", 4),
    "Fleeing Settlers": {"A1 E": -1},  # a land with Invaders: remove 1
    "Stalled Expansion": every_land("skip", 2),  # no Build anywhere
    "Fraying Courage": {"A2 T": -1},  # remove a Town or City
    "Nightly Terrors": {"A1 E": -1},  # 3 Damage where only 1 Explorer stands
    "Avoid the Shadows": every_land("skip", 1, "2358"),  # Jungles and Wetlands
    "Scattered Outposts": every_land("E", -1, "1258"),  # 1 Explorer off every such land
    "Retreat to the Coast": {"A5 E": -1, "A8 E": -1},  # inland lands with Explorers
    "Quiet Resolve": {"energy": 2, "A1 E": -1},  # and 1 Damage in a land with Invaders
    "Broken Supply Lines": {**every_land("skip", 2), "A2 T": -1},  # and a Town removed
    "Restless Dahan": {"A5 E": -2, "A8 E": -1},  # every land with 2 Dahan and Invaders
}

BLIGHTED_ISLAND: dict[str, dict[str, int]] = {
    "A Fragile Balance (first game)": {},  # no effect
    "Downward Spiral": {"P A3": -1},  # each Spirit destroys 1 of its Presence
    "Memory Fades to Dust": {"forgotten": 1},  # forget a Power (the first choice)
}


def prepared() -> SpiritIslandGame:
    game = SpiritIslandGame(1, seed=0, spirits="river")
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    for land, kinds in {
        0: {spec.EXPLORER: 1},
        1: {spec.TOWN: 1, spec.EXPLORER: 1, spec.DAHAN: 1},
        2: {spec.DAHAN: 1},
        4: {spec.CITY: 1, spec.EXPLORER: 2, spec.DAHAN: 2, spec.BLIGHT: 1},
        5: {spec.TOWN: 1},
        7: {spec.EXPLORER: 1, spec.DAHAN: 2},
    }.items():
        for kind, count in kinds.items():
            game.pieces[land][kind] = count
    game.presence[0] = [0] * len(game.lands)
    game.presence[0][2] = game.presence[0][4] = 1
    return game


def summary(game: SpiritIslandGame) -> dict[str, int]:
    out: dict[str, int] = {"energy": game.energy[0], "forgotten": len(game.forgotten)}
    for land in game.lands:
        name = spec.land_name(land)
        row = game.pieces[land]
        out[f"{name} E"] = row[spec.EXPLORER]
        out[f"{name} T"] = row[spec.TOWN] + row[spec.TOWN_1]
        out[f"{name} D"] = row[spec.DAHAN] + row[spec.DAHAN_1]
        out[f"{name} def"] = game.defend[land]
        out[f"{name} skip"] = game.skips[land]
        out[f"P {name}"] = game.presence[0][land]
    return out


def apply(effect: tuple) -> dict[str, int]:
    game = prepared()
    before = summary(game)
    game.pending, game.pending_options = [], []
    game.queue = [[STEP["turn"]], [STEP["effect"], spec.block_of(effect), 0, -1, 0, -1]]
    game.run()
    while game.pending and PURPOSE_NAMES[game.pending[2]] != "growth":
        game.apply(game.legal_actions()[0])
    assert not game.outcome, game.end_reason
    after = summary(game)
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


def test_the_fear_deck_and_blight_cards_are_complete() -> None:
    assert sorted(FEAR_LEVEL_1) == sorted(name for name, _ in spec.FEAR_CARDS)
    assert all(len(tiers) == 3 and all(tiers) for _, tiers in spec.FEAR_CARDS)
    assert sorted(BLIGHTED_ISLAND) == sorted(name for name, _, _ in spec.BLIGHT_CARDS)
    assert "first game" in spec.BLIGHT_CARDS[spec.FIRST_GAME_BLIGHT][0]


@pytest.mark.parametrize("name", list(FEAR_LEVEL_1))
def test_each_fear_card_at_terror_level_1(name: str) -> None:
    tiers = dict(spec.FEAR_CARDS)[name]
    assert apply(tiers[0]) == FEAR_LEVEL_1[name]


@pytest.mark.parametrize("level", [2, 3])
@pytest.mark.parametrize("name", list(FEAR_LEVEL_1))
def test_each_fear_card_at_terror_levels_2_and_3(name: str, level: int) -> None:
    tiers = dict(spec.FEAR_CARDS)[name]
    expected = (FEAR_LEVEL_2 if level == 2 else FEAR_LEVEL_3)[name]
    assert apply(tiers[level - 1]) == expected


@pytest.mark.parametrize("name", list(BLIGHTED_ISLAND))
def test_each_blight_cards_effect(name: str) -> None:
    effect = next(e for n, _, e in spec.BLIGHT_CARDS if n == name)
    assert apply(effect) == BLIGHTED_ISLAND[name]
