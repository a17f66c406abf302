"""The Spirit Island bot's strategy (its module docstring), one part a test: on a position
built through the rules core, the bot must choose the move the strategy names."""

from __future__ import annotations

import numpy as np
from tabletop_envs.agents.spirit_island_bot import SpiritIslandHeuristicAgent

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.rules import SpiritIslandGame
from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    CARD_DONE,
    CARD_ID,
    CITY,
    DAHAN,
    EXPLORER,
    LAYOUT,
    TOWN,
)

A = {n: n - 1 for n in range(1, 9)}
"""Board A's land n (1-8) -> its land index."""
B = {n: 7 + n for n in range(1, 9)}
"""Board B's land n -> its land index (2 players)."""
MOUNTAIN, WETLAND, JUNGLE, SANDS = range(4)
"""The Stage I Invader cards."""
NONE = -1


def position(
    players: int = 1,
    pieces: dict[int, dict[int, int]] | None = None,
    ravage: int = NONE,
    build: int = NONE,
    presence: dict[int, dict[int, int]] | None = None,
) -> SpiritIslandGame:
    """A game at the start of turn 1 with the island emptied and then ``pieces`` (land ->
    kind -> count), the Ravage and Build cards given, and ``presence`` (seat -> land ->
    count; each seat's setup Presence stays where none is given)."""
    game = SpiritIslandGame(players, seed=0)
    game.pending, game.pending_options, game.queue = [], [], []
    for row in game.pieces:
        row[:] = [0] * spec.KINDS
    for land, kinds in (pieces or {}).items():
        for kind, count in kinds.items():
            game.pieces[land][kind] = count
    game.invader_slots = [ravage, build, NONE]
    for seat, lands in (presence or {}).items():
        game.presence[seat] = [0] * len(game.pieces)
        for land, count in lands.items():
            game.presence[seat][land] = count
    return game


def bot_choice(game: SpiritIslandGame, purpose: str, seat: int, *ctx: int) -> int:
    """Ask ``seat`` decision ``purpose`` and return the bot's option (offset removed)."""
    game.ask(purpose, seat, *ctx)
    assert game.pending, f"{purpose}: the position must leave a choice"
    mask = np.zeros(LAYOUT.total, dtype=np.int8)
    mask[game.legal_actions()] = 1
    observation = {"observation": game.observation(seat), "action_mask": mask}
    action = SpiritIslandHeuristicAgent(seed=0).act(observation, f"player_{seat}")
    assert mask[action]
    decision = spec.PURPOSES[purpose][0]
    return action - LAYOUT.segment_of(decision).offset


# ----- planning against the Ravage and Build cards --------------------------------------------
def test_damage_goes_where_it_stops_a_ravage_from_blighting() -> None:
    """Flash Floods' 1 Damage: the Mountain about to Ravage with 2 Explorers (2 Damage, a
    Blight; 1 Explorer less and it deals 1), not a quiet land's City or Explorer."""
    game = position(
        pieces={A[6]: {EXPLORER: 2}, A[7]: {CITY: 1}, A[8]: {EXPLORER: 1}}, ravage=MOUNTAIN
    )
    assert bot_choice(game, "target_land", 0, CARD_ID["Flash Floods"]) == A[6]


def test_explorers_are_cleared_before_they_build() -> None:
    """With no Ravage to stop, Damage clears the Explorer from the land the Build card names
    (no Town there), not one in a quiet land."""
    game = position(pieces={A[8]: {EXPLORER: 1}, A[7]: {EXPLORER: 1}}, build=JUNGLE)
    assert bot_choice(game, "target_land", 0, CARD_ID["Flash Floods"]) == A[8]
    game = position(pieces={A[8]: {EXPLORER: 1}, A[7]: {EXPLORER: 1}}, build=SANDS)
    assert bot_choice(game, "target_land", 0, CARD_ID["Flash Floods"]) == A[7]


def test_defend_goes_where_the_blight_would_cascade() -> None:
    """Two Mountains Ravage with a Town each; Defend 6 goes where Blight already lies."""
    for blighted in (A[1], A[6]):
        pieces = {A[1]: {TOWN: 1}, A[6]: {TOWN: 1}}
        pieces[blighted][BLIGHT] = 1
        game = position(pieces=pieces, ravage=MOUNTAIN)
        assert bot_choice(game, "target_land", 0, CARD_ID["Nature's Resilience"]) == blighted


