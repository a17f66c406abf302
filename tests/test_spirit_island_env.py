"""Spirit Island as an environment: whole random games, readable actions, what the view
hides, rewards and progress."""

from __future__ import annotations

import numpy as np
import pytest

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import phases, spec
from tabletop_envs.spirit_island.blight_fear import add_fear
from tabletop_envs.spirit_island.observer import ALLOWANCE_SCALE, SCHEMA, view
from tabletop_envs.spirit_island.rules import PURPOSE_NAMES, STEP, SpiritIslandGame
from tabletop_envs.spirit_island.spec import EXPLORER, TOWN

A = {f"A{n}": n - 1 for n in range(1, 9)}


def play_random(seed: int, **options: object) -> SpiritIslandGame:
    game = SpiritIslandGame(1, seed=seed, **options)
    rng = np.random.default_rng(seed)
    while not game.is_terminal:
        game.apply(int(rng.choice(game.legal_actions())))
    return game


def test_a_thousand_seeded_random_games_finish_within_max_decisions() -> None:
    lengths = []
    for seed in range(1000):
        game = play_random(seed)
        assert game.outcome in (-1, 1) and game.end_reason
        assert game.decisions <= SpiritIslandGame.MAX_DECISIONS
        lengths.append(game.decisions)
    # recorded in docs/rules/spirit_island.md: about 45 decisions, at most about 84 (1 player)
    assert 20 < np.mean(lengths) < 100 and max(lengths) < 200


def test_actions_read_as_a_person_would_say_them() -> None:
    game = SpiritIslandGame(1, seed=0)
    game.pieces[A["A5"]][EXPLORER] = 1
    game.pieces[A["A5"]][TOWN] = 1
    game.pending, game.pending_options = [], []
    game.queue.append([STEP["push"], A["A5"], 0, 1 << EXPLORER | 1 << TOWN, 1, 0])
    game.run()
    assert PURPOSE_NAMES[game.pending[2]] == "push_piece"
    piece = spec.LAYOUT.segment_of(spec.Decision.PIECE)
    assert game.action_to_str(piece.offset + EXPLORER) == "Push 1 Explorer from A5"
    game.apply(piece.offset + EXPLORER)
    land = spec.LAYOUT.segment_of(spec.Decision.LAND)
    assert game.action_to_str(land.offset + A["A7"]) == "Push 1 Explorer from A5 to A7"
    first = SpiritIslandGame(1, seed=0)
    growth = spec.LAYOUT.segment_of(spec.Decision.GROWTH)
    assert first.action_to_str(growth.offset + 1) == (
        "grow: add a Presence within range 1, add a Presence within range 1"
    )


def test_the_view_hides_deck_orders_the_blight_card_and_face_down_fear() -> None:
    game = SpiritIslandGame(1, seed=4)
    add_fear(game, 4)  # one Fear card earned, face down
    other = game.clone()
    other.minor_deck.reverse()
    other.major_deck.reverse()
    other.invader_deck[:2] = other.invader_deck[1::-1]
    other.blight_card = (game.blight_card + 1) % len(spec.BLIGHT_CARDS)
    other.fear_earned = [other.fear_deck.pop()]
    other.fear_deck.insert(0, game.fear_earned[0])
    for field, value in view(game, 0).items():
        assert np.array_equal(value, view(other, 0)[field]), field
    game.blighted = True
    assert view(game, 0)["blight_card"][game.blight_card] == 1  # shown once flipped


def test_drawn_cards_are_seen_by_the_spirit_that_drew_them() -> None:
    game = SpiritIslandGame(1, seed=0)
    layout_growth = spec.LAYOUT.segment_of(spec.Decision.GROWTH)
    game.apply(layout_growth.offset + 0)  # reclaim, gain a card, energy
    step = spec.LAYOUT.segment_of(spec.Decision.GROWTH_STEP)
    game.apply(step.offset + 1)  # gain the card now
    game.apply(spec.LAYOUT.segment_of(spec.Decision.DECK).offset)  # a Minor
    drawn = SCHEMA.decode(game.observation(0))["drawn"]
    assert [int(np.argmax(row)) for row in drawn] == game.drawn
    assert game.drawn_by == 0


def test_team_rewards_and_the_shaped_option() -> None:
    lost = play_random(0)
    assert list(lost.returns()) == [-1.0] and lost.winners() == []
    assert 0 <= lost.progress() < 1
    shaped = play_random(0, shaped_reward=True)
    assert shaped.returns()[0] == pytest.approx(-1 + 0.5 * shaped.progress())
    won = SpiritIslandGame(1, seed=0)
    won.pieces = [[0] * spec.KINDS for _ in won.lands]
    won.check_end()
    won.run()
    assert won.is_terminal and list(won.returns()) == [1.0] and won.progress() == 1.0


