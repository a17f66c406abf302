"""Spirit Island's difficulty levels: the Fear each Fear card needs per player, and the
Blight on the Healthy side at the hard level."""

from __future__ import annotations

import numpy as np
import pytest

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island.blight_fear import add_fear, take_blight
from tabletop_envs.spirit_island.rules import SpiritIslandGame


@pytest.mark.parametrize(("level", "per_player"), [("base", 4), ("easy", 3), ("easiest", 2)])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_each_level_sets_the_fear_a_card_needs(level: str, per_player: int, players: int) -> None:
    game = SpiritIslandGame(players, seed=0, difficulty=level)
    needed = per_player * players
    assert game.fear_pool == needed
    add_fear(game, needed - 1)
    assert game.cards_earned() == 0 and game.fear_pool == 1
    add_fear(game, 1)
    assert game.cards_earned() == 1 and game.fear_pool == needed  # earned, then refilled
    assert not list(game.check_invariants())


def test_the_default_is_the_published_base_level() -> None:
    assert (
        SpiritIslandGame(2, seed=3).fear_pool
        == SpiritIslandGame(2, seed=3, difficulty="base").fear_pool
        == 8
    )


def test_an_unknown_level_names_the_accepted_ones() -> None:
    with pytest.raises(
        ValueError, match=r"difficulty='hardest'.*'base', 'easy', 'easiest', 'hard'"
    ):
        SpiritIslandGame(1, seed=0, difficulty="hardest")


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_hard_level_puts_less_blight_on_the_healthy_side(players: int) -> None:
    """hard: 1 Blight per player + 1 on the Healthy side (published: 2 per player + 1), the
    published Fear per card; the side flips once that Blight is taken."""
    hard = SpiritIslandGame(players, seed=0, difficulty="hard")
    base = SpiritIslandGame(players, seed=0)
    assert hard.blight_pool == players + 1 and base.blight_pool == 2 * players + 1
    assert hard.fear_pool == base.fear_pool == 4 * players
    for _ in range(players + 1):
        assert not hard.blighted
        take_blight(hard)
    assert hard.blighted and not list(hard.check_invariants())


def test_progress_counts_the_healthy_side_of_the_level() -> None:
    """A full Healthy side is worth the same at every level (its share of the level's fill)."""
    hard, base = SpiritIslandGame(2, seed=0, difficulty="hard"), SpiritIslandGame(2, seed=0)
    assert hard.progress_terms()["blight"] == base.progress_terms()["blight"] == 1.0
    take_blight(hard)
    take_blight(base)
    assert hard.progress_terms()["blight"] < base.progress_terms()["blight"] < 1.0


def random_games(level: str, count: int = 10) -> list[SpiritIslandGame]:
    """``count`` seeded 1-player games at ``level``, played to the end by random moves."""
    games = []
    for seed in range(count):
        game = SpiritIslandGame(1, seed=seed, difficulty=level)
        rng = np.random.default_rng(seed)
        while not game.is_terminal:
            game.apply(int(rng.choice(game.legal_actions())))
        games.append(game)
    return games


def test_random_teams_lose_sooner_at_the_hard_level() -> None:
    turns = {level: sum(game.turn for game in random_games(level)) for level in ("base", "hard")}
    assert turns["hard"] < turns["base"], turns


def test_a_pool_above_the_levels_card_is_refused_by_the_invariants() -> None:
    game = SpiritIslandGame(1, seed=0, difficulty="easiest")
    game.fear_pool = 3  # 2 per card at 1 player
    assert any(field == "fear_pool" for field, _ in game.check_invariants())


def test_an_easier_level_earns_random_teams_more_fear_cards() -> None:
    earned = {
        level: sum(game.cards_earned() for game in random_games(level))
        for level in ("base", "easiest")
    }
    assert earned["easiest"] > earned["base"], earned
