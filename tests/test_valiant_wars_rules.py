"""Valiant Wars rules: setup, reveal steps, OUT, purchases, battle, VP, Omens and the token."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tabletop_envs.valiant_wars.rules import ValiantWarsGame
from tabletop_envs.valiant_wars.spec import (
    CHAMPIONS,
    EMPTY,
    GOLD,
    IGNORE,
    KEEP_OMEN,
    LAYOUT,
    LOCATION_BASE,
    LOCATIONS,
    NO_CARD,
    NOBODY,
    NUM_CHAMPION_CARDS,
    NUM_LOCATIONS,
    OMEN,
    OVER,
    REVEAL,
    SOLDIER,
    STOP,
    SUPPLY_GOLD,
    SUPPLY_OMENS,
    SUPPLY_SOLDIERS,
    Buy,
    Decision,
    Kind,
    Terrain,
    champion_code,
    is_champion,
    location_code,
)

C = champion_code
PLAIN_LOCATION = 0
assert LOCATIONS[PLAIN_LOCATION].terrain == Terrain.PLAIN


# ----- helpers shared by the Valiant Wars test files ----------------------------------------
def make_game(
    players: int = 2,
    decks: dict[int, list[int]] | None = None,
    first: int = 0,
    location: int = PLAIN_LOCATION,
    **options: object,
) -> ValiantWarsGame:
    """A game with chosen decks (listed top card first), after the round's first card
    (turned over by everyone at once), at its first reveal-or-STOP."""
    game = ValiantWarsGame(players, seed=0, **options)
    game._start_round()  # the dealt first cards go back
    game.first = first
    for seat, cards in (decks or {}).items():
        game.decks[seat] = list(reversed(cards))
    set_location(game, location)
    game.decision = EMPTY
    game._start_step()
    game._settle()
    return game


def set_location(game: ValiantWarsGame, location: int) -> None:
    deck = game.location_deck
    index = deck.index(location)
    deck[index], deck[-1] = deck[-1], deck[index]


def set_line(
    game: ValiantWarsGame, seat: int, cards: list[int], down: tuple[int, ...] = ()
) -> None:
    """Put ``cards`` in ``seat``'s line, face up except the positions in ``down``."""
    game.lines[seat] = list(cards)
    game.face_up[seat] = [0 if pos in down else 1 for pos in range(len(cards))]
    game.copies[seat] = [EMPTY] * len(cards)
    game.used[seat] = [0] * len(cards)


def act(game: ValiantWarsGame, segment: str, option: int) -> None:
    """Apply ``option`` of ``segment``; every seat's observation is then checked against the
    plain reference view, so every scripted scenario of these files checks the encoder."""
    game.apply(LAYOUT[segment].action(option))
    assert_reference_view(game)


def assert_reference_view(game: ValiantWarsGame) -> None:
    """Every seat's fast observation equals ``SCHEMA.encode`` of its reference view."""
    schema = ValiantWarsGame.SCHEMA
    for seat in range(game.num_players):
        differs = np.flatnonzero(game.observation(seat) != schema.encode(game.view(seat)))
        fields = {
            name
            for name, start, end, _, _ in schema.describe()
            for i in differs
            if start <= i < end
        }
        assert not differs.size, f"seat {seat}: {sorted(fields)} differ from the reference view"


def reveal_step(game: ValiantWarsGame, stop: tuple[int, ...] = ()) -> None:
    """Answer one whole reveal step: everyone asked reveals, except the seats in ``stop``."""
    assert game.decision == Decision.REVEAL_OR_STOP
    for _ in range(len(game.choosers)):
        act(game, "reveal_or_stop", STOP if game.decider in stop else REVEAL)


def target(game: ValiantWarsGame, seat: int) -> None:
    """Answer a choose_player decision with the absolute ``seat``."""
    assert game.decision == Decision.CHOOSE_PLAYER
    act(game, "choose_player", (seat - game.decider) % game.num_players)


