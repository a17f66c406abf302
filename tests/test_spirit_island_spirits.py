"""The four Spirits: each one's setup, growth options and special rules, and the effects
their cards brought into the language (Slow Powers used as Fast, repeating a Power, Dahan
spared from a Ravage, a Spirit acting in a land of its own, paying to reach Dahan)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.effects import res_target_land
from tabletop_envs.spirit_island.rules import PURPOSE_NAMES, STEP, SpiritIslandGame

A = {f"A{n}": n - 1 for n in range(1, 9)}


def card(name: str) -> int:
    return next(i for i, c in enumerate(spec.CARDS) if c.name == name)


def option(game: SpiritIslandGame, purpose: str, value: int) -> None:
    assert PURPOSE_NAMES[game.pending[2]] == purpose, PURPOSE_NAMES[game.pending[2]]
    assert value in game.legal_options(), (value, game.legal_options())
    game.apply(spec.LAYOUT.segment_of(game.pending_kind()).offset + value)


def solo(spirit: str, seed: int = 0) -> SpiritIslandGame:
    return SpiritIslandGame(1, seed=seed, spirits=spirit)


def steps(game: SpiritIslandGame, *queued: list[int]) -> None:
    """Run ``queued`` (the first runs first) and then the game on to its next choice."""
    game.pending, game.pending_options = [], []
    game.queue = [[STEP["turn"]], *reversed(queued)]
    game.run()


def effect(name: str, land: int, seat: int, target: int) -> list[int]:
    return [STEP["effect"], spec.block_of(spec.CARDS[card(name)].effect), 0, land, seat, target]


def empty_island(game: SpiritIslandGame) -> None:
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    game.pieces[A["A1"]][spec.CITY] = 1  # an Invader far away: no victory yet
    game.pending, game.pending_options = [], []


@pytest.mark.parametrize(
    ("spirit", "setup"),
    [
        ("river", {"A5": 1}),  # 1 in the highest-numbered Wetland
        ("lightning", {"A7": 2}),  # 2 in the highest-numbered Sands
        ("earth", {"A6": 2, "A8": 1}),  # 2 in the highest Mountain, 1 in the highest Jungle
        ("shadows", {"A8": 2, "A5": 1}),  # 2 in the highest Jungle, 1 in land 5
    ],
)
def test_each_spirit_sets_up_on_its_board(spirit: str, setup: dict[str, int]) -> None:
    game = solo(spirit)
    assert {f"A{x + 1}": n for x, n in enumerate(game.presence[0]) if n} == setup
    assert sorted(game.hand[0]) == sorted(game.spirit(0).uniques)
    assert len(game.spirit(0).uniques) == 4 and len(game.spirit(0).innates) == 1
    assert not list(game.check_invariants())


GROWTH = {
    "river": ["reclaim all cards, gain a Power card, gain 1 Energy",
              "add a Presence within range 1, add a Presence within range 1",
              "gain a Power card, add a Presence within range 2"],
    "lightning": ["reclaim all cards, gain a Power card, gain 1 Energy",
                  "add a Presence within range 2, add a Presence within range 0",
                  "add a Presence within range 1, gain 3 Energy"],
    "earth": ["reclaim all cards, add a Presence within range 2",
              "gain a Power card, add a Presence within range 0",
              "add a Presence within range 1, gain 2 Energy"],
    "shadows": ["reclaim all cards, gain a Power card",
                "gain a Power card, add a Presence within range 1",
                "add a Presence within range 3, gain 3 Energy"],
}  # fmt: skip
FIRST_ENERGY = {"river": 1, "lightning": 1, "earth": 2, "shadows": 0}


@pytest.mark.parametrize("spirit", sorted(GROWTH))
def test_growth_options_and_the_energy_and_presence_they_give(spirit: str) -> None:
    game = solo(spirit)
    growth = spec.LAYOUT.segment_of(spec.Decision.GROWTH).offset
    assert PURPOSE_NAMES[game.pending[2]] == "growth"
    assert game.legal_options() == [0, 1, 2]
    assert [game.action_to_str(growth + g).removeprefix("grow: ") for g in range(3)] == GROWTH[
        spirit
    ]
    # the last group adds a Presence (and, but for River, gains Energy)
    group = game.spirit(0).growth[2]
    before = sum(game.presence[0])
    option(game, "growth", 2)
    while PURPOSE_NAMES[game.pending[2]] in ("growth_step", "track", "presence_land", "deck",
                                             "keep"):  # fmt: skip
        game.apply(game.legal_actions()[0])
    assert sum(game.presence[0]) == before + 1
    energy = sum(amount for action, amount in group if action == "energy")
    # Energy: the growth's, then the track's next uncovered space or the first one
    track = game.spirit(0).energy_track
    assert game.energy[0] == energy + track[game.energy_track[0]]
    assert track[0] == FIRST_ENERGY[spirit]


def test_spirits_by_seat_and_no_spirit_twice() -> None:
    game = SpiritIslandGame(4, seed=0)
    names = [game.spirit(s).name for s in range(4)]
    assert names == ["River Surges in Sunlight", "Lightning's Swift Strike",
                     "Vital Strength of the Earth", "Shadows Flicker Like Flame"]  # fmt: skip
    game = SpiritIslandGame(2, seed=0, spirits="shadows, earth")
    assert [game.spirit(s).special for s in range(2)] == ["shadows", "vitality"]
    with pytest.raises(ValueError, match="give 2 different Spirit"):
        SpiritIslandGame(2, seed=0, spirits="earth,earth")


def test_lightning_uses_one_slow_power_as_fast_per_air() -> None:
    game = solo("lightning")
    empty_island(game)
    storm, shatter = card("Raging Storm"), card("Shatter Homesteads")
    game.hand[0] = [c for c in game.hand[0] if c not in (storm, shatter)]
    game.played[0] = [storm, shatter]
    game.elements[0][spec.ELEMENT_INDEX["air"]] = 1  # one Air: one Slow Power as Fast
    game.pieces[A["A7"]][spec.EXPLORER] = 2
    game.queue = [[STEP["turn"]], [STEP["powers_start"], spec.FAST]]
    game.run()
    assert set(game.legal_options()) >= {storm, shatter}
    option(game, "power", storm)
    if game.pending and PURPOSE_NAMES[game.pending[2]] == "target_land":
        option(game, "target_land", A["A7"])
    assert game.pieces[A["A7"]][spec.EXPLORER] == 0  # 1 Damage to each Invader
    assert game.hastened[0] == [storm]
    assert game.swift_left(0) == 0  # the one Air is spent: no more Slow Powers as Fast


def test_lightnings_boon_lets_another_spirit_hasten_two_slow_powers() -> None:
    game = SpiritIslandGame(2, seed=0, spirits="lightning,earth")
    steps(game, effect("Lightning's Boon", -1, 0, 1))
    assert game.hasten[1] == 2 and game.swift_left(1) == 2


def test_vital_strength_defends_3_in_its_sacred_sites() -> None:
    game = solo("earth")
    empty_island(game)
    assert A["A6"] in game.sacred_sites(0)  # 2 Presence at setup
    game.pieces[A["A6"]][spec.TOWN] = 1
    game.pieces[A["A6"]][spec.EXPLORER] = 1  # 3 Damage, less Defend 3: none
    game.pieces[A["A6"]][spec.DAHAN] = 1
    steps(game, [STEP["ravage_land"], A["A6"]])
    assert game.pieces[A["A6"]][spec.BLIGHT] == 0 and game.pieces[A["A6"]][spec.DAHAN] == 1


def test_gift_of_strength_repeats_a_cheap_card() -> None:
    game = solo("earth")
    empty_island(game)
    draw = card("Draw of the Fruitful Earth")  # cost 1
    game.hand[0].remove(draw)
    game.played[0] = [draw]
    game.resolved[0] = [draw]  # already resolved this turn
    game.elements[0] = [0] * len(spec.ELEMENTS)
    for element, count in (("sun", 1), ("earth", 2), ("plant", 2)):
        game.elements[0][spec.ELEMENT_INDEX[element]] = count
    game.queue = [[STEP["turn"]], [STEP["powers_start"], spec.FAST]]
    game.run()
    gift = spec.MAX_CARDS  # the innate; it targets a Spirit, here the only one
    assert game.legal_options() == [gift, spec.POWER_PASS] or game.repeat_cost[0] == 1
    if game.pending and game.legal_options() == [gift, spec.POWER_PASS]:
        option(game, "power", gift)
    assert game.repeat_cost[0] == 1
    assert draw in game.legal_options()  # Draw of the Fruitful Earth, again
    option(game, "power", draw)
    assert game.repeat_cost[0] == -1  # the repeat is spent


def test_shadows_pays_1_energy_to_reach_dahan_beyond_range() -> None:
    game = solo("shadows")
    empty_island(game)
    favors = card("Favors Called Due")  # range 1
    game.pieces[A["A3"]][spec.DAHAN] = 2  # A3: 2 steps from A5, 3 from A8
    game.energy[0] = 1
    assert A["A3"] in game.targets(0, favors)
    assert game.shadows_pay(0, favors, A["A3"]) and not game.shadows_pay(0, favors, A["A4"])
    res_target_land(game, 0, A["A3"], favors)
    assert game.energy[0] == 0
    assert A["A3"] not in game.targets(0, favors)  # no Energy left to pay


def test_concealing_shadows_spares_the_dahan_but_not_the_land() -> None:
    game = solo("shadows")
    empty_island(game)
    land = A["A5"]
    game.pieces[land][spec.TOWN] = 1
    game.pieces[land][spec.DAHAN] = 1
    fear = game.fear_pool
    steps(game, effect("Concealing Shadows", land, 0, -1), [STEP["ravage_land"], land])
    assert game.fear_pool == fear - 2  # 1 from the card, 1 from the Town the Dahan destroy
    assert game.pieces[land][spec.BLIGHT] == 1  # the land still takes 2 Damage
    # the Dahan took none and fight back: 2 Damage to the Town
    assert game.pieces[land][spec.TOWN] == 0 and game.pieces[land][spec.DAHAN] == 1


def test_mantle_of_dread_lets_the_target_push_from_its_own_land() -> None:
    game = solo("shadows")
    empty_island(game)
    game.pieces[A["A8"]][spec.EXPLORER] = 1  # Shadows has Presence in A8
    game.pieces[A["A3"]][spec.EXPLORER] = 1  # and none in A3
    steps(game, effect("Mantle of Dread", -1, 0, 0))
    assert game.fear_pool == 4 - 2
    # A8 is the only land with both its Presence and Invaders: taken at once
    assert PURPOSE_NAMES[game.pending[2]] == "push_piece"
    option(game, "push_piece", spec.EXPLORER)
    option(game, "push_dest", A["A7"])
    assert game.pieces[A["A7"]][spec.EXPLORER] == 1 and game.pieces[A["A3"]][spec.EXPLORER] == 1


def test_a_land_picked_for_mantle_of_dread_is_a_valid_saved_position() -> None:
    """A pending pick of the target's own land (an ``own_land`` operation) keeps every
    invariant and survives a save (v0 refused it as a mismatched operation)."""
    game = solo("shadows")
    empty_island(game)
    game.presence[0][A["A3"]] += 1
    game.energy_track[0] += 1  # the Presence came from the Energy track
    game.pieces[A["A8"]][spec.EXPLORER] = 1
    game.pieces[A["A3"]][spec.EXPLORER] = 1
    steps(game, effect("Mantle of Dread", -1, 0, 0))
    assert PURPOSE_NAMES[game.pending[2]] == "spirit_land"
    assert game.legal_options() == [A["A3"], A["A8"]]
    assert not list(game.check_invariants())
    assert SpiritIslandGame.from_json(game.to_json()).legal_options() == [A["A3"], A["A8"]]


def test_the_teaching_game_gains_powers_from_the_progression_in_order() -> None:
    game = SpiritIslandGame(2, seed=0, teaching=True)
    assert game.blight_card == spec.FIRST_GAME_BLIGHT  # "A Fragile Balance (first game)"
    river = [spec.CARDS[c].name for c in game.progression[0]]
    assert river[:4] == [
        "Uncanny Melting",
        "Nature's Resilience",
        "Pull Beneath the Hungry Earth",
        "Accelerated Rot",
    ]
    for seat in range(2):  # the progression cards are set aside from the decks
        assert not set(game.progression[seat]) & set(game.minor_deck + game.major_deck)
    game.pending, game.pending_options = [], []
    game.queue = [[STEP["turn"]], [STEP["gain"], 0]]
    game.run()
    assert spec.CARDS[game.hand[0][-1]].name == "Uncanny Melting"  # no draw, no choice
    assert not list(game.check_invariants())
    # the fourth is a Major: gaining it forgets a card
    game.progression[0] = game.progression[0][2:]
    steps(game, [STEP["gain"], 0])
    assert PURPOSE_NAMES[game.pending[2]] == "forget"
    with pytest.raises(ValueError, match="teaching=True"):
        SpiritIslandGame(1, seed=0, teaching=True, blight_card="downward_spiral")


def test_teaching_games_play_to_the_end() -> None:
    for seed in range(20):
        game = SpiritIslandGame(1 + seed % 4, seed=seed, teaching=True)
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            game.apply(int(rng.choice(game.legal_actions())))
        assert not list(game.check_invariants())


PRINTED_ROW = re.compile(
    r"^\s*\| ([^|]+?) \| (river|lightning|earth|shadows) \| (\w+) \| (fast|slow) \| ([^|]+?) \| "
    r"(\w+) \|$"
)


def printed_table() -> list[tuple[str, ...]]:
    """The uniques and innates table of docs/rules/spirit_island.md, row by row."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "rules" / "spirit_island.md").read_text()
    return [match.groups() for line in page.splitlines() if (match := PRINTED_ROW.match(line))]


