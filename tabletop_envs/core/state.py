"""Plain-data game state: clone, save and load for cores whose fields are ints and lists.

A core lists its mutable fields in ``STATE_FIELDS``; each holds an int, a bool, a string,
``None``, or (nested) lists of those. Cloning is then a structured copy (no deepcopy) and
saving a JSON-ready dict that includes the random generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from tabletop_envs.core.rng import clone_rng, rng_from_state, rng_state

StateT = TypeVar("StateT", bound="PlainState")


def copy_plain(value: Any) -> Any:
    """A copy of ``value`` sharing no list with it (lists of lists are copied per level)."""
    if type(value) is list:
        if value and type(value[0]) is list:
            return [copy_plain(item) for item in value]
        return value[:]
    return value


class PlainState:
    """Mixin giving ``clone``, ``state_dict`` and ``from_state_dict`` from ``STATE_FIELDS``."""

    STATE_FIELDS: ClassVar[tuple[str, ...]]

    def clone(self: StateT) -> StateT:
        new = object.__new__(type(self))
        new.num_players = self.num_players
        new.options = self.options
        new.rng = clone_rng(self.rng)
        for name in self.STATE_FIELDS:
            setattr(new, name, copy_plain(getattr(self, name)))
        self.copy_kept_into(new)
        return new

    def state_dict(self) -> dict[str, Any]:
        return {
            "num_players": self.num_players,
            "options": dict(self.options),
            "rng": rng_state(self.rng),
            "fields": {name: copy_plain(getattr(self, name)) for name in self.STATE_FIELDS},
        }

    @classmethod
    def from_state_dict(cls: type[StateT], data: Mapping[str, Any]) -> StateT:
        missing = sorted(set(cls.STATE_FIELDS) - set(data["fields"]))
        if missing:
            raise ValueError(f"saved state lacks fields {missing}")
        new = object.__new__(cls)
        new.num_players = cls.check_players(data["num_players"])
        new.options = cls.resolve_options(data["options"])
        new.rng = rng_from_state(data["rng"])
        for name in cls.STATE_FIELDS:
            setattr(new, name, copy_plain(data["fields"][name]))
        return new
