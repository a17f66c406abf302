"""Spirit Island: the data checks and the rulebook's worked examples, step by step.

The game is not registered yet (it is built in layers), so these tests import it directly.
"""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.blight_fear import add_fear
from tabletop_envs.spirit_island.effect_language import OPS
from tabletop_envs.spirit_island.effects import OPERATIONS
from tabletop_envs.spirit_island.invaders import explore_lands
from tabletop_envs.spirit_island.rules import (
    DECISIONS,
    STEP,
    STEP_HANDLERS,
    STEP_RUN,
    SpiritIslandGame,
)
from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    CITY,
    DAHAN,
    DAHAN_1,
    EXPLORER,
    TOWN,
    TOWN_1,
    CardError,
    Decision,
)

A = {f"A{n}": n - 1 for n in range(1, 9)}


def card_named(name: str) -> int:
    return next(i for i, card in enumerate(spec.CARDS) if card.name == name)


def invader_card(stage: int, *terrains: int) -> int:
    return next(
        i
        for i, card in enumerate(spec.INVADER_CARDS)
        if card.stage == stage and card.terrains == terrains
    )


def quiet_game(seed: int = 0, **options: object) -> SpiritIslandGame:
    """A 1-player game with the island emptied, to set up a position piece by piece."""
    game = SpiritIslandGame(1, seed=seed, **options)
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    game.presence = [[0] * len(game.pieces)]
    game.presence[0][A["A5"]] = 1
    game.pieces[A["A1"]][CITY] = 1  # keeps the Terror Level 1 victory away
    return game


def run_steps(game: SpiritIslandGame, *steps: list[int]) -> None:
    """Run the given steps (first listed runs first) and whatever they push, stopping at a
    decision, as the engine does."""
    game.pending, game.pending_options = [], []
    saved = game.queue
    game.queue = [list(step) for step in reversed(steps)]
    while game.queue and not game.pending and not game.outcome:
        step = game.queue.pop()
        STEP_RUN[step[0]](game, *step[1:])
        game.check_end()
    rest = game.queue
    game.queue = saved + rest


def choose(game: SpiritIslandGame, option: int) -> None:
    """Apply an option of the pending decision (inside its segment)."""
    kind = game.pending_kind()
    assert option in game.legal_options(), (option, game.legal_options())
    game.apply(spec.LAYOUT.segment_of(kind).offset + option)


# ----- data -------------------------------------------------------------------------------------
def test_board_a_matches_the_public_data_and_is_symmetric() -> None:
    board = spec.BOARDS["A"]
    assert board.terrain == (spec.M, spec.W, spec.J, spec.S, spec.W, spec.M, spec.S, spec.J)
    assert board.coastal == (True, True, True, False, False, False, False, False)
    for land, neighbours in enumerate(board.neighbours):
        for other in neighbours:
            assert land in board.neighbours[other]
    assert board.setup[A["A2"]][CITY] == 1 and board.setup[A["A2"]][DAHAN] == 1
    assert board.setup[A["A4"]][BLIGHT] == 1 and board.setup[A["A8"]][TOWN] == 1


def test_asymmetric_neighbours_are_refused_at_load() -> None:
    data = dict(spec.BOARD_DATA["A"])
    data[7] = ("S", "DD", (5,))  # A7 forgets A8, which still lists A7
    with pytest.raises(spec.BoardError, match="8 lists 7"):
        spec.load_board("broken", data)


def test_invader_cards_and_deck_build() -> None:
    stages = [card.stage for card in spec.INVADER_CARDS]
    assert len(stages) == 15 and stages.count(1) == 4 and stages.count(2) == 5
    game = SpiritIslandGame(1, seed=3)
    # after the first Explore the deck holds 2 Stage I, 4 Stage II, 5 Stage III
    deck = [spec.INVADER_CARDS[c].stage for c in game.invader_deck]
    assert deck == [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3]
    assert spec.INVADER_CARDS[game.invader_slots[1]].stage == 1


def test_fear_deck_and_blight_card_setup() -> None:
    game = SpiritIslandGame(1, seed=5)
    assert len(game.fear_deck) == 9 and len(set(game.fear_deck)) == 9
    assert len(spec.FEAR_CARDS) == 15 and all(len(t) == 3 for _, t in spec.FEAR_CARDS)
    assert game.blight_pool == 3 and not game.blighted  # 2 per player + 1
    assert game.fear_pool == 4
    assert len(spec.BLIGHT_CARDS) == 3


