"""A replay as the viewer shows it: for every step and every view (everything, then each
seat), the picture of the table and a caption saying who did what.

A seat's view is what that seat could see at that step: its picture is drawn from its
observer view (``picture.draw(game, seat)``), and the caption names another seat's action
only when the seat's observation after the step tells that action apart from every other
one the actor could have taken, in the real game and in worlds redrawn from the seat's
information (so a forced move reads the same as a free hidden one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

import tabletop_envs
from tabletop_envs.core.game import GameCore
from tabletop_envs.core.replay import Replay

WORLDS = 16
"""Worlds redrawn from a seat's information when deciding whether it saw an action."""
EVERYTHING = "everything"


@dataclass(frozen=True)
class Story:
    """The pages' data: unique pictures, and per step and view an index into them."""

    title: str
    views: list[str]
    """``everything``, then one name per seat."""
    pictures: list[str]
    frames: list[list[int]]
    """``frames[step][view]``: the index of that step's picture in :attr:`pictures`."""
    captions: list[list[str]]
    """``captions[step][view]``: who did what to reach the step, as that view may know it."""

    def to_json_data(self) -> dict[str, object]:
        return {
            "title": self.title,
            "views": self.views,
            "pictures": self.pictures,
            "frames": self.frames,
            "captions": self.captions,
        }


def picture_module(game: type[GameCore]) -> ModuleType:
    """The game's picture module; a ValueError names the games that have one."""
    if game.PICTURE is not None:
        return game.PICTURE
    drawn = [name for name in sorted(tabletop_envs.GAMES) if _has_picture(name)]
    raise ValueError(
        f"{game.NAME} has no picture for the viewer (register(..., picture=...)); "
        f"games with one: {', '.join(drawn) or 'none'}"
    )


def _has_picture(name: str) -> bool:
    return tabletop_envs.game_module(name).Game.PICTURE is not None


def seat_names(replay: Replay) -> list[str]:
    """``player_1`` or ``player_1 (heuristic)`` when the replay labels the seat."""
    names = []
    for seat, label in enumerate(replay.agents):
        plain = f"player_{seat}"
        names.append(plain if label == plain else f"{plain} ({label})")
    return names


def story_of(replay: Replay, states: Sequence[GameCore] | None = None) -> Story:
    """Every picture and caption of ``replay`` (its ``states()`` unless given)."""
    states = replay.states() if states is None else states
    draw = picture_module(type(states[0])).draw
    names = seat_names(replay)
    seats: list[int | None] = [None, *range(replay.num_players)]
    pictures: dict[str, int] = {}
    frames, captions = [], []
    for step, game in enumerate(states):
        row = [pictures.setdefault(draw(game, seat), len(pictures)) for seat in seats]
        frames.append(row)
        captions.append([caption(states, replay.actions, step, seat, names) for seat in seats])
    return Story(
        title=f"{replay.env}, {replay.num_players} players, seed {replay.seed}",
        views=[EVERYTHING, *names],
        pictures=list(pictures),
        frames=frames,
        captions=captions,
    )


def caption(
    states: Sequence[GameCore],
    actions: Sequence[int],
    step: int,
    seat: int | None,
    names: Sequence[str],
) -> str:
    """What led to ``step`` as ``seat`` (``None``: everything) may know it."""
    if step == 0:
        return "The deal: no action yet"
    before, action = states[step - 1], actions[step - 1]
    actor = before.current_player
    if seat in (None, actor) or action_seen(before, states[step], action, seat, step):
        words = before.action_to_str(action)
    else:
        words = "a choice hidden from you"
    ending = ". Game over" if states[step].is_terminal else ""
    return f"{names[actor]}: {words}{ending}"


def action_seen(before: GameCore, after: GameCore, action: int, seat: int, step: int) -> bool:
    """Whether ``seat``'s observation after ``action`` tells it apart from every other action
    the actor might have taken: in ``before`` and in worlds redrawn from ``seat``'s view
    (seeded by ``step`` and ``seat``, so a page is built the same way every time)."""
    seen = after.observation(seat)
    rng = np.random.default_rng([step, seat])
    worlds = [before] + [before.resample_hidden(seat, rng) for _ in range(WORLDS)]
    for world in worlds:
        for other in world.legal_actions():
            if other == action:
                continue
            alternative = world.clone()
            alternative.apply(other)
            if np.array_equal(alternative.observation(seat), seen):
                return False
    return True