def player_options(game: ValiantWarsGame) -> set[int]:
    """Absolute seats a pending choose_player decision allows (-1: nobody)."""
    assert game.decision == Decision.CHOOSE_PLAYER
    n = game.num_players
    return {-1 if o == NOBODY else (game.decider + o) % n for o in game.pending_options}


# ----- setup ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "target_vp"), [(2, 10), (3, 9), (4, 8), (5, 8)])
def test_setup_decks_supply_market_and_targets(players: int, target_vp: int) -> None:
    game = ValiantWarsGame(players, seed=1)
    assert game.target == target_vp
    for deck, line in zip(game.decks, game.lines, strict=True):
        assert sorted(deck + line) == sorted([GOLD] * 5 + [OMEN] * 3 + [SOLDIER] * 2)
        assert len(line) == 1, "the round begins with everyone's first card revealed"
    assert game.supply == [
        SUPPLY_SOLDIERS - 2 * players,
        SUPPLY_GOLD - 5 * players,
        SUPPLY_OMENS - 3 * players,
    ]
    assert len(game.market) == 5
    assert len(game.champion_deck) + 5 == NUM_CHAMPION_CARDS == 60
    assert sorted(game.location_deck) == list(range(NUM_LOCATIONS))
    assert game.decision == Decision.REVEAL_OR_STOP and game.decider == game.first


def test_target_vp_option_and_bad_values() -> None:
    assert ValiantWarsGame(2, seed=0, target_vp=4).target == 4
    with pytest.raises(ValueError, match="target_vp"):
        ValiantWarsGame(2, seed=0, target_vp=0)
    with pytest.raises(ValueError, match="reward"):
        ValiantWarsGame(2, seed=0, reward="points")
    with pytest.raises(ValueError, match="players"):
        ValiantWarsGame(6)


def test_champion_table_totals() -> None:
    assert len(CHAMPIONS) == 27
    assert sum(c.copies for c in CHAMPIONS) == 60
    assert all(1 <= c.cost <= 6 for c in CHAMPIONS)
    assert sum(location.vp for location in LOCATIONS) == 51


# ----- reveal steps and OUT -------------------------------------------------------------------
def test_reveal_choices_are_collected_before_cards_turn_over() -> None:
    game = make_game(
        3, {0: [GOLD, GOLD, GOLD], 1: [GOLD, SOLDIER, GOLD], 2: [GOLD, GOLD, GOLD]}, first=1
    )
    assert game.choosers == [1, 2, 0]
    act(game, "reveal_or_stop", REVEAL)
    act(game, "reveal_or_stop", STOP)
    assert game.lines == [[GOLD], [GOLD], [GOLD]], "no card turns over before all have chosen"
    act(game, "reveal_or_stop", REVEAL)
    assert game.lines[1] == [GOLD, SOLDIER] and game.lines[0] == [GOLD, GOLD]
    assert game.lines[2] == [GOLD]
    assert game.stopped == [0, 0, 1] and game.stop_step[2] == 1


def test_the_round_begins_with_everyone_revealing_their_first_card() -> None:
    """ "The Round begins by players all revealing their first card by drawing it placing
    it in front of them. This is done at the same time by all players." STOP is offered
    from the second card on."""
    for seed in range(5):
        game = ValiantWarsGame(3, seed=seed)
        assert game.step == 1 and not any(game.stopped)
        assert all(len(line) == 1 for line in game.lines) or any(game.tasks)
        assert game.decision != Decision.REVEAL_OR_STOP or game.choosers == game.seat_order()
    game = make_game(2, {0: [C(Kind.FIREBRAND), GOLD, GOLD], 1: [SOLDIER, GOLD]})
    assert game.lines == [[C(Kind.FIREBRAND), GOLD], [SOLDIER]], "first cards resolve too"
    assert game.decision == Decision.REVEAL_OR_STOP and game.pending_options == [REVEAL, STOP]


