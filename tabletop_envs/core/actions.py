"""Flat action spaces partitioned into named segments, one per decision kind."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum

import numpy as np


@dataclass(frozen=True)
class Segment:
    """One decision kind's slice of the flat action space."""

    name: str
    offset: int
    size: int

    def action(self, index: int) -> int:
        """The flat action for option ``index`` of this segment."""
        if not 0 <= index < self.size:
            raise ValueError(f"{self.name}: option {index} outside 0..{self.size - 1}")
        return self.offset + index


class ActionLayout:
    """An ordered set of segments laid end to end: ``Discrete(total)``."""

    def __init__(self, sizes: list[tuple[str, int]]) -> None:
        self.segments: dict[str, Segment] = {}
        offset = 0
        for name, size in sizes:
            if name in self.segments:
                raise ValueError(f"duplicate action segment {name!r}")
            self.segments[name] = Segment(name, offset, size)
            offset += size
        self.total = offset
        self._owner = np.empty(self.total, dtype=np.int64)
        for number, segment in enumerate(self.segments.values()):
            self._owner[segment.offset : segment.offset + segment.size] = number
        self._ordered = list(self.segments.values())
        self.kind_segments: tuple[Segment, ...] = ()
        """The segment of each decision kind (set by :meth:`for_decisions`)."""

    @classmethod
    def for_decisions(
        cls, kinds: type[IntEnum], sizes: Mapping[IntEnum, int | IntEnum]
    ) -> ActionLayout:
        """One segment per decision kind, in the enum's order, named after the kind.

        ``sizes`` gives every kind its number of options, or another kind whose segment it
        shares (two decisions that choose from the same things, e.g. a Location). The order
        of the segments is the enum's, so it cannot drift from the decisions'.
        """
        members = list(kinds)
        if [int(kind) for kind in members] != list(range(len(members))):
            raise ValueError(f"{kinds.__name__} values must be 0, 1, 2, ... in order")
        missing = [kind.name for kind in members if kind not in sizes]
        extra = [str(key) for key in sizes if not isinstance(key, kinds)]
        if missing or extra:
            raise ValueError(f"{kinds.__name__} layout: missing {missing}, not kinds {extra}")
        layout = cls([(kind.name.lower(), size) for kind, size in sizes_in_order(members, sizes)])
        layout.kind_segments = tuple(
            layout.segments[shared_kind(kind, sizes).name.lower()] for kind in members
        )
        return layout

    def segment_of(self, kind: int) -> Segment:
        """The segment of decision ``kind`` (layouts made by :meth:`for_decisions`)."""
        return self.kind_segments[kind]

    def __getitem__(self, name: str) -> Segment:
        return self.segments[name]

    @property
    def names(self) -> list[str]:
        return list(self.segments)

    def locate(self, action: int) -> tuple[Segment, int]:
        """The segment holding ``action`` and the option index inside it."""
        if not 0 <= action < self.total:
            raise ValueError(f"action {action} outside 0..{self.total - 1}")
        segment = self._ordered[int(self._owner[action])]
        return segment, action - segment.offset

    def kind_of(self, mask: np.ndarray) -> str:
        """The decision kind a legal mask belongs to: the segment of its first legal action."""
        return self.locate(int(np.argmax(mask)))[0].name

    def mask(self, name: str, options: list[int] | range) -> np.ndarray:
        """An int8 mask with only ``options`` of segment ``name`` set."""
        mask = np.zeros(self.total, dtype=np.int8)
        segment = self.segments[name]
        for option in options:
            mask[segment.offset + option] = 1
        return mask


def shared_kind(kind: IntEnum, sizes: Mapping[IntEnum, int | IntEnum]) -> IntEnum:
    """The kind whose segment ``kind`` uses: itself, or the kind it shares with."""
    target = sizes[kind]
    if isinstance(target, IntEnum):
        if isinstance(sizes[target], IntEnum):
            raise ValueError(f"{kind.name} shares with {target.name}, which shares itself")
        return target
    return kind


def sizes_in_order(
    members: list[IntEnum], sizes: Mapping[IntEnum, int | IntEnum]
) -> list[tuple[IntEnum, int]]:
    """(kind, size) of the kinds that own a segment, in enum order."""
    owned = []
    for kind in members:
        size = sizes[kind]
        if isinstance(size, IntEnum):
            shared_kind(kind, sizes)
            continue
        if type(size) is not int or size < 1:
            raise ValueError(f"{kind.name}: segment size {size!r} is not a positive int")
        owned.append((kind, size))
    return owned
