"""Vaalbara rules: the rulebook's worked examples, every character and land, setup and data."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from tabletop_envs.vaalbara.rules import VaalbaraGame
from tabletop_envs.vaalbara.spec import (
    CHARACTER_COUNT,
    LAND_CARDS,
    LAYOUT,
    OMEN_BACKS,
    Character,
    Decision,
    LandKind,
    LandType,
    land_cards_for,
    omen_order,
)

C = Character
K = LandKind
BLUE, PURPLE, YELLOW, RED = 0, 1, 2, 3
ALL_CHARACTERS = list(Character)


def select(game: VaalbaraGame, *characters: Character) -> None:
    """Every seat, in seat order, secretly picks the given character."""
    for seat, character in enumerate(characters):
        assert game.decision == Decision.SELECT and game.decider == seat
        game.apply(LAYOUT["select"].action(character))


def take(game: VaalbaraGame, kind: LandKind) -> None:
    """The active player takes a land of ``kind`` from row 1."""
    assert game.decision == Decision.TAKE_LAND
    slot = next(s for s, c in enumerate(game.rows[0]) if c >= 0 and LAND_CARDS[c][0] == kind)
    game.apply(LAYOUT["take_land"].action(slot))


def choose(game: VaalbaraGame, segment: str, option: int) -> None:
    game.apply(LAYOUT[segment].action(option))


def kinds(game: VaalbaraGame, seat: int) -> list[LandKind]:
    return [LAND_CARDS[card][0] for card in game.realms[seat]]


def fill_hand(chosen: list[Character], played: list[Character] = ()) -> list[Character]:
    """``chosen`` topped up to five cards with the lowest characters neither chosen nor played."""
    rest = [c for c in ALL_CHARACTERS if c not in chosen and c not in played]
    return [*chosen, *rest][:5]


def hands_with(*characters: Character) -> list[list[Character]]:
    """Hands of five, one per seat, each holding its chosen character."""
    return [fill_hand([character]) for character in characters]


def round_gains(game: VaalbaraGame, *picks: Character) -> list[int]:
    """VP each seat gains from making ``picks`` and playing the round out on first options."""
    start, round_number = list(game.vp), game.round
    select(game, *picks)
    while game.round == round_number and not game.is_terminal:
        game.apply(game.legal_actions()[0])
    return [after - before for after, before in zip(game.vp, start, strict=True)]


def mountains(players: int) -> list[LandKind]:
    """A row of first Mountains: worth nothing to an empty realm."""
    return [K.MOUNTAIN] * players


# ----- the rulebook's worked examples --------------------------------------------------
def round_two_example() -> VaalbaraGame:
    """Seats Blue, Purple, Yellow, Red sit in the cycle Purple-Blue-Red-Yellow."""
    return VaalbaraGame.from_position(
        4,
        round_number=2,
        realms=[[K.FOREST_4], [K.FIELD], [K.RIVER], [K.MEADOW]],
        row1=[K.MEADOW, K.FIELD, K.RIVER, K.FIELD],
        hands=hands_with(C.HUNTER, C.HUNTER, C.CRAFTER, C.FARMER),
        omens=[BLUE, PURPLE, YELLOW, RED],
    )


def test_round_two_example() -> None:
    game = round_two_example()
    before = list(game.vp)
    select(game, C.HUNTER, C.HUNTER, C.CRAFTER, C.FARMER)
    assert game.turn_order == [BLUE, PURPLE, YELLOW, RED]
    take(game, K.MEADOW)  # Blue: Hunter +3, Meadow 1 + Red's Meadow 1
    take(game, K.FIELD)  # Purple: Hunter 0 (Blue is a neighbour before), 2 Fields x 2
    take(game, K.RIVER)  # Yellow: Crafter 0 (Red plays after), River 6 x 2
    assert game.decision == Decision.SELECT  # Red's last Field was the only land left
    gains = [after - start for after, start in zip(game.vp, before, strict=True)]
    assert gains == [5, 4, 12, 4]
    assert kinds(game, RED) == [K.MEADOW, K.FIELD]
    assert game.round == 2
    assert all(bin(hand).count("1") == 5 for hand in game.hands)


def test_round_two_hunter_tie_goes_to_the_better_omen() -> None:
    game = VaalbaraGame.from_position(
        4,
        realms=[[], [], [], []],
        hands=hands_with(C.HUNTER, C.HUNTER, C.CRAFTER, C.FARMER),
        omens=[PURPLE, BLUE, YELLOW, RED],
    )
    select(game, C.HUNTER, C.HUNTER, C.CRAFTER, C.FARMER)
    assert game.turn_order == [PURPLE, BLUE, YELLOW, RED]


def end_of_game_position(realm: list[LandKind], points: int) -> VaalbaraGame:
    return VaalbaraGame.from_position(2, realms=[realm, []], vp=[points, 0])


def test_end_of_game_example_five_types() -> None:
    realm = [K.FIELD] * 3 + [K.MEADOW] * 2 + [K.FOREST_3, K.FOREST_4, K.VILLAGE, K.RIVER]
    game = end_of_game_position(realm, 57)
    assert game.final_score(0) == 62


def test_end_of_game_six_types_add_ten() -> None:
    realm = [K.FIELD] * 3 + [K.MEADOW, K.MOUNTAIN, K.FOREST_3, K.FOREST_4, K.VILLAGE, K.RIVER]
    game = end_of_game_position(realm, 57)
    assert game.final_score(0) == 67
    assert game.final_score(1) == 0


# ----- setup and card data -----------------------------------------------------------------
@pytest.mark.parametrize(("players", "cards"), [(2, 21), (3, 31), (4, 51), (5, 51)])
def test_setup(players: int, cards: int) -> None:
    game = VaalbaraGame(players, seed=3)
    assert len(land_cards_for(players)) == cards
    assert all(LAND_CARDS[c][1] <= players for c in land_cards_for(players))
    assert cards >= 10 * players  # every round can be refilled
    assert [len(row) for row in game.rows] == [players, players]
    assert len(game.land_deck) == cards - 2 * players
    assert game.vp == [2] * players
    assert all(bin(hand).count("1") == 5 for hand in game.hands)
    assert all(len(deck) == 7 for deck in game.clan_decks)


@pytest.mark.parametrize(("players", "most"), [(2, 3), (3, 5), (4, 8), (5, 8)])
def test_no_fourth_mountain_with_two_players(players: int, most: int) -> None:
    """ "For a 2-player game, keep the 2+ cards": they hold 3 Mountains, so "Gain 20 additional
    Victory Points if this is the 4th Mountain" can never happen with 2 players."""
    pool = [LAND_CARDS[c][0] for c in land_cards_for(players)]
    assert pool.count(K.MOUNTAIN) == most
    if players == 2:
        with pytest.raises(ValueError, match="no Mountain card left"):
            VaalbaraGame.from_position(2, realms=[[K.MOUNTAIN] * 4, []])
    else:
        game = VaalbaraGame.from_position(players, realms=[[K.MOUNTAIN] * 3] + [[]] * (players - 1))
        assert game.land_reward(0, game.realms[0][0], 1) == 0  # a realm may reach a 4th


