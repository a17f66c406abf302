"""Every Blight card's effect applied once in one prepared island, its outcome written by hand
from the card's text (the Fear cards, at each Terror Level, on the same island:
``test_spirit_island_published_effects.py``).

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
from tabletop_envs.spirit_island import published, spec
from tabletop_envs.spirit_island.rules import PURPOSE_NAMES, STEP, SpiritIslandGame

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


def test_the_fear_deck_is_the_published_one_and_the_blight_cards_are_complete() -> None:
    assert [name for name, _ in spec.FEAR_CARDS] == [name for name, _ in published.FEAR_CARDS]
    assert len(spec.FEAR_CARDS) == 15
    assert all(len(tiers) == 3 and all(tiers) for _, tiers in spec.FEAR_CARDS)
    assert sorted(BLIGHTED_ISLAND) == sorted(name for name, _, _ in spec.BLIGHT_CARDS)
    assert "first game" in spec.BLIGHT_CARDS[spec.FIRST_GAME_BLIGHT][0]


@pytest.mark.parametrize("name", list(BLIGHTED_ISLAND))
def test_each_blight_cards_effect(name: str) -> None:
    effect = next(e for n, _, e in spec.BLIGHT_CARDS if n == name)
    assert apply(effect) == BLIGHTED_ISLAND[name]
