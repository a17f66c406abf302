"""Spirit Island: the Spirit Phase, Fast and Slow Powers, gaining Powers and Time Passes, as
masked primitive decisions."""

from __future__ import annotations

import pytest

from tabletop_envs.spirit_island import phases, spec
from tabletop_envs.spirit_island.rules import PURPOSE_NAMES, SpiritIslandGame
from tabletop_envs.spirit_island.spec import (
    CARD_DONE,
    DAHAN,
    EXPLORER,
    POWER_PASS,
    TOWN,
    Decision,
)

A = {f"A{n}": n - 1 for n in range(1, 9)}


def card_named(name: str) -> int:
    return next(i for i, card in enumerate(spec.CARDS) if card.name == name)


def purpose(game: SpiritIslandGame) -> str:
    return PURPOSE_NAMES[game.pending[2]]


def choose(game: SpiritIslandGame, option: int, expect: str | None = None) -> None:
    if expect is not None:
        assert purpose(game) == expect, (purpose(game), expect)
    assert option in game.legal_options(), (purpose(game), option, game.legal_options())
    game.apply(spec.LAYOUT.segment_of(game.pending_kind()).offset + option)


def test_growth_adds_presence_from_a_track_within_range() -> None:
    game = SpiritIslandGame(1, seed=0)
    assert purpose(game) == "growth" and game.legal_options() == [0, 1, 2]
    choose(game, 1)  # two Presence at range 1: the same action twice, taken at once
    choose(game, 0, "track")  # from the Energy track
    assert purpose(game) == "presence_land"
    assert game.legal_options() == [A["A1"], A["A4"], A["A5"], A["A6"], A["A7"], A["A8"]]
    choose(game, A["A7"])
    choose(game, 1, "track")  # from the card-play track
    choose(game, A["A8"], "presence_land")
    assert game.energy_track[0] == 1 and game.card_track[0] == 1
    assert game.presence[0][A["A7"]] == game.presence[0][A["A8"]] == 1
    # Gain Energy: the highest uncovered number (2); then play up to 2 cards
    assert game.energy[0] == 2 and game.plays_left[0] == 2
    assert purpose(game) == "play"


def test_playing_cards_pays_energy_and_gains_elements_at_once() -> None:
    game = SpiritIslandGame(1, seed=0)
    choose(game, 1)
    choose(game, 1, "track")
    choose(game, A["A7"], "presence_land")
    choose(game, 1, "track")
    choose(game, A["A8"], "presence_land")
    assert game.card_plays(0) == 2 and game.energy[0] == 1
    flash = card_named("Flash Floods")  # costs 2: not affordable with 1 Energy
    wash = card_named("Wash Away")
    assert flash not in game.legal_options()
    choose(game, wash, "play")
    assert game.energy[0] == 0 and game.played[0] == [wash]
    assert game.elements[0][spec.ELEMENT_INDEX["earth"]] == 1
    choose(game, card_named("Boon of Vigor"), "play")
    assert game.plays_left[0] == 0
    # no plays left: the Spirit Phase ends without asking (only "done" was legal)
    assert purpose(game) != "play"


def test_gaining_a_power_draws_four_and_keeps_one_hidden_until_chosen() -> None:
    game = SpiritIslandGame(1, seed=0)
    choose(game, 0)  # reclaim all, gain a Power card, +1 Energy
    assert game.legal_options() == [0, 1, 2] and purpose(game) == "growth_step"
    choose(game, 1, "growth_step")  # gain the card first
    top = game.minor_deck[:4]
    choose(game, 0, "deck")  # a Minor
    assert purpose(game) == "keep" and game.drawn == top and game.drawn_by == 0
    choose(game, 2, "keep")
    assert top[2] in game.hand[0] and game.minor_discard == [top[0], top[1], top[3]]
    assert game.drawn == [] and game.drawn_by == -1


def test_a_major_power_also_forgets_a_card() -> None:
    game = SpiritIslandGame(1, seed=0)
    choose(game, 0)
    choose(game, 1, "growth_step")
    top = game.major_deck[:4]
    choose(game, 1, "deck")
    choose(game, 0, "keep")
    assert purpose(game) == "forget"
    boon = card_named("Boon of Vigor")
    choose(game, boon)
    assert boon not in game.hand[0] and boon in game.forgotten and top[0] in game.hand[0]


def resolve_to_powers(game: SpiritIslandGame, cards: list[int]) -> None:
    """From a game's first decision: growth group 1 at A5, energy for the cards, play them."""
    choose(game, 1)
    choose(game, 1, "track")
    choose(game, A["A5"], "presence_land")
    choose(game, 1, "track")
    choose(game, A["A5"], "presence_land")
    for card in cards:
        if card not in game.hand[0]:
            (game.minor_deck if card in game.minor_deck else game.major_deck).remove(card)
            game.hand[0].append(card)
    game.energy[0] = 10
    game.plays_left[0] = len(cards)
    game.pending_options = phases.opt_play(game, 0)
    for card in cards:
        choose(game, card, "play")
    if purpose(game) == "play":
        choose(game, CARD_DONE)