def test_uniques_and_innates_follow_the_printed_table_in_the_docs() -> None:
    """Cost, speed, range and its source, and target of every unique and innate Power are
    those the docs table gives (so the data and the docs cannot drift apart)."""
    rows = printed_table()
    expected = {
        (spirit.name, power.name)
        for spirit in spec.SPIRITS
        for power in [*(spec.CARDS[u] for u in spirit.uniques), *spirit.innates]
    }
    assert len(rows) == len(expected) == 20
    for name, key, cost, speed, reach, target in rows:
        spirit = spec.SPIRITS[spec.SPIRIT_KEYS.index(key)]
        powers = {p.name: p for p in [*(spec.CARDS[u] for u in spirit.uniques), *spirit.innates]}
        power = powers[name]
        assert (spirit.name, name) in expected
        assert cost == ("innate" if power in spirit.innates else str(power.cost)), name
        assert power.speed == (spec.FAST if speed == "fast" else spec.SLOW), name
        if target == "spirit":
            assert power.target == spec.TARGETS_SPIRIT and reach == "-", name
            continue
        source, distance = reach.split()
        assert (power.source_sacred, power.range) == (source == "sacred", int(distance)), name
        conditions = {"any": (), "dahan": (("dahan", 1),), "invaders": (("invaders",),)}
        assert power.filter == conditions[target], name


