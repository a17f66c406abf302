"""Valenor observations: exactly what a player may know, and resample_hidden."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.observer import SCHEMA
from tabletop_envs.valenor.rules import ValenorGame
from tabletop_envs.valenor.spec import LAYOUT, Decision

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules" / "valenor.md"


def inv(value: int) -> int:
    return S.invader_id(value)


def dfn(value: int, copy: int = 0) -> int:
    return S.defense_ids(value)[copy]


def position() -> ValenorGame:
    game = ValenorGame(3, seed=5)
    game.arrange(
        hands=[
            [inv(19), dfn(5), S.FIRST_SUPPORT],
            [dfn(6), inv(15), S.spirit_card(S.BROM), dfn(2)],
            [inv(7)],
        ],
        invaders={2: inv(14)},
        defense={3: [dfn(8), dfn(9)]},
        discards=(inv(6), dfn(6, 1)),
        spirits=(S.TONI, S.BROM, S.WISP),
    )
    return game


def test_own_hand_in_order_with_values() -> None:
    view = position().view(0)
    assert view["hand_value"][:4].tolist() == [19, 5, 1, 0]
    assert view["hand_kind"][:3].argmax(axis=1).tolist() == [2, 0, 1]
    assert view["hand_terrain"][0].argmax() == S.GRASS and view["hand_letter"][0].argmax() == 2
    assert view["hand_plus"][:3].tolist() == [0, 0, 1]


def test_exact_hits_show_where_a_card_meets_the_value_still_needed() -> None:
    """Invader 14 with Defense 9 below it needs 5: the Defense 5 in hand makes a Direct Hit
    there, the Support 1 and the Invader nowhere; Defense 8 + 9 without an Invader needs 0."""
    game = ValenorGame(3, seed=5)
    game.arrange(
        hands=[[inv(19), dfn(5), S.FIRST_SUPPORT], [dfn(6)], [inv(7)]],
        invaders={2: inv(14), 4: inv(12)},
        defense={2: [dfn(9)], 3: [dfn(8), dfn(10)], 4: [dfn(6, 1), dfn(1)]},
    )
    for fields in (game.view(0), SCHEMA.decode(game.observation(0))):
        assert fields["location_needed"].tolist() == [0, 0, 5, 0, 5]
        assert fields["hand_exact"][:4].tolist() == [
            [0, 0, 0, 0, 0],
            [0, 0, 1, 0, 1],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ]
    assert SCHEMA.decode(game.observation(1))["hand_exact"][0].tolist() == [0] * 5


def test_other_hands_show_only_their_backs() -> None:
    game = position()
    view = game.view(0)
    backs = view["hand_backs"][0, :4].argmax(axis=1).tolist()
    assert backs == [S.BACK_DEFENSE, S.BACK_B, S.BACK_SPIRIT, S.BACK_DEFENSE]
    assert view["hand_sizes"].tolist() == [3, 4, 1, 0]
    swapped = position()
    swapped.hands[1][0], swapped.defense_deck[0] = swapped.defense_deck[0], swapped.hands[1][0]
    assert np.array_equal(game.observation(0), swapped.observation(0))
    assert not np.array_equal(game.observation(1), swapped.observation(1))


def test_deck_order_is_hidden_but_sizes_and_top_letter_are_public() -> None:
    game = position()
    shuffled = game.clone()
    shuffled.defense_deck.reverse()
    shuffled.support_deck.reverse()
    assert np.array_equal(game.observation(2), shuffled.observation(2))
    view = game.view(2)
    assert view["deck_sizes"].tolist() == [
        len(game.defense_deck),
        len(game.support_deck),
        len(game.invader_deck),
    ]
    assert view["top_invader_letter"].argmax() == S.CARD_LETTER[game.invader_deck[-1]]


def test_table_and_discards_are_public() -> None:
    view = position().view(1)
    assert view["location_invader"].tolist() == [0, 0, 14, 0, 0]
    assert view["location_defense"][3, [7, 8]].tolist() == [1, 1]
    assert view["location_defense_sum"].tolist() == [0, 0, 0, 17, 0]
    assert view["discarded_invaders"][0] == 1 and view["discarded_defense"][5] == 1
    assert view["location_small"][4].argmax() == S.FOREST


def test_a_devastated_invader_is_known_at_the_bottom_of_the_deck() -> None:
    game = ValenorGame(3, seed=1)
    game.arrange(
        hands=[[inv(6), dfn(4)], [dfn(5)], [dfn(7)]],
        invaders={2: inv(14)},
        spirits=(S.BROM, S.WISP, S.FENNA),
    )
    while game.decision == Decision.SPIRIT_WINDOW:
        game.apply(LAYOUT["spirit_window"].action(0))
    game.apply(LAYOUT["devastate"].action(4))
    for seat in range(3):
        assert game.view(seat)["invaders_at_bottom"][0] == 1
    resampled = game.resample_hidden(1, np.random.default_rng(0))
    assert resampled.invader_deck[0] == inv(6)


def test_pending_decision_and_its_context_are_in_the_view() -> None:
    game = position()
    view = game.view(game.decider)
    assert view["decision"].argmax() == game.decision and view["decider"][0] == 1
    assert view["window_reason"][0] == 1 and view["turn_stage"][2] == 1


def test_observation_decodes_back_to_the_view() -> None:
    game = position()
    view = game.view(1)
    decoded = SCHEMA.decode(game.observation(1))
    for name, values in view.items():
        assert np.array_equal(decoded[name], values), name
    assert game.observation(1).min() >= 0 and game.observation(1).max() <= 1


KEPT_OPTIONS = [{}, {"signalling": True, "scenario": "twin_blight"}]


@pytest.mark.parametrize("options", KEPT_OPTIONS, ids=["default", "signalling-twin_blight"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kept_observation_matches_a_fresh_one_and_a_lagging_clone(
    players: int, options: dict[str, object]
) -> None:
    """The kept view's keys miss no state: at every step each seat's observation equals that
    of a fresh copy (no kept view), of a clone taken a few steps earlier and advanced by the
    same actions (a view kept through several changes at once), and of a resampled copy."""
    rng = np.random.default_rng(players)
    for seed in range(4):
        game = ValenorGame(players, seed=seed, **options)
        lagging, actions = game.clone(), []
        while not game.is_terminal:
            fresh = ValenorGame.from_json(game.to_json())
            for seat in range(players):
                assert np.array_equal(game.observation(seat), fresh.observation(seat)), seat
            if len(actions) == 3:
                for action in actions:
                    lagging.apply(action)
                for seat in range(players):
                    assert np.array_equal(lagging.observation(seat), game.observation(seat))
                lagging, actions = game.clone(), []
            _assert_resample_kept(game, int(rng.integers(players)), rng)
            legal = np.flatnonzero(game.legal_mask())
            actions.append(int(legal[rng.integers(len(legal))]))
            game.apply(actions[-1])


def _assert_resample_kept(game: ValenorGame, seat: int, rng: np.random.Generator) -> None:
    """A resampled copy starts from a copy of the kept view; its hands and decks change."""
    other = game.resample_hidden(seat, rng)
    fresh = ValenorGame.from_json(other.to_json())
    for viewer in range(game.num_players):
        assert np.array_equal(other.observation(viewer), fresh.observation(viewer)), viewer


@pytest.mark.parametrize(
    "options",
    [{"signalling": True}, {"scenario": "scarred_valley"}, {"scenario": "iron_tide"}],
    ids=["signalling", "scarred_valley", "iron_tide"],
)
def test_observation_is_the_encoded_reference_view_in_every_setting(
    options: dict[str, object],
) -> None:
    """As the conformance suite checks for the default options: the signals and the
    scenarios' Location layouts and devastated cards too."""
    for players in (2, 3, 4):
        game = ValenorGame(players, seed=players, **options)
        rng = np.random.default_rng(players)
        while True:
            for seat in range(players):
                assert np.array_equal(game.observation(seat), SCHEMA.encode(game.view(seat)))
            if game.is_terminal:
                break
            game.apply(int(rng.choice(game.legal_actions())))


