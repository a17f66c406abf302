"""The Vaalbara heuristic bot: only legal actions, reproducible, and sound choices."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from tabletop_envs.agents.base import RandomAgent
from tabletop_envs.agents.heuristics import heuristic_agent
from tabletop_envs.agents.vaalbara_bot import (
    _PICK_VALUES,
    LandModel,
    Outlook,
    Seen,
    Tuning,
    VaalbaraHeuristicAgent,
    numpy_sum,
    pick_chances,
)

from tabletop_envs import make
from tabletop_envs.vaalbara.observer import SCHEMA
from tabletop_envs.vaalbara.rules import VaalbaraGame
from tabletop_envs.vaalbara.spec import (
    CHARACTER_COUNT,
    KIND_TYPE_INDEX,
    LAND_CARDS,
    LAND_KINDS,
    LAND_TYPES,
    LAYOUT,
    Character,
    Decision,
    LandKind,
    land_cards_for,
)

C = Character
K = LandKind


def play_checked(players: int, seed: int, bot_seats: set[int]) -> list[int]:
    """Play one game, asserting every bot action is in the mask; the bots' actions."""
    env = make("vaalbara", raw=True, num_players=players, illegal_action="raise")
    env.reset(seed=seed)
    agents = [
        VaalbaraHeuristicAgent(seed=seed + seat) if seat in bot_seats else RandomAgent(seed + seat)
        for seat in range(players)
    ]
    chosen = []
    while not env.game.is_terminal:
        name = env.agent_selection
        seat = env.agent_name_mapping[name]
        observation = env.observe(name)
        action = agents[seat].act(observation, name)
        assert observation["action_mask"][action] == 1
        if seat in bot_seats:
            chosen.append(action)
        env.step(action)
    return chosen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bot_only_plays_legal_actions(players: int) -> None:
    for seed in range(10):
        everyone = set(range(players))
        one = {seed % players}
        play_checked(players, 100 * players + seed, everyone if seed % 2 else one)


def test_bot_is_reproducible_for_a_seed() -> None:
    assert play_checked(3, 7, {0, 1, 2}) == play_checked(3, 7, {0, 1, 2})


def test_registered_as_the_vaalbara_heuristic() -> None:
    assert isinstance(heuristic_agent("vaalbara_v1", seed=1), VaalbaraHeuristicAgent)


def test_bot_refuses_an_empty_mask() -> None:
    env = make("vaalbara", raw=True, num_players=2)
    env.reset(seed=0)
    observation = env.observe("player_0")
    observation["action_mask"] = np.zeros_like(observation["action_mask"])
    with pytest.raises(ValueError, match="no legal action"):
        VaalbaraHeuristicAgent(seed=0).act(observation, "player_0")


def plain_reading(observation: np.ndarray) -> dict[str, object]:
    """What :class:`Seen` should read, from :meth:`SCHEMA.decode`'s arrays one field at a time."""
    fields = SCHEMA.decode(observation)
    n = int(np.argmax(fields["players"])) + 2

    def index(row: np.ndarray) -> int:
        return int(np.argmax(row)) if row.any() else -1

    def bits(row: np.ndarray) -> int:
        return sum(1 << int(card) for card in np.flatnonzero(row))

    realms = fields["realms"][:n]
    types = np.zeros((n, LAND_TYPES), dtype=int)
    for kind in range(LAND_KINDS):
        types[:, KIND_TYPE_INDEX[kind]] += realms[:, kind]
    shown = realms.sum(axis=0) + fields["row1"].sum(axis=0) + fields["row2"].sum(axis=0)
    shown += fields["deck_top_known"] + fields["deck_bottom_known"]
    deck = np.bincount([LAND_CARDS[card][0] for card in land_cards_for(n)], minlength=LAND_KINDS)
    unseen = np.maximum(deck - shown, 0)
    to_come = unseen + fields["row2"].sum(axis=0)
    future = np.bincount(KIND_TYPE_INDEX, to_come, minlength=LAND_TYPES).astype(int)
    return {
        "n": n,
        "decision": int(np.argmax(fields["decision"])),
        "round": int(np.argmax(fields["round"])),
        "my_pick": index(fields["my_pick"]),
        "picks": [index(row) for row in fields["revealed_picks"][:n]],
        "position": [int(np.argmax(row)) for row in fields["turn_position"][:n]],
        "discards": [bits(row) for row in fields["discards"][:n]],
        "known": [bits(row) for row in fields["known_in_hand"][:n]],
        "hand_sizes": fields["hand_sizes"][:n].tolist(),
        "picked": [bool(flag) for flag in fields["picked"][:n]],
        "own_kinds": realms[0].tolist(),
        "types": types.tolist(),
        "row1": [index(row) for row in fields["row1"][:n]],
        "row2": [index(row) for row in fields["row2"][:n]],
        "omen": [int(np.argmax(row)) for row in fields["omen_ranks"][:n]],
        "top": index(fields["deck_top_known"]),
        "bottom": index(fields["deck_bottom_known"]),
        "rider_slot": index(fields["rider_slot"]),
        "unseen": unseen.tolist(),
        "future": tuple(future.tolist()),
    }


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seen_reads_what_the_plain_decoding_reads(players: int) -> None:
    """The bot's one-matrix reading of an observation against the fields read one by one,
    for every seat at every step of random games."""
    for seed in range(3):
        env = make("vaalbara", raw=True, num_players=players)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game.is_terminal:
            for name in env.agents:
                observation = env.observe(name)["observation"]
                seen, want = Seen(observation), plain_reading(observation)
                assert {key: getattr(seen, key) for key in want} == want
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))