def test_second_omen_is_out_with_no_gold_swords_or_purchase() -> None:
    game = make_game(2, {0: [GOLD, OMEN, SOLDIER, OMEN, GOLD], 1: [GOLD, GOLD, GOLD]})
    for _ in range(2):
        reveal_step(game)
    assert not game.out[0]
    assert game.gold(0) == 2 and game.swords(0) == 1
    reveal_step(game, stop=(1,))
    assert game.out[0]
    assert game.lines[0] == [] and len(game.decks[0]) == 5, "the line is shuffled back"
    assert game.gold(0) == 0 and game.swords(0) == 0
    assert game.phase == 1 and game.buyers == [1]


def test_empty_deck_forces_stop() -> None:
    game = make_game(2, {0: [GOLD, GOLD], 1: [GOLD, GOLD, GOLD, GOLD]})
    reveal_step(game)
    assert game.choosers == [1], "player 0 is stopped without being asked"
    assert game.stopped[0] and game.stop_step[0] == 2 and game.gold(0) == 2


@pytest.mark.parametrize("ignore", [True, False])
def test_saint_revealed_beside_an_omen_lets_its_owner_ignore_it_or_not(ignore: bool) -> None:
    """ "If you have a Dark Omen played, the Saint allows you to ignore it. This means you
    don't get Gold from it either. Flip it facedown to indicate this." Allowed, not
    forced: the owner chooses."""
    game = make_game(2, {0: [OMEN, GOLD, C(Kind.SAINT), OMEN, GOLD], 1: [GOLD] * 6})
    reveal_step(game)
    reveal_step(game)
    assert game.decision == Decision.IGNORE_OMEN and game.decider == 0
    assert game.pending_options == [KEEP_OMEN, IGNORE] and game.pending == [2, 0]
    act(game, "ignore_omen", IGNORE if ignore else KEEP_OMEN)
    assert game.face_up[0] == [0 if ignore else 1, 1, 1]
    assert game.gold(0) == (1 if ignore else 2), "an ignored Omen gives no Gold"
    reveal_step(game)
    assert not game.out[0], "kept, the Omen is ignored when the second one would put it OUT"
    assert game.face_up[0] == ([0, 1, 1, 1] if ignore else [1, 1, 1, 0])
    assert game.decision == Decision.REVEAL_OR_STOP, "no question: OUT is the alternative"


def test_omen_revealed_beside_an_unused_saint_asks_its_owner() -> None:
    game = make_game(2, {0: [C(Kind.SAINT), OMEN, OMEN, OMEN], 1: [GOLD] * 5})
    reveal_step(game)
    assert game.decision == Decision.IGNORE_OMEN and game.pending == [0, 1]
    act(game, "ignore_omen", KEEP_OMEN)
    assert game.used[0] == [0, 0] and game.gold(0) == 1
    reveal_step(game)
    assert not game.out[0] and game.used[0][0] == 1 and game.face_up[0] == [1, 1, 0]
    reveal_step(game)
    assert game.out[0], "one Saint ignores only one Omen"


def test_a_forced_omen_beside_a_saint_asks_before_the_next_forced_card() -> None:
    game = make_game(
        2,
        {0: [C(Kind.SAINT), GOLD, OMEN, GOLD, GOLD], 1: [GOLD, C(Kind.SABOTEUR), GOLD, GOLD]},
    )
    reveal_step(game)  # player 1's Saboteur: player 0, the only opponent, draws 2
    assert game.lines[0] == [C(Kind.SAINT), GOLD, OMEN]
    assert game.decision == Decision.IGNORE_OMEN and game.decider == 0
    act(game, "ignore_omen", KEEP_OMEN)
    assert game.lines[0] == [C(Kind.SAINT), GOLD, OMEN, GOLD], "then the second card"


def test_flipped_saint_cancels_nothing() -> None:
    game = make_game(2)
    set_line(game, 0, [C(Kind.SAINT), OMEN, OMEN], down=(0,))
    game._omen_revealed(0, 2)
    assert game.out[0]