def test_resample_keeps_every_back_and_the_own_hand() -> None:
    game = position()
    changed = 0
    for draw in range(10):
        other = game.resample_hidden(0, np.random.default_rng(draw))
        assert np.array_equal(game.observation(0), other.observation(0))
        assert other.hands[0] == game.hands[0]
        for seat in (1, 2):
            assert [S.BACK[c] for c in other.hands[seat]] == [S.BACK[c] for c in game.hands[seat]]
        assert [S.BACK[c] for c in other.invader_deck] == [S.BACK[c] for c in game.invader_deck]
        everything = [c for h in other.hands for c in h] + other.defense_deck
        everything += other.support_deck + other.invader_deck
        assert Counter(everything) == Counter(
            [c for h in game.hands for c in h]
            + game.defense_deck
            + game.support_deck
            + game.invader_deck
        )
        changed += other.hands[1] != game.hands[1] or other.defense_deck != game.defense_deck
    assert changed >= 8


def test_readable_view_shows_backs_of_other_hands() -> None:
    readable = position().readable_view(0)
    assert readable["hand"][0] == "Invader 19 (Grass, C)"
    assert readable["other_hands"][1] == ["Defense", "Invader B", "Spirit", "Defense"]
    assert "Defense 6" not in str(readable["other_hands"])


def test_documented_observation_table_matches_the_schema() -> None:
    text = DOC.read_text()
    table = text.split("<!-- observation-table")[1].split("<!-- end observation-table")[0]
    rows = re.findall(r"\| `(\w+)` \| (\d+)-(\d+) \| (\([\d, ]*\)) \| ([\d.]+) \|", table)
    expected = [
        (name, str(start), str(end - 1), str(shape), f"{scale:g}")
        for name, start, end, shape, scale in SCHEMA.describe()
    ]
    assert rows == expected


def test_documented_action_segments_match_the_layout() -> None:
    text = DOC.read_text()
    rows = re.findall(r"\| `(\w+)` \| (\d+)-(\d+) \| (\d+) \|", text)
    expected = [
        (s.name, str(s.offset), str(s.offset + s.size - 1), str(s.size))
        for s in LAYOUT.segments.values()
    ]
    assert rows == expected
