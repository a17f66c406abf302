"""Valenor invariants: seeded random games keep them (cards conserved, table legal, bounded),
and hand-edited saves that break one are refused, naming the field."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.rules import ValenorGame
from tabletop_envs.valenor.spec import HAND_MAX, LAYOUT, Decision

SETTINGS = [
    (players, scenario, signalling)
    for players in (2, 3, 4)
    for scenario, signalling in (("chapter1", False), ("iron_tide", True))
]


def all_cards(game: ValenorGame) -> Counter:
    cards = [c for hand in game.hands for c in hand if c < S.FIRST_SPIRIT]
    cards += game.cards_in_play() + game.discards
    cards += game.defense_deck + game.support_deck + game.invader_deck
    cards += [c for c in game.invader_at if c >= 0]
    cards += [c for stack in game.defense_at for c in stack]
    return Counter(cards)


def check_invariants(game: ValenorGame, expected: Counter) -> None:
    assert all_cards(game) == expected, "a card was lost or duplicated"
    for player, hand in enumerate(game.hands):
        assert len(hand) <= HAND_MAX
        assert not hand or hand[0] < S.FIRST_SPIRIT, "a spirit stayed frontmost"
        spirit = S.spirit_card(game.spirit_of[player]) if game.spirit_of[player] >= 0 else -1
        assert not (game.spirit_out[player] and spirit in hand)
    values = [S.VALUE[c] for c in game.invader_at if c >= 0]
    assert values == sorted(values) and len(set(values)) == len(values)
    for position, invader in enumerate(game.invader_at):
        if invader >= 0:
            assert S.TERRAIN[invader] in (
                game.locations[position],
                S.SMALL_TERRAIN[game.locations[position]],
            )
            assert sum(S.VALUE[c] for c in game.defense_at[position]) < S.VALUE[invader]
    mask = game.legal_mask()
    if not game.is_terminal:
        segment = LAYOUT.segment_of(game.decision)
        assert (
            mask.any() and mask.sum() == mask[segment.offset : segment.offset + segment.size].sum()
        )


@pytest.mark.parametrize(("players", "scenario", "signalling"), SETTINGS)
def test_random_games_keep_the_invariants(players: int, scenario: str, signalling: bool) -> None:
    for seed in range(15):
        game = ValenorGame(players, seed=seed, scenario=scenario, signalling=signalling)
        expected = Counter(
            list(S.DEFENSE_IDS) + list(S.SCENARIOS[scenario].support_ids) + list(S.INVADER_IDS)
        )
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            check_invariants(game, expected)
            assert not list(game.check_invariants())
            game.apply(int(rng.choice(game.legal_actions())))
        assert not list(game.check_invariants())
        assert game.decisions <= ValenorGame.MAX_DECISIONS
        assert game.outcome != 0 and np.all(game.returns() == game.returns()[0])


def test_the_defense_loss_test_fires_only_when_a_win_is_impossible() -> None:
    for seed in range(40):
        game = ValenorGame(3, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            game.apply(int(rng.choice(game.legal_actions())))
        if game.loss_reason == "defense":
            left = game.total_defense_value - game.discarded_defense_value
            assert left < sum(S.INVADER_VALUES) - game.defeated_value


def test_seeded_games_are_reproducible_and_clones_diverge_independently() -> None:
    first, second = ValenorGame(4, seed=9), ValenorGame(4, seed=9)
    rng_a, rng_b = np.random.default_rng(2), np.random.default_rng(2)
    while not first.is_terminal:
        clone = first.clone()
        action = int(rng_a.choice(first.legal_actions()))
        assert action == int(rng_b.choice(second.legal_actions()))
        first.apply(action)
        second.apply(action)
        assert first.to_json() == second.to_json()
        if not clone.is_terminal:
            before = first.to_json()
            clone.apply(clone.legal_actions()[-1])
            assert first.to_json() == before
    assert ValenorGame.from_json(first.to_json()).to_json() == first.to_json()


# ----- hand-edited saves ---------------------------------------------------------------------
def inv(value: int) -> int:
    return S.invader_id(value)


def dfn(value: int, copy: int = 0) -> int:
    return S.defense_ids(value)[copy]


def placing(seed: int = 3) -> ValenorGame:
    """A seeded random game a few turns in, a played card waiting to be placed."""
    game = ValenorGame(3, seed=seed)
    rng = np.random.default_rng(seed)
    while game.turn < 3 or game.decision != Decision.PLACE:
        game.apply(int(rng.choice(game.legal_actions())))
    return game


def refused(game: ValenorGame, edit: Callable[[dict[str, Any]], object]) -> str:
    """The error loading ``game``'s save after ``edit`` of its fields."""
    data = json.loads(game.to_json())
    edit(data["state"]["fields"])
    with pytest.raises(ValueError, match="saved valenor game") as error:
        ValenorGame.from_json(json.dumps(data))
    return str(error.value)


def swap_top(fields: dict[str, Any], first: str, second: str) -> None:
    fields[first][-1], fields[second][-1] = fields[second][-1], fields[first][-1]


