"""Every Valiant Wars champion's effect, targeting limits and the Location terrains."""

from __future__ import annotations

import pytest
from test_valiant_wars_rules import (
    act,
    make_game,
    player_options,
    reveal_step,
    set_line,
    set_location,
    target,
)

from tabletop_envs.valiant_wars.spec import (
    GOLD,
    IGNORE,
    LOCATIONS,
    NOBODY,
    OMEN,
    SOLDIER,
    SOLDIER_OPTION,
    Decision,
    Kind,
    Terrain,
    champion_code,
    location_code,
)

C = champion_code
LOC = location_code(5)
FILL = [GOLD] * 6


# ----- forced draws ---------------------------------------------------------------------------
# "Targeting is optional unless a card dictates that targeting must happen": the "must" of
# these cards binds the player targeted ("a player you select must draw"), not whether the
# card's owner targets, so every choice of a player offers nobody (-1 below).
@pytest.mark.parametrize("chosen", [0, 1, -1])
def test_apprentice_makes_a_selected_player_draw_one_or_nobody(chosen: int) -> None:
    game = make_game(2, {0: [C(Kind.APPRENTICE), *FILL], 1: [GOLD, OMEN, *FILL]})
    assert player_options(game) == {0, 1, -1}, "self allowed; targeting is optional"
    if chosen < 0:
        act(game, "choose_player", NOBODY)
        assert [len(line) for line in game.lines] == [1, 1]
        return
    target(game, chosen)
    assert len(game.lines[chosen]) == 2
    assert game.lines[1][-1] == (OMEN if chosen == 1 else GOLD)


@pytest.mark.parametrize(
    ("kind", "mystic"),
    [
        (Kind.APPRENTICE, False),
        (Kind.BRIGAND, False),
        (Kind.SABOTEUR, False),
        (Kind.PRIESTESS, False),
        (Kind.LUNAR_WITCH, False),
        (Kind.PYROMANCER, False),
    ],
)
def test_targeting_is_optional_unless_the_card_dictates_it(kind: Kind, mystic: bool) -> None:
    """ "Targeting is optional unless a card dictates that targeting must happen." None of
    these cards makes its owner target: each offers nobody, and nobody changes nothing."""
    game = make_game(2, {0: [C(kind), *FILL], 1: [C(Kind.FIGHTER), *FILL]})
    assert game.decision == Decision.CHOOSE_PLAYER and NOBODY in game.pending_options
    lines, up = [list(line) for line in game.lines], [list(f) for f in game.face_up]
    act(game, "choose_player", NOBODY)
    assert game.lines == lines and game.face_up == up
    assert game.decision == Decision.REVEAL_OR_STOP


def test_brigand_targets_only_enemies_and_chains_forced_draws() -> None:
    game = make_game(
        3, {0: [C(Kind.BRIGAND), *FILL], 1: [GOLD, C(Kind.FIREBRAND), GOLD, *FILL], 2: FILL}
    )
    assert player_options(game) == {1, 2, -1}
    target(game, 1)
    assert game.lines[1] == [GOLD, C(Kind.FIREBRAND), GOLD], "Firebrand drew in turn"


def test_forced_draw_can_knock_a_stopped_player_out() -> None:
    game = make_game(
        3, {0: [GOLD, GOLD, C(Kind.BRIGAND), *FILL], 1: [GOLD, OMEN, OMEN, *FILL], 2: FILL}
    )
    reveal_step(game)
    reveal_step(game, stop=(1,))
    assert game.stopped[1] and game.gold(1) == 2
    target(game, 1)
    assert game.out[1] and game.gold(1) == 0


def test_saboteur_with_another_rogue_forces_three_draws_on_one_player() -> None:
    game = make_game(3, {0: [C(Kind.SELLSWORD), C(Kind.SABOTEUR), *FILL], 1: FILL, 2: FILL})
    reveal_step(game)
    assert player_options(game) == {1, 2, -1}
    target(game, 1)
    assert len(game.lines[1]) == 4
    assert game.decision == Decision.CHOOSE_PLAYER, "the extra card for the other Rogue"
    assert player_options(game) == {1, 2, -1}
    target(game, 1)
    assert len(game.lines[1]) == 5 and len(game.lines[2]) == 2