def test_an_unnamed_blight_card_is_one_of_the_two_published_cards() -> None:
    """Downward Spiral and Memory Fades to Dust are drawn; the first-game card only when named
    or in the teaching game."""
    drawn = {SpiritIslandGame(1, seed=seed).blight_card for seed in range(40)}
    names = {spec.BLIGHT_CARDS[card][0] for card in drawn}
    assert names == {"Downward Spiral", "Memory Fades to Dust"}
    game = SpiritIslandGame(1, seed=0)
    redrawn = {game.resample_hidden(0, np.random.default_rng(s)).blight_card for s in range(40)}
    assert redrawn == drawn
    named = SpiritIslandGame(1, seed=0, blight_card="first_game")
    assert named.blight_card == spec.FIRST_GAME_BLIGHT
    assert SpiritIslandGame(1, seed=0, teaching=True).blight_card == spec.FIRST_GAME_BLIGHT


def test_river_panel_and_card_decks() -> None:
    river = spec.SPIRITS[0]
    assert river.name == "River Surges in Sunlight"
    assert len(river.uniques) == 4 and len(river.growth) == 3
    assert river.energy_track == (1, 2, 2, 3, 4, 4, 5)
    assert river.innates[0].name == "Massive Flooding" and len(river.innates[0].tiers) == 3
    assert len(spec.MINORS) >= 12 and len(spec.MAJORS) >= 12
    game = SpiritIslandGame(1, seed=0)
    assert game.presence[0][A["A5"]] == 1  # the highest-numbered Wetland of board A


@pytest.mark.parametrize(
    ("card", "message"),
    [
        (
            {
                "name": "Bad Op",
                "cost": 1,
                "speed": "fast",
                "range": 1,
                "target": (),
                "elements": (),
                "effect": (("explode", 3),),
            },
            "Bad Op: unknown effect 'explode'",
        ),
        (
            {
                "name": "Far Reach",
                "cost": 1,
                "speed": "fast",
                "range": 9,
                "target": (),
                "elements": (),
                "effect": (("fear", 1),),
            },
            "Far Reach: bad range 9",
        ),
        (
            {
                "name": "No Cost",
                "speed": "fast",
                "range": 1,
                "target": (),
                "elements": (),
                "effect": (("fear", 1),),
            },
            r"No Cost: missing field\(s\) \['cost'\]",
        ),
        (
            {
                "name": "Odd Piece",
                "cost": 0,
                "speed": "slow",
                "range": 0,
                "target": (),
                "elements": (),
                "effect": (("push", "dragon", 1),),
            },
            "Odd Piece: unknown piece",
        ),
        (
            {
                "name": "Odd Element",
                "cost": 0,
                "speed": "slow",
                "range": 0,
                "target": (),
                "elements": ("ice",),
                "effect": (),
            },
            "Odd Element: unknown element 'ice'",
        ),
        (
            {
                "name": "Odd Speed",
                "cost": 0,
                "speed": "soon",
                "range": 0,
                "target": (),
                "elements": (),
                "effect": (),
            },
            "Odd Speed: speed must be",
        ),
    ],
)
def test_bad_cards_are_refused_naming_the_card(card: dict, message: str) -> None:
    with pytest.raises(CardError, match=message):
        spec.load_power(card, spec.MINOR)


def test_action_layout_is_sized_for_the_full_game() -> None:
    layout = spec.LAYOUT
    assert layout.segment_of(Decision.LAND).size == 32  # 4 boards of 8 lands
    assert layout.segment_of(Decision.CARD).size == spec.MAX_CARDS + 1
    assert len(spec.CARDS) <= spec.MAX_CARDS


# ----- Explore, Build --------------------------------------------------------------------------
def test_explore_on_board_a_at_setup() -> None:
    game = SpiritIslandGame(1, seed=0)
    game.pieces = [list(row) for row in spec.BOARDS["A"].setup]
    jungle = invader_card(1, spec.J)
    assert explore_lands(game, jungle) == [A["A3"], A["A8"]]  # coastal; holds the Town
    sands = invader_card(1, spec.S)
    # A4 neighbours the City in A2; A7 neighbours the Town in A8
    assert explore_lands(game, sands) == [A["A4"], A["A7"]]
    assert game.pieces[A["A4"]][EXPLORER] == 1 and game.pieces[A["A7"]][EXPLORER] == 1