# ----- purchases ------------------------------------------------------------------------------
def _buying_game(
    gold: list[int], stop_steps: list[int], first: int = 0, **options: object
) -> ValiantWarsGame:
    game = make_game(len(gold), first=first, **options)
    for seat, amount in enumerate(gold):
        set_line(game, seat, [GOLD] * amount)
        game.stopped[seat], game.stop_step[seat] = 1, stop_steps[seat]
        game.stop_gold[seat] = amount
    game.choosers, game.decision = [], EMPTY
    game._start_buying()
    game._settle()
    return game


def test_first_to_stop_buys_first_and_ties_go_clockwise_from_first_player() -> None:
    game = _buying_game([3, 3, 3], [3, 1, 1], first=2)
    assert game.buyers == [2, 1, 0]


def test_one_champion_any_gold_one_free_soldier_and_market_refill() -> None:
    game = _buying_game([6, 0], [1, 2], champion_limit=1)
    game.market[0] = int(Kind.FIGHTER)
    game.market[1] = int(Kind.SELLSWORD)
    game.pending_options = game._purchase_options()
    refill = game.champion_deck[-1]
    act(game, "buy", 0)
    assert game.market[0] == refill and game.gold_left == 4
    assert 1 not in game.pending_options, "only one Champion per round"
    act(game, "buy", Buy.SOLDIER)
    assert Buy.SOLDIER not in game.pending_options
    for _ in range(4):
        act(game, "buy", Buy.GOLD)
    deck = game.decks[0]
    assert deck.count(GOLD) == 5 + 4 and deck.count(SOLDIER) == 3
    assert C(Kind.FIGHTER) in deck
    assert game.decision == Decision.BUY and game.decider == 1, "'done' alone is automatic"
    assert game.pending_options == [Buy.SOLDIER, Buy.DONE], "no Gold, so only the Soldier"


def test_unaffordable_champions_are_masked() -> None:
    game = _buying_game([2, 0], [1, 2])
    game.market[:] = [int(Kind.HERO), int(Kind.FIGHTER), int(Kind.WYRM_LORD), -1, -1]
    assert game._purchase_options() == [1, Buy.GOLD, Buy.SOLDIER, Buy.DONE]


# ----- battle, VP, Omens and the token ------------------------------------------------------
def _battle(game: ValiantWarsGame) -> None:
    game.phase, game.buyers, game.buyer = 1, [], 0
    game._battle()


def test_highest_swords_takes_the_location_into_the_deck() -> None:
    game = make_game(3, location=PLAIN_LOCATION)
    set_line(game, 0, [SOLDIER, SOLDIER])
    set_line(game, 1, [C(Kind.BARBARIAN)])
    set_line(game, 2, [SOLDIER])
    _battle(game)
    assert game.vp == [0, LOCATIONS[PLAIN_LOCATION].vp, 0]
    assert location_code(PLAIN_LOCATION) in game.decks[1] + game.lines[1]
    assert PLAIN_LOCATION not in game.location_deck
    assert game.last_battle[:2] == [PLAIN_LOCATION, 1]


@pytest.mark.parametrize("swords", [[2, 2, 1], [0, 0, 0]])
def test_tie_or_no_swords_sets_the_location_aside(swords: list[int]) -> None:
    game = make_game(3)
    for seat, count in enumerate(swords):
        set_line(game, seat, [SOLDIER] * count)
    left = len(game.location_deck)
    _battle(game)
    assert game.vp == [0, 0, 0] and len(game.location_deck) == left - 1
    owned = [c for seat in range(3) for c in game.decks[seat] + game.lines[seat]]
    assert location_code(PLAIN_LOCATION) not in owned