def test_saboteur_splits_two_and_one() -> None:
    game = make_game(3, {0: [C(Kind.BRIGAND), C(Kind.SABOTEUR), *FILL], 1: FILL, 2: FILL})
    target(game, 2)
    reveal_step(game)
    target(game, 1)
    target(game, 2)
    assert len(game.lines[1]) == 2 + 2 and len(game.lines[2]) == 2 + 1 + 1


def test_saboteur_without_another_rogue_forces_two_or_nothing() -> None:
    game = make_game(2, {0: [C(Kind.SABOTEUR), *FILL], 1: FILL})
    assert player_options(game) == {1, -1}, "the only opponent, or nobody"
    target(game, 1)
    assert len(game.lines[1]) == 3
    assert game.decision == Decision.REVEAL_OR_STOP


def test_saboteur_second_draw_skips_a_player_who_went_out() -> None:
    game = make_game(
        3,
        {
            0: [GOLD, C(Kind.SELLSWORD), C(Kind.SABOTEUR), *FILL],
            1: [GOLD, OMEN, GOLD, OMEN],
            2: FILL,
        },
    )
    reveal_step(game)
    reveal_step(game)
    target(game, 1)
    assert game.out[1]
    assert player_options(game) == {2, -1}, "then player 2 or nobody"
    target(game, 2)
    assert len(game.lines[2]) == 4


def test_priestess_forces_one_draw_per_face_up_mystic() -> None:
    game = make_game(2, {0: [C(Kind.ORACLE), C(Kind.PRIESTESS), *FILL], 1: FILL})
    reveal_step(game)
    assert player_options(game) == {0, 1, -1}
    target(game, 1)
    assert len(game.lines[1]) == 2 + 2


def test_pyromancer_is_optional_and_skips_stopped_players() -> None:
    game = make_game(3, {0: [GOLD, C(Kind.PYROMANCER), *FILL], 1: FILL, 2: FILL})
    reveal_step(game, stop=(1,))
    assert player_options(game) == {0, 2, -1}
    act(game, "choose_player", 5)
    assert [len(line) for line in game.lines] == [2, 1, 2]


@pytest.mark.parametrize(("kind", "drawn"), [(Kind.FIREBRAND, 1), (Kind.WARLORD, 1)])
def test_firebrand_and_warlord_draw_one(kind: Kind, drawn: int) -> None:
    game = make_game(2, {0: [GOLD, C(kind), *FILL], 1: FILL})
    reveal_step(game)
    assert len(game.lines[0]) == 2 + drawn


def test_wyrm_lord_draws_two_with_bust_checks() -> None:
    game = make_game(2, {0: [C(Kind.WYRM_LORD), GOLD, GOLD, *FILL], 1: FILL})
    assert game.lines[0] == [C(Kind.WYRM_LORD), GOLD, GOLD]
    game = make_game(2, {0: [OMEN, C(Kind.WYRM_LORD), OMEN, GOLD], 1: FILL})
    reveal_step(game)
    assert game.out[0], "the first forced card is the second Omen"


# ----- targeting limits ---------------------------------------------------------------------
def test_general_shields_its_owner_from_other_players_only() -> None:
    game = make_game(2, {0: [C(Kind.APPRENTICE), *FILL], 1: [C(Kind.GENERAL), *FILL]})
    assert player_options(game) == {0, -1}, "only the owner is left to target"
    target(game, 0)
    assert len(game.lines[0]) == 2
    assert len(game.lines[1]) == 1
    game = make_game(2, {0: [C(Kind.GENERAL), C(Kind.APPRENTICE), *FILL], 1: FILL})
    reveal_step(game)
    assert player_options(game) == {0, 1, -1}


