"""Observation schemas: a player's view as named numeric fields, flattened to one vector.

Every field is scaled into [0, 1] on encoding and restored on decoding, so a bot that only
receives the env's observation vector can rebuild the same structured view with
:meth:`ObservationSchema.decode`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any

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


class LazyFields(dict):
    """Decoded fields made on first read by name (:meth:`ObservationSchema.decode_lazy`)."""

    __slots__ = ("_field_at", "_values")

    def __init__(
        self, values: np.ndarray, field_at: Mapping[str, tuple[slice, tuple[int, ...] | None]]
    ) -> None:
        super().__init__()
        self._values = values
        self._field_at = field_at

    def __missing__(self, name: str) -> np.ndarray:
        try:
            at, shape = self._field_at[name]
        except KeyError:
            raise KeyError(f"no observation field {name!r}") from None
        values = self._values[at]
        field = self[name] = values if shape is None else values.reshape(shape)
        return field


class FieldReader:
    """Some fields of a schema's vectors read as one flat list of Python ints (the values of
    :meth:`ObservationSchema.decode`): for a bot that reads a few fields per decision, where
    decoding the whole vector costs more than its reading (:meth:`ObservationSchema.reader`)."""

    def __init__(self, schema: ObservationSchema, fields: Sequence[str | tuple[str, int]]) -> None:
        self.at: dict[str, int] = {}
        """Where each field starts in the list :meth:`read` returns."""
        positions: list[int] = []
        for item in fields:
            name, rows = (item, None) if isinstance(item, str) else item
            if name not in schema.slices:
                raise ValueError(f"no observation field {name!r}; fields: {sorted(schema.slices)}")
            at, shape = schema.slices[name], schema.shapes[name]
            stop = at.stop if rows is None else min(at.stop, at.start + rows * prod(shape[1:]))
            self.at[name] = len(positions)
            positions += range(at.start, stop)
        self._positions = np.array(positions, dtype=np.intp)
        self._unscales = schema._unscales[self._positions]
        self._few = len(positions) <= FEW_ENTRIES
        self._unscale_list = self._unscales.tolist()
        self._size = schema.size

    def read(self, vector: np.ndarray) -> list[int]:
        """The chosen fields' values, rounded to ints; a wrong shape is a ValueError."""
        vector = np.asarray(vector)
        if vector.shape != (self._size,):
            raise ValueError(f"observation has shape {vector.shape}, expected ({self._size},)")
        if self._few:  # the same float64 products, rounded half to even as np.rint does
            entries = vector.take(self._positions).tolist()
            return [round(x * scale) for x, scale in zip(entries, self._unscale_list, strict=True)]
        return np.rint(vector.take(self._positions) * self._unscales).astype(np.int64).tolist()


