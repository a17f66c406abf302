"""Blight and Fear: Blight added to a land (Presence destroyed, the cascade), the Blight card
and its Blighted Island effect, Fear generated, Fear cards earned and resolved.

Every function takes the game first; ``rules.py`` finds the steps through ``STEP_RUN`` and the
cascade decision through ``DECISIONS``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    BLIGHT_CARDS,
    FEAR_CARDS,
    block_of,
)

if TYPE_CHECKING:
    from tabletop_envs.spirit_island.rules import SpiritIslandGame


# ----- Fear ------------------------------------------------------------------------------------
def add_fear(game: SpiritIslandGame, amount: int) -> None:
    """``amount`` Fear to the pool; each time it empties, a Fear card is earned and the pool
    refills (no more once every Fear card is earned)."""
    for _ in range(amount):
        if not game.fear_deck:
            return
        game.fear_pool -= 1
        if game.fear_pool <= 0:
            game.fear_earned.append(game.fear_deck.pop(0))
            game.fear_pool = game.fear_per_card()


def step_fear(game: SpiritIslandGame) -> None:
    """Resolve the earned Fear cards in the order earned, at the current Terror Level."""
    if not game.fear_earned:
        return
    card = game.fear_earned.pop(0)
    game.fear_discard.append(card)
    game.push("fear")
    effect = FEAR_CARDS[card][1][game.terror_level() - 1]
    game.push("effect", block_of(effect), 0, -1, 0, -1)


# ----- Blight ----------------------------------------------------------------------------------
def step_blighted(game: SpiritIslandGame) -> None:
    """The Blighted Island side's effect, each Invader Phase once the card has flipped."""
    if game.blighted:
        game.push("effect", block_of(BLIGHT_CARDS[game.blight_card][2]), 0, -1, 0, -1)


def step_add_blight(game: SpiritIslandGame, land: int) -> None:
    """One Blight to ``land``: it destroys a Presence of each Spirit there, and cascades to a
    neighbour (the land owner's choice) if the land had Blight already. With none left on the
    Blight card (a defeat pending), nothing happens."""
    had = game.pieces[land][BLIGHT] > 0
    if not take_blight(game):
        return
    game.pieces[land][BLIGHT] += 1
    for seat in range(game.num_players):
        if game.presence[seat][land]:
            destroy_presence(game, seat, land)
    if had:
        game.ask("cascade", game.owner(land), land)


def take_blight(game: SpiritIslandGame) -> bool:
    """One Blight off the Blight card, if any is left: the Healthy side, once empty, flips to
    Blighted Island with its own amount; the Blighted side empty is a defeat (it ends the game
    when its effect has resolved; meanwhile no Blight is left to add)."""
    if game.blight_pool == 0:
        return False
    game.blight_pool -= 1
    if game.blight_pool == 0:
        if game.blighted:
            game.lose("no Blight left on the Blight card")
        else:
            game.blighted = True
            game.blight_pool = BLIGHT_CARDS[game.blight_card][1] * game.num_players
    return True


def destroy_presence(game: SpiritIslandGame, seat: int, land: int) -> None:
    """One of ``seat``'s Presence in ``land`` destroyed; a Spirit with none left loses."""
    game.presence[seat][land] -= 1
    game.destroyed_presence[seat] += 1
    if not any(game.presence[seat]):
        game.lose(f"player_{seat}'s Spirit has no Presence left on the island")


def opt_cascade(game: SpiritIslandGame, seat: int, land: int) -> list[int]:
    return list(game.island.neighbours[land])


def res_cascade(game: SpiritIslandGame, seat: int, dest: int, land: int) -> None:
    game.push("add_blight", dest)