def test_first_explore_happens_at_setup_and_the_card_moves_to_build() -> None:
    game = SpiritIslandGame(1, seed=2)
    card = game.invader_slots[1]
    explored = [land for land in game.lands if game.pieces[land][EXPLORER]]
    expected = SpiritIslandGame(1, seed=2)
    expected.pieces = [list(row) for row in spec.BOARDS["A"].setup]
    assert explored == explore_lands(expected, card)
    assert game.invader_slots == [-1, card, -1]


def test_build_adds_a_city_where_towns_outnumber_cities_else_a_town() -> None:
    game = quiet_game()
    wetland = invader_card(1, spec.W)
    game.invader_slots = [-1, wetland, -1]
    game.pieces[A["A2"]][TOWN] = 1  # more Towns than Cities: a City
    game.pieces[A["A5"]][EXPLORER] = 1  # only an Explorer: a Town
    run_steps(game, [STEP["build"]])
    assert game.pieces[A["A2"]][CITY] == 1 and game.pieces[A["A2"]][TOWN] == 1
    assert game.pieces[A["A5"]][TOWN] == 1
    game.pieces[A["A2"]][TOWN] = 0
    game.pieces[A["A5"]] = [0] * spec.KINDS
    run_steps(game, [STEP["build"]])
    assert game.pieces[A["A2"]][TOWN] == 1  # 1 City, no Towns: a Town
    assert sum(game.pieces[A["A5"]]) == 0  # no Invaders, no Build


def test_invader_cards_advance_and_an_empty_deck_loses_at_explore() -> None:
    game = quiet_game()
    before = list(game.invader_slots)
    top = game.invader_deck[0]
    run_steps(game, [STEP["explore"]], [STEP["advance"]])
    assert game.invader_slots == [before[1], top, -1]
    game.invader_deck = []
    run_steps(game, [STEP["explore"]])
    assert game.outcome == -1 and "Invader deck" in game.end_reason


# ----- Ravage, Blight, Dahan --------------------------------------------------------------------
def ravage_position(blight: int = 0) -> SpiritIslandGame:
    game = quiet_game()
    land = A["A5"]
    game.pieces[land][TOWN] = 1
    game.pieces[land][EXPLORER] = 1
    game.pieces[land][DAHAN] = 2
    game.pieces[land][BLIGHT] = blight
    game.presence[0][land] = 1
    game.presence[0][A["A7"]] = 1
    game.energy_track[0] = 1  # keeps Presence conserved (one more on the island)
    game.invader_slots = [invader_card(1, spec.W), -1, -1]
    game.blight_pool = 3
    return game


def test_ravage_blights_destroys_presence_and_dahan_fight_back() -> None:
    game = ravage_position()
    run_steps(game, [STEP["ravage"]])
    land = game.pieces[A["A5"]]
    # 3 Damage (Town 2, Explorer 1): a Blight, one Dahan destroyed and one damaged
    assert land[BLIGHT] == 1 and game.blight_pool == 2
    assert game.presence[0][A["A5"]] == 0 and game.destroyed_presence[0] == 1
    assert land[DAHAN] == 0 and land[DAHAN_1] == 1
    # the damaged Dahan deals 2 Damage, split by player_0 (A5's board is theirs)
    assert game.pending[1] == 0 and game.pending_kind() == Decision.PIECE
    choose(game, TOWN)
    choose(game, TOWN_1)
    assert land[TOWN] == land[TOWN_1] == 0 and land[EXPLORER] == 1
    assert game.fear_pool == 3  # a Town destroyed: 1 Fear


def test_ravage_cascades_blight_into_a_neighbour_chosen_by_the_board_owner() -> None:
    game = ravage_position(blight=1)
    game.presence[0][A["A7"]] = 2
    game.energy_track[0] = 2
    run_steps(game, [STEP["ravage"]])
    assert game.pieces[A["A5"]][BLIGHT] == 2
    assert game.pending_kind() == Decision.LAND
    assert game.legal_options() == [A["A1"], A["A4"], A["A6"], A["A7"], A["A8"]]
    choose(game, A["A7"])
    assert game.pieces[A["A7"]][BLIGHT] == 1
    assert game.presence[0][A["A7"]] == 1  # the cascaded Blight destroyed one Presence
    assert game.destroyed_presence[0] == 2


def test_dahan_fight_back_after_defend() -> None:
    game = ravage_position()
    game.defend[A["A5"]] = 3
    run_steps(game, [STEP["ravage"]])
    land = game.pieces[A["A5"]]
    assert land[BLIGHT] == 0 and land[DAHAN] == 2  # Defend 3 stopped all 3 Damage
    # two Dahan fight back: 4 Damage
    choose(game, EXPLORER)
    # Town left alone: it takes the rest without asking
    assert land[EXPLORER] == 0 and land[TOWN] == 0 and land[TOWN_1] == 0