def test_general_blocks_brigand_entirely() -> None:
    game = make_game(2, {0: [C(Kind.GENERAL), GOLD, *FILL], 1: [GOLD, C(Kind.BRIGAND), *FILL]})
    reveal_step(game)
    assert len(game.lines[0]) == 2 and game.decision == Decision.REVEAL_OR_STOP


def test_players_who_went_out_cannot_be_targeted() -> None:
    game = make_game(3, {0: [GOLD, C(Kind.BRIGAND), *FILL], 1: [OMEN, OMEN], 2: FILL})
    reveal_step(game)
    assert game.out[1]
    assert player_options(game) == {2, -1}, "player 2 is the only target left"
    target(game, 2)
    assert game.lines[2] == [GOLD, GOLD, GOLD]


def test_assassin_flips_an_opposing_champion_but_never_the_hero() -> None:
    hero_line = [C(Kind.HERO), C(Kind.FIGHTER), C(Kind.GUARD)]
    game = make_game(3, {0: [GOLD, GOLD, C(Kind.ASSASSIN), *FILL], 1: hero_line, 2: FILL})
    for _ in range(2):
        reveal_step(game)
    assert player_options(game) == {1, -1}, "player 2 has no Champion; never oneself"
    target(game, 1)
    assert game.decision == Decision.CHOOSE_CARD and game.pending_options == [1, 2]
    act(game, "choose_card", 1)
    assert game.face_up[1] == [1, 0, 1]


def test_assassin_has_no_target_against_a_lone_hero() -> None:
    game = make_game(2, {0: [GOLD, C(Kind.ASSASSIN), *FILL], 1: [C(Kind.HERO), *FILL]})
    reveal_step(game)
    assert game.decision == Decision.REVEAL_OR_STOP and all(game.face_up[1])


def test_lunar_witch_target_chooses_which_champion_to_flip() -> None:
    game = make_game(
        3,
        {0: [GOLD, GOLD, C(Kind.LUNAR_WITCH), *FILL], 1: [C(Kind.FIGHTER), C(Kind.GUARD)], 2: FILL},
    )
    reveal_step(game)
    reveal_step(game)
    assert player_options(game) == {1, 2, -1}, "never yourself; nobody allowed"
    target(game, 1)
    assert game.decision == Decision.CHOOSE_CARD and game.decider == 1
    assert game.pending_options == [0, 1], "'They must flip': the victim cannot decline"
    act(game, "choose_card", 0)
    assert game.face_up[1] == [0, 1]


def test_lunar_witch_flips_a_soldier_when_no_champion_is_available() -> None:
    game = make_game(2, {0: [GOLD, C(Kind.LUNAR_WITCH), *FILL], 1: [SOLDIER, C(Kind.HERO)]})
    reveal_step(game)
    target(game, 1)
    assert game.face_up[1] == [0, 1]


def test_shaman_flips_another_card_of_yours_or_else_itself() -> None:
    """ "When the Shaman is revealed, you must flip a Champion or Soldier you control. If you
    have no other face-up Champions (or only the Hero), you must flip the Shaman." """
    game = make_game(2, {0: [C(Kind.FIGHTER), SOLDIER, C(Kind.SHAMAN), *FILL], 1: FILL})
    reveal_step(game)
    reveal_step(game)
    assert game.pending_options == [0, SOLDIER_OPTION]
    act(game, "choose_card", SOLDIER_OPTION)
    assert game.face_up[0] == [1, 0, 1]
    game = make_game(2, {0: [C(Kind.HERO), C(Kind.SHAMAN), *FILL], 1: FILL})
    reveal_step(game)
    assert game.face_up[0] == [1, 0], "only the Hero: the Shaman flips itself"


def test_shaman_with_only_soldiers_face_up_flips_itself() -> None:
    """A face-up Soldier is not a Champion: with no other face-up Champion (the Shaman's
    own text names "a Champion or Soldier" apart), the Shaman flips itself."""
    game = make_game(2, {0: [SOLDIER, SOLDIER, C(Kind.SHAMAN), *FILL], 1: FILL})
    reveal_step(game)
    reveal_step(game)
    assert game.face_up[0] == [1, 1, 0], "the Soldiers stay; the Shaman turns face down"
    assert game.swords(0) == 2 and game.decision == Decision.REVEAL_OR_STOP
    game = make_game(2, {0: [C(Kind.HERO), SOLDIER, C(Kind.SHAMAN), *FILL], 1: FILL})
    reveal_step(game)
    reveal_step(game)
    assert game.face_up[0] == [1, 1, 0], "the Hero and a Soldier: still the Shaman"