def test_land_card_data() -> None:
    assert len(LAND_CARDS) == 51
    types = Counter(kind.land_type for kind, _ in LAND_CARDS)
    assert sum(types.values()) == 51 and set(types) == set(LandType)
    forests = [kind for kind, _ in LAND_CARDS if kind.land_type is LandType.FOREST]
    assert {k.title for k in forests} == {"Forest 3", "Forest 4", "Forest 5", "Forest 6"}
    for players in range(2, 6):
        present = {LAND_CARDS[c][0].land_type for c in land_cards_for(players)}
        assert present == set(LandType)


def test_omen_backs_are_distinct_and_balanced() -> None:
    assert len(set(OMEN_BACKS)) == len(OMEN_BACKS) == 51
    for a, b in itertools.permutations(range(5), 2):
        above = sum(back.index(str(a)) < back.index(str(b)) for back in OMEN_BACKS)
        assert above in (25, 26)
    for size in range(2, 6):
        for clans in itertools.combinations(range(5), size):
            best = Counter(
                min(clans, key=lambda clan, back=back: back.index(str(clan))) for back in OMEN_BACKS
            )
            fair = len(OMEN_BACKS) / size
            assert all(abs(best[c] - fair) <= 2 for c in clans), (clans, best)


def test_backs_are_dealt_anew_each_game() -> None:
    assert VaalbaraGame(4, seed=1).back_of != VaalbaraGame(4, seed=2).back_of