# ----- Fear: Towns and Cities ---------------------------------------------------------------
def test_destroys_the_town_for_fear() -> None:
    """Destroy 1 of an Explorer and a Town in a quiet land: the Town (1 Fear, and the more
    harm it would do later)."""
    game = position(pieces={A[7]: {EXPLORER: 1, TOWN: 1}})
    mask = spec.kinds_mask((EXPLORER, TOWN))
    assert bot_choice(game, "destroy", 0, A[7], mask, 1) == TOWN


def test_damage_is_split_to_stop_the_blight() -> None:
    """2 Damage in a Ravaging land with a Town and an Explorer (3 Damage): the first point
    goes to the Town, since only the Town's destruction brings the Ravage under 2 Damage."""
    game = position(pieces={A[6]: {EXPLORER: 1, TOWN: 1}}, ravage=MOUNTAIN)
    assert bot_choice(game, "damage", 0, A[6], 2) == TOWN


# ----- Dahan and pushes -----------------------------------------------------------------------
def test_pushed_explorers_go_to_a_quiet_land() -> None:
    """An Explorer pushed out of A5 goes neither into a land about to Ravage nor into an empty
    land about to Build (its Explorer would build a Town there), but to the quiet Jungle."""
    game = position(
        pieces={A[1]: {TOWN: 1}, A[6]: {TOWN: 1}, A[5]: {EXPLORER: 1}},
        ravage=MOUNTAIN,
        build=SANDS,
    )
    mask = spec.kinds_mask((EXPLORER,))
    dest = bot_choice(game, "push_dest", 0, A[5], mask, 1, 0, EXPLORER)
    assert dest == A[8]


def test_pushed_dahan_go_where_they_stop_a_blight() -> None:
    """A Dahan pushed out of A5 goes where the Ravage would kill it less and its
    counterattack helps: beside an Explorer (it survives 1 Damage and strikes back)."""
    game = position(
        pieces={A[5]: {DAHAN: 1}, A[1]: {CITY: 1}, A[6]: {EXPLORER: 1}},
        ravage=MOUNTAIN,
    )
    mask = spec.kinds_mask((DAHAN,))
    dest = bot_choice(game, "push_dest", 0, A[5], mask, 1, 0, DAHAN)
    assert dest == A[6]


# ----- growing -------------------------------------------------------------------------------
def test_grows_presence_early_and_reclaims_when_the_hand_is_spent() -> None:
    game = position()
    presence_groups = [
        g for g, group in enumerate(game.spirit(0).growth) if any(a == "presence" for a, _ in group)
    ]
    assert bot_choice(game, "growth", 0) in presence_groups
    spent = position()
    spent.discard[0], spent.hand[0] = list(spent.hand[0]), []
    reclaim = next(
        g
        for g, group in enumerate(spent.spirit(0).growth)
        if any(a == "reclaim_all" for a, _ in group)
    )
    assert bot_choice(spent, "growth", 0) == reclaim


# ----- Elements for the innate Power ----------------------------------------------------------
def test_plays_the_card_whose_elements_unlock_the_innate() -> None:
    """River holds 2 Water and no Sun: Boon of Vigor's Sun unlocks Massive Flooding's first
    tier (push an Explorer out of the land about to Build); with no Explorer there to push,
    the Sun is worth nothing and the Boon is not played."""
    sun, water = spec.ELEMENT_INDEX["sun"], spec.ELEMENT_INDEX["water"]
    for explorer, played in ((1, CARD_ID["Boon of Vigor"]), (0, CARD_DONE)):
        game = position(pieces={A[8]: {EXPLORER: explorer}, A[7]: {DAHAN: 1}}, build=JUNGLE)
        game.hand[0] = [CARD_ID["Boon of Vigor"]]
        game.elements[0][water], game.elements[0][sun] = 2, 0
        game.energy[0], game.plays_left[0] = 0, 1
        assert bot_choice(game, "play", 0) == played


# ----- the team ---------------------------------------------------------------------------------
def test_leaves_a_land_a_teammate_already_saves() -> None:
    """A6 Ravages with 2 Explorers. Lightning would spend Flash Floods there, unless River
    has already played Defend 6 (Nature's Resilience) that reaches it."""
    for river_played, expected in ((False, CARD_ID["Flash Floods"]), (True, CARD_DONE)):
        game = position(
            players=2,
            pieces={A[6]: {EXPLORER: 2}},
            ravage=MOUNTAIN,
            presence={0: {A[5]: 1}, 1: {A[5]: 1, B[1]: 1}},
        )
        game.hand[1] = [CARD_ID["Flash Floods"]]
        game.energy[1], game.plays_left[1] = 2, 1
        if river_played:
            game.played[0] = game.unresolved[0] = [CARD_ID["Nature's Resilience"]]
        assert bot_choice(game, "play", 1) == expected