@pytest.mark.parametrize(
    ("before", "location_vp", "omens"), [(2, 3, 1), (5, 3, 1), (2, 4, 2), (0, 2, 0), (8, 1, 1)]
)
def test_one_omen_per_multiple_of_three_vp(before: int, location_vp: int, omens: int) -> None:
    game = make_game(2)
    location = next(i for i, loc in enumerate(LOCATIONS) if loc.vp == location_vp)
    game.vp[0] = before
    supply = game.supply[2]
    held = game.decks[0].count(OMEN)
    game._score(0, location)
    assert game.vp[0] == before + location_vp
    assert game.decks[0].count(OMEN) == held + omens
    assert game.supply[2] == supply - omens


def test_no_omen_when_the_supply_is_empty() -> None:
    game = make_game(2)
    game.supply[2] = 0
    game._score(0, next(i for i, loc in enumerate(LOCATIONS) if loc.vp == 3))
    assert (game.decks[0] + game.lines[0]).count(OMEN) == 3


@pytest.mark.parametrize(
    ("vp", "holder", "expected"),
    [([0, 0, 0, 0], 1, 2), ([3, 1, 2, 1], 1, 3), ([3, 1, 2, 2], 1, 1), ([0, 2, 2, 2], 0, 0)],
)
def test_token_passes_to_lowest_vp_clockwise(vp: list[int], holder: int, expected: int) -> None:
    game = make_game(4)
    game.vp, game.first = vp, holder
    game._pass_token()
    assert game.first == expected


def test_reaching_the_target_ends_the_game() -> None:
    game = make_game(2, target_vp=2)
    set_line(game, 1, [SOLDIER])
    set_location(game, next(i for i, loc in enumerate(LOCATIONS) if loc.vp == 2))
    _battle(game)
    assert game.is_terminal and list(game.winners()) == [1]
    assert list(game.returns()) == [-1.0, 1.0]
    assert game.scores() == [0.0, 2.0] and game.turns() == 1


def test_exhausted_locations_end_the_game_and_tied_leaders_share() -> None:
    game = make_game(3, reward="win")
    game.location_deck = game.location_deck[-1:]
    game.vp = [2, 2, 1]
    for seat in range(3):
        set_line(game, seat, [])
    _battle(game)
    assert game.is_terminal and list(game.winners()) == [0, 1]
    assert list(game.returns()) == [0.5, 0.5, -1.0]


def test_score_reward_is_the_vp_margin() -> None:
    game = make_game(2, reward="score", target_vp=1)
    game.vp = [0, 3]
    set_line(game, 1, [SOLDIER])
    _battle(game)
    returns = game.returns()
    assert returns[1] > 0 > returns[0]


# ----- invariants ----------------------------------------------------------------------------
def _card_totals(game: ValiantWarsGame) -> tuple[int, int, int, int]:
    owned = [c for seat in range(game.num_players) for c in game.decks[seat] + game.lines[seat]]
    champions = sum(map(is_champion, owned)) + len(game.champion_deck)
    champions += sum(kind >= 0 for kind in game.market)
    return (
        owned.count(GOLD) + game.supply[1],
        owned.count(OMEN) + game.supply[2],
        owned.count(SOLDIER) + game.supply[0],
        champions,
    )


