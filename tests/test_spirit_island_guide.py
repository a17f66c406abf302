"""Spirit Island's search guide (``guide=heuristic``): which decisions it searches and what it
makes of a position."""

from __future__ import annotations

import numpy as np
import pytest
from tabletop_envs.agents.base import InformationSet
from tabletop_envs.agents.heuristics import search_guide
from tabletop_envs.agents.search import DEFAULT_ROLLOUTS, PIMCAgent, rollout, search_factory
from tabletop_envs.agents.spirit_island_guide import NON_TERMINAL, ravage_blight, value_terms

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.core.game import GameCore
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.invaders import lands_of
from tabletop_envs.spirit_island.rules import SpiritIslandGame

GUIDE = search_guide("spirit_island_v1")


def positions(players: int, seed: int) -> list[SpiritIslandGame]:
    """Every decision of a seeded random game, as clones."""
    game, rng, seen = SpiritIslandGame(players, seed=seed), np.random.default_rng(seed), []
    while not game.is_terminal:
        seen.append(game.clone())
        game.apply(int(rng.choice(game.legal_actions())))
    return seen


def worth(game: SpiritIslandGame) -> float:
    return float(GUIDE.value(game)[0])


def test_the_guide_searches_growth_presence_plays_and_targets_only() -> None:
    searched = {spec.PURPOSE[name] for name in ("growth", "presence_land", "play", "target_land")}
    kinds = set()
    for game in positions(2, 3):
        purpose = game.pending[2]
        kinds.add(purpose)
        seat = game.current_player
        assert GUIDE.searches(game.observation(seat)) == (purpose in searched), purpose
        assert GUIDE.stage(game) == game.turn
    assert searched <= kinds and kinds - searched, "the game shows both kinds"


def calm_before_a_ravage(players: int = 1, seed: int = 4) -> SpiritIslandGame:
    """A position with no Invaders and no Blight in the lands of its Ravage card, 2 Blight on
    the card and Fear left to earn before the next card."""
    game = next(g for g in positions(players, seed) if g.invader_slots[0] >= 0).clone()
    for land in lands_of(game, game.invader_slots[0]):
        for kind in (*spec.INVADER_KINDS, spec.BLIGHT):
            game.pieces[land][kind] = 0
    game.blight_pool, game.fear_pool = 2, max(2, game.fear_pool)
    return game


def with_city(game: SpiritIslandGame, land: int) -> SpiritIslandGame:
    threatened = game.clone()
    threatened.pieces[land][spec.CITY] = 1
    return threatened


def test_the_guide_values_what_wins_and_what_loses() -> None:
    game = calm_before_a_ravage()
    base = worth(game)
    assert -NON_TERMINAL < base < NON_TERMINAL
    less_blight = game.clone()
    less_blight.blight_pool -= 1
    assert worth(less_blight) < base
    more_fear = game.clone()
    more_fear.fear_pool -= 1
    assert worth(more_fear) > base
    won, lost = game.clone(), game.clone()
    won.outcome, lost.outcome = 1, -1
    assert worth(won) == 1.0 and worth(lost) == -1.0
    assert (GUIDE.value(game) == base).all(), "one value for the whole team"


def test_a_ravage_that_will_blight_is_worth_less_than_one_defended_or_cleared() -> None:
    game = calm_before_a_ravage()
    land = lands_of(game, game.invader_slots[0])[0]
    threatened = with_city(game, land)
    defended = threatened.clone()
    defended.defend[land] = 2
    elsewhere = next(x for x in game.lands if x not in lands_of(game, game.invader_slots[0]))
    spared = with_city(game, elsewhere)  # the same City where no Ravage comes
    assert ravage_blight(threatened) == 1 and ravage_blight(defended) == 0
    assert ravage_blight(spared) == 0
    assert worth(threatened) < worth(defended)
    assert worth(threatened) < worth(spared)
    assert worth(defended) < worth(game)  # the City itself still counts against the team


def test_a_ravage_on_blight_counts_the_cascade() -> None:
    game = calm_before_a_ravage()
    land = lands_of(game, game.invader_slots[0])[0]
    threatened = with_city(game, land)
    cascading = threatened.clone()
    cascading.pieces[land][spec.BLIGHT] = 1
    assert ravage_blight(cascading) == 2
    on_card_alike = cascading.clone()  # the Blight on the island did not come off the card
    assert worth(on_card_alike) < worth(threatened)


