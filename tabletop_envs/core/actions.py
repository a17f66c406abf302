"""Flat action spaces partitioned into named segments, one per decision kind."""

from __future__ import annotations

from dataclasses import dataclass

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

    def mask(self, name: str, options: list[int] | range) -> np.ndarray:
        """An int8 mask with only ``options`` of segment ``name`` set."""
        mask = np.zeros(self.total, dtype=np.int8)
        segment = self.segments[name]
        for option in options:
            mask[segment.offset + option] = 1
        return mask