# ----- characters --------------------------------------------------------------------------
def two_player(
    picks: tuple[Character, Character], played: list[list[Character]] | None = None, **position
) -> VaalbaraGame:
    """A 2-player position in which each seat holds its pick; both picks are then made."""
    played = played or [[], []]
    hands = [fill_hand([pick], done) for pick, done in zip(picks, played, strict=True)]
    game = VaalbaraGame.from_position(2, hands=hands, played=played, **position)
    return game


@pytest.mark.parametrize(("other", "expected"), [(C.CARPENTER, 2), (C.MIDWIFE, 0)])
def test_oracle_in_two_players_gives_two_or_zero(other: Character, expected: int) -> None:
    game = two_player((C.ORACLE, other), row1=mountains(2))
    assert round_gains(game, C.ORACLE, other)[0] == expected


def test_falconer_playing_first_gains_nothing() -> None:
    game = two_player((C.FALCONER, C.FARMER), row1=mountains(2), vp=[2, 7])
    select(game, C.FALCONER, C.FARMER)
    assert game.active == 0 and game.vp == [2, 7]


def test_falconer_steals_two_but_never_more_than_the_victim_has() -> None:
    for victim_vp, stolen in ((9, 2), (1, 1), (0, 0)):
        game = two_player((C.FALCONER, C.ORACLE), row1=mountains(2), vp=[0, victim_vp])
        assert round_gains(game, C.FALCONER, C.ORACLE) == [stolen, -stolen]


def test_carpenter_counts_forests_before_the_land_pick() -> None:
    game = two_player(
        (C.CARPENTER, C.FARMER), realms=[[K.FOREST_3, K.FOREST_5], []], row1=[K.FOREST_6, K.FIELD]
    )
    start = game.vp[0]
    select(game, C.CARPENTER, C.FARMER)
    take(game, K.FOREST_6)
    assert game.vp[0] - start == 3 * 2 + 6


def test_midwife_returns_a_played_character_but_never_itself() -> None:
    game = two_player((C.MIDWIFE, C.FARMER), played=[[C.HUNTER, C.RIDER], []])
    select(game, C.MIDWIFE, C.FARMER)
    assert game.decision == Decision.MIDWIFE
    assert [LAYOUT.locate(a)[1] for a in game.legal_actions()] == [C.HUNTER, C.RIDER]
    choose(game, "midwife", C.RIDER)
    assert game.hands[0] >> C.RIDER & 1 and game.known_in_hand[0] >> C.RIDER & 1
    assert not game.discards[0] >> C.RIDER & 1
    assert game.view(1)["known_in_hand"][1, C.RIDER] == 1  # seat 0 sits left of seat 1


def test_midwife_with_an_empty_discard_does_nothing() -> None:
    game = two_player((C.MIDWIFE, C.FARMER))
    select(game, C.MIDWIFE, C.FARMER)
    assert game.decision == Decision.TAKE_LAND


def test_rider_swaps_a_first_row_land_with_a_second_row_land() -> None:
    game = two_player((C.RIDER, C.FARMER), row1=[K.FIELD, K.MEADOW], row2=[K.MOUNTAIN, K.FIELD])
    select(game, C.RIDER, C.FARMER)
    assert game.decision == Decision.RIDER_FIRST
    choose(game, "rider_first", 1)
    assert game.decision == Decision.RIDER_SECOND
    assert [LAYOUT.locate(a)[1] for a in game.legal_actions()] == [0, 1]
    choose(game, "rider_second", 0)
    assert [LAND_CARDS[c][0] for c in game.rows[0]] == [K.FIELD, K.MOUNTAIN]
    assert [LAND_CARDS[c][0] for c in game.rows[1]] == [K.MEADOW, K.FIELD]


def test_rider_with_two_lands_of_a_type_changes_nothing() -> None:
    game = two_player((C.RIDER, C.FARMER), row1=[K.FIELD, K.MEADOW], row2=[K.FIELD, K.RIVER])
    select(game, C.RIDER, C.FARMER)
    faces = [[LAND_CARDS[c][0] for c in row] for row in game.rows]
    choose(game, "rider_first", 0)
    choose(game, "rider_second", 0)
    assert [[LAND_CARDS[c][0] for c in row] for row in game.rows] == faces


