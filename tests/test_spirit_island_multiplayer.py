"""Spirit Island with two Spirits on boards A and B: the engine's seat logic (who decides,
round-robin Powers, drawn cards hidden from the other Spirit) at 2 players."""

from __future__ import annotations

import numpy as np
import pytest

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.observer import SCHEMA, view
from tabletop_envs.spirit_island.rules import PURPOSE_NAMES, STEP, SpiritIslandGame


def test_two_boards_join_symmetrically_and_set_up_both_spirits() -> None:
    island = spec.island_of(("A", "B"))
    assert 8 + 6 in island.neighbours[2] and 2 in island.neighbours[8 + 6]  # A3-B7
    assert island.distance[0][8 + 7] < 99  # every land reachable
    game = SpiritIslandGame(2, seed=0)
    assert game.fear_pool == 8 and game.blight_pool == 5  # 4 per player; 2 per player + 1
    assert game.presence[0][4] == 1  # River: the highest Wetland, A5
    assert game.presence[1][8 + 4] == 2  # Lightning: 2 in the highest Sands, B5
    assert game.owner(8 + 2) == 1 and spec.land_name(8 + 2) == "B3"
    assert game.action_to_str(0) and spec.land_name(8 + 2, ("A", "C")) == "C3"


@pytest.mark.parametrize("seed", range(25))
def test_two_player_random_games_keep_every_invariant(seed: int) -> None:
    game = SpiritIslandGame(2, seed=seed)
    rng = np.random.default_rng(seed)
    seats = set()
    while not game.is_terminal:
        assert not list(game.check_invariants())
        seats.add(game.current_player)
        for player in range(2):
            assert np.array_equal(game.observation(player), SCHEMA.encode(view(game, player)))
        if PURPOSE_NAMES[game.pending[2]] == "keep":
            drawer, other = game.pending[1], 1 - game.pending[1]
            assert SCHEMA.decode(game.observation(other))["drawn"].sum() == 0
            assert SCHEMA.decode(game.observation(drawer))["drawn"].sum() == len(game.drawn)
            hidden = game.resample_hidden(other, np.random.default_rng(seed))
            for field, value in view(game, other).items():
                assert np.array_equal(value, view(hidden, other)[field]), field
        game.apply(int(rng.choice(game.legal_actions())))
        copy = SpiritIslandGame.from_json(game.to_json())
        assert copy.legal_actions() == game.legal_actions()
    assert seats == {0, 1}


def test_the_board_owner_decides_about_its_lands() -> None:
    game = SpiritIslandGame(2, seed=0)
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    game.pieces[0][spec.CITY] = 1
    land = 8 + 4  # B5
    game.pieces[land][spec.EXPLORER] = 1
    game.pieces[land][spec.TOWN] = 1
    game.pieces[land][spec.DAHAN] = 2
    game.defend[land] = 5
    game.pending, game.pending_options = [], []
    game.queue.append([STEP["dahan_fight"], land])
    game.run()
    # the Dahan in B5 fight back; player_1 (board B) splits their 4 Damage
    assert PURPOSE_NAMES[game.pending[2]] == "damage" and game.current_player == 1


def card_named(name: str) -> int:
    return next(i for i, card in enumerate(spec.CARDS) if card.name == name)


def choose(game: SpiritIslandGame, seat: int, purpose: str, option: int) -> None:
    assert (game.current_player, PURPOSE_NAMES[game.pending[2]]) == (seat, purpose)
    assert option in game.legal_options(), game.legal_options()
    game.apply(spec.LAYOUT.segment_of(game.pending_kind()).offset + option)


def test_the_rulebooks_fast_power_example_with_two_players() -> None:
    """Player 1 uses a Fast Power to gather an Explorer into a land (Lure of the Unknown);
    player 2 then targets the same land at range 0 without Blight, gathers a Dahan into it
    (Enticing Splendor) and has it destroy the Explorer (Veil the Night's Hunt): the
    rulebook's example with published cards (ruling 20)."""
    a4, a5, a7 = 3, 4, 6
    game = SpiritIslandGame(2, seed=0)
    lure, splendor, veil = (
        card_named(name)
        for name in ("Lure of the Unknown", "Enticing Splendor", "Veil the Night's Hunt")
    )
    game.pieces = [[0] * spec.KINDS for _ in game.lands]
    game.pieces[0][spec.CITY] = 1  # an Invader far away: no victory yet
    game.pieces[a4][spec.EXPLORER] = 1
    game.pieces[a7][spec.DAHAN] = 1
    game.presence[1][a5] += 1  # player 2 reaches A5 at range 0
    game.energy_track = [1, 1]
    for seat, cards in ((0, [lure]), (1, [splendor, veil])):
        for card in cards:
            game.minor_deck.remove(card)
        game.played[seat] = cards
    game.pending, game.pending_options = [], []
    game.queue = [[STEP["turn"]], [STEP["powers_start"], spec.FAST]]
    game.run()
    choose(game, 0, "power", lure)
    choose(game, 0, "target_land", a5)  # range 2, a land without Invaders
    assert game.pieces[a5][spec.EXPLORER] == 1 and game.pieces[a4][spec.EXPLORER] == 0
    choose(game, 1, "power", splendor)
    choose(game, 1, "target_land", a5)  # range 0 without Blight
    choose(game, 1, "choose", 1)  # gather up to 2 Dahan
    choose(game, 1, "gather_piece", spec.DAHAN)
    assert game.pieces[a5][spec.DAHAN] == 1 and game.pieces[a7][spec.DAHAN] == 0
    choose(game, 1, "power", veil)  # A5, the one land with Dahan in reach
    choose(game, 1, "choose", 0)  # each Dahan deals 1 Damage to a different Invader
    assert game.pieces[a5][spec.DAHAN] == 1 and game.pieces[a5][spec.EXPLORER] == 0