def test_seen_reads_no_negative_unseen_count() -> None:
    """An observation showing more lands of a kind than the deck holds reads as none of them
    unseen, and the lands to come follow."""
    env = make("vaalbara", raw=True, num_players=3)
    env.reset(seed=1)
    observation = env.observe("player_0")["observation"].copy()
    at = SCHEMA.offset("realms") + K.RIVER  # seat 0's Rivers
    observation[at] = 20 * SCHEMA.scales[at]
    assert SCHEMA.decode(observation)["realms"][0][K.RIVER] == 20
    seen, want = Seen(observation), plain_reading(observation)
    assert seen.unseen[K.RIVER] == 0
    assert {key: getattr(seen, key) for key in want} == want


def test_numpy_sum_is_numpys_sum_to_the_last_bit() -> None:
    rng = np.random.default_rng(0)
    for size in [*range(1, 41), *rng.integers(41, 129, 20)]:
        for _ in range(50):
            values = (rng.random(size) * rng.choice([1e-3, 1.0, 1e3], size)).tolist()
            assert numpy_sum(values) == np.array(values).sum()


def numpy_pick_chances(discarded: int, known: int, in_hand: int) -> tuple[list[int], np.ndarray]:
    """:func:`pick_chances` in numpy's arithmetic, the reference for its floats."""
    unplayed = [c for c in range(CHARACTER_COUNT) if not discarded >> c & 1]
    free = [c for c in unplayed if not known >> c & 1]
    free_chance = max(0, in_hand - (len(unplayed) - len(free))) / max(1, len(free))
    weights = np.array([1.0 if known >> c & 1 else free_chance for c in unplayed])
    if weights.sum() <= 0:
        weights = np.ones(len(unplayed))
    cumulative = (weights / weights.sum()).cumsum()
    return unplayed, cumulative / cumulative[-1]


def test_pick_chances_are_numpys_to_the_last_bit() -> None:
    """Every pattern of known cards among 1-12 unplayed (the later cards discarded, and a
    known discard that must not count) and every number of cards in hand."""
    for unplayed in range(1, CHARACTER_COUNT + 1):
        discarded = (1 << CHARACTER_COUNT) - (1 << unplayed)
        for known in range(1 << unplayed):
            for in_hand in range(CHARACTER_COUNT + 1):
                args = (discarded, known | discarded & -discarded, in_hand)
                cards, chances = pick_chances.__wrapped__(*args)
                want_cards, want = numpy_pick_chances(*args)
                assert cards == want_cards and chances.tobytes() == want.tobytes()


def bot_choice(game: VaalbaraGame, seed: int = 0) -> int:
    """The bot's action for the deciding seat, from that seat's observation alone."""
    seat = game.current_player
    observation = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
    return VaalbaraHeuristicAgent(seed=seed).act(observation, f"player_{seat}")


def advance_to(game: VaalbaraGame, decision: Decision, seat: int) -> None:
    """Let the bots play until ``seat`` faces ``decision``."""
    while not (game.decision == decision and game.current_player == seat):
        game.apply(bot_choice(game))


def realm_kinds(game: VaalbaraGame, seat: int) -> list[LandKind]:
    return [LAND_CARDS[card][0] for card in game.realms[seat]]