def test_pioneer_river_counts_initiative_six_and_old_land_goes_to_the_bottom() -> None:
    game = two_player(
        (C.PIONEER, C.FARMER),
        realms=[[K.RIVER, K.FIELD], []],
        row1=[K.FIELD, K.MEADOW],
        row2=[K.FIELD, K.MEADOW],
    )
    river = next(c for c in game.land_deck if LAND_CARDS[c][0] == K.RIVER)
    game.land_deck.remove(river)
    game.land_deck.insert(0, river)
    select(game, C.PIONEER, C.FARMER)
    assert [LAYOUT.locate(a)[1] for a in game.legal_actions()] == sorted([K.FIELD, K.RIVER])
    field = game.realms[0][1]
    start = game.vp[0]
    choose(game, "pioneer", K.FIELD)
    assert kinds(game, 0) == [K.RIVER, K.RIVER]
    assert game.vp[0] - start == 6 * 2
    assert game.land_deck[0] == field and game.deck_known[0]
    assert game.view(1)["deck_bottom_known"][K.FIELD] == 1


def test_pioneer_with_an_empty_realm_does_nothing() -> None:
    game = two_player((C.PIONEER, C.FARMER))
    select(game, C.PIONEER, C.FARMER)
    assert game.decision == Decision.TAKE_LAND


def test_tracker_swaps_with_the_deck_top_and_changes_the_omens() -> None:
    game = two_player((C.TRACKER, C.FARMER), row1=[K.FIELD, K.MEADOW])
    select(game, C.TRACKER, C.FARMER)
    assert [LAYOUT.locate(a)[1] for a in game.legal_actions()] == [0, 1, 5, 6]
    top, row_card = game.land_deck[-1], game.rows[1][0]
    choose(game, "tracker", 5)
    assert game.rows[1][0] == top and game.land_deck[-1] == row_card
    assert game.deck_known[-1]
    assert game.top_back() == game.back_of[row_card]
    assert game.view(1)["deck_top_known"][LAND_CARDS[row_card][0]] == 1


def put_back_on_top_card(game: VaalbaraGame, card: int, ranking: list[int]) -> None:
    """Give land ``card`` the Omen back that ranks the seats as ``ranking`` (best first)."""
    back = next(b for b in range(len(OMEN_BACKS)) if omen_order(b, game.num_players) == ranking)
    holder = game.back_of.index(back)
    game.back_of[card], game.back_of[holder] = back, game.back_of[card]


@pytest.mark.parametrize(
    ("after_tracker", "gains"),
    [([0, 2, 1], [5, 0]), ([0, 1, 2], [0, 5])],
    ids=["tracker-flips-the-tie", "tracker-keeps-the-tie"],
)
def test_a_crafter_tie_reads_the_omens_as_the_tracker_left_them(after_tracker, gains) -> None:
    """Tracker: "This effect changes the Omens for the rest of the round." Crafter: "In case
    of a tie, only the player that ranks the lowest in the Clans' Omens gains 5 Victory
    Points." The tie is read on the top card when the Crafters resolve; the turn order
    stays as revealed."""
    game = VaalbaraGame.from_position(
        3, hands=hands_with(C.TRACKER, C.CRAFTER, C.CRAFTER), omens=[0, 1, 2], row1=mountains(3)
    )
    select(game, C.TRACKER, C.CRAFTER, C.CRAFTER)
    assert game.turn_order == [0, 1, 2]  # at the reveal, seat 1's Omen beats seat 2's
    put_back_on_top_card(game, game.rows[1][0], after_tracker)
    choose(game, "tracker", 5)  # row 2 slot 0 goes face down on the deck: its back ranks now
    assert omen_order(game.top_back(), 3) == after_tracker
    assert game.turn_order == [0, 1, 2]  # the Tracker changed the Omens, not the turn order
    start = list(game.vp)
    while game.round == 0:
        game.apply(game.legal_actions()[0])
    assert [v - s for v, s in zip(game.vp, start, strict=True)][1:] == gains


def test_a_crafter_tie_without_a_tracker_goes_to_the_lowest_omen() -> None:
    """ "In case of a tie, only the player that ranks the lowest in the Clans' Omens gains 5."""
    game = VaalbaraGame.from_position(
        3, hands=hands_with(C.BARD, C.CRAFTER, C.CRAFTER), omens=[0, 1, 2], row1=mountains(3)
    )
    assert round_gains(game, C.BARD, C.CRAFTER, C.CRAFTER) == [0, 2, 5]  # the Bard gave seat 1 2
    game = VaalbaraGame.from_position(
        3, hands=hands_with(C.BARD, C.CRAFTER, C.CRAFTER), omens=[0, 2, 1], row1=mountains(3)
    )
    assert round_gains(game, C.BARD, C.CRAFTER, C.CRAFTER) == [0, 2 + 5, 0]