def test_skipped_ravage_means_no_fighting_back() -> None:
    game = ravage_position()
    game.skips[A["A5"]] = 1
    run_steps(game, [STEP["ravage"]])
    assert game.pieces[A["A5"]][TOWN] == 1 and not game.pending


# ----- Fear and Terror -------------------------------------------------------------------------
def test_fear_pool_earns_cards_first_in_first_out_and_raises_terror() -> None:
    game = quiet_game()
    first, second = game.fear_deck[:2]
    add_fear(game, 10)  # pool of 4: two cards earned, 2 markers left of the third pool
    assert game.fear_earned == [first, second] and game.fear_pool == 2
    run_steps(game, [STEP["fear"]])
    while game.pending:  # the Fear effects may ask for lands
        choose(game, game.legal_options()[0])
    assert game.fear_discard[:2] == [first, second]
    assert game.terror_level() == 1
    add_fear(game, 4)
    assert game.terror_level() == 2


def test_terror_level_two_wins_with_no_towns_or_cities() -> None:
    game = quiet_game()
    game.pieces[A["A1"]][CITY] = 0
    game.pieces[A["A3"]][EXPLORER] = 2
    game.pieces[A["A8"]][TOWN] = 1
    game.check_end()
    assert game.outcome == 0
    add_fear(game, 12)  # three cards: Terror Level 2
    game.check_end()
    assert game.outcome == 0  # a Town stands
    game.pieces[A["A8"]][TOWN] = 0
    game.check_end()
    assert game.outcome == 1 and "Terror Level 2" in game.end_reason


@pytest.mark.parametrize(
    ("cards", "pieces", "wins"),
    [
        (0, {EXPLORER: 1}, False),
        (0, {}, True),  # Terror Level 1: no Invaders
        (6, {EXPLORER: 1, TOWN: 1}, True),  # Terror Level 3: no Cities
        (6, {CITY: 1}, False),
    ],
)
def test_victory_by_terror_level(cards: int, pieces: dict[int, int], wins: bool) -> None:
    game = quiet_game()
    game.pieces[A["A1"]][CITY] = 0
    for kind, count in pieces.items():
        game.pieces[A["A6"]][kind] = count
    add_fear(game, 4 * cards)
    game.check_end()
    assert (game.outcome == 1) == wins


def test_earning_the_last_fear_card_wins() -> None:
    game = quiet_game()
    add_fear(game, 4 * 9)
    game.check_end()
    assert game.outcome == 1 and game.end_reason == "every Fear card earned"


def test_victory_beats_a_defeat_in_the_same_step() -> None:
    game = quiet_game()
    game.pieces[A["A1"]][CITY] = 0
    game.lose("no Blight left on the Blight card")
    game.check_end()
    assert game.outcome == 1


# ----- defeats and the Blight card -------------------------------------------------------------
def test_the_blight_card_flips_then_running_out_loses() -> None:
    game = quiet_game(blight_card="downward_spiral")
    game.blight_pool = 1
    game.presence[0][A["A2"]] = 1
    game.energy_track[0] = 1
    run_steps(game, [STEP["add_blight"], A["A3"]])
    assert game.blighted and game.blight_pool == 5  # Downward Spiral: 5 per player
    assert game.outcome == 0
    game.blight_pool = 1
    run_steps(game, [STEP["add_blight"], A["A6"]])
    assert game.outcome == -1 and "Blight" in game.end_reason


def test_blight_removed_after_the_flip_returns_to_the_card_past_its_fill() -> None:
    """Downward Spiral flipped (5 on the card at 1 player) and 1 Blight removed from A3: 6 on
    the card, a valid state (found by 1,000 random games: the invariants once capped the card
    at its fill); more Blight than a game holds, card and island together, is refused."""
    game = quiet_game(blight_card="downward_spiral")
    game.blight_pool = 1
    game.presence[0][A["A2"]] = 1
    game.energy_track[0] = 1
    run_steps(game, [STEP["add_blight"], A["A3"]])
    assert game.blighted and game.blight_pool == 5
    run_steps(game, [STEP["effect"], spec.block_of((("remove_blight", 1),)), 0, A["A3"], 0, -1])
    assert game.blight_pool == 6 and "blight_pool" not in dict(game.check_invariants())
    game.pieces[A["A4"]][BLIGHT] = spec.blight_in_game(1)
    assert "blight_pool" in dict(game.check_invariants())