BROKEN_SAVES = {
    "a duplicated card": (lambda f: f["hands"][1].append(f["defense_deck"][0]), "cards"),
    "a lost card": (lambda f: f["support_deck"].pop(), "cards"),
    "a Defense card in the Invader deck": (
        lambda f: swap_top(f, "invader_deck", "defense_deck"),
        "defense_deck",
    ),
    "a card id out of range": (lambda f: f["discards"].append(99), "discards"),
    "another seat's spirit in a hand": (
        lambda f: f["hands"][0].append(S.FIRST_SPIRIT + f["spirit_of"][1]),
        "hands",
    ),
    "a hand too many": (lambda f: f["hands"].append([]), "hands"),
    "a Location too few": (lambda f: f["invader_at"].pop(), "invader_at"),
    "a seat's flag too many": (lambda f: f["spirit_out"].append(True), "spirit_out"),
    "a spirit twice": (lambda f: f["spirit_of"].__setitem__(1, f["spirit_of"][0]), "spirit_of"),
    "a signal without signalling": (lambda f: f["signals"].__setitem__(2, 5), "signals"),
    "an active seat out of range": (lambda f: f.__setitem__("active", 3), "active"),
    "a negative turn": (lambda f: f.__setitem__("turn", -1), "turn"),
    "a turn count of the wrong type": (lambda f: f.__setitem__("turn", "3"), "turn"),
    "a frame of the wrong size": (lambda f: f["frames"][-1].pop(), "frames[1]"),
    "a play flag out of range": (lambda f: f["frames"][-1].__setitem__(3, 2), "frames[1]"),
    "no frame": (lambda f: f.__setitem__("frames", []), "frames"),
    "a step-1 window on a play": (lambda f: f["frames"].append([2, 0, 1]), "frames[2]"),
    "another decision": (lambda f: f.__setitem__("decision", int(Decision.DEVASTATE)), "decision"),
    "another decider": (lambda f: f.__setitem__("decider", (f["decider"] + 1) % 3), "decision"),
    "no decision in a game that goes on": (lambda f: f.__setitem__("decision", None), "decision"),
    "an Invader count off": (
        lambda f: f.__setitem__("invaders_left", f["invaders_left"] - 1),
        "invaders_left",
    ),
    "a defeated value off": (
        lambda f: f.__setitem__("defeated_value", f["defeated_value"] + 6),
        "defeated_value",
    ),
    "a won game with Invaders left": (lambda f: f.__setitem__("outcome", 1), "outcome"),
    "a loss without a reason": (lambda f: f.__setitem__("outcome", -1), "loss_reason"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_SAVES))
def test_a_broken_save_is_refused_naming_the_field(case: str) -> None:
    edit, field = BROKEN_SAVES[case]
    message = refused(placing(), edit)
    assert f"game: {field}" in message, message


def test_a_devastated_location_cannot_be_restored_by_a_save() -> None:
    game = ValenorGame(2, seed=0, scenario="twin_blight")
    message = refused(game, lambda f: f["devastated"].__setitem__(0, False))
    assert "game: devastated" in message


def test_an_invader_with_enough_defense_beneath_it_is_refused() -> None:
    game = ValenorGame(3, seed=0)
    game.arrange(hands=[[dfn(4)], [dfn(5)], [dfn(6)]], invaders={1: inv(13)})
    message = refused(game, lambda f: f["defense_at"][1].extend(f["defense_deck"][-2:]))
    assert "game: cards" in message, "the cards moved out of the deck are counted twice"
    defense = [c for c in game.defense_deck if S.VALUE[c] >= 13][:1]
    message = refused(
        game,
        lambda f: (f["defense_at"][1].extend(defense), f["defense_deck"].remove(defense[0])),
    )
    assert "game: defense_at" in message


def test_the_saves_of_random_games_load_back() -> None:
    for seed in range(6):
        game = ValenorGame(4, seed=seed, signalling=True, scenario="iron_tide")
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            assert ValenorGame.from_json(game.to_json()).to_json() == game.to_json()
            game.apply(int(rng.choice(game.legal_actions())))
        assert ValenorGame.from_json(game.to_json()).outcome == game.outcome


@pytest.mark.parametrize("signalling", [False, True], ids=["quiet", "signalling"])
def test_who_is_asked_next_never_depends_on_a_hidden_card(signalling: bool) -> None:
    """The spirit windows ask "whenever an answer could matter": the next question after any
    answer is the same in every redraw of what the answering player cannot see, so the AEC
    order reveals no hand (the windows after a card shown face up and after step 2 included).
    Only a card the action itself shows face up may decide what comes next."""
    for players in (3, 4):
        for seed in range(4):
            game = ValenorGame(players, seed=seed, signalling=signalling)
            rng = np.random.default_rng(seed)
            while not game.is_terminal:
                action = int(rng.choice(game.legal_actions()))
                for draw in range(2):
                    other = game.resample_hidden(game.current_player, np.random.default_rng(draw))
                    other.apply(action)
                    after = game.clone()
                    after.apply(action)
                    if other.card_in_play() != after.card_in_play():
                        continue  # a hidden card was played face up: public from now on
                    assert (other.decision, other.current_player) == (
                        after.decision,
                        after.current_player,
                    )
                game.apply(action)
