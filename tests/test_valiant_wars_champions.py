"""Every Valiant Wars champion's effect, targeting limits and the Location terrains."""

from __future__ import annotations

import pytest
from tabletop_envs.agents.valiant_wars_bot import ValiantWarsHeuristicAgent
from test_valiant_wars_rules import (
    act,
    make_game,
    player_options,
    reveal_step,
    set_line,
    set_location,
    target,
)

from tabletop_envs.valiant_wars.rules import ValiantWarsGame
from tabletop_envs.valiant_wars.spec import (
    CHAMPION_BASE,
    CTX_EFFECT,
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
    is_champion,
    location_code,
)

C = champion_code
LOC = location_code(5)
FILL = [GOLD] * 6


# ----- forced draws ---------------------------------------------------------------------------
# "Targeting is optional unless a card dictates that targeting must happen." The Apprentice,
# the Brigand, the Saboteur, the Priestess and the Lunar Witch dictate it: one of the players
# their words allow must be chosen, and nobody (-1 below) is offered only when no one is left
# to choose. The Assassin ("you may flip") and the Pyromancer ("you my choose") offer nobody.
@pytest.mark.parametrize("chosen", [0, 1])
def test_apprentice_makes_a_selected_player_draw_one(chosen: int) -> None:
    """ "When the Apprentice is revealed, a player you select must draw 1 card." """
    game = make_game(2, {0: [C(Kind.APPRENTICE), *FILL], 1: [GOLD, OMEN, *FILL]})
    assert player_options(game) == {0, 1}, "anyone, yourself included; not nobody"
    target(game, chosen)
    assert len(game.lines[chosen]) == 2 and len(game.lines[1 - chosen]) == 1
    assert game.lines[1][-1] == (OMEN if chosen == 1 else GOLD)


@pytest.mark.parametrize(
    ("kind", "targets"),
    [
        (Kind.APPRENTICE, {0, 1, 2}),  # "a player you select must draw 1 card"
        (Kind.BRIGAND, {1, 2}),  # "an enemy player of your choosing must draw 1 card"
        (Kind.SABOTEUR, {1, 2}),  # "an opposing player must draw 2 cards"
        (Kind.PRIESTESS, {0, 1, 2}),  # "you force a player to draw"
        (Kind.LUNAR_WITCH, {1, 2}),  # "choose a player. They must flip ... not yourself"
    ],
)
def test_a_card_that_dictates_targeting_offers_exactly_the_players_it_allows(
    kind: Kind, targets: set[int]
) -> None:
    game = make_game(3, {0: [C(kind), *FILL], 1: [C(Kind.FIGHTER), *FILL], 2: [SOLDIER, *FILL]})
    assert game.decision == Decision.CHOOSE_PLAYER
    assert player_options(game) == targets, "the players its words allow, and not nobody"


@pytest.mark.parametrize("kind", [Kind.BRIGAND, Kind.SABOTEUR, Kind.LUNAR_WITCH])
def test_a_dictated_target_is_skipped_only_when_no_opponent_is_left(kind: Kind) -> None:
    """With one opponent OUT and the other behind a General, no player is left to choose:
    the effect fizzles without a decision and changes nothing."""
    game = make_game(
        3, {0: [GOLD, C(kind), *FILL], 1: [OMEN, OMEN, *FILL], 2: [C(Kind.GENERAL), *FILL]}
    )
    reveal_step(game)
    assert game.out[1] and game.shielded(2)
    assert game.decision == Decision.REVEAL_OR_STOP
    assert game.lines[2] == [C(Kind.GENERAL), GOLD] and game.face_up[2] == [1, 1]


@pytest.mark.parametrize("kind", [Kind.BRIGAND, Kind.SABOTEUR])
def test_the_only_eligible_opponent_is_made_to_draw_without_a_question(kind: Kind) -> None:
    """One eligible player and a target dictated: the one legal choice is made (ruling 19)."""
    game = make_game(2, {0: [C(kind), *FILL], 1: FILL})
    assert game.decision == Decision.REVEAL_OR_STOP
    assert len(game.lines[1]) == 1 + (2 if kind == Kind.SABOTEUR else 1)


