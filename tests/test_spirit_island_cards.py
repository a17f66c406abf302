"""Every unique Power card applied once in one prepared state, its outcome written from its
text (the Minor and Major Powers: ``test_spirit_island_published_effects.py``).

The state: 2 players (River on board A, Lightning on board B). The target land is A5 (an
inland Wetland) with 2 Explorers, 1 Town, 1 City, 2 Dahan and 1 Blight; its neighbour A6
holds 1 Explorer and 1 Dahan, A1 a City, A8 2 of River's Presence (River also has 1 in A5).
River uses the card with no Elements (so no "if you have" bonus applies); a card targeting a
Spirit targets Lightning, who has played 2 cards. Every choice takes the first legal option:
Damage goes to Explorers, then Towns, then Cities; pushes go to A1 (A5's lowest-numbered
neighbour); gathers come from A6; a cascade goes to A1; a choice takes its first effect.

Each row is what the card's text does there, counted by hand: E/T/C/D Explorers, healthy
Towns, healthy Cities, Dahan in A5 (t, c: damaged Towns and Cities); B Blight in A5, Bx
elsewhere; oE/oT/oD Explorers, Towns and Dahan outside A5; fear generated; en0/en1 the two
Spirits' Energy; def Defend in A5; skip its flags (Ravage 1, Build 2, Explore 4, Dahan spared
8); iso Isolated; P River's Presence in A5; hasten Lightning's Slow-as-Fast allowance.
"""

from __future__ import annotations

from typing import Any

import pytest

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.rules import PURPOSE_NAMES, STEP, SpiritIslandGame
from tabletop_envs.spirit_island.spec import BLIGHT, CITY, CITY_1, CITY_2, DAHAN, DAHAN_1

A1, A5, A6, A8 = 0, 4, 5, 7

EXPECTED: dict[str, dict[str, int]] = {
    # River Surges in Sunlight
    "Boon of Vigor": {"en1": 2},  # another Spirit: 1 Energy per card it played
    "Flash Floods": {"E": -1},  # 1 Damage (inland: no more)
    "River's Bounty": {"D": 2, "oD": -1, "en0": 1},  # gather 1 (all there is); 2+: +1, +1 E
    "Wash Away": {"E": -2, "T": -1, "oE": 2, "oT": 1},  # push up to 3 Explorers / Towns
    # Lightning's Swift Strike
    "Harbingers of the Lightning": {"D": -2, "oD": 2, "fear": 1},  # push 2 Dahan; a Town: 1
    "Lightning's Boon": {"hasten": 2},
    "Raging Storm": {"E": -2, "T": -1, "t": 1, "C": -1, "c": 1},  # 1 Damage to each
    "Shatter Homesteads": {"T": -1, "fear": 2},  # 1 Fear, destroy a Town (1 more)
    # Vital Strength of the Earth
    "Guard the Healing Land": {"B": -1, "def": 4},
    "A Year of Perfect Stillness": {"skip": 7},
    "Rituals of Destruction": {"E": -2},  # 2 Damage; only 2 Dahan, no more
    "Draw of the Fruitful Earth": {"E": 1, "oE": -1, "D": 1, "oD": -1},
    # Shadows Flicker Like Flame
    "Mantle of Dread": {"fear": 2},  # Lightning has no Presence with Invaders: no push
    "Favors Called Due": {"D": 1, "oD": -1},  # 3 Dahan do not outnumber 4 Invaders
    "Crops Wither and Fade": {"fear": 2, "T": -1, "E": 1},  # a Town becomes an Explorer
    "Concealing Shadows": {"fear": 1, "skip": 8},
}


def prepared() -> SpiritIslandGame:
    game = SpiritIslandGame(2, seed=0, spirits="river,lightning")
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    row = game.pieces[A5]
    row[spec.EXPLORER], row[spec.TOWN], row[CITY], row[DAHAN], row[BLIGHT] = 2, 1, 1, 2, 1
    game.pieces[A6][spec.EXPLORER] = 1
    game.pieces[A6][DAHAN] = 1
    game.pieces[A1][CITY] = 1
    game.presence[0] = [0] * len(game.lands)
    game.presence[0][A5], game.presence[0][A8] = 1, 2
    game.energy = [10, 0]
    game.elements = [[0] * len(spec.ELEMENTS) for _ in range(2)]
    game.played[1] = list(game.hand[1][:2])
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
        "oD": sum(r[DAHAN] + r[DAHAN_1] for r in outside),
        "fear": -game.fear_pool + 8 * game.cards_earned(),
        "en0": game.energy[0],
        "en1": game.energy[1],
        "def": game.defend[A5],
        "skip": game.skips[A5],
        "iso": int(game.isolated[A5]),
        "P": game.presence[0][A5],
        "hasten": game.hasten[1],
    }


def test_every_unique_power_has_an_expected_outcome() -> None:
    uniques = [spec.CARDS[c].name for s in spec.SPIRITS for c in s.uniques]
    assert sorted(EXPECTED) == sorted(uniques) and len(uniques) == 16


@pytest.mark.parametrize("name", list(EXPECTED))
def test_each_card_does_what_its_text_says(name: str) -> None:
    card = next(c for c in spec.CARDS if c.name == name)
    game = prepared()
    before = summary(game)
    target = 1 if card.target == spec.TARGETS_SPIRIT else -1
    land = -1 if card.target == spec.TARGETS_SPIRIT else A5
    game.pending, game.pending_options = [], []
    game.queue = [[STEP["turn"]], [STEP["effect"], spec.block_of(card.effect), 0, land, 0, target]]
    game.run()
    while game.pending and PURPOSE_NAMES[game.pending[2]] != "growth":
        game.apply(game.legal_actions()[0])
    assert not game.outcome, game.end_reason
    after = summary(game)
    changes: dict[str, Any] = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert changes == EXPECTED[name]