@pytest.mark.parametrize("players", [2, 5])
def test_cards_are_conserved_and_games_are_bounded(players: int) -> None:
    for seed in range(8):
        game = ValiantWarsGame(players, seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while not game.is_terminal:
            game.apply(int(rng.choice(game.legal_actions())))
            steps += 1
            assert _card_totals(game) == (SUPPLY_GOLD, SUPPLY_OMENS, SUPPLY_SOLDIERS, 60)
        assert steps <= ValiantWarsGame.MAX_DECISIONS
        assert game.round < NUM_LOCATIONS


def test_always_revealing_players_stay_within_the_bound() -> None:
    """Reveal whenever allowed and buy everything: the longest kind of game."""
    game = ValiantWarsGame(5, seed=3)
    steps = 0
    while not game.is_terminal:
        if game.decision == Decision.BUY:
            game.apply(LAYOUT["buy"].action(min(game.pending_options)))
        else:
            game.apply(game.legal_actions()[0])
        steps += 1
    assert steps <= ValiantWarsGame.MAX_DECISIONS


# ----- saves: a hand-edited state that breaks a rule is refused, naming the field -----------
def _played(players: int = 3, seed: int = 5) -> ValiantWarsGame:
    """A real position: random play until a reveal step with a card in every line, after a
    Location has been won (so Locations and VP are held)."""
    game = ValiantWarsGame(players, seed=seed)
    rng = np.random.default_rng(seed)
    while not (
        game.decision == Decision.REVEAL_OR_STOP
        and all(game.lines)
        and any(game.vp)
        and GOLD in game.lines[game.decider]
    ):
        game.apply(int(rng.choice(game.legal_actions())))
    return game


def _edited(game: ValiantWarsGame, field: str, edit: object) -> str:
    data = json.loads(game.to_json())
    fields = data["state"]["fields"]
    fields[field] = edit(fields[field], game) if callable(edit) else edit
    return json.dumps(data)


def _won(game: ValiantWarsGame) -> int:
    """A seat holding a Location."""
    return next(seat for seat in range(game.num_players) if game.vp[seat])


SAVE_EDITS = {
    "a duplicated Gold": ("decks", lambda decks, g: [[*decks[0], GOLD], *decks[1:]], "supply"),
    "a duplicated Champion": (
        "decks",
        lambda decks, g: [[*decks[0], C(g.market[0])], *decks[1:]],
        "champion_deck",
    ),
    "a Location won and still to come": (
        "location_deck",
        lambda deck, g: [
            next(c - LOCATION_BASE for c in g.decks[_won(g)] if c >= LOCATION_BASE),
            *deck,
        ],
        "location_deck",
    ),
    "a Gold card lost": (
        "supply",
        lambda supply, g: [supply[0], supply[1] - 1, supply[2]],
        "supply",
    ),
    "VP no Location gives": ("vp", lambda vp, g: [vp[0] + 1, *vp[1:]], "vp"),
    "a VP list one seat short": ("vp", lambda vp, g: vp[:-1], "vp"),
    "a face-up flag missing": ("face_up", lambda up, g: [up[0][:-1], *up[1:]], "face_up"),
    "a market slot too many": ("market", lambda market, g: [*market, NO_CARD], "market"),
    "an unknown card code": ("decks", lambda decks, g: [[*decks[0], 999], *decks[1:]], "decks"),
    "a first player off the table": ("first", 3, "first"),
    "an unknown phase": ("phase", 7, "phase"),
    "a flag of 2": ("stopped", lambda stopped, g: [2, *stopped[1:]], "stopped"),
    "a Gold turned face down": (
        "face_up",
        lambda up, g: [
            [0 if code == GOLD else flag for code, flag in zip(g.lines[s], up[s], strict=True)]
            if s == g.decider
            else up[s]
            for s in range(g.num_players)
        ],
        "face_up",
    ),
    "a copy on a card that is no Dancer": (
        "copies",
        lambda copies, g: [[int(Kind.FIGHTER), *c[1:]] if c else c for c in copies],
        "copies",
    ),
    "a decider asked out of turn": (
        "decider",
        lambda decider, g: g.choosers[(g.choosers.index(decider) + 1) % len(g.choosers)],
        "choices",
    ),
    "options the rules do not give": ("pending_options", [STOP], "pending_options"),
    "a reveal choice made out of turn": (
        "choices",
        lambda choices, g: [REVEAL if s == g.choosers[-1] else c for s, c in enumerate(choices)],
        "choices",
    ),
    "a target not from the options": ("target", 3, "target"),
    "a finished game without winners": ("phase", OVER, "decision|winners_list|round"),
}


@pytest.mark.parametrize("case", sorted(SAVE_EDITS))
def test_broken_saves_are_refused_naming_the_field(case: str) -> None:
    field, edit, named = SAVE_EDITS[case]
    game = _played()
    assert ValiantWarsGame.from_json(game.to_json()).to_json() == game.to_json()
    with pytest.raises(ValueError, match=rf"invalid saved valiant_wars game: ({named}):"):
        ValiantWarsGame.from_json(_edited(game, field, edit))


def test_real_games_satisfy_every_invariant_at_every_step() -> None:
    for players in (2, 5):
        game = ValiantWarsGame(players, seed=players)
        rng = np.random.default_rng(players)
        while not game.is_terminal:
            assert not [*game.check_invariants()]
            game.apply(int(rng.choice(game.legal_actions())))
        assert not [*game.check_invariants()]


# ----- Gold is fixed at STOP ---------------------------------------------------------------------
def test_gold_is_calculated_when_stop_is_declared_and_forced_cards_add_only_swords() -> None:
    """ "Gold is only ever calculated at the end of your turn when you have declared STOP."
    "After you go out, you cannot be Targeted": a stopped player can still be made to
    draw; the cards add Swords at the Battle, not Gold."""
    game = make_game(
        2,
        {0: [GOLD, GOLD, GOLD, SOLDIER, GOLD], 1: [GOLD, C(Kind.SABOTEUR), GOLD, GOLD]},
    )
    reveal_step(game, stop=(0,))
    assert game.stopped[0] and game.gold(0) == 1 and game.stop_gold[0] == 1
    # player 1's Saboteur has made player 0, the only opponent, draw Gold and Gold
    assert game.lines[0] == [GOLD, GOLD, GOLD]
    assert game.gold(0) == 1 and game.line_gold(0) == 3, "forced Gold after STOP adds nothing"
    assert game.view(0)["gold"][0] == 1 and game.view(1)["gold"][1] == 1
    reveal_step(game, stop=(1,))
    assert game.phase == 1 and game.buyers == [0, 1] and game.gold_left == 1


def test_a_champion_flipped_after_stop_does_not_change_the_gold() -> None:
    game = make_game(
        2, {0: [C(Kind.MONK), GOLD, GOLD], 1: [GOLD, GOLD, C(Kind.ASSASSIN), GOLD, GOLD]}
    )
    reveal_step(game, stop=(0,))
    assert game.gold(0) == 2
    reveal_step(game)
    target(game, 0)  # the Assassin flips the Monk (the only choice: automatic)
    assert game.face_up[0] == [0] and game.line_gold(0) == 0 and game.gold(0) == 2


# ----- purchase limits (ruling 1) --------------------------------------------------------------
def test_purchase_limits_are_options() -> None:
    game = _buying_game([9, 0], [1, 2])
    assert game.options["champion_limit"] is None and game.options["soldier_limit"] == 1
    for limits in ({"champion_limit": None, "soldier_limit": 2}, {"soldier_limit": None}):
        ValiantWarsGame(2, seed=0, **limits)
    with pytest.raises(ValueError, match="champion_limit"):
        ValiantWarsGame(2, seed=0, champion_limit=0)


def test_unlimited_champions_and_two_soldiers() -> None:
    game = make_game(2, soldier_limit=2)
    for seat, amount in enumerate([9, 0]):
        set_line(game, seat, [GOLD] * amount)
        game.stopped[seat], game.stop_step[seat], game.stop_gold[seat] = 1, seat + 1, amount
    game.choosers, game.decision = [], EMPTY
    game._start_buying()
    game._settle()
    game.market[:2] = [int(Kind.FIGHTER), int(Kind.SELLSWORD)]
    game.pending_options = game._purchase_options()
    act(game, "buy", 0)
    assert 1 in game.pending_options, "a second Champion"
    act(game, "buy", 1)
    assert game.bought_champion == 2 and game.gold_left == 9 - 2 - 1
    act(game, "buy", Buy.SOLDIER)
    act(game, "buy", Buy.SOLDIER)
    assert Buy.SOLDIER not in game.pending_options and game.took_soldier == 2
    assert game.view(0)["purchase"].tolist() == [6, 2, 2]