def test_a_hunter_tie_goes_to_the_highest_omen_before_any_tracker() -> None:
    """Hunter: "In case of a tie, only the player that ranks the highest in the Clans' Omens
    gains 3." A Hunter (3) always resolves before a Tracker (7), so it reads the Omens of the
    reveal; a later Tracker changes nothing it gained."""
    for omens, gains in (([1, 0, 2], [0, 3]), ([0, 1, 2], [3, 0])):
        game = VaalbaraGame.from_position(
            3, hands=hands_with(C.HUNTER, C.HUNTER, C.TRACKER), omens=omens, row1=mountains(3)
        )
        start = list(game.vp)
        select(game, C.HUNTER, C.HUNTER, C.TRACKER)
        while game.decision != Decision.TRACKER:
            game.apply(game.legal_actions()[0])
        assert [v - s for v, s in zip(game.vp, start, strict=True)][:2] == gains
        put_back_on_top_card(game, game.rows[1][0], list(reversed(omens)))
        choose(game, "tracker", 5)
        assert [v - s for v, s in zip(game.vp, start, strict=True)][:2] == gains


def test_bard_gives_the_chosen_player_two() -> None:
    game = VaalbaraGame.from_position(3, hands=hands_with(C.BARD, C.HUNTER, C.ORACLE))
    select(game, C.BARD, C.HUNTER, C.ORACLE)
    start = list(game.vp)
    choose(game, "bard", 1)  # two seats to the left
    assert game.vp[2] - start[2] == 2 and game.vp[0] == start[0]


def test_farmer_doubles_the_land_reward() -> None:
    game = two_player((C.FARMER, C.FIGHTER), realms=[[K.FIELD], []], row1=[K.FIELD, K.MEADOW])
    select(game, C.FARMER, C.FIGHTER)
    start = game.vp[0]
    choose(game, "fighter", 0)
    take(game, K.MEADOW)
    assert kinds(game, 0) == [K.FIELD, K.FIELD]
    assert game.vp[0] - start == 2 * (2 * 2)


def test_fighter_poll_asks_everyone_whose_fighter_is_not_public_and_applies_together() -> None:
    hands = [
        [C.FIGHTER, C.BARD, C.HUNTER, C.ORACLE, C.RIDER],
        [C.FIGHTER, C.BARD, C.HUNTER, C.ORACLE, C.RIDER],
        [C.BARD, C.HUNTER, C.ORACLE, C.RIDER, C.FARMER],  # Fighter still in the clan deck
        [C.BARD, C.HUNTER, C.ORACLE, C.RIDER, C.FARMER],  # Fighter already played
    ]
    game = VaalbaraGame.from_position(4, hands=hands, played=[[], [], [], [C.FIGHTER]])
    select(game, C.FIGHTER, C.RIDER, C.HUNTER, C.FARMER)
    start = list(game.vp)
    asked = []
    while game.decision == Decision.FIGHTER:
        asked.append(game.decider)
        assert game.vp == start, "answers stay hidden until everyone has answered"
        choose(game, "fighter", max(LAYOUT.locate(a)[1] for a in game.legal_actions()))
    assert asked == [2, 1]  # turn order after the Fighter: Hunter, Rider (Farmer's is public)
    assert [v - s for v, s in zip(game.vp, start, strict=True)] == [0, 1, 0, 0]
    assert game.known_in_hand[1] >> C.FIGHTER & 1