def test_dancer_copies_a_down_effect_and_resolves_it_again() -> None:
    game = make_game(2, {0: [C(Kind.FIREBRAND), C(Kind.DANCER), GOLD, SOLDIER, *FILL], 1: FILL})
    assert game.lines[0] == [C(Kind.FIREBRAND), C(Kind.DANCER), GOLD]
    assert game.copies[0][1] == Kind.FIREBRAND, "the Firebrand drew the Dancer, which drew again"


def test_dancer_copies_ongoing_text_but_keeps_its_type() -> None:
    game = make_game(2)
    set_line(game, 0, [GOLD, GOLD, GOLD, C(Kind.MERCENARY), C(Kind.DANCER)])
    game.copies[0][4] = int(Kind.MERCENARY)
    assert game.swords(0) == 3 + 3
    set_line(game, 0, [C(Kind.BRIGAND), C(Kind.DANCER)])
    game.copies[0][1] = int(Kind.BRIGAND)
    assert game.swords(0) == (1 + 1) + (0 + 1), "each counts the other as a Rogue"


def test_dancer_never_copies_the_hero_and_chooses_among_several() -> None:
    game = make_game(2, {0: [C(Kind.HERO), C(Kind.DANCER), *FILL], 1: FILL})
    reveal_step(game)
    assert game.copies[0][1] == -1 and game.decision == Decision.REVEAL_OR_STOP
    game = make_game(2, {0: [C(Kind.MONK), C(Kind.GUARD), C(Kind.DANCER), *FILL], 1: FILL})
    for _ in range(2):
        reveal_step(game)
    assert game.decision == Decision.CHOOSE_CARD and game.pending_options == [0, 1]
    act(game, "choose_card", 0)
    assert game.gold(0) == 2 + 2


def test_oracle_shows_its_owner_the_top_four() -> None:
    cards = [C(Kind.ORACLE), GOLD, OMEN, SOLDIER, C(Kind.FIGHTER), GOLD]
    game = make_game(2, {0: cards, 1: FILL})
    assert game.known_top[0] == 4
    assert game.view(0)["my_top"].argmax(axis=1).tolist() == [GOLD, OMEN, SOLDIER, C(Kind.FIGHTER)]
    assert not game.view(1)["my_top"].any()
    reveal_step(game)
    assert game.known_top[0] == 3


# ----- Saint through the reveal steps --------------------------------------------------------
def test_saint_prevents_going_out() -> None:
    game = make_game(2, {0: [OMEN, C(Kind.SAINT), OMEN, GOLD], 1: FILL})
    reveal_step(game)
    act(game, "ignore_omen", IGNORE)
    reveal_step(game)
    assert not game.out[0] and game.gold(0) == 1
    assert game.face_up[0] == [0, 1, 1]


# ----- ongoing Swords and Gold ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "swords"),
    [
        ([C(Kind.BARBARIAN), C(Kind.FIGHTER), SOLDIER], 4 + 2 + 1),
        ([C(Kind.ARCHER)], 1),
        ([C(Kind.ARCHER), LOC], 1 + 3),
        ([C(Kind.BRIGAND)], 1),
        ([C(Kind.BRIGAND), C(Kind.SELLSWORD)], 1 + 1 + 1),
        ([C(Kind.GUARD)], 2),
        ([C(Kind.GUARD), C(Kind.SELLSWORD)], 2 + 2 + 1),
        ([C(Kind.MERCENARY), *[GOLD] * 3], 3),
        ([C(Kind.MERCENARY), *[GOLD] * 9], 7),
        ([C(Kind.PALADIN), C(Kind.SELLSWORD), C(Kind.BRIGAND)], 2 + 4 + 1 + 2),
        ([C(Kind.RETAINER), C(Kind.ORACLE), C(Kind.MONK)], 1 + 4 + 1 + 0),
        ([C(Kind.SENTINEL), LOC, location_code(6)], 1 + 4),
        ([C(Kind.WING_KNIGHT), C(Kind.ORACLE), C(Kind.SAINT), C(Kind.MONK)], 2 + 3 + 1 + 1),
        ([C(Kind.HERO), C(Kind.WYRM_LORD), C(Kind.GENERAL)], 5 + 6 + 3),
    ],
)
def test_battle_line_swords(line: list[int], swords: int) -> None:
    game = make_game(2)
    set_line(game, 0, line)
    assert game.swords(0) == swords