@pytest.mark.parametrize(("explorers", "destroyed"), [(1, 1), (3, 2)])
def test_darkness_swallows_gives_1_fear_per_explorer_its_second_tier_destroys(
    explorers: int, destroyed: int
) -> None:
    """3 Moon 2 Fire: destroy up to 2 Explorers, 1 Fear for each (the first tier's gather
    finds none to bring: no Explorer next to the land)."""
    game = solo("shadows")
    empty_island(game)
    land = A["A8"]
    game.pieces[land][spec.EXPLORER] = explorers
    game.elements[0][spec.ELEMENT_INDEX["moon"]] = 3
    game.elements[0][spec.ELEMENT_INDEX["fire"]] = 2
    innate = spec.MAX_CARDS + 0
    assert land in game.targets(0, innate)  # A8 holds 2 of Shadows' Presence: a Sacred Site
    game.pending, game.pending_options = [], []
    game.queue = [[STEP["turn"]]]
    res_target_land(game, 0, land, innate)
    game.run()
    assert game.pieces[land][spec.EXPLORER] == explorers - destroyed
    assert game.fear_pool == spec.FEAR_PER_PLAYER - destroyed


PUBLISHED_PROGRESSIONS = {
    "earth": (
        "Rouse the Trees and Stones",
        "Call to Migrate",
        "Poisoned Land",
        "Devouring Ants",
        "Vigor of the Breaking Dawn",
        "Voracious Growth",
        "Savage Mawbeasts",
    ),
    "shadows": (
        "Dark and Tangled Woods",
        "Shadows of the Burning Forest",
        "The Jungle Hungers",
        "Land of Haunts and Embers",
        "Terrifying Nightmares",
        "Call of the Dahan Ways",
        "Visions of Fiery Doom",
    ),
}
"""Vital Strength's and Shadows' published Power Progressions (ruling 28's source), in order."""


@pytest.mark.parametrize("key", sorted(PUBLISHED_PROGRESSIONS))
def test_the_teaching_game_gains_the_published_progression(key: str) -> None:
    """A teaching game of the Spirit sets its published progression aside and gains it in
    order: 2 Majors among 7, and Powers with Fear among them."""
    game = SpiritIslandGame(1, seed=0, teaching=True, spirits=key)
    names = tuple(spec.CARDS[c].name for c in game.progression[0])
    assert names == PUBLISHED_PROGRESSIONS[key]
    assert sum(spec.CARDS[c].kind == spec.MAJOR for c in game.progression[0]) == 2
    fear = [
        c
        for c in game.progression[0]
        if any(op[0] == "fear" for op in spec._flat_ops(spec.CARDS[c].effect))
    ]
    assert len(fear) >= 3