def test_blighted_island_effect_runs_each_invader_phase() -> None:
    game = quiet_game(blight_card="downward_spiral")
    game.blighted = True
    game.presence[0][A["A7"]] = 1
    game.energy_track[0] = 1
    run_steps(game, [STEP["blighted"]])
    assert game.pending_kind() == Decision.LAND  # which Presence to destroy
    choose(game, A["A7"])
    assert game.presence[0][A["A7"]] == 0 and game.destroyed_presence[0] == 1


def test_losing_the_last_presence_loses() -> None:
    game = ravage_position()
    game.presence[0][A["A7"]] = 0
    game.energy_track[0] = 0
    run_steps(game, [STEP["ravage"]])
    assert game.outcome == 0 and game.loss_pending  # the Dahan fight back first
    while game.pending:
        choose(game, game.legal_options()[0])
    assert game.outcome == -1 and "no Presence" in game.end_reason


# ----- whole games -----------------------------------------------------------------------------
def test_random_games_end_within_max_decisions_and_keep_invariants() -> None:
    longest = 0
    for seed in range(60):
        game = SpiritIslandGame(1, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            assert not list(game.check_invariants())
            game.apply(int(rng.choice(game.legal_actions())))
        assert game.outcome in (-1, 1) and game.end_reason
        assert not list(game.check_invariants())
        longest = max(longest, game.decisions)
    assert longest < 200 < SpiritIslandGame.MAX_DECISIONS


def test_a_choice_offers_two_to_four_effects() -> None:
    three = spec.compile_effect(
        (("choose", (("fear", 1),), (("defend", 2),), (("energy", 1),)),), "C"
    )
    assert len(three[0]) == 4
    five = (("choose", *[(("fear", 1),)] * 5),)
    with pytest.raises(CardError, match="Five: choose takes 2 argument"):
        spec.compile_effect(five, "Five")
    assert spec.LAYOUT.segment_of(Decision.CHOICE).size == spec.MAX_CHOICE


def test_every_step_decision_and_operation_is_handled_by_the_function_of_its_name() -> None:
    """The tables that find the handlers pair each name with the function called after it, so
    grep for ``step_remove`` or ``res_remove`` finds what ``push("remove")`` runs."""
    assert [STEP_RUN[code].__name__ for code in range(len(spec.STEP_NAMES))] == [
        f"step_{name}" for name in spec.STEP_NAMES
    ]
    assert list(STEP_HANDLERS) == list(spec.STEPS)
    for name, (options, resolve) in DECISIONS.items():
        assert (options.__name__, resolve.__name__) == (f"opt_{name}", f"res_{name}")
    assert {name: op.__name__ for name, op in OPERATIONS.items()} == {
        name: f"op_{name}" for name in OPS
    }


# ----- win beats loss: victory at once, defeat once its effect has resolved ---------------------
def effect_in_progress(game: SpiritIslandGame, *steps: list[int]) -> None:
    """Queue the steps an effect has left (first listed runs first) above the Fast phase's
    next Power, as a Power's effect leaves them, and run."""
    game.pending, game.pending_options = [], []
    game.queue = [[STEP["turn"]], [STEP["powers"], spec.FAST, 0], *reversed(steps)]
    game.run()


def last_blight_at_terror_level_3() -> SpiritIslandGame:
    game = quiet_game()
    game.pieces[A["A1"]][CITY] = 0
    game.pieces[A["A6"]][CITY] = 1  # the last City
    add_fear(game, 4 * 6)  # six Fear cards earned: Terror Level 3
    game.blighted, game.blight_pool = True, 1
    return game


def test_an_effect_that_adds_the_last_blight_then_destroys_the_last_city_wins() -> None:
    game = last_blight_at_terror_level_3()
    city = spec.kinds_mask(spec.CITY_KINDS)
    effect_in_progress(game, [STEP["add_blight"], A["A6"]], [STEP["destroy"], A["A6"], 0, city, 1])
    assert game.blight_pool == 0 and game.pieces[A["A6"]][BLIGHT] == 1
    assert game.outcome == 1 and game.end_reason == "Terror Level 3: no Cities on the island"


def test_the_last_blight_loses_once_its_effect_has_resolved() -> None:
    game = last_blight_at_terror_level_3()
    game.pieces[A["A6"]][EXPLORER] = 1
    explorer = spec.kinds_mask((EXPLORER,))
    effect_in_progress(
        game, [STEP["add_blight"], A["A6"]], [STEP["remove"], A["A6"], 0, explorer, 1]
    )
    assert game.outcome == -1 and game.end_reason == "no Blight left on the Blight card"
    assert game.pieces[A["A6"]][EXPLORER] == 0  # the rest of the effect ran before the defeat


def test_a_fear_card_that_removes_the_last_town_wins_in_the_invader_phase() -> None:
    game = quiet_game()
    game.pieces[A["A1"]][CITY] = 0
    game.pieces[A["A6"]][TOWN] = 1  # the last Town or City
    add_fear(game, 4 * 3)  # three Fear cards earned: Terror Level 2
    # Wary of the Interior, level 2: remove 1 Explorer or Town from an Inland land (A6)
    wary = [name for name, _ in spec.FEAR_CARDS].index("Wary of the Interior")
    earned = game.fear_earned
    if wary in game.fear_deck:
        game.fear_deck[game.fear_deck.index(wary)] = earned[0]
        earned[0] = wary
    else:
        where = earned.index(wary)
        earned[0], earned[where] = earned[where], earned[0]
    game.blighted, game.blight_pool = True, 1  # a Ravage in A6 would lose
    game.pending, game.pending_options = [], []
    game.invader_slots = [invader_card(1, spec.M), -1, -1]
    game.queue = [[STEP["turn"]], [STEP["ravage"]], [STEP["fear"]]]
    game.run()
    assert game.fear_discard == [wary]
    assert (
        game.outcome == 1 and game.end_reason == "Terror Level 2: no Towns or Cities on the island"
    )
    assert game.pieces[A["A6"]][TOWN] == 0 and game.blight_pool == 1


# ----- Invaders destroy Dahan efficiently; Fear per building destroyed --------------------------
def test_ravaging_invaders_destroy_damaged_dahan_first() -> None:
    """2 Damage kill both damaged Dahan (not one healthy one); the healthy Dahan left fights
    back and destroys both Explorers."""
    game = quiet_game()
    row = game.pieces[A["A6"]]
    row[EXPLORER], row[DAHAN], row[DAHAN_1] = 2, 1, 2
    run_steps(game, [STEP["ravage_land"], A["A6"]])
    assert (row[DAHAN], row[DAHAN_1], row[EXPLORER], row[BLIGHT]) == (1, 0, 0, 1)


def test_a_last_odd_point_of_ravage_damage_damages_one_dahan() -> None:
    game = quiet_game()
    row = game.pieces[A["A6"]]
    row[TOWN], row[EXPLORER], row[DAHAN] = 1, 1, 2  # 3 Damage
    run_steps(game, [STEP["ravage_dahan"], A["A6"], 3])
    assert (row[DAHAN], row[DAHAN_1]) == (0, 1)


@pytest.mark.parametrize(
    ("kind", "fear"), [(spec.CITY, 2), (spec.CITY_2, 2), (TOWN, 1), (TOWN_1, 1), (EXPLORER, 0)]
)
def test_destroying_a_city_gives_2_fear_a_town_1_an_explorer_none(kind: int, fear: int) -> None:
    game = quiet_game()
    game.pieces[A["A6"]][kind] = 1
    run_steps(game, [STEP["destroy"], A["A6"], 0, spec.kinds_mask((kind,)), 1])
    assert game.pieces[A["A6"]][kind] == 0
    assert game.fear_pool == spec.FEAR_PER_PLAYER - fear


def test_dahan_fighting_back_that_destroy_a_city_give_2_fear() -> None:
    """A City alone Ravages A6 against 3 Dahan: its 3 Damage destroy 1 Dahan and damage
    another; the 2 left fight back with 4 Damage and destroy the City (3 Health): 2 Fear,
    the Fear of a City however it is destroyed."""
    game = quiet_game()
    row = game.pieces[A["A6"]]
    row[CITY], row[DAHAN] = 1, 3
    run_steps(game, [STEP["ravage_land"], A["A6"]])
    assert (row[CITY], row[DAHAN], row[DAHAN_1]) == (0, 1, 1)
    assert game.fear_pool == spec.FEAR_PER_PLAYER - 2


def test_damage_that_destroys_a_city_gives_2_fear() -> None:
    game = quiet_game()
    game.pieces[A["A6"]][CITY] = 1
    run_steps(game, [STEP["damage"], A["A6"], 0, 3])
    assert game.pieces[A["A6"]][CITY] == 0 and game.fear_pool == spec.FEAR_PER_PLAYER - 2