def test_face_down_cards_never_count() -> None:
    game = make_game(2)
    set_line(game, 0, [C(Kind.PALADIN), C(Kind.SELLSWORD), SOLDIER], down=(1, 2))
    assert game.swords(0) == 2 and game.gold(0) == 0


@pytest.mark.parametrize(
    ("line", "gold"),
    [
        ([GOLD, GOLD, OMEN], 3),
        ([C(Kind.SELLSWORD), GOLD], 2),
        ([C(Kind.MONK), C(Kind.SELLSWORD)], 3),
        ([SOLDIER, LOC, C(Kind.FIGHTER)], 0),
    ],
)
def test_gold_after_stop(line: list[int], gold: int) -> None:
    game = make_game(2)
    set_line(game, 0, line)
    assert game.gold(0) == gold


@pytest.mark.parametrize(
    ("terrain", "line", "swords"),
    [
        (Terrain.PLAIN, [SOLDIER, SOLDIER, C(Kind.FIGHTER), OMEN], 4),
        (Terrain.MARSH, [SOLDIER, SOLDIER, C(Kind.FIGHTER), C(Kind.ORACLE)], 5 - 3),
        (Terrain.HAUNTED, [C(Kind.BARBARIAN), OMEN], 4 - 2),
        (Terrain.GUARDED, [C(Kind.BRIGAND), C(Kind.SELLSWORD), C(Kind.FIGHTER)], 5 - 4),
        (Terrain.HAUNTED, [SOLDIER, OMEN], 0),
    ],
)
def test_location_terrain_lowers_every_line(terrain: Terrain, line: list[int], swords: int) -> None:
    game = make_game(2)
    set_location(game, next(i for i, loc in enumerate(LOCATIONS) if loc.terrain == terrain))
    set_line(game, 0, line)
    assert game.swords(0) == swords


def test_dancer_copying_saint_cancels_another_omen() -> None:
    game = make_game(2)
    set_line(game, 0, [C(Kind.SAINT), OMEN, C(Kind.DANCER), OMEN, OMEN])
    game.used[0][0] = 1
    game.face_up[0][1] = 0
    game.copies[0][2] = int(Kind.SAINT)
    game._omen_revealed(0, 4)
    assert not game.out[0] and game.face_up[0][4] == 0 and game.used[0][2] == 1


def test_dancer_copying_general_shields_its_owner() -> None:
    game = make_game(2)
    set_line(game, 1, [C(Kind.GENERAL), C(Kind.DANCER)], down=(0,))
    assert not game.shielded(1)
    game.copies[1][1] = int(Kind.GENERAL)
    assert game.shielded(1) and not game.can_target(0, 1) and game.can_target(1, 1)


def test_dancer_copying_saboteur_counts_the_original_as_another_rogue() -> None:
    game = make_game(2, {0: [C(Kind.SABOTEUR), C(Kind.DANCER), *FILL], 1: FILL + FILL})
    target(game, 1)
    assert len(game.lines[1]) == 1 + 2, "alone, the Saboteur forces two draws"
    reveal_step(game)
    target(game, 1)
    target(game, 1)
    assert game.copies[0][1] == Kind.SABOTEUR
    assert len(game.lines[1]) == 3 + 1 + 2 + 1, "the copy forces three: 2, then 1 more"
