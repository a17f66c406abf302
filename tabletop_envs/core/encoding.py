"""Observation schemas: a player's view as named numeric fields, flattened to one vector.

Every field is scaled into [0, 1] on encoding and restored on decoding, so a bot that only
receives the env's observation vector can rebuild the same structured view with
:meth:`ObservationSchema.decode`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import prod

import numpy as np


@dataclass(frozen=True)
class Field:
    """A named block of the observation: ``shape`` values, each in ``[0, scale]``."""

    name: str
    shape: tuple[int, ...]
    scale: float = 1.0

    @property
    def size(self) -> int:
        return prod(self.shape)


class FieldView(dict):
    """A view whose fields are windows onto one buffer laid out as the schema: no copies."""

    def __init__(self, buffer: np.ndarray, fields: dict[str, np.ndarray]) -> None:
        super().__init__(fields)
        self.buffer = buffer


class SparseView:
    """A view as flat entries of the schema's vector: indices holding one, and other values.

    Cores fill one on their per-step path (a few list appends, no per-field arrays); the
    schema turns it into the encoded vector (:meth:`ObservationSchema.encode`) or into the
    field dict (:meth:`ObservationSchema.expand`). An index must not be listed twice.
    """

    __slots__ = ("at", "ones", "values")

    def __init__(self) -> None:
        self.ones: list[int] = []
        self.at: list[int] = []
        self.values: list[float] = []

    def set(self, index: int, value: float) -> None:
        self.at.append(index)
        self.values.append(value)

    def fill(self, buffer: np.ndarray) -> None:
        """Write the entries into a zeroed vector laid out as the schema (unscaled)."""
        if self.ones:
            buffer[np.fromiter(self.ones, np.intp, len(self.ones))] = 1.0
        if self.at:
            buffer[np.fromiter(self.at, np.intp, len(self.at))] = self.values


class ObservationSchema:
    """An ordered list of fields laid end to end in one float32 vector."""

    def __init__(self, fields: list[Field]) -> None:
        self.fields = fields
        self.slices: dict[str, slice] = {}
        offset = 0
        for field in fields:
            if field.name in self.slices:
                raise ValueError(f"duplicate observation field {field.name!r}")
            self.slices[field.name] = slice(offset, offset + field.size)
            offset += field.size
        self.size = offset
        self._scratch: FieldView | None = None
        self._scales = np.concatenate(
            [np.full(field.size, 1.0 / field.scale, dtype=np.float32) for field in fields]
        )

    def scratch_view(self) -> FieldView:
        """One zeroed view of this schema, reused by every call: fill it and encode it at once
        (:meth:`encode` returns a new vector), as an observation does on the per-step path."""
        if self._scratch is None:
            self._scratch = self.new_view()
        else:
            self._scratch.buffer.fill(0.0)
        return self._scratch

    def new_view(self) -> FieldView:
        """An all-zero view to fill in place; :meth:`encode` then only scales its buffer."""
        buffer = np.zeros(self.size, dtype=np.float32)
        return FieldView(
            buffer,
            {f.name: buffer[self.slices[f.name]].reshape(f.shape) for f in self.fields},
        )

    def offset(self, name: str) -> int:
        """Where field ``name`` starts in the vector (for :class:`SparseView` indices)."""
        return self.slices[name].start

    def expand(self, sparse: SparseView) -> FieldView:
        """The fields of a sparse view, unscaled (as a core's ``view`` returns them)."""
        view = self.new_view()
        sparse.fill(view.buffer)
        return view

    def encode(self, view: Mapping[str, object] | SparseView) -> np.ndarray:
        """The vector for ``view``, which must give every field (missing: ValueError)."""
        if isinstance(view, SparseView):
            out = np.zeros(self.size, dtype=np.float32)
            view.fill(out)
            out *= self._scales
            return out
        if isinstance(view, FieldView) and view.buffer.shape == (self.size,):
            return view.buffer * self._scales
        out = np.empty(self.size, dtype=np.float32)
        for field in self.fields:
            try:
                values = view[field.name]
            except KeyError:
                raise ValueError(f"view lacks observation field {field.name!r}") from None
            out[self.slices[field.name]] = np.ravel(values)
        out *= self._scales
        return out

    def decode(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The view's fields back from an observation vector (values rounded to ints)."""
        vector = np.asarray(vector, dtype=np.float64)
        if vector.shape != (self.size,):
            raise ValueError(f"observation has shape {vector.shape}, expected ({self.size},)")
        return {
            field.name: np.rint(vector[self.slices[field.name]] * field.scale)
            .astype(np.int64)
            .reshape(field.shape)
            for field in self.fields
        }

    def describe(self) -> list[tuple[str, int, int, tuple[int, ...], float]]:
        """(name, start, end, shape, scale) for each field: the documented layout."""
        return [
            (f.name, self.slices[f.name].start, self.slices[f.name].stop, f.shape, f.scale)
            for f in self.fields
        ]