def test_gather_presence_moves_the_spirits_own_presence() -> None:
    game = SpiritIslandGame(1, seed=0)
    game.presence[0][A["A7"]] = 1
    game.energy_track[0] = 1
    game.pending, game.pending_options = [], []
    game.queue.append([STEP["gather_presence"], A["A5"], 0, 1])
    game.run()
    assert PURPOSE_NAMES[game.pending[2]] == "presence_more"
    game.apply(spec.LAYOUT.segment_of(spec.Decision.PIECE).offset + spec.PRESENCE_OPTION)
    # A7 is the only neighbouring source: taken at once
    assert game.presence[0][A["A7"]] == 0 and game.presence[0][A["A5"]] == 2


def test_defend_skips_and_isolate_show_in_the_observation_for_the_turn() -> None:
    game = SpiritIslandGame(1, seed=0)
    game.defend[A["A3"]] = 2
    game.skips[A["A4"]] = 2  # Build skipped
    game.isolated[A["A6"]] = True
    fields = SCHEMA.decode(game.observation(0))
    assert fields["defend"][A["A3"]] == 2
    assert list(fields["turn_flags"][A["A4"]]) == [0, 1, 0, 0]
    assert list(fields["turn_flags"][A["A6"]]) == [0, 0, 0, 1]
    phases.step_time_passes(game)
    fields = SCHEMA.decode(game.observation(0))
    assert fields["defend"].sum() == 0 and fields["turn_flags"].sum() == 0


def test_the_turns_allowances_and_spared_dahan_show_for_every_seat() -> None:
    """Lightning's Slow-as-Fast allowance (its Air plus a hasten, less what it used), a
    repeat allowance and Concealing Shadows' spared Dahan are public and shown (v1)."""
    game = SpiritIslandGame(2, seed=0, spirits="river,lightning")
    air = spec.ELEMENTS.index("air")
    game.elements[1][air] = 3
    game.hasten[1] = 2
    game.hastened[1] = [game.hand[1][0]]
    game.elements[0][air] = 5  # River's Air gives it nothing
    game.repeat_cost[0] = 3
    game.skips[A["A3"]] = spec.SPARE_DAHAN
    for seat in (0, 1):
        fields = SCHEMA.decode(game.observation(seat))
        assert np.allclose(SCHEMA.encode(view(game, seat)), game.observation(seat))
        mine, other = (0, 1) if seat == 0 else (1, 0)
        assert list(fields["slow_as_fast"][[mine, other]]) == [0, 4]
        assert list(fields["repeat_up_to"][[mine, other]]) == [4, 0]
        assert np.flatnonzero(fields["dahan_spared"]).tolist() == [A["A3"]]
        assert fields["turn_flags"][A["A3"]].sum() == 0
    phases.step_time_passes(game)
    fields = SCHEMA.decode(game.observation(0))
    assert fields["slow_as_fast"].sum() == fields["repeat_up_to"].sum() == 0
    assert fields["dahan_spared"].sum() == 0


def test_the_allowances_never_reach_their_cap_in_random_games() -> None:
    """No reachable allowance is clipped: along seeded random games at 1-4 players (every
    Spirit) the raw values stay below ALLOWANCE_SCALE."""
    highest = 0
    for players in (1, 2, 3, 4):
        for seed in range(15):
            game = SpiritIslandGame(players, seed=seed)
            rng = np.random.default_rng(seed)
            while not game.is_terminal:
                for seat in range(players):
                    highest = max(highest, game.swift_left(seat), game.repeat_cost[seat] + 1)
                game.apply(int(rng.choice(game.legal_actions())))
    assert 0 < highest < ALLOWANCE_SCALE


def test_observation_stays_in_its_space_at_every_counts_extreme() -> None:
    """Every Spirit with both presence tracks uncovered to their last space, and the other
    counts far past their scales, still gives values in [0, 1], equal to the reference view."""
    game = SpiritIslandGame(4, seed=0)
    for seat in range(4):
        spirit = game.spirit(seat)
        game.energy_track[seat] = len(spirit.energy_track) - 1
        game.card_track[seat] = len(spirit.card_track) - 1
        game.energy[seat] = 99
        game.plays_left[seat] = 9
        game.destroyed_presence[seat] = 20
        game.elements[seat] = [20] * len(spec.ELEMENTS)
        game.presence[seat][seat] = 9
    game.pieces[0] = [30] * spec.KINDS
    game.defend[0] = 15
    for player in range(4):
        vector = game.observation(player)
        outside = [
            field.name
            for field in SCHEMA.fields
            if not np.all(np.abs(vector[SCHEMA.offset(field.name) :][: field.size] - 0.5) <= 0.5)
        ]
        assert not outside, f"fields outside [0, 1]: {outside}"
        assert np.array_equal(vector, SCHEMA.encode(view(game, player)))