@pytest.mark.parametrize(("kind", "targets"), [(Kind.ASSASSIN, {1}), (Kind.PYROMANCER, {0, 1})])
def test_a_card_that_says_may_offers_nobody_which_changes_nothing(
    kind: Kind, targets: set[int]
) -> None:
    """The Assassin "may flip", the Pyromancer "may choose a player": targeting is optional."""
    game = make_game(2, {0: [C(kind), *FILL], 1: [C(Kind.FIGHTER), *FILL]})
    assert player_options(game) == {*targets, -1}
    lines, up = [list(line) for line in game.lines], [list(f) for f in game.face_up]
    act(game, "choose_player", NOBODY)
    assert game.lines == lines and game.face_up == up
    assert game.decision == Decision.REVEAL_OR_STOP


def test_brigand_targets_only_enemies_and_chains_forced_draws() -> None:
    game = make_game(
        3, {0: [C(Kind.BRIGAND), *FILL], 1: [GOLD, C(Kind.FIREBRAND), GOLD, *FILL], 2: FILL}
    )
    assert player_options(game) == {1, 2}
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
    assert player_options(game) == {1, 2}
    target(game, 1)
    assert len(game.lines[1]) == 4
    assert game.decision == Decision.CHOOSE_PLAYER, "the extra card for the other Rogue"
    assert player_options(game) == {1, 2}
    target(game, 1)
    assert len(game.lines[1]) == 5 and len(game.lines[2]) == 2


def test_saboteur_splits_two_and_one() -> None:
    game = make_game(3, {0: [C(Kind.BRIGAND), C(Kind.SABOTEUR), *FILL], 1: FILL, 2: FILL})
    target(game, 2)
    reveal_step(game)
    target(game, 1)
    target(game, 2)
    assert len(game.lines[1]) == 2 + 2 and len(game.lines[2]) == 2 + 1 + 1


def test_saboteur_with_another_rogue_makes_the_only_opponent_draw_three() -> None:
    game = make_game(2, {0: [C(Kind.SELLSWORD), C(Kind.SABOTEUR), *FILL], 1: FILL})
    reveal_step(game)
    assert len(game.lines[1]) == 2 + 2 + 1, "both draws dictated, one opponent: no question"
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
    assert game.decision == Decision.REVEAL_OR_STOP, "player 2, the only one left, draws"
    assert len(game.lines[2]) == 4


def test_priestess_forces_one_draw_per_face_up_mystic() -> None:
    game = make_game(2, {0: [C(Kind.ORACLE), C(Kind.PRIESTESS), *FILL], 1: FILL})
    reveal_step(game)
    assert player_options(game) == {0, 1}
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


SELF_ALLOWED = {Kind.APPRENTICE, Kind.PRIESTESS, Kind.PYROMANCER}
"""Cards that say "a player" (the owner included); the others say "enemy", "opposing",
"opposing Champion" or "You may not choose yourself"."""
MAY_TARGET = {Kind.ASSASSIN, Kind.PYROMANCER}
"""The two player-choosing cards that say "may": only they offer nobody."""


def allowed_players(game: ValiantWarsGame, chooser: int, effect: int) -> set[int]:
    """The absolute seats a player-choosing card lets ``chooser`` pick (-1: nobody), from the
    card texts and the targeting rules, written apart from the rules module."""
    allowed = set()
    for seat in range(game.num_players):
        line, up, copies = game.lines[seat], game.face_up[seat], game.copies[seat]
        face_up = [
            copies[pos] if code == C(Kind.DANCER) else code - CHAMPION_BASE
            for pos, code in enumerate(line)
            if up[pos] and is_champion(code)
        ]
        general = Kind.GENERAL in face_up
        flippable = [kind for kind in face_up if kind != Kind.HERO]
        if (
            game.out[seat]  # "After you go out, you cannot be Targeted"
            or (seat == chooser and effect not in SELF_ALLOWED)
            or (seat != chooser and general)  # "you cannot be targeted by other players'"
            or (effect == Kind.PYROMANCER and game.stopped[seat])
            or (effect == Kind.ASSASSIN and not flippable)
        ):
            continue
        allowed.add(seat)
    return allowed | ({-1} if effect in MAY_TARGET else set())


