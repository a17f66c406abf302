"""A replay as the viewer shows it: for every step and every view (everything, then each
seat), the picture of the table and a caption saying who did what.

A seat's view is what that seat could see at that step: its picture is drawn from its
observer view (``picture.draw(game, seat)``), and the caption names another seat's action
only when the seat's observation after the step tells that action apart from every other
one the actor had, and from those the actor might have had in worlds redrawn from the
seat's information (so a forced move reads the same as a free hidden one).
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
        f"{game.NAME} has no picture for the viewer (bind_views(..., picture=...)); "
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


def story_of(
    replay: Replay, states: Sequence[GameCore] | None = None, seat: int | None = None
) -> Story:
    """Every picture and caption of ``replay`` (its ``states()`` unless given): everything and
    each seat's view, or only ``seat``'s view (then nothing else is in it, not even the seed)."""
    states = replay.states() if states is None else states
    draw = picture_module(type(states[0])).draw
    names = seat_names(replay)
    views: list[int | None] = [None, *range(replay.num_players)] if seat is None else [seat]
    pictures: dict[str, int] = {}
    frames, captions = [], []
    for step, game in enumerate(states):
        frames.append([pictures.setdefault(draw(game, view), len(pictures)) for view in views])
        said = captions_at(states, replay.actions, step, names)
        captions.append([said[0 if view is None else view + 1] for view in views])
    title = f"{replay.env}, {replay.num_players} players"
    return Story(
        title=f"{title}, seed {replay.seed}" if seat is None else f"{title}: {names[seat]}",
        views=[EVERYTHING if view is None else names[view] for view in views],
        pictures=list(pictures),
        frames=frames,
        captions=captions,
    )


def captions_at(
    states: Sequence[GameCore], actions: Sequence[int], step: int, names: Sequence[str]
) -> list[str]:
    """What led to ``step``, for everything and then for each seat as it may know it."""
    if step == 0:
        return ["The deal: no action yet"] * (len(names) + 1)
    before, after, action = states[step - 1], states[step], actions[step - 1]
    actor = before.current_player
    said = f"{names[actor]}: {before.action_to_str(action)}"
    hidden = f"{names[actor]}: a choice hidden from you"
    ending = ". Game over" if after.is_terminal else ""
    blind = seats_blind_to(before, after, action, step)
    return [said + ending] + [
        (hidden if seat in blind else said) + ending for seat in range(len(names))
    ]


def seats_blind_to(before: GameCore, after: GameCore, action: int, step: int) -> set[int]:
    """The seats (not the actor) whose observation after ``action`` does not tell it apart
    from another action the actor had, or might have had as far as the seat knows: one
    legal only in a world redrawn from the seat's information (seeded by ``step`` and the
    seat, so a page is built the same way every time)."""
    legal = before.legal_actions()
    outcomes = [_after(before, other) for other in legal if other != action]
    blind = set()
    for seat in range(before.num_players):
        if seat == before.current_player:
            continue
        seen = after.observation(seat)
        rng = np.random.default_rng([step, seat])
        same = any(np.array_equal(outcome.observation(seat), seen) for outcome in outcomes)
        if same or _blind_in_worlds(before, seat, seen, set(legal), rng):
            blind.add(seat)
    return blind


def _blind_in_worlds(
    before: GameCore, seat: int, seen: object, legal: set[int], rng: np.random.Generator
) -> bool:
    """Whether, in one of :data:`WORLDS` worlds redrawn for ``seat``, an action not legal in
    the real game leads to what ``seat`` saw (a forced move must read like a free one)."""
    for _ in range(WORLDS):
        world = before.resample_hidden(seat, rng)
        for other in set(world.legal_actions()) - legal:
            if np.array_equal(_after(world, other).observation(seat), seen):
                return True
    return False


def _after(game: GameCore, action: int) -> GameCore:
    following = game.clone()
    following.apply(action)
    return following
