"""The contract every game's pure rules core implements.

A core holds the whole state of one game, including its random generator, and knows
nothing of PettingZoo. Decisions are primitive: one flat ``Discrete`` action space split
into named segments (:class:`~tabletop_envs.core.actions.ActionLayout`), and only the
segment of the pending decision is ever legal.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np

from tabletop_envs.core.actions import ActionLayout
from tabletop_envs.core.encoding import KeptObservation, ObservationSchema, TableLayout
from tabletop_envs.core.rng import make_rng

TERMINAL = -1
"""``current_player`` once the game is over."""

GameT = TypeVar("GameT", bound="GameCore")


@dataclass(frozen=True)
class Option:
    """A game option: its default and the values it accepts (``None``: any int)."""

    default: Any
    choices: tuple[Any, ...] | None = None
    help: str = ""

    def check(self, name: str, value: Any) -> Any:
        if self.choices is not None and value not in self.choices:
            raise ValueError(
                f"option {name}={value!r} is not accepted; expected one of {list(self.choices)}"
            )
        if self.choices is None and not isinstance(value, type(self.default)):
            raise ValueError(
                f"option {name}={value!r} must be of type {type(self.default).__name__}"
            )
        return value


class GameCore(ABC):
    """One game in progress: state, legal actions, transitions, views and returns."""

    NAME: ClassVar[str]
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    DEFAULT_PLAYERS: ClassVar[int]
    COOPERATIVE: ClassVar[bool] = False
    OPTIONS: ClassVar[Mapping[str, Option]] = {}
    LAYOUT: ClassVar[ActionLayout]
    SCHEMA: ClassVar[ObservationSchema]
    MAX_DECISIONS: ClassVar[int]
    """An upper bound on decisions in one game, tested by the conformance suite."""
    TABLE: ClassVar[TableLayout | None] = None
    """How a core that keeps its players' view up to date stores it (:meth:`kept`)."""
    KEPT_BLOCKS: ClassVar[int] = 0
    """The blocks of that store, each encoded again only when its part of the state changes."""

    def __init__(self, num_players: int, seed: int | None = None, **options: Any) -> None:
        self.num_players = self.check_players(num_players)
        self.options = self.resolve_options(options)
        self.rng = make_rng(seed)

    # ----- construction helpers -----------------------------------------------------
    @classmethod
    def check_players(cls, num_players: int) -> int:
        if not isinstance(num_players, (int, np.integer)) or not (
            cls.MIN_PLAYERS <= num_players <= cls.MAX_PLAYERS
        ):
            raise ValueError(
                f"{cls.NAME} takes {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players, "
                f"not {num_players!r}"
            )
        return int(num_players)

    @classmethod
    def resolve_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``options``; unknown names raise a ValueError."""
        unknown = sorted(set(options) - set(cls.OPTIONS))
        if unknown:
            raise ValueError(
                f"unknown option(s) {unknown} for {cls.NAME}; valid options are "
                f"{sorted(cls.OPTIONS)}"
            )
        resolved = {name: option.default for name, option in cls.OPTIONS.items()}
        for name, value in options.items():
            resolved[name] = cls.OPTIONS[name].check(name, value)
        return resolved

    # ----- the per-step contract ----------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat that decides next, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_mask(self) -> np.ndarray:
        """int8 mask over ``LAYOUT.total`` actions for the current player."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply a legal action for the current player (no checks)."""

    @abstractmethod
    def view(self, player: int) -> dict[str, Any]:
        """Exactly what ``player`` may know, as the numeric fields of ``SCHEMA``."""

    @abstractmethod
    def readable_view(self, player: int) -> dict[str, Any]:
        """``player``'s view in words and plain data, for people and debugging."""

    @abstractmethod
    def returns(self) -> np.ndarray:
        """Per-player returns; all zero until the game is over."""

    @abstractmethod
    def action_to_str(self, action: int) -> str:
        """The action in a person's words."""

    @abstractmethod
    def render_text(self, viewer: int | None = None) -> str:
        """The table as text: everything (``viewer=None``) or one player's view."""

    # ----- copying, saving, hidden information --------------------------------------
    @abstractmethod
    def clone(self: GameT) -> GameT:
        """An independent copy, random generator included."""

    @abstractmethod
    def state_dict(self) -> dict[str, Any]:
        """The full state as JSON-ready data (generator included)."""

    @classmethod
    @abstractmethod
    def from_state_dict(cls: type[GameT], data: Mapping[str, Any]) -> GameT:
        """Rebuild a game saved by :meth:`state_dict`."""

    @abstractmethod
    def resample_hidden(self: GameT, player: int, rng: np.random.Generator) -> GameT:
        """A copy with all that ``player`` cannot see redrawn, consistent with its view."""

    # ----- shared behaviour ----------------------------------------------------------
    def kept(self) -> KeptObservation:
        """The kept view of this game (made on first use; a clone starts from a copy)."""
        kept = self.__dict__.get("_kept")
        if kept is None:
            assert self.TABLE is not None, f"{self.NAME} keeps no observation"
            kept = self.__dict__["_kept"] = KeptObservation(self.TABLE, self.KEPT_BLOCKS)
        return kept

    def copy_kept_into(self, clone: GameCore) -> None:
        """Give ``clone`` a copy of this game's kept view, if any (it stays valid: every
        block is checked against the state before use)."""
        kept = self.__dict__.get("_kept")
        if kept is not None:
            clone.__dict__["_kept"] = kept.copy()

    @property
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def observation(self, player: int) -> np.ndarray:
        """The float32 vector of ``SCHEMA``, encoded from ``view(player)`` alone."""
        return self.SCHEMA.encode(self.view(player))

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def apply(self, action: int) -> None:
        """Apply ``action`` for the current player; an illegal one raises ValueError."""
        action = int(action)
        if self.is_terminal:
            raise ValueError(f"{self.NAME}: the game is over; no action is legal")
        mask = self.legal_mask()
        if not (0 <= action < mask.shape[0]) or not mask[action]:
            legal = ", ".join(f"{a} ({self.action_to_str(a)})" for a in np.flatnonzero(mask))
            raise ValueError(
                f"{self.NAME}: illegal action {action} for player_{self.current_player}; "
                f"legal actions: {legal}"
            )
        self._apply(action)

    def to_json(self) -> str:
        return json.dumps({"game": self.NAME, "state": self.state_dict()})

    @classmethod
    def from_json(cls: type[GameT], text: str) -> GameT:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not a saved {cls.NAME} game: {error}") from None
        if not isinstance(data, dict) or data.get("game") != cls.NAME:
            found = data.get("game") if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"saved game is {found!r}, expected {cls.NAME!r}")
        try:
            return cls.from_state_dict(data["state"])
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"corrupt saved {cls.NAME} game: {error!r}") from None

    # ----- optional measures for reports (None where a game has no such measure) -----
    def scores(self) -> list[float] | None:
        """Each seat's final score (points with end bonuses), valid once the game is over."""
        return None

    def progress(self) -> float | None:
        """How far the players got, in [0, 1] (cooperative games), valid at the end."""
        return None

    def turns(self) -> int | None:
        """Game turns or rounds played so far."""
        return None

    def winners(self) -> Sequence[int]:
        """Seats that won; empty until the end (cooperative games: all or none)."""
        return [p for p, value in enumerate(self.returns()) if value > 0]