def test_the_rulebooks_fast_power_example() -> None:
    """Two players in the rulebook; here the one Spirit plays the Fast Powers of both, which
    reproduces the same position and order with published cards (ruling 20): Lure of the
    Unknown gathers an Explorer into a land, then Enticing Splendor (range 0, no Blight)
    gathers a Dahan there and Veil the Night's Hunt has that Dahan destroy the Explorer."""
    game = SpiritIslandGame(1, seed=0)
    lure, splendor, veil = (
        card_named(name)
        for name in ("Lure of the Unknown", "Enticing Splendor", "Veil the Night's Hunt")
    )
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    game.pieces[A["A1"]][spec.CITY] = 1
    game.pieces[A["A4"]][EXPLORER] = 1
    game.pieces[A["A7"]][DAHAN] = 1
    resolve_to_powers(game, [lure, splendor, veil])
    assert purpose(game) == "power"
    assert set(game.legal_options()) == {lure, splendor, veil, POWER_PASS}
    choose(game, lure)
    choose(game, A["A5"], "target_land")  # a land without Invaders
    assert game.pieces[A["A5"]][EXPLORER] == 1  # gathered from A4, the only source
    choose(game, splendor, "power")  # range 0: A5, the Spirit's one land, is its target
    choose(game, 1, "choose")  # gather up to 2 Dahan
    choose(game, DAHAN, "gather_piece")
    assert game.pieces[A["A5"]][DAHAN] == 1 and game.pieces[A["A7"]][DAHAN] == 0
    choose(game, veil, "power")
    choose(game, 0, "choose")  # each Dahan deals 1 Damage to a different Invader
    land = game.pieces[A["A5"]]
    assert land[DAHAN] == 1 and land[EXPLORER] == 0


def test_massive_flooding_uses_the_highest_tier_met() -> None:
    game = SpiritIslandGame(1, seed=0)
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    game.pieces[A["A1"]][spec.CITY] = 1
    game.pieces[A["A6"]][EXPLORER] = 2
    game.pieces[A["A6"]][TOWN] = 1
    flash, bounty = card_named("Flash Floods"), card_named("River's Bounty")
    resolve_to_powers(game, [flash, bounty])  # sun 2, water 2, plant 0: tier 1 only
    assert game.elements[0][spec.ELEMENT_INDEX["sun"]] == 2
    # Fast: Flash Floods; pass it
    choose(game, POWER_PASS, "power")
    # Invader Phase runs; Slow Powers: River's Bounty and Massive Flooding (range 1 from
    # a Sacred Site: A5 holds two Presence, and River's Wetland Presence count anyway)
    while purpose(game) != "power":
        choose(game, game.legal_options()[0])
    innate = spec.MAX_CARDS
    assert innate in game.legal_options()
    assert game.innate_tiers(0, game.power_of(0, innate)) == [0]
    choose(game, innate)
    if purpose(game) == "target_land":
        choose(game, A["A6"])
    # tier 1: Push 1 Explorer or Town
    assert purpose(game) in ("push_piece", "push_dest")


def test_skipping_powers_and_time_passes() -> None:
    game = SpiritIslandGame(1, seed=0)
    flash = card_named("Flash Floods")
    resolve_to_powers(game, [flash])
    choose(game, POWER_PASS, "power")  # skipping a Power is always allowed
    while game.turn == 1 and not game.is_terminal:
        choose(game, game.legal_options()[-1])
    # Time Passes: the played card is discarded, elements cleared, damage healed
    assert flash in game.discard[0] and game.played[0] == []
    assert sum(game.elements[0]) == 0
    assert all(row[spec.TOWN_1] == 0 and row[spec.DAHAN_1] == 0 for row in game.pieces)


def test_a_power_without_a_legal_target_is_not_offered() -> None:
    game = SpiritIslandGame(1, seed=0)
    gift = card_named("Veil the Night's Hunt")  # targets a land with Dahan: none left
    for row in game.pieces:
        row[DAHAN] = row[spec.DAHAN_1] = 0
    resolve_to_powers(game, [gift])
    assert not game.usable(0, gift)
    assert purpose(game) != "power" or gift not in game.legal_options()
    flooding = spec.MAX_CARDS  # Massive Flooding needs 1 Sun 2 Water: not met
    assert not game.usable(0, flooding)


def test_reclaim_one_on_the_card_track() -> None:
    game = SpiritIslandGame(1, seed=0)
    game.card_track[0] = 4  # "Reclaim One" uncovered (4 Presence taken from the track)
    game.presence[0][A["A6"]] = 4
    game.discard[0] = [game.hand[0].pop()]
    phases.step_energy(game, 0)
    assert game.queue[-1][1:] == [0] and game.card_plays(0) == 3


@pytest.mark.parametrize("seed", range(3))
def test_every_decision_names_one_seat_and_segment(seed: int) -> None:
    import numpy as np

    game = SpiritIslandGame(1, seed=seed)
    rng = np.random.default_rng(seed)
    kinds = set()
    while not game.is_terminal:
        kinds.add(Decision(game.pending_kind()))
        mask = game.legal_mask()
        segment = spec.LAYOUT.segment_of(game.pending_kind())
        assert mask[: segment.offset].sum() == 0
        assert mask[segment.offset + segment.size :].sum() == 0
        game.apply(int(rng.choice(game.legal_actions())))
    assert Decision.GROWTH in kinds and Decision.CARD in kinds


def test_a_power_that_clears_the_island_wins_at_once() -> None:
    game = SpiritIslandGame(1, seed=0)
    flash = card_named("Flash Floods")
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    game.pieces[A["A4"]][EXPLORER] = 1
    game.pieces[A["A4"]][spec.BLIGHT] = 1
    resolve_to_powers(game, [flash])
    slots = list(game.invader_slots)
    choose(game, flash, "power")
    if not game.is_terminal:
        choose(game, A["A4"], "target_land")
    assert game.is_terminal and list(game.returns()) == [1.0]
    assert "no Invaders" in game.end_reason and game.invader_slots == slots
