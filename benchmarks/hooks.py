"""Optional hooks a game core may provide for reports, read by duck typing.

A core that lacks a hook is reported as ``n/a``; nothing is added to the core contract.

- ``scores() -> Sequence[float]``: each seat's final score (e.g. victory points with end
  bonuses), valid once the game is over. Competitive games use it for mean score, margin
  and placements below the winner.
- ``progress() -> float``: the game's own measure of how far the players got, for
  cooperative games (e.g. the fraction of the objective reached), valid at the end.
- ``turns() -> int``: game turns or rounds played (the harness always counts decisions).
"""

from __future__ import annotations

from typing import Any


def final_scores(game: Any) -> list[float] | None:
    hook = getattr(game, "scores", None)
    return None if hook is None else [float(value) for value in hook()]


def final_progress(game: Any) -> float | None:
    hook = getattr(game, "progress", None)
    return None if hook is None else float(hook())


def turns_played(game: Any) -> int | None:
    hook = getattr(game, "turns", None)
    return None if hook is None else int(hook())