def test_the_blight_budget_counts_the_blighted_island_side() -> None:
    game = calm_before_a_ravage()
    healthy, flipped = game.clone(), game.clone()
    healthy.blight_pool = 1
    flipped.blighted = True
    flipped.blight_pool = spec.BLIGHT_CARDS[flipped.blight_card][1] * flipped.num_players
    assert worth(flipped) < worth(healthy)  # a flipped card is the last of the budget


def test_guided_pimc_plays_one_rollout_a_world_unless_told() -> None:
    island = search_factory("pimc:2,guide=heuristic", "spirit_island_v1")(0)
    told = search_factory("pimc:2,rollouts=3,guide=heuristic", "spirit_island_v1")(0)
    other = search_factory("pimc:2,guide=heuristic", "valiant_wars_v3")(0)
    assert isinstance(island, PIMCAgent) and isinstance(told, PIMCAgent)
    assert isinstance(other, PIMCAgent)
    assert (island.rollouts, told.rollouts, other.rollouts) == (1, 3, DEFAULT_ROLLOUTS)


def first_option(game: GameCore, rng: np.random.Generator) -> int:
    """A rollout policy with no judgement: the first legal action."""
    return game.legal_actions()[0]


def test_the_search_targets_the_land_whose_ravage_it_stops() -> None:
    """Flash Floods' 1 Damage with the Mountain about to Ravage with 2 Explorers (a Blight; one
    Explorer less and it deals 1): a guided PIMC whose rollouts and ties take the first
    land in range still aims at the Mountain, not at the Explorer in a quiet land that comes
    first (both remove one Explorer): the Blight it stops is seen by the guide's value alone."""
    game = SpiritIslandGame(1, seed=0)
    game.pending, game.pending_options, game.queue = [], [], []
    for row in game.pieces:
        row[:] = [0] * spec.KINDS
    quiet, mountain = 4, 5  # board A's lands 5 (a Wetland) and 6 (a Mountain), in that order
    game.pieces[mountain][spec.EXPLORER] = 2
    game.pieces[quiet][spec.EXPLORER] = 1
    game.invader_slots = [0, -1, -1]  # the Stage I Mountain card in the Ravage slot
    game.ask("target_land", 0, spec.CARD_ID["Flash Floods"])
    legal = game.legal_actions()
    offset = spec.LAYOUT.segment_of(spec.Decision.LAND).offset
    assert mountain + offset in legal and legal[0] != mountain + offset
    search = PIMCAgent(seed=0, worlds=2, rollout_policy=first_option, guide=GUIDE)
    search.see(InformationSet(game, 0))
    mask = np.zeros(spec.LAYOUT.total, dtype=np.int8)
    mask[legal] = 1
    action = search.act({"observation": game.observation(0), "action_mask": mask}, "player_0")
    assert action == mountain + offset


@pytest.mark.parametrize("players", [1, 2, 3])
@pytest.mark.parametrize("level", ["base", "hard"])
def test_the_blight_share_is_whole_at_the_start_at_every_difficulty(
    players: int, level: str
) -> None:
    """Before any Blight is added the share left is 1, whatever the Healthy side holds (the
    ``hard`` level puts less on it than the published one), and one Blight off the card
    takes one share of the game's own total away."""
    game = SpiritIslandGame(players, seed=1, difficulty=level)
    per_player = spec.BLIGHT_CARDS[game.blight_card][1]
    total = game.healthy_blight() + per_player * players
    assert ravage_blight(game) == 0
    assert value_terms(game)["blight"] == 1.0
    game.blight_pool -= 1
    assert value_terms(game)["blight"] == pytest.approx(1 - 1 / total)


@pytest.mark.parametrize("setting, turns", [("", 2), (",stages=1", 1), (",stages=3", 3)])
def test_guided_rollouts_play_out_this_turn_and_the_next(setting: str, turns: int) -> None:
    """From a searched position of turn t, a guided PIMC's rollout plays through turn t + 1's
    Invader Phase and stops as turn t + 2 begins (or at the end of the game); ``stages=N``
    makes that N turns."""
    search = search_factory(f"pimc:2,guide=heuristic{setting}", "spirit_island_v1")(0)
    assert isinstance(search, PIMCAgent)
    stopped_turns = set()
    for game in positions(1, 5)[::25]:
        if not GUIDE.searches(game.observation(game.current_player)):
            continue
        world = game.clone()
        within = search._within(world)
        rollout(world, search.rollout_policy, np.random.default_rng(0), within=within)
        assert world.is_terminal or world.turn == game.turn + turns
        stopped_turns.add(world.turn - game.turn)
    assert turns in stopped_turns
