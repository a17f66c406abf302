"""The contract every game's pure rules core implements.

A core holds the whole state of one game, including its random generator, and knows
nothing of PettingZoo. Decisions are primitive: one flat ``Discrete`` action space split
into one segment per decision kind (:meth:`ActionLayout.for_decisions`); the core names
the pending decision (its kind, the deciding seat, the legal options inside the kind's
segment) and everything else (the mask, legality checks, loading checks) is built here.

A game's rules module defines the core and imports only its spec and ``core``; its observer
(``view``, ``observation``, ``SCHEMA``) and text (``action_to_str``, ``readable_view``,
``render_text``, ``screen``, ``narrate``) are bound to the core by
:func:`tabletop_envs.core.registry.register`.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import numpy as np

from tabletop_envs.core.actions import ActionLayout
from tabletop_envs.core.encoding import ObservationSchema
from tabletop_envs.core.rng import make_rng
from tabletop_envs.core.screen import Screen

if TYPE_CHECKING:
    from tabletop_envs.core.replay import Replay

NO_SEAT = -1
"""The seat of no one: ``current_player`` once the game is over, an unset seat in a state."""

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


class StateError(ValueError):
    """A state that breaks one of its game's invariants (raised when loading a save)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field


def is_int(value: Any) -> bool:
    """Whether ``value`` is an integer (Python or numpy), not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


SAVE_KEYS = frozenset({"game", "state"})
"""The top-level keys of a save written by :meth:`GameCore.to_json`."""


def action_index(action: Any, total: int) -> int:
    """``action`` as an ``int`` in ``0..total-1``; anything else raises a ValueError.

    Python and numpy integers are accepted, and a 0-d integer array (what stable-baselines3's
    ``model.predict`` returns for one observation); ``bool``, floats (even ``3.0``), strings,
    other arrays and ``None`` are not, so nothing is truncated or guessed.
    """
    if (type(action) is int or is_int(action)) and 0 <= action < total:
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return action_index(action.item(), total)
    raise ValueError(f"action {action!r} is not an integer in 0..{total - 1}")


class GameCore(ABC):
    """One game in progress: state, the pending decision, transitions and returns."""

    NAME: ClassVar[str]
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    DEFAULT_PLAYERS: ClassVar[int]
    COOPERATIVE: ClassVar[bool] = False
    OPTIONS: ClassVar[Mapping[str, Option]] = {}
    LAYOUT: ClassVar[ActionLayout]
    MAX_DECISIONS: ClassVar[int]
    """An upper bound on decisions in one game, tested by the conformance suite."""
    OBSERVER: ClassVar[ModuleType]
    """The game's observer module (``SCHEMA``, ``view``, ``observation``), bound by
    :func:`~tabletop_envs.core.registry.register`."""
    TEXT: ClassVar[ModuleType]
    """The game's text module (``action_to_str``, ``readable_view``, ``render_text``,
    ``screen``, ``narrate``)."""
    PICTURE: ClassVar[ModuleType | None] = None
    """The game's picture module (``draw(game, seat)`` -> SVG) for the replay viewer."""
    SCHEMA: ClassVar[ObservationSchema]
    """The observer's schema, bound with it."""
    observer_cache: Any = None
    """What the observer keeps for this game (an object with ``copy()``, e.g. a
    :class:`~tabletop_envs.core.encoding.KeptObservation`): copied by :meth:`clone`, never
    saved."""

    def __init__(self, num_players: int, seed: int | None = None, **options: Any) -> None:
        self.num_players = self.check_players(num_players)
        self.options = self.resolve_options(options)
        self.rng = make_rng(seed)

    # ----- construction helpers -----------------------------------------------------
    @classmethod
    def check_players(cls, num_players: int) -> int:
        if (
            isinstance(num_players, (bool, np.bool_))
            or not isinstance(num_players, (int, np.integer))
            or not (cls.MIN_PLAYERS <= num_players <= cls.MAX_PLAYERS)
        ):
            raise ValueError(
                f"{cls.NAME} takes {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players, "
                f"not {num_players!r}"
            )
        return int(num_players)

    @classmethod
    def resolve_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with ``options``; unknown names raise a ValueError."""
        if not isinstance(options, Mapping):
            raise ValueError(f"options must be a mapping, not {type(options).__name__}")
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

    # ----- the rules: what a game's rules module writes -------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat that decides next, or :data:`NO_SEAT` once the game is over."""

    @abstractmethod
    def pending_kind(self) -> int:
        """The kind of the pending decision (a member of the game's decision enum)."""

    @abstractmethod
    def legal_options(self) -> Sequence[int]:
        """The legal options of the pending decision, as indices inside its segment."""

    @abstractmethod
    def apply_unchecked(self, action: int) -> None:
        """Apply a legal action for the current player (no checks)."""

    @abstractmethod
    def returns(self) -> np.ndarray:
        """Per-player returns; all zero until the game is over."""

    @abstractmethod
    def clone(self: GameT) -> GameT:
        """An independent copy, random generator included."""

    @abstractmethod
    def state_dict(self) -> dict[str, Any]:
        """The full state as JSON-ready data (generator included)."""

    @classmethod
    @abstractmethod
    def from_state_dict(cls: type[GameT], data: Mapping[str, Any]) -> GameT:
        """Rebuild a game saved by :meth:`state_dict` (structure checked, not invariants)."""

    @abstractmethod
    def resample_hidden(self: GameT, player: int, rng: np.random.Generator) -> GameT:
        """A copy with all that ``player`` cannot see redrawn, consistent with its view."""

    def simultaneous_seats(self) -> tuple[int, ...]:
        """When the rules have the pending decision taken by several seats at once (hidden
        picks revealed together), those still to answer, the current seat first, in the
        order the AEC env asks them; empty for a decision one seat takes alone. What
        :mod:`tabletop_envs.core.parallel` groups into one Parallel step."""
        return ()

    def check_invariants(self) -> Iterator[tuple[str, str]]:
        """Each broken invariant of this state as (field, problem); a game lists its own
        (cards conserved, values in range, the pending decision consistent)."""
        return iter(())

    # ----- built here from the rules ---------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.current_player == NO_SEAT

    def legal_mask(self) -> np.ndarray:
        """int8 mask over ``LAYOUT.total`` actions: the pending decision's legal options."""
        mask = np.zeros(self.LAYOUT.total, dtype=np.int8)
        if self.current_player != NO_SEAT:
            offset = self.LAYOUT.kind_segments[self.pending_kind()].offset
            for option in self.legal_options():
                mask[offset + option] = 1
        return mask

    def legal_actions(self) -> list[int]:
        """The legal actions in increasing order: the mask's set entries, without the mask."""
        if self.current_player == NO_SEAT:
            return []
        offset = self.LAYOUT.kind_segments[self.pending_kind()].offset
        options = self.legal_options()
        if all(a < b for a, b in pairwise(options)):
            return [offset + int(option) for option in options]
        return sorted({offset + int(option) for option in options})

    def apply(self, action: int, mask: np.ndarray | None = None) -> None:
        """Apply ``action`` for the current player; an illegal one raises ValueError. ``mask``:
        this very position's legal mask, where the caller has it already (not computed again)."""
        action = action_index(action, self.LAYOUT.total)
        if self.is_terminal:
            raise ValueError(f"{self.NAME}: the game is over; no action is legal")
        if mask is None:
            mask = self.legal_mask()
        if not mask[action]:
            legal = ", ".join(f"{a} ({self.action_to_str(a)})" for a in np.flatnonzero(mask))
            raise ValueError(
                f"{self.NAME}: illegal action {action} for player_{self.current_player}; "
                f"legal actions: {legal}"
            )
        self.apply_unchecked(action)

    # ----- the observer and the text, bound by bind_views() ------------------------------
    def view(self, player: int) -> dict[str, Any]:
        """The plain reference view: exactly what ``player`` may know, as ``SCHEMA`` fields."""
        return self.OBSERVER.view(self, player)

    def observation(self, player: int) -> np.ndarray:
        """The float32 vector of ``SCHEMA``, equal to ``SCHEMA.encode(view(player))``."""
        return self.OBSERVER.observation(self, player)

    def readable_view(self, player: int) -> dict[str, Any]:
        """``player``'s view in words and plain data, for people and debugging."""
        return self.TEXT.readable_view(self, player)

    def action_to_str(self, action: int) -> str:
        """The action in a person's words."""
        return self.TEXT.action_to_str(self, action)

    def render_text(self, viewer: int | None = None) -> str:
        """The table as text: everything (``viewer=None``) or one player's view."""
        return self.TEXT.render_text(self, viewer)

    def screen(self, viewer: int | None = None) -> Screen:
        """What ``viewer`` sees at the table (everything for ``None``), in words and aligned
        tables (:mod:`tabletop_envs.core.screen`), for a person playing."""
        return self.TEXT.screen(self, viewer)

    def narrate(self, action: int, viewer: int) -> list[str]:
        """What ``action`` sets off that ``viewer`` sees, in order, one sentence a line
        (reveals, draws, the Invaders' actions), not the action itself; the game is left
        as it is (call it before applying the action)."""
        return self.TEXT.narrate(self, action, viewer)

    # ----- saving and loading -------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps({"game": self.NAME, "state": self.state_dict()})

    @classmethod
    def from_json(cls: type[GameT], text: str) -> GameT:
        """A saved game, its structure and its invariants checked (ValueError if broken)."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as error:
            raise ValueError(f"not a saved {cls.NAME} game: {error}") from None
        if not isinstance(data, dict) or data.get("game") != cls.NAME:
            found = data.get("game") if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"saved game is {found!r}, expected {cls.NAME!r}")
        if not isinstance(data.get("state"), Mapping):
            raise ValueError(f"corrupt saved {cls.NAME} game: no state mapping")
        unknown = sorted(set(data) - SAVE_KEYS)
        if unknown:
            raise ValueError(
                f"corrupt saved {cls.NAME} game: unknown keys {unknown}; a save holds "
                f"{sorted(SAVE_KEYS)}"
            )
        return cls.load_state(data["state"])

    @classmethod
    def load_state(cls: type[GameT], data: Mapping[str, Any]) -> GameT:
        """:meth:`from_state_dict`, then :meth:`validate`: a broken state is refused."""
        try:
            game = cls.from_state_dict(data)
        except StateError as error:
            raise ValueError(f"corrupt saved {cls.NAME} game: {error}") from None
        except (KeyError, TypeError, IndexError, AttributeError, OverflowError) as error:
            raise ValueError(f"corrupt saved {cls.NAME} game: {error!r}") from None
        game.validate()
        return game

    def validate(self) -> None:
        """Raise a ValueError naming the first broken invariant: the game's own, then the
        pending decision's (a seat in range, legal options inside the segment, at least one
        while the game goes on), checked only on a state that keeps the game's own (reading
        the options of a broken state may fail before the broken field is named)."""
        try:
            problems = list(self.check_invariants()) or list(self._pending_problems())
        except StateError as error:
            problems = [(error.field, str(error))]
        except (
            KeyError,
            TypeError,
            IndexError,
            ValueError,
            AttributeError,
            OverflowError,
        ) as error:
            problems = [("state", f"inconsistent ({error!r})")]
        if problems:
            field, problem = problems[0]
            raise ValueError(f"invalid saved {self.NAME} game: {field}: {problem}")

    def _pending_problems(self) -> Iterator[tuple[str, str]]:
        seat = self.current_player
        if seat == NO_SEAT:
            return
        if not is_int(seat) or not 0 <= seat < self.num_players:
            yield "current_player", f"{seat!r} is not a seat of {self.num_players} players"
            return
        kind = self.pending_kind()
        if not is_int(kind) or not 0 <= kind < len(self.LAYOUT.kind_segments):
            yield "decision", f"{kind!r} is not a decision kind"
            return
        size = self.LAYOUT.kind_segments[kind].size
        options = list(self.legal_options())
        if not options:
            yield "decision", "a game that goes on has no legal action"
        elif not all(is_int(o) and 0 <= o < size for o in options):
            yield "decision", f"legal options {options} outside 0..{size - 1}"

    @classmethod
    def from_replay(cls: type[GameT], replay: Replay) -> GameT:
        """The game after the replay's last action, rebuilt from its seed and re-checked
        (:meth:`Replay.states <tabletop_envs.core.replay.Replay.states>` says how); a replay
        of another game raises a ValueError."""
        if replay.game_class() is not cls:
            raise ValueError(f"the replay is of {replay.env}, not of {cls.NAME}")
        return replay.game()

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

    def ending(self) -> str | None:
        """How a finished game ended, in a few words a report can count (why a cooperative
        team lost); None where the game says nothing beyond its scores."""
        return None

    def end_facts(self) -> dict[str, float]:
        """Numbers about the table at the end that explain the outcome (a report averages
        them per ending); empty where the game keeps none."""
        return {}

    def winners(self) -> Sequence[int]:
        """Seats that won; empty until the end (cooperative games: all or none)."""
        return [p for p, value in enumerate(self.returns()) if value > 0]
