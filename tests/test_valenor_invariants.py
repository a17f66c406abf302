"""Valenor invariants over seeded random games: cards conserved, table legal, bounded."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tabletop_envs.valenor import cards as C
from tabletop_envs.valenor.flow import HAND_MAX, LAYOUT, SEGMENT_OF_DECISION
from tabletop_envs.valenor.rules import ValenorGame

SETTINGS = [
    (players, scenario, signalling)
    for players in (2, 3, 4)
    for scenario, signalling in (("chapter1", False), ("iron_tide", True))
]


def all_cards(game: ValenorGame) -> Counter:
    cards = [c for hand in game.hands for c in hand if c < C.FIRST_SPIRIT]
    cards += game.cards_in_play() + game.discards
    cards += game.defense_deck + game.support_deck + game.invader_deck
    cards += [c for c in game.invader_at if c >= 0]
    cards += [c for stack in game.defense_at for c in stack]
    return Counter(cards)


def check_invariants(game: ValenorGame, expected: Counter) -> None:
    assert all_cards(game) == expected, "a card was lost or duplicated"
    for player, hand in enumerate(game.hands):
        assert len(hand) <= HAND_MAX
        assert not hand or hand[0] < C.FIRST_SPIRIT, "a spirit stayed frontmost"
        spirit = C.spirit_card(game.spirit_of[player]) if game.spirit_of[player] >= 0 else -1
        assert not (game.spirit_out[player] and spirit in hand)
    values = [C.VALUE[c] for c in game.invader_at if c >= 0]
    assert values == sorted(values) and len(set(values)) == len(values)
    for position, invader in enumerate(game.invader_at):
        if invader >= 0:
            assert C.TERRAIN[invader] in (
                game.locations[position],
                C.SMALL_TERRAIN[game.locations[position]],
            )
            assert sum(C.VALUE[c] for c in game.defense_at[position]) < C.VALUE[invader]
    mask = game.legal_mask()
    if not game.is_terminal:
        segment = LAYOUT[SEGMENT_OF_DECISION[game.decision]]
        assert (
            mask.any() and mask.sum() == mask[segment.offset : segment.offset + segment.size].sum()
        )


@pytest.mark.parametrize(("players", "scenario", "signalling"), SETTINGS)
def test_random_games_keep_the_invariants(players: int, scenario: str, signalling: bool) -> None:
    for seed in range(15):
        game = ValenorGame(players, seed=seed, scenario=scenario, signalling=signalling)
        expected = Counter(
            list(C.DEFENSE_IDS) + list(C.SCENARIOS[scenario].support_ids) + list(C.INVADER_IDS)
        )
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            check_invariants(game, expected)
            game.apply(int(rng.choice(game.legal_actions())))
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
            assert left < sum(C.INVADER_VALUES) - game.defeated_value


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