def test_fighter_poll_starts_after_the_fighter_and_wraps() -> None:
    """ "All players with a Fighter in hand may reveal her": asked in the turn order from the
    seat after the Fighter's, wrapping past the end to the seats before it. Those can only be
    other Fighters (nothing plays before initiative 1), public picks that are not asked; so
    the wrap never reaches a seat and two Fighters ask the same seats in the same order."""
    hands = [
        fill_hand([C.FARMER, C.FIGHTER]),
        fill_hand([C.HUNTER, C.FIGHTER]),
        fill_hand([C.FIGHTER]),
        fill_hand([C.RIDER, C.FIGHTER]),
        fill_hand([C.FIGHTER]),
    ]
    game = VaalbaraGame.from_position(5, hands=hands, omens=[4, 1, 2, 3, 0], row1=mountains(5))
    select(game, C.FARMER, C.HUNTER, C.FIGHTER, C.RIDER, C.FIGHTER)
    assert game.turn_order == [4, 2, 1, 3, 0]
    polls = []
    for fighter in (4, 2):
        assert game.active == fighter and game.decision == Decision.FIGHTER
        position = game.turn_order.index(fighter)
        wrapped = game.turn_order[position + 1 :] + game.turn_order[:position]
        assert game.fighter_poll == [s for s in wrapped if game.picks[s] != C.FIGHTER]
        asked = []
        while game.decision == Decision.FIGHTER:
            asked.append(game.decider)
            choose(game, "fighter", 1)
        polls.append(asked)
        game.apply(game.legal_actions()[0])
    assert polls == [[1, 3, 0], [1, 3, 0]]  # Hunter, Rider, Farmer; never the other Fighter


def test_hunter_needs_to_play_before_both_neighbours() -> None:
    game = VaalbaraGame.from_position(
        4,
        hands=hands_with(C.HUNTER, C.ORACLE, C.HUNTER, C.CARPENTER),
        omens=[0, 1, 2, 3],
        row1=mountains(4),
    )
    assert round_gains(game, C.HUNTER, C.ORACLE, C.HUNTER, C.CARPENTER) == [3, 4, 3, 0]


# ----- lands -------------------------------------------------------------------------------
def land_gain(realm: list[LandKind], kind: LandKind, character: Character, neighbour=()) -> int:
    """VP seat 0 gains from taking ``kind`` after playing an effect-free ``character``."""
    game = two_player((character, C.FARMER), realms=[realm, list(neighbour)], row1=[kind, K.FIELD])
    select(game, character, C.FARMER)
    start = game.vp[0]
    take(game, kind)
    return game.vp[0] - start


@pytest.mark.parametrize(
    ("realm", "kind", "expected"),
    [
        ([K.MOUNTAIN], K.MOUNTAIN, 10),
        ([K.MOUNTAIN] * 2, K.MOUNTAIN, 0),
        ([], K.MOUNTAIN, 0),
        ([K.FIELD, K.RIVER], K.VILLAGE, 6),
        ([K.FIELD], K.FOREST_5, 5),
        ([K.FIELD], K.FIELD, 4),
        ([K.RIVER], K.RIVER, 4 * 2),
    ],
)
def test_land_rewards(realm: list[LandKind], kind: LandKind, expected: int) -> None:
    assert land_gain(realm, kind, C.ORACLE) == expected


def test_fourth_mountain_gains_twenty() -> None:
    game = VaalbaraGame.from_position(
        4,
        realms=[[K.MOUNTAIN] * 3, [], [], []],
        row1=[K.MOUNTAIN, *mountains(3)],
        hands=hands_with(C.MIDWIFE, C.FARMER, C.FARMER, C.FARMER),
        omens=[0, 1, 2, 3],
    )
    assert round_gains(game, C.MIDWIFE, C.FARMER, C.FARMER, C.FARMER)[0] == 20


def test_meadow_counts_own_and_neighbour_meadows() -> None:
    assert land_gain([K.MEADOW], K.MEADOW, C.ORACLE, [K.MEADOW, K.MEADOW]) == 4


def test_river_is_capped_at_initiative_six() -> None:
    assert land_gain([K.RIVER], K.RIVER, C.CRAFTER) == 6 * 2


# ----- rounds, end and information ----------------------------------------------------------
def test_end_of_round_slides_rows_and_refills_hands() -> None:
    game = VaalbaraGame(3, seed=5)
    row2 = list(game.rows[1])
    rng = np.random.default_rng(0)
    while game.round == 0:
        game.apply(int(rng.choice(game.legal_actions())))
    assert game.rows[0] == row2
    assert all(bin(h).count("1") == 5 for h in game.hands)
    assert all(len(d) == 6 for d in game.clan_decks)


def test_a_final_tie_goes_to_the_better_omen() -> None:
    game = VaalbaraGame(2, seed=0)
    rng = np.random.default_rng(0)
    while not game.is_terminal:
        game.apply(int(rng.choice(game.legal_actions())))
    game.vp = [30 - (game.final_score(0) - game.vp[0]), 30 - (game.final_score(1) - game.vp[1])]
    assert game.final_score(0) == game.final_score(1) == 30
    assert game.winner() == omen_order(game.top_back(), 2)[0]
    assert game.returns()[game.winner()] == 1.0