def test_every_choice_of_a_player_offers_exactly_what_its_card_allows() -> None:
    """Along heuristic-bot games (which buy every Champion), each choose_player mask is the
    set of players the card's words allow, with nobody only for the cards that say "may";
    every player-choosing card is met."""
    met = set()
    for players in (2, 3, 4, 5):
        for seed in range(3):
            game = ValiantWarsGame(players, seed=seed)
            bots = [ValiantWarsHeuristicAgent(seed=seat) for seat in range(players)]
            while not game.is_terminal:
                if game.decision == Decision.CHOOSE_PLAYER:
                    effect = game.pending[CTX_EFFECT]
                    met.add(Kind(effect))
                    assert player_options(game) == allowed_players(game, game.decider, effect)
                seat = game.current_player
                mask = game.legal_mask()
                observation = {"observation": game.observation(seat), "action_mask": mask}
                game.apply(bots[seat].act(observation, f"player_{seat}"))
    assert met == SELF_ALLOWED | MAY_TARGET | {Kind.BRIGAND, Kind.SABOTEUR, Kind.LUNAR_WITCH}


# ----- targeting limits ---------------------------------------------------------------------
def test_general_shields_its_owner_from_other_players_only() -> None:
    game = make_game(2, {0: [C(Kind.APPRENTICE), *FILL], 1: [C(Kind.GENERAL), *FILL]})
    assert game.decision == Decision.REVEAL_OR_STOP, "only the owner is left: it must draw"
    assert len(game.lines[0]) == 2
    assert len(game.lines[1]) == 1
    game = make_game(2, {0: [C(Kind.GENERAL), C(Kind.APPRENTICE), *FILL], 1: FILL})
    reveal_step(game)
    assert player_options(game) == {0, 1}


def test_general_blocks_brigand_entirely() -> None:
    game = make_game(2, {0: [C(Kind.GENERAL), GOLD, *FILL], 1: [GOLD, C(Kind.BRIGAND), *FILL]})
    reveal_step(game)
    assert len(game.lines[0]) == 2 and game.decision == Decision.REVEAL_OR_STOP


def test_players_who_went_out_cannot_be_targeted() -> None:
    game = make_game(3, {0: [GOLD, C(Kind.BRIGAND), *FILL], 1: [OMEN, OMEN], 2: FILL})
    reveal_step(game)
    assert game.out[1]
    assert game.decision == Decision.REVEAL_OR_STOP, "player 2 is the only target left"
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
    assert player_options(game) == {1, 2}, "never yourself; never nobody"
    target(game, 1)
    assert game.decision == Decision.CHOOSE_CARD and game.decider == 1
    assert game.pending_options == [0, 1], "'They must flip': the victim cannot decline"
    act(game, "choose_card", 0)
    assert game.face_up[1] == [0, 1]


def test_lunar_witch_flips_a_soldier_when_no_champion_is_available() -> None:
    game = make_game(2, {0: [GOLD, C(Kind.LUNAR_WITCH), *FILL], 1: [SOLDIER, C(Kind.HERO)]})
    reveal_step(game)
    assert game.face_up[1] == [0, 1], "the only opponent, chosen without a question"


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
    assert len(game.lines[1]) == 1 + 2, "alone, the Saboteur forces two draws"
    reveal_step(game)
    assert game.copies[0][1] == Kind.SABOTEUR
    assert len(game.lines[1]) == 3 + 1 + 2 + 1, "the copy forces three: 2, then 1 more"
