"""Valenor rules: the rulebook's worked examples, each rule, and the end conditions."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.observer import turn_stage
from tabletop_envs.valenor.rules import ValenorGame
from tabletop_envs.valenor.spec import LAYOUT, PASS_PLAY, Decision

L1, L2, L3, L4, L5 = range(5)
IRINA, RONJA, MATTHIAS = range(3)


def inv(value: int) -> int:
    return S.invader_id(value)


def dfn(value: int, copy: int = 0) -> int:
    return S.defense_ids(value)[copy]


def sup(value: int) -> int:
    return next(c for c in S.SUPPORT_IDS if S.VALUE[c] == value)


def act(game: ValenorGame, segment: str, option: int) -> None:
    game.apply(LAYOUT[segment].action(option))


def options(game: ValenorGame) -> list[int]:
    return [LAYOUT.locate(a)[1] for a in game.legal_actions()]


def pass_windows(game: ValenorGame) -> None:
    while game.decision == Decision.SPIRIT_WINDOW:
        act(game, "spirit_window", 0)


def game_at(players: int = 3, **position: object) -> ValenorGame:
    game = ValenorGame(players, seed=0)
    game.arrange(**position)
    return game


# ----- the rulebook's worked examples --------------------------------------------------
def test_invader_19_goes_to_the_4th_location() -> None:
    game = game_at(hands=[[inv(19), dfn(5)], [dfn(6)], [dfn(7)]], invaders={L3: inv(14)})
    pass_windows(game)
    assert game.decision == Decision.PLACE and game.card_in_play() == inv(19)
    assert options(game) == [L4]
    act(game, "place", L4)
    assert game.invader_at[L4] == inv(19)


def test_defense_9_goes_anywhere_and_stacks_at_the_4th_location() -> None:
    game = game_at(
        hands=[[dfn(1)], [dfn(9), dfn(5)], [dfn(7)]],
        invaders={L4: inv(19)},
        defense={L4: [dfn(8)]},
        active=RONJA,
    )
    pass_windows(game)
    assert options(game) == [L1, L2, L3, L4, L5]
    act(game, "place", L4)
    assert game.defense_at[L4] == [dfn(8), dfn(9)]
    assert game.invader_at[L4] == inv(19), "8 + 9 = 17 does not reach 19"


def test_direct_hit_8_9_2_draws_a_support_and_the_plus_gives_an_extra_play() -> None:
    game = game_at(
        hands=[[dfn(2), dfn(12)], [dfn(6)], [dfn(7)]],
        invaders={L4: inv(19)},
        defense={L4: [dfn(8), dfn(9)]},
    )
    support = game.support_deck[-1]
    pass_windows(game)
    act(game, "place", L4)
    assert game.invader_at[L4] == -1 and game.defense_at[L4] == []
    assert set(game.discards) == {inv(19), dfn(8), dfn(9), dfn(2)}
    assert game.hands[IRINA] == [dfn(12), support], "the Support goes to the back"
    pass_windows(game)
    assert game.decision == Decision.PLAY_CARD, "an extra play, before step 2"
    assert turn_stage(game) == 3
    act(game, "play_card", support)
    pass_windows(game)
    assert options(game) == [L1, L2, L3, L4, L5]
    act(game, "place", L1)
    assert game.defense_at[L1] == [support]


def test_invader_6_devastates_the_chosen_location_and_goes_under_the_deck() -> None:
    game = game_at(
        hands=[[dfn(4)], [dfn(5)], [inv(6), dfn(7)]],
        invaders={L3: inv(14)},
        active=MATTHIAS,
    )
    bottom_before = game.invader_deck[0]
    pass_windows(game)
    pass_windows(game)
    assert game.decision == Decision.DEVASTATE and options(game) == [L3, L5]
    act(game, "devastate", L5)
    assert game.devastated == [False, False, False, False, True]
    assert game.terrains_at(L5) == (S.MOUNTAIN,), "its small terrain, Forest, is devastated"
    assert game.invader_deck[0] == inv(6) and game.invader_deck[1] == bottom_before
    assert inv(6) not in game.hands[MATTHIAS]


def test_a_devastating_invader_becomes_the_deck_when_the_deck_is_empty() -> None:
    others = [c for c in S.INVADER_IDS if c not in (inv(6), inv(14))]
    game = game_at(
        hands=[[dfn(4)], others, [inv(6), dfn(7)]],
        invaders={L3: inv(14)},
        active=MATTHIAS,
    )
    assert game.invader_deck == []
    pass_windows(game)
    pass_windows(game)
    act(game, "devastate", L3)
    assert game.invader_deck == [inv(6)]
    assert game.terrains_at(L3) == (S.LAKE,), "the 3rd Location loses its Mountain"


def test_toni_out_of_turn_saves_a_placement() -> None:
    game = game_at(
        hands=[[dfn(4)], [dfn(9, 1), dfn(12)], [inv(8)]],
        invaders={L1: inv(9), L3: inv(20)},
        spirits=(S.BROM, S.TONI, S.WISP),
        active=MATTHIAS,
    )
    assert game.decision == Decision.SPIRIT_WINDOW and game.decider == RONJA  # before step 1
    act(game, "spirit_window", 0)
    assert game.decision == Decision.SPIRIT_WINDOW, "the devastation window"
    assert game.decider == RONJA
    act(game, "spirit_window", 1)
    assert game.decision == Decision.PLAY_CARD and game.decider == RONJA
    assert PASS_PLAY not in options(game)
    act(game, "play_card", dfn(9, 1))
    act(game, "place", L1)
    assert game.invader_at[L1] == -1, "Invader 9 is defeated"
    assert game.hands[RONJA][-1] == S.spirit_card(S.TONI), "Toni goes to the back"
    assert not game.spirit_out[RONJA]
    assert game.decision == Decision.PLACE and game.decider == MATTHIAS
    assert options(game) == [L1]
    act(game, "place", L1)
    assert game.invader_at[L1] == inv(8) and not any(game.devastated)


# ----- further rules -------------------------------------------------------------------
def test_setup_hands_and_invader_deck_order() -> None:
    game = ValenorGame(4, seed=3)
    for _ in range(4):
        assert game.decision == Decision.CHOOSE_SPIRIT
        act(game, "choose_spirit", options(game)[0])
    assert sorted(game.spirit_of) == [0, 1, 2, 3]
    for hand in game.hands:
        assert [S.KIND[c] for c in hand] == [S.KIND_INVADER, S.KIND_DEFENSE] * 2
    assert len(game.defense_deck) == 20 and len(game.support_deck) == 14
    letters = [S.CARD_LETTER[c] for c in game.invader_deck]
    assert letters == sorted(letters, reverse=True), "A on top (end), then B, then C"


def test_spirits_can_only_be_chosen_once() -> None:
    game = ValenorGame(3, seed=0)
    act(game, "choose_spirit", S.WISP)
    assert S.WISP not in options(game)


def test_placement_needs_increasing_values_and_one_invader_per_location() -> None:
    game = game_at(hands=[[dfn(3)], [dfn(4)], [dfn(5)]], invaders={L2: inv(13)})
    assert game.placements(inv(19)) == [L4], "Grass: L2 is taken"
    assert game.placements(inv(10)) == [], "Grass 10 cannot go right of 13"
    assert game.placements(inv(8)) == [L1], "Lake 8 cannot go right of 13"
    assert game.placements(inv(14)) == [L3]
    assert game.placements(dfn(5)) == [L1, L2, L3, L4, L5]


def test_a_devastated_location_keeps_its_large_terrain() -> None:
    game = game_at(hands=[[dfn(3)], [dfn(4)], [dfn(5)]], devastated=(L4,))
    assert game.placements(inv(19)) == [L2, L4], "Grass is L4's large terrain"
    assert game.placements(inv(9)) == [L1], "Swamp was L4's small terrain"


def test_invader_placed_on_enough_defense_is_defeated_with_a_direct_hit() -> None:
    game = game_at(hands=[[inv(13), dfn(3)], [dfn(4)], [dfn(5)]], defense={L2: [dfn(13)]})
    pass_windows(game)
    act(game, "place", L2)
    assert game.invader_at[L2] == -1 and inv(13) in game.discards
    assert S.KIND[game.hands[IRINA][-1]] == S.KIND_SUPPORT


def test_overshoot_defeats_without_a_support() -> None:
    game = game_at(hands=[[dfn(14)], [dfn(4)], [dfn(5)]], invaders={L2: inv(13)})
    pass_windows(game)
    act(game, "place", L2)
    assert inv(13) in game.discards and len(game.support_deck) == 14
    assert all(S.KIND[c] != S.KIND_SUPPORT for c in game.hands[IRINA])


def test_plus_cards_chain_extra_plays() -> None:
    game = game_at(hands=[[dfn(1), dfn(2), dfn(3), dfn(12)], [dfn(4)], [dfn(5)]])
    pass_windows(game)
    act(game, "place", L1)  # Defense 1+
    for card in (dfn(2), dfn(3)):
        pass_windows(game)
        assert game.decision == Decision.PLAY_CARD and turn_stage(game) == 3
        act(game, "play_card", card)
        pass_windows(game)
        act(game, "place", L1)
    pass_windows(game)
    assert turn_stage(game) == 3
    act(game, "play_card", PASS_PLAY)
    pass_windows(game)
    assert game.decision == Decision.PLAY_CARD and turn_stage(game) == 4, "then step 2"
    act(game, "play_card", dfn(12))
    pass_windows(game)
    act(game, "place", L2)
    pass_windows(game)
    assert game.active == RONJA, "no plus on 12: the turn ends after the draws"
    assert len(game.hands[IRINA]) == 2


def test_step_two_may_play_an_unplaceable_invader_which_devastates() -> None:
    game = game_at(
        hands=[[dfn(4), inv(10)], [dfn(5)], [dfn(6)]],
        invaders={L2: inv(13), L4: inv(16)},
    )
    pass_windows(game)
    act(game, "place", L5)
    pass_windows(game)
    act(game, "play_card", inv(10))
    pass_windows(game)
    assert game.decision == Decision.DEVASTATE and options(game) == [L2, L4]


def test_toni_plus_card_gives_no_extra_play() -> None:
    game = game_at(hands=[[dfn(10), dfn(1)], [dfn(5)], [dfn(6)]], spirits=(S.TONI, S.BROM, S.WISP))
    act(game, "spirit_window", 1)
    act(game, "play_card", dfn(1))
    act(game, "place", L3)
    assert game.hands[IRINA] == [dfn(10), S.spirit_card(S.TONI)]
    pass_windows(game)
    act(game, "place", L3)  # step 1: Defense 10
    pass_windows(game)
    assert game.spirit_out[IRINA], "Toni became frontmost and was laid out again"
    assert S.spirit_card(S.TONI) not in game.hands[IRINA]
    assert game.active == RONJA, "no extra play from the Defense 1 played through Toni"


def test_brom_moves_defense_and_his_owner_gets_the_direct_hit() -> None:
    game = game_at(
        hands=[[dfn(4)], [dfn(5), dfn(6)], [dfn(7)]],
        invaders={L2: inv(13)},
        defense={L2: [dfn(9)], L5: [dfn(4, 1)]},
        spirits=(S.TONI, S.BROM, S.WISP),
    )
    act(game, "spirit_window", 0)  # Irina (Toni)
    assert game.decider == RONJA
    act(game, "spirit_window", 1)
    assert game.decision == Decision.MOVE_DEFENSE and options(game) == sorted([dfn(9), dfn(4, 1)])
    act(game, "move_defense", dfn(4, 1))
    assert game.decision == Decision.MOVE_TARGET and options(game) == [L1, L2, L3, L4]
    act(game, "place", L2)
    assert inv(13) in game.discards
    assert game.hands[RONJA][-2:] == [game.hands[RONJA][-2], S.spirit_card(S.BROM)]
    assert S.KIND[game.hands[RONJA][-2]] == S.KIND_SUPPORT


def test_wisp_brings_a_card_to_the_front_before_step_one() -> None:
    game = game_at(
        hands=[[inv(21), dfn(4), dfn(8)], [dfn(5)], [dfn(6)]],
        spirits=(S.WISP, S.TONI, S.BROM),
    )
    act(game, "spirit_window", 1)
    assert game.decision == Decision.BRING_TO_FRONT and options(game) == [dfn(4), dfn(8)]
    act(game, "bring_to_front", dfn(8))
    assert game.hands[IRINA] == [dfn(8), inv(21), dfn(4), S.spirit_card(S.WISP)]
    pass_windows(game)
    assert game.card_in_play() == dfn(8), "step 1 plays the new front card"


def test_fenna_draws_a_defense_card() -> None:
    game = game_at(hands=[[dfn(4)], [dfn(5)], [dfn(6)]], spirits=(S.FENNA, S.TONI, S.BROM))
    top = game.defense_deck[-1]
    act(game, "spirit_window", 1)
    assert game.hands[IRINA] == [dfn(4), top, S.spirit_card(S.FENNA)]


def test_spirits_need_a_card_in_hand_and_a_useful_effect() -> None:
    game = game_at(hands=[[dfn(4)], [], [dfn(6)]], spirits=(S.WISP, S.TONI, S.BROM))
    assert not game.can_use_spirit(IRINA), "Wisp needs two cards"
    assert not game.can_use_spirit(RONJA), "an empty hand"
    assert not game.can_use_spirit(MATTHIAS), "Brom needs Defense on the table"
    assert game.decision == Decision.PLACE, "no window when nobody can use a spirit"


def test_a_spirit_in_hand_is_laid_out_when_it_becomes_frontmost() -> None:
    game = game_at(
        hands=[[S.spirit_card(S.TONI), dfn(4)], [dfn(5)], [dfn(6)]],
        spirits=(S.TONI, S.BROM, S.WISP),
    )
    assert game.spirit_out[IRINA] and game.hands[IRINA] == [dfn(4)]


def test_draw_steps_are_skipped_when_decks_are_empty() -> None:
    game = game_at(hands=[[dfn(4)], [dfn(5)], [dfn(6)]], spirits=(S.WISP, S.FENNA, S.BROM))
    game.invader_deck.clear()
    pass_windows(game)
    act(game, "place", L1)
    pass_windows(game)
    assert S.KIND[game.hands[IRINA][0]] == S.KIND_DEFENSE and len(game.hands[IRINA]) == 1


def test_a_turn_with_an_empty_hand_and_empty_decks_is_skipped() -> None:
    game = game_at(hands=[[dfn(4)], [], [dfn(6)]], spirits=(S.WISP, S.FENNA, S.BROM))
    game.invader_deck.clear()
    game.defense_deck.clear()
    pass_windows(game)
    act(game, "place", L1)
    pass_windows(game)
    assert game.active == MATTHIAS and game.turn == 2


def test_win_when_the_last_invader_is_defeated() -> None:
    game = game_at(
        hands=[[dfn(14, 1)], [dfn(5)], [dfn(6)]],
        invaders={L5: inv(21)},
        defense={L5: [dfn(7)]},
        discards=tuple(c for c in S.INVADER_IDS if c != inv(21)),
    )
    pass_windows(game)
    act(game, "place", L5)
    assert game.is_terminal and np.array_equal(game.returns(), [1.0, 1.0, 1.0])


def test_loss_when_the_terrain_survives_only_on_devastated_locations() -> None:
    game = game_at(
        hands=[[inv(17), dfn(4)], [dfn(5)], [dfn(6)]],
        invaders={L3: inv(20), L5: inv(18)},
        devastated=(L2,),
        spirits=(S.WISP, S.FENNA, S.BROM),
    )
    assert game.devastation_choices(S.MOUNTAIN) == [L3, L5]
    game.arrange(
        hands=[[inv(17), dfn(4)], [dfn(5)], [dfn(6)]],
        invaders={L3: inv(20), L5: inv(18)},
        devastated=(L3, L5),
        spirits=(S.TONI, S.FENNA, S.BROM),
    )
    pass_windows(game)
    pass_windows(game)
    assert game.is_terminal and game.loss_reason == "terrain"
    assert np.array_equal(game.returns(), [-1.0, -1.0, -1.0])


def test_loss_when_the_defense_left_cannot_cover_the_invaders_left() -> None:
    wasted = (dfn(14), dfn(14, 1), dfn(2), inv(6))  # 240 - 30 Defense left = 216 - 6 needed
    game = game_at(hands=[[dfn(4)], [dfn(5)], [dfn(6)]], discards=wasted)
    assert not game.is_terminal, "exactly enough Defense is left: still winnable"
    game.arrange(hands=[[dfn(4)], [dfn(5)], [dfn(6)]], discards=(*wasted, dfn(1)))
    assert game.is_terminal and game.loss_reason == "defense"


def test_loss_when_nobody_can_ever_act_again() -> None:
    game = game_at(hands=[[dfn(4)], [], []], invaders={L1: inv(9)})
    game.invader_deck.clear()
    game.defense_deck.clear()
    pass_windows(game)
    act(game, "place", L2)
    assert game.is_terminal and game.loss_reason == "stalled"


def test_shaped_reward_counts_the_defeated_invaders() -> None:
    game = ValenorGame(3, seed=0, shaped_reward=True)
    game.arrange(hands=[[dfn(4)], [], []], invaders={L1: inv(9)}, discards=(inv(6), dfn(6)))
    game.invader_deck.clear()
    game.defense_deck.clear()
    pass_windows(game)
    act(game, "place", L2)
    assert game.returns() == pytest.approx([-1 + 6 / 216] * 3)


# ----- spirit moments: "at any time ... before or after any step of a turn" ---------------
def test_a_card_is_shown_face_up_and_the_others_may_act_before_it_is_placed() -> None:
    """Rulebook: the active player "may first play the card face up in the middle of the play
    area and be advised by the others before deciding where to place it", and a spirit may be
    used "at any time ... before or after any step of a turn". Ronja readies Defense 13 with
    Toni where Irina's shown Invader 13 will land: Irina's placement is a Direct Hit."""
    game = game_at(
        hands=[[inv(13), dfn(4)], [dfn(13), dfn(5)], [dfn(6)]],
        spirits=(S.BROM, S.TONI, S.WISP),
    )
    act(game, "spirit_window", 0)  # before step 1: Ronja passes
    assert game.decision == Decision.SPIRIT_WINDOW and game.decider == RONJA
    assert game.frames[-1][1] == S.W_FACE_UP and game.card_in_play() == inv(13)
    for seat in range(3):
        assert game.view(seat)["card_in_play_value"] == 13, "face up: everyone sees it"
    act(game, "spirit_window", 1)  # Toni, out of turn
    act(game, "play_card", dfn(13))
    act(game, "place", L2)
    assert game.decision == Decision.PLACE and game.decider == IRINA
    act(game, "place", L2)
    assert inv(13) in game.discards and S.KIND[game.hands[IRINA][-1]] == S.KIND_SUPPORT


def test_every_play_of_a_turn_is_shown_face_up_but_a_spirits_play_is_not() -> None:
    game = game_at(
        hands=[[dfn(1), dfn(12), dfn(9)], [dfn(5), dfn(6)], [dfn(7)]],
        spirits=(S.BROM, S.TONI, S.WISP),
        defense={L5: [dfn(2)]},
    )
    reasons = []
    while not (game.decision == Decision.PLACE and game.frames[-1][2] == dfn(9)):
        if game.decision == Decision.SPIRIT_WINDOW:
            reasons.append(game.frames[-1][1])
            act(game, "spirit_window", 0)
        elif game.decision == Decision.PLAY_CARD:
            act(game, "play_card", dfn(12) if game.frames[0][3] else dfn(9))
        else:
            act(game, "place", L1)
    assert reasons.count(S.W_FACE_UP) == 2 + 2 + 1, (
        "step 1, the extra play and step 2 each shown face up: Irina (Brom) and Ronja (Toni)"
        " asked each time, but Irina no more once her hand is empty"
    )
    # Toni's play (a spirit effect) goes straight to its placement
    game = game_at(hands=[[dfn(4)], [dfn(5), dfn(6)], [dfn(7)]], spirits=(S.BROM, S.TONI, S.WISP))
    act(game, "spirit_window", 0)
    act(game, "spirit_window", 1)
    act(game, "play_card", dfn(5))
    assert game.decision == Decision.PLACE and game.decider == RONJA


def test_spirits_may_be_used_after_step_two_before_the_draws() -> None:
    """Rulebook: "before or after any step of a turn". After Irina's step 2 (Invader 13 to
    L2) Ronja defeats it with Toni before Irina draws (steps 3 and 4)."""
    game = game_at(
        hands=[[dfn(4), inv(13)], [dfn(13), dfn(5)], [dfn(6)]],
        spirits=(S.BROM, S.TONI, S.WISP),
    )
    pass_windows(game)
    act(game, "place", L1)  # step 1
    pass_windows(game)
    act(game, "play_card", inv(13))  # step 2
    pass_windows(game)
    act(game, "place", L2)
    assert game.decision == Decision.SPIRIT_WINDOW and game.decider == RONJA
    assert game.frames[-1][1] == S.W_AFTER_STEP2
    assert game.hands[IRINA] == [], "the draws come after this window"
    act(game, "spirit_window", 1)
    act(game, "play_card", dfn(13))
    act(game, "place", L2)
    assert inv(13) in game.discards
    assert game.active == RONJA and len(game.hands[IRINA]) == 2, "then Irina drew two cards"


def test_the_after_step_two_window_comes_when_step_two_is_passed_or_skipped() -> None:
    game = game_at(hands=[[dfn(4)], [dfn(5)], [dfn(6)]], spirits=(S.TONI, S.BROM, S.WISP))
    act(game, "spirit_window", 0)  # before step 1 (Irina's Toni; nobody else can act)
    assert game.decision == Decision.PLACE, "face up, but nobody can use a spirit: no window"
    act(game, "place", L1)  # step 1; no card left: step 2 is skipped
    assert game.decision == Decision.SPIRIT_WINDOW and game.frames[-1][1] == S.W_AFTER_STEP2
    assert game.decider == RONJA, "Irina's hand is empty; Brom now has Defense to move"


# ----- table talk: players "may (and should) communicate" -------------------------------
def test_with_signalling_every_player_speaks_at_every_spirit_window() -> None:
    game = ValenorGame(3, seed=0, signalling=True)
    game.arrange(
        hands=[[inv(19), dfn(4)], [dfn(5)], [dfn(6)]],
        invaders={L2: inv(13)},
        spirits=(S.WISP, S.TONI, S.BROM),
    )
    asked = []
    while game.decision == Decision.SPIRIT_WINDOW and game.frames[-1][1] == S.W_STEP1:
        asked.append((game.frames[-1][1], game.decider, options(game)))
        act(game, "spirit_window", 2 * S.SAY_NOTHING)
    assert [(reason, seat) for reason, seat, _ in asked] == [
        (S.W_STEP1, IRINA),
        (S.W_STEP1, RONJA),
        (S.W_STEP1, MATTHIAS),
    ], "Matthias (Brom, no Defense on the table) speaks though his spirit cannot act"
    _, _, matthias = asked[2]
    assert all(option % 2 == 0 for option in matthias), "he may talk but not use Brom"
    assert 2 * S.SAY_SHOWN not in matthias, "no Invader is shown yet"
    defeat_at = [o // 2 - S.SAY_DEFEAT_AT for o in matthias if S.SAY_DEFEAT_AT <= o // 2 < 8]
    assert defeat_at == [L2], "only where an Invader stands"
    # Invader 19 is shown face up: the others may say they can defeat it
    game = ValenorGame(3, seed=0, signalling=True)
    game.arrange(hands=[[inv(19), dfn(4)], [dfn(5)], [dfn(6)]], spirits=(S.WISP, S.TONI, S.BROM))
    for _ in range(3):
        act(game, "spirit_window", 0)
    assert game.frames[-1][1] == S.W_FACE_UP and game.decider == IRINA
    act(game, "spirit_window", 2 * S.SAY_PLUS)
    assert game.decider == RONJA and 2 * S.SAY_SHOWN in options(game)
    act(game, "spirit_window", 2 * S.SAY_SHOWN)
    words = game.action_to_str(LAYOUT["spirit_window"].action(2 * S.SAY_SHOWN + 1))
    assert words == 'use my Nature Spirit, say "I can defeat the shown Invader"'
    for seat in range(3):
        relative = (RONJA - seat) % 3
        assert game.view(seat)["signals"][relative, S.SAY_SHOWN] == 1, "everyone hears it"
        assert game.view(seat)["signals"][(IRINA - seat) % 3, S.SAY_PLUS] == 1


def test_signalling_is_off_by_default_and_then_only_usable_spirits_are_asked() -> None:
    game = game_at(hands=[[dfn(4)], [dfn(5)], [dfn(6)]], spirits=(S.TONI, S.FENNA, S.WISP))
    assert not game.options["signalling"]
    assert game.decision == Decision.SPIRIT_WINDOW and game.decider == IRINA
    assert options(game) == [0, 1], "pass or use, no message"
    act(game, "spirit_window", 0)
    assert game.decision == Decision.SPIRIT_WINDOW and game.decider == RONJA
    assert options(game) == [0, 1]
    act(game, "spirit_window", 0)  # Matthias is not asked: Wisp needs two cards
    assert game.decision == Decision.SPIRIT_WINDOW and game.frames[-1][1] == S.W_FACE_UP
    assert game.decider == RONJA, "Irina, her hand now empty, cannot use Toni"


def test_bad_options_and_arrangements_are_rejected() -> None:
    with pytest.raises(ValueError, match="scenario"):
        ValenorGame(3, scenario="chapter99")
    with pytest.raises(ValueError, match="players"):
        ValenorGame(5)
    with pytest.raises(ValueError, match="named twice"):
        ValenorGame(3, seed=0).arrange(hands=[[dfn(4)], [dfn(4)], []])


@pytest.mark.parametrize("scenario", ["scarred_valley", "twin_blight", "iron_tide"])
def test_scenarios_set_up_their_table(scenario: str) -> None:
    game = ValenorGame(2, seed=0, scenario=scenario)
    spec = S.SCENARIOS[scenario]
    assert game.locations == spec.layout
    assert [i for i in range(5) if game.devastated[i]] == list(spec.devastated)
    assert len(game.support_deck) == len(spec.support_ids)