def test_game_ends_after_nine_rounds_with_nine_lands_each() -> None:
    for players in range(2, 6):
        game = VaalbaraGame(players, seed=players)
        rng = np.random.default_rng(players)
        while not game.is_terminal:
            game.apply(int(rng.choice(game.legal_actions())))
        assert all(len(realm) == 9 for realm in game.realms)
        assert len(game.land_deck) == len(land_cards_for(players)) - 10 * players
        cards = [c for realm in game.realms for c in realm] + game.land_deck
        cards += [c for row in game.rows for c in row if c >= 0]
        assert sorted(cards) == sorted(land_cards_for(players)), "land cards conserved"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_thousand_random_games_raise_nothing(players: int) -> None:
    for seed in range(1000):
        game = VaalbaraGame(players, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            game.apply_unchecked(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        for seat in range(players):
            deck = sum(1 << card for card in game.clan_decks[seat])
            assert game.hands[seat] & game.discards[seat] == 0 == deck & game.discards[seat]
            assert game.hands[seat] | game.discards[seat] | deck == (1 << CHARACTER_COUNT) - 1


def test_picks_stay_hidden_until_everyone_has_chosen() -> None:
    first, second = VaalbaraGame(3, seed=9), VaalbaraGame(3, seed=9)
    hand = [c for c in range(CHARACTER_COUNT) if first.hands[0] >> c & 1]
    first.apply(LAYOUT["select"].action(hand[0]))
    second.apply(LAYOUT["select"].action(hand[1]))
    for seat in (1, 2):
        assert np.array_equal(first.observation(seat), second.observation(seat))
    assert not np.array_equal(first.observation(0), second.observation(0))


def test_other_players_vp_are_hidden() -> None:
    game = VaalbaraGame(3, seed=2)
    other = game.clone()
    other.vp = [2, 40, 17]
    assert np.array_equal(game.observation(0), other.observation(0))
    assert not np.array_equal(game.observation(1), other.observation(1))


def test_observation_decodes_back_to_the_view() -> None:
    game = VaalbaraGame(4, seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        game.apply(int(rng.choice(game.legal_actions())))
    for seat in range(4):
        decoded = VaalbaraGame.SCHEMA.decode(game.observation(seat))
        for name, values in game.view(seat).items():
            assert np.array_equal(decoded[name], np.asarray(values)), name


def test_every_action_has_a_name() -> None:
    game = VaalbaraGame(5, seed=0)
    names = {game.action_to_str(a) for a in range(LAYOUT.total)}
    assert len(names) == LAYOUT.total


def test_land_values_in_the_view_are_what_taking_each_land_scores() -> None:
    checked = 0
    for seed in range(40):
        game = VaalbaraGame(3, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            following = game.turn_order[game.turn + 1 :][:1]
            falconer_next = any(game.picks[s] == C.FALCONER for s in following)
            if game.decision == Decision.TAKE_LAND and not falconer_next:
                seat = game.decider
                values = game.view(seat)["land_values"][0]
                for slot, card in enumerate(game.rows[0]):
                    if card < 0:
                        continue
                    trial = game.clone()
                    before = trial.vp[seat]
                    trial.apply(LAYOUT["take_land"].action(slot))
                    assert values[slot] == min(trial.vp[seat] - before, 60)
                    checked += 1
            game.apply(int(rng.choice(game.legal_actions())))
    assert checked > 500


@pytest.mark.parametrize("players", range(2, 6))
def test_kept_observation_matches_the_reference_when_observed_now_and_then(players: int) -> None:
    """The kept view's keys cover what each block shows: a seat observed only every few
    steps (its store lagging several changes behind), and a clone taken back then and
    advanced by the same actions, both equal the encoded reference view."""
    rng = np.random.default_rng(players)
    for seed in range(3):
        game = VaalbaraGame(players, seed=seed)
        lagged = game.clone()
        while not game.is_terminal:
            if rng.random() < 0.3:
                seat = int(rng.integers(players))
                reference = VaalbaraGame.SCHEMA.encode(game.view(seat))
                assert np.array_equal(game.observation(seat), reference), seat
                assert np.array_equal(lagged.observation(seat), reference), seat
                lagged = game.clone()
            action = int(rng.choice(game.legal_actions()))
            game.apply(action)
            lagged.apply(action)
