"""Spirit Island's ``progress()``: pairs of positions where one is plainly better, and the
shaped reward built on it."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.blight_fear import add_fear
from tabletop_envs.spirit_island.rules import PROGRESS_WEIGHTS, SpiritIslandGame


def start(players: int = 1) -> SpiritIslandGame:
    return SpiritIslandGame(players, seed=4, blight_card="downward_spiral")


def more_fear(game: SpiritIslandGame) -> None:
    add_fear(game, 2)


def a_fear_card(game: SpiritIslandGame) -> None:
    add_fear(game, game.fear_pool)


def invaders_removed(game: SpiritIslandGame) -> None:
    land = next(i for i, row in enumerate(game.pieces) if row[spec.CITY])
    game.pieces[land][spec.CITY] -= 1


def blight_spent(game: SpiritIslandGame) -> None:
    game.blight_pool -= 1
    game.pieces[0][spec.BLIGHT] += 1


def blighted_side(game: SpiritIslandGame) -> None:
    game.blight_pool = 2 * game.num_players
    game.blighted = True


def presence_lost(game: SpiritIslandGame) -> None:
    land = next(i for i, n in enumerate(game.presence[0]) if n)
    game.presence[0][land] -= 1
    game.destroyed_presence[0] += 1


def deck_advanced(game: SpiritIslandGame) -> None:
    game.invader_deck.pop(0)


BETTER: list[Callable[[SpiritIslandGame], None]] = [more_fear, a_fear_card, invaders_removed]
WORSE: list[Callable[[SpiritIslandGame], None]] = [
    blight_spent,
    blighted_side,
    presence_lost,
    deck_advanced,
]


@pytest.mark.parametrize("players", [1, 3])
@pytest.mark.parametrize(
    ("change", "better"),
    [(change, True) for change in BETTER] + [(change, False) for change in WORSE],
    ids=lambda value: value.__name__ if callable(value) else ("better" if value else "worse"),
)
def test_a_plainly_better_position_has_more_progress(
    change: Callable, better: bool, players: int
) -> None:
    game = start(players)
    changed = game.clone()
    change(changed)
    low, high = (game, changed) if better else (changed, game)
    assert 0 <= low.progress() < high.progress() < 1


def test_crossing_into_terror_level_two_counts_beyond_its_fear() -> None:
    game = start()
    add_fear(game, 3 * game.fear_per_card() - 1)  # one Fear short of the third card
    crossed = game.clone()
    add_fear(crossed, 1)
    assert crossed.terror_level() == 2 and game.terror_level() == 1
    fear_step = PROGRESS_WEIGHTS["fear"] / spec.FEAR_DECK_SIZE / crossed.fear_per_card()
    assert crossed.progress() - game.progress() > fear_step + 0.9 * PROGRESS_WEIGHTS["terror"] / 2


def test_each_term_stays_in_its_range_through_random_games() -> None:
    for seed in range(6):
        game = SpiritIslandGame(2, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            terms = game.progress_terms()
            assert set(terms) == set(PROGRESS_WEIGHTS)
            assert all(0.0 <= v <= 1.0 for v in terms.values()), terms
            assert 0.0 <= game.progress() < 1.0
            game.apply(int(rng.choice(game.legal_actions())))
        assert game.progress() == 1.0 or (game.progress() < 1.0 and game.returns()[0] == -1.0)


def test_the_shaped_reward_of_a_loss_follows_progress() -> None:
    game = start()
    game.options = {**game.options, "shaped_reward": True}
    game.outcome = -1
    kept = game.clone()
    blight_spent(game)
    assert -1 < game.returns()[0] < kept.returns()[0] <= -0.5
    assert kept.returns()[0] == pytest.approx(-1 + 0.5 * kept.progress())
