"""Vaalbara saves: every state of play loads; a hand-edited one that breaks the rules'
invariants is refused with a message naming the field."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tabletop_envs.vaalbara.rules import VaalbaraGame
from tabletop_envs.vaalbara.spec import LAYOUT, Character, Decision, bit, cards_in

C = Character
Fields = dict[str, Any]


def refusal(game: VaalbaraGame, edit: Callable[[Fields], None]) -> str:
    """The error loading ``game``'s save after ``edit`` changed its fields (fails if it loads)."""
    save = json.loads(game.to_json())
    edit(save["state"]["fields"])
    with pytest.raises(ValueError) as error:
        VaalbaraGame.from_json(json.dumps(save))
    return str(error.value)


def play_until(game: VaalbaraGame, reached: Callable[[VaalbaraGame], bool], seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    while not reached(game):
        assert not game.is_terminal, "the state sought never came"
        game.apply(int(rng.choice(game.legal_actions())))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_of_play_keeps_the_invariants(players: int) -> None:
    for seed in range(5):
        game = VaalbaraGame(players, seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            assert list(game.check_invariants()) == []
            other = game.resample_hidden(seed % players, rng)
            assert list(other.check_invariants()) == []
            if game.is_terminal:
                break
            game.apply(int(rng.choice(game.legal_actions())))
        VaalbaraGame.from_json(game.to_json())


def test_a_duplicated_land_card_is_refused() -> None:
    def duplicate(fields: Fields) -> None:
        fields["rows"][0][0] = fields["rows"][1][0]

    assert "land_deck: the deck, rows and realms" in refusal(VaalbaraGame(3, seed=0), duplicate)


def test_a_duplicated_character_is_refused() -> None:
    game = VaalbaraGame(3, seed=0)

    def duplicate(fields: Fields) -> None:
        fields["clan_decks"][1][0] = cards_in(fields["hands"][1])[0]

    assert "hands[1]: hand, clan deck, discards" in refusal(game, duplicate)


def test_wrong_lengths_are_refused() -> None:
    game = VaalbaraGame(3, seed=0)
    assert "vp: needs one entry per seat (3)" in refusal(game, lambda f: f["vp"].append(2))
    assert "rows: needs 2 rows of 3 slots" in refusal(game, lambda f: f["rows"][1].pop())
    assert "deck_known: needs one flag" in refusal(game, lambda f: f["deck_known"].pop())

    def sixth_card(fields: Fields) -> None:
        fields["hands"][0] |= bit(fields["clan_decks"][0].pop())

    assert "hands[0]: holds more than 5" in refusal(game, sixth_card)


def test_values_out_of_range_are_refused() -> None:
    game = VaalbaraGame(3, seed=0)
    play_until(game, lambda g: g.round == 1 and g.decider == 1)
    assert "round: 9 is outside 0..8" in refusal(game, lambda f: f.update(round=9))
    assert "picks: a pick is neither" in refusal(game, lambda f: f["picks"].__setitem__(0, 12))
    assert "vp: VP cannot be negative" in refusal(game, lambda f: f["vp"].__setitem__(2, -1))
    assert "back_of: is not a permutation" in refusal(game, lambda f: f["back_of"].pop())
    assert "turn: 4 is outside 0..3" in refusal(game, lambda f: f.update(turn=4))

    def one_more_land(fields: Fields) -> None:
        fields["realms"][2].append(fields["land_deck"].pop(0))
        fields["deck_known"].pop(0)

    assert "realms[2]: holds 2 lands, expected 1" in refusal(game, one_more_land)


def test_a_pending_decision_inconsistent_with_the_state_is_refused() -> None:
    game = VaalbaraGame(3, seed=0)
    assert "picks: seats before player_2" in refusal(game, lambda f: f.update(decider=2))
    assert "decider: no seat decides exactly" in refusal(game, lambda f: f.update(decider=-1))

    def top_shown(fields: Fields) -> None:
        fields["deck_known"][-1] = True

    assert "deck_known: the top's face is public only after a Tracker" in refusal(game, top_shown)

    play_until(game, lambda g: g.decision == Decision.TAKE_LAND)
    other = (game.decider + 1) % 3
    assert "decider: TAKE_LAND is decided by the active seat" in refusal(
        game, lambda f: f.update(decider=other)
    )
    assert "rider_slot: a first-row slot is kept" in refusal(game, lambda f: f.update(rider_slot=0))
    kind, character = (Decision.BARD, C.BARD)
    if game.picks[game.active] == C.BARD:
        kind, character = (Decision.TRACKER, C.TRACKER)
    assert f"decision: {kind.name} needs the active seat to play {character.title}" in refusal(
        game, lambda f: f.update(decision=int(kind))
    )


def test_a_broken_fighter_poll_is_refused() -> None:
    game = VaalbaraGame(4, seed=1)
    play_until(game, lambda g: g.decision == Decision.FIGHTER)
    assert "fighter_poll: asks" in refusal(game, lambda f: f["fighter_poll"].pop())
    assert "fighter_answers: the next seat of the poll answers" in refusal(
        game, lambda f: f["fighter_answers"].extend([0] * len(f["fighter_poll"]))
    )


def test_a_turn_order_against_initiative_or_omens_is_refused() -> None:
    hands = [[C.HUNTER, C.BARD, C.ORACLE, C.RIDER, C.FARMER]] * 3
    game = VaalbaraGame.from_position(3, hands=hands, omens=[0, 1, 2])
    for pick in (C.HUNTER, C.HUNTER, C.FARMER):
        game.apply(LAYOUT["select"].action(pick))
    assert game.turn_order == [0, 1, 2] and game.decision == Decision.TAKE_LAND
    assert VaalbaraGame.from_json(game.to_json()).turn_order == [0, 1, 2]
    assert "turn_order: ties go to the better Omen" in refusal(
        game, lambda f: f.update(turn_order=[1, 0, 2])
    )
    assert "turn_order: the turn order follows initiative" in refusal(
        game, lambda f: f.update(turn_order=[0, 2, 1])
    )