def test_plays_the_farmer_when_a_river_is_sure_to_be_left() -> None:
    game = VaalbaraGame.from_position(
        2,
        round_number=5,
        realms=[[K.RIVER, K.FIELD, K.MEADOW, K.FOREST_3], [K.FIELD, K.FIELD, K.MEADOW, K.VILLAGE]],
        row1=[K.RIVER, K.RIVER],
        hands=[[C.FIGHTER, C.BARD, C.HUNTER, C.ORACLE, C.FARMER], None],
        played=[[C.CARPENTER, C.FALCONER, C.TRACKER, C.MIDWIFE], []],
    )
    assert bot_choice(game) == LAYOUT["select"].action(C.FARMER)


def test_completes_a_mountain_pair_first() -> None:
    game = VaalbaraGame.from_position(
        2,
        round_number=3,
        realms=[[K.MOUNTAIN, K.FIELD], [K.FIELD, K.FIELD]],
        row1=[K.FIELD, K.MOUNTAIN],
        hands=[[C.FIGHTER, C.BARD, C.HUNTER, C.ORACLE, C.CARPENTER], None],
    )
    game.apply(LAYOUT["select"].action(C.FIGHTER))
    advance_to(game, Decision.TAKE_LAND, 0)
    game.apply(bot_choice(game))
    assert realm_kinds(game, 0).count(K.MOUNTAIN) == 2


def test_rider_brings_the_second_mountain_within_reach() -> None:
    game = VaalbaraGame.from_position(
        2,
        round_number=2,
        realms=[[K.MOUNTAIN], [K.FIELD]],
        row1=[K.MEADOW, K.VILLAGE],
        row2=[K.MOUNTAIN, K.FOREST_3],
        hands=[[C.RIDER, C.BARD, C.HUNTER, C.ORACLE, C.CARPENTER], None],
    )
    game.apply(LAYOUT["select"].action(C.RIDER))
    advance_to(game, Decision.RIDER_FIRST, 0)
    while game.current_player == 0 and game.decision != Decision.SELECT:
        game.apply(bot_choice(game))
    assert realm_kinds(game, 0).count(K.MOUNTAIN) == 2


def test_the_bot_values_a_crafter_tie_by_the_omens_and_a_possible_tracker() -> None:
    """A Crafter tie goes to the lower Omen on the top card when the Crafter resolves; a Tracker
    in the round puts an unseen back on top first, so the bot counts the tie as a coin flip."""
    chance = VaalbaraHeuristicAgent._crafter_chance
    below = SimpleNamespace(omen=[2, 0, 1])  # the bot (seat 0) ranks last: it wins ties
    above = SimpleNamespace(omen=[0, 1, 2])
    assert chance(below, [C.CRAFTER, C.CRAFTER, C.BARD], [1, 2]) == 1.0
    assert chance(above, [C.CRAFTER, C.CRAFTER, C.BARD], [1, 2]) == 0.0
    assert chance(above, [C.CRAFTER, C.CRAFTER, C.TRACKER], [1, 2]) == 0.5
    assert chance(below, [C.CRAFTER, C.CRAFTER, C.CRAFTER], [1, 2]) == 1.0
    assert chance(above, [C.CRAFTER, C.CRAFTER, C.FARMER], [1, 2]) == 0.0
    assert chance(above, [C.CRAFTER, C.BARD, C.FIGHTER], [1, 2]) == 1.0


def every_row(model: LandModel, players: int) -> dict[tuple[int, int, bool], list[float]]:
    """Each seat's land values at every initiative, with and without the Farmer's doubling."""
    return {
        (seat, init, farmer): list(model.row(seat, init, farmer))
        for seat in range(players)
        for init in range(1, 12)
        for farmer in (False, True)
    }


@pytest.mark.parametrize("players", [2, 4])
def test_rows_kept_across_decisions_are_the_rows_computed_afresh(players: int) -> None:
    """The rows an outlook keeps from earlier decisions (by realm, neighbour Meadows and
    Carpenter) against rows computed with every cache emptied, for every seat's view at every
    step of a random game."""
    env = make("vaalbara", raw=True, num_players=players)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    while not env.game.is_terminal:
        for name in env.agents:
            seen = Seen(env.observe(name)["observation"])
            kept = every_row(LandModel(seen, Tuning()), players)
            Outlook.of.cache_clear()
            _PICK_VALUES.clear()
            assert kept == every_row(LandModel(seen, Tuning()), players)
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