FEW_ENTRIES = 24
"""Up to this many entries a :class:`FieldReader` rounds them in Python (cheaper than the
numpy calls' overhead)."""


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
        self._scales = np.concatenate(
            [np.full(field.size, 1.0 / field.scale, dtype=np.float32) for field in fields]
        )
        self._unscales = np.concatenate(
            [np.full(field.size, field.scale, dtype=np.float64) for field in fields]
        )
        self._decoded_shapes = [
            (f.name, self.slices[f.name], None if f.shape == (f.size,) else f.shape) for f in fields
        ]
        """(name, slice, shape) per field; shape None where the slice has it already."""
        self._field_at = {name: (at, shape) for name, at, shape in self._decoded_shapes}
        self.shapes = {f.name: f.shape for f in fields}
        self.widths = {f.name: f.shape[-1] if f.shape else 1 for f in fields}
        """Each field's row length (its last axis)."""

    def new_view(self) -> FieldView:
        """An all-zero view to fill in place; :meth:`encode` then only scales its buffer."""
        buffer = np.zeros(self.size, dtype=np.float32)
        return FieldView(
            buffer,
            {f.name: buffer[self.slices[f.name]].reshape(f.shape) for f in self.fields},
        )

    def view_of(self, vector: np.ndarray) -> FieldView:
        """The fields of an unscaled vector laid out as the schema (copied)."""
        view = self.new_view()
        view.buffer[:] = vector
        return view

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

    @property
    def scales(self) -> np.ndarray:
        """Each entry's factor as :meth:`scale` multiplies it (float32, read only)."""
        view = self._scales.view()
        view.flags.writeable = False
        return view

    def scale(self, vector: np.ndarray) -> np.ndarray:
        """``vector`` (unscaled values laid out as the schema) scaled into [0, 1], in place."""
        vector *= self._scales
        return vector

    def decode(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The view's fields back from an observation vector (values rounded to ints)."""
        return self._fields(self._rounded(vector))

    def decode_unscaled(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """:meth:`decode` of a vector not yet scaled (the view's whole numbers as laid out, as
        an observer builds it before :meth:`scale`): nothing to unscale or round."""
        return self._fields(vector.astype(np.int64))

    def decode_unscaled_lazy(self, vector: np.ndarray) -> LazyFields:
        """:meth:`decode_unscaled` for a reader of some fields, each made when it is first
        read (as :meth:`decode_lazy`)."""
        return LazyFields(vector.astype(np.int64), self._field_at)

    def _fields(self, values: np.ndarray) -> dict[str, np.ndarray]:
        return {
            name: values[at] if shape is None else values[at].reshape(shape)
            for name, at, shape in self._decoded_shapes
        }

    def decode_lazy(self, vector: np.ndarray) -> LazyFields:
        """:meth:`decode` for a reader of a few fields: each field is made when it is first
        read as ``fields[name]`` (for ``get``, ``in``, iteration or ``len``, use :meth:`decode`,
        which gives every field)."""
        return LazyFields(self._rounded(vector), self._field_at)

    def decode_flat(self, vector: np.ndarray) -> list[int]:
        """The values of :meth:`decode` as one flat list of Python ints laid out as the schema
        (a field ``name`` starts at :meth:`offset`): for bots that read a few entries of many
        fields, where per-field arrays cost more than the reading."""
        return self._rounded(vector).tolist()

    def rounded(self, vector: np.ndarray) -> np.ndarray:
        """The values of :meth:`decode` as one int array laid out as the schema: for bots
        that read it with their own array arithmetic."""
        return self._rounded(vector)

    def reader(self, fields: Sequence[str | tuple[str, int]]) -> FieldReader:
        """A :class:`FieldReader` of ``fields``: a name, or (name, count) for the first
        ``count`` rows (the first entries of a one-dimensional field)."""
        return FieldReader(self, fields)

    def _rounded(self, vector: np.ndarray) -> np.ndarray:
        """The unscaled vector rounded to ints; a wrong shape is a ValueError."""
        vector = np.asarray(vector, dtype=np.float64)
        if vector.shape != (self.size,):
            raise ValueError(f"observation has shape {vector.shape}, expected ({self.size},)")
        return np.rint(vector * self._unscales).astype(np.int64)

    def describe(self) -> list[tuple[str, int, int, tuple[int, ...], float]]:
        """(name, start, end, shape, scale) for each field: the documented layout."""
        return [
            (f.name, self.slices[f.name].start, self.slices[f.name].stop, f.shape, f.scale)
            for f in self.fields
        ]


SEATS = "seats"
"""A field whose first axis is every seat, relative to the observer (row 0 is the observer,
row r the seat r places to its left)."""
OTHERS = "others"
"""A field whose first axis is the other seats, the observer's left neighbour first."""


class TableLayout:
    """A schema's fields with seats in table order: one vector serves every observer.

    A core keeps what its players see in this layout once (:class:`KeptObservation`); each
    observer's vector is then one gather through :meth:`gather`, which turns the seat axes of
    the fields named in ``seat_fields`` (``SEATS`` or ``OTHERS``) around that observer and
    leaves rows past the player count zero. An ``OTHERS`` field is stored with a row for
    every seat; other fields are stored as observed. A core writes what only the observer
    sees (its hand, its pending choice) into the gathered vector itself.
    """

    def __init__(
        self, schema: ObservationSchema, max_players: int, seat_fields: Mapping[str, str]
    ) -> None:
        unknown = sorted(set(seat_fields) - set(schema.slices))
        if unknown:
            raise ValueError(f"no such observation fields: {unknown}")
        self.schema = schema
        self.max_players = max_players
        self.seat_fields = dict(seat_fields)
        self._starts: dict[str, int] = {}
        self._row_sizes: dict[str, int] = {}
        offset = 0
        for field in schema.fields:
            self._starts[field.name] = offset
            kind = self.seat_fields.get(field.name)
            if kind not in (None, SEATS, OTHERS):
                raise ValueError(f"field {field.name!r}: {kind!r} is not SEATS or OTHERS")
            rows = field.shape[0] if kind else 1
            if rows != {SEATS: max_players, OTHERS: max_players - 1}.get(kind, 1):
                raise ValueError(f"field {field.name!r} has {rows} seat rows")
            self._row_sizes[field.name] = field.size // rows
            offset += self._row_sizes[field.name] * (max_players if kind else 1)
        self.zero = offset
        """A position that always holds zero (the rows of absent seats gather from it)."""
        self.size = offset + 1
        self._gathers: dict[tuple[int, int], np.ndarray] = {}

    def at(self, name: str, seat: int = 0) -> int:
        """Where field ``name`` (its row for ``seat``, for a seat field) starts when stored."""
        return self._starts[name] + seat * self._row_sizes[name]

    def positions(self, names: Sequence[str], seat: int | None = None) -> np.ndarray:
        """Every stored position of the fields ``names`` (only ``seat``'s rows if given)."""
        spans = []
        for name in names:
            width = self._row_sizes[name]
            if seat is None:
                rows = self.max_players if name in self.seat_fields else 1
                spans.append(np.arange(self.at(name), self.at(name) + rows * width))
            else:
                spans.append(np.arange(self.at(name, seat), self.at(name, seat) + width))
        return np.concatenate(spans).astype(np.intp)

    def gather(self, num_players: int, player: int) -> np.ndarray:
        """Stored positions in ``player``'s observation order (cached per seat and count)."""
        key = (num_players, player)
        index = self._gathers.get(key)
        if index is None:
            index = self._gathers[key] = self._build_gather(num_players, player)
        return index

    def _build_gather(self, n: int, player: int) -> np.ndarray:
        parts = []
        for field in self.schema.fields:
            name, width = field.name, self._row_sizes[field.name]
            kind = self.seat_fields.get(name)
            if kind is None:
                parts.append(np.arange(self.at(name), self.at(name) + width))
                continue
            first = 0 if kind == SEATS else 1
            for r in range(first, first + field.shape[0]):
                if r < n:
                    start = self.at(name, (player + r) % n)
                    parts.append(np.arange(start, start + width))
                else:
                    parts.append(np.full(width, self.zero))
        return np.concatenate(parts).astype(np.intp)


_UNSET = object()
"""The key of a block never encoded (equal to no key)."""


def _snapshot(key: object) -> object:
    """``key`` with its lists (itself, or those directly in a tuple) copied."""
    if type(key) is list:
        return key[:]
    if type(key) is tuple:
        return tuple([item[:] if type(item) is list else item for item in key])
    return key


class KeptObservation:
    """What a core's players see, stored once in a :class:`TableLayout` and kept up to date
    block by block: a block (a seat's rows, a table area) is encoded again only when its key
    (a cheap summary of the state it shows) changes."""

    __slots__ = ("keys", "values")

    def __init__(self, layout: TableLayout, blocks: int) -> None:
        self.values = np.zeros(layout.size, dtype=np.float32)
        self.keys: list[object] = [_UNSET] * blocks

    @classmethod
    def of(cls, game: Any, layout: TableLayout, blocks: int) -> KeptObservation:
        """The kept view stored in ``game.observer_cache`` (made on first use; a clone
        starts from a copy, a loaded game from nothing)."""
        kept = game.observer_cache
        if kept is None:
            kept = game.observer_cache = cls(layout, blocks)
        return kept

    def copy(self) -> KeptObservation:
        new = object.__new__(KeptObservation)
        new.values = self.values.copy()
        new.keys = self.keys[:]
        return new

    def stale(self, block: int, key: object, positions: np.ndarray) -> bool:
        """Whether ``block`` must be encoded again: its ``key`` changed since the last call.
        If so its ``positions`` are zeroed, for the core to write into :attr:`values`.

        A key may hold the state's own lists (a tuple of numbers and flat lists): they are
        compared as they are and copied only when the key is stored, so an unchanged block
        costs one comparison and no copies."""
        if self.keys[block] == key:
            return False
        self.keys[block] = _snapshot(key)
        self.values[positions] = 0.0
        return True

    def restamp(self, block: int, key: object) -> object:
        """Store ``key`` as ``block``'s and return the key it replaces, zeroing nothing: for a
        core that compares the two and encodes only the part of the block that changed."""
        previous = self.keys[block]
        self.keys[block] = _snapshot(key)
        return previous

    def observed(self, layout: TableLayout, num_players: int, player: int) -> np.ndarray:
        """``player``'s unscaled vector; the core adds its own fields, then scales it (``take``:
        the same gather as indexing, about a quarter quicker on a kept view's size)."""
        return self.values.take(layout.gather(num_players, player))
