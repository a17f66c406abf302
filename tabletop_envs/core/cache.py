"""A bounded dict of computed values, for hot paths that meet the same inputs again."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(dict[K, V]):
    """``cache[key]`` is ``compute(key)``, worked out on the key's first use and kept.

    A hit is a plain dict lookup (no Python call); only a miss runs Python
    (:meth:`__missing__`), and it empties the whole cache first when ``bound`` values are
    already held, so memory stays bounded without the bookkeeping of a least-recently-used
    order. The kept values are shared by every caller: they must never be changed. Values
    come in by lookups, or by :meth:`keep` where working one out needs more than its key
    (storing one directly would pass the bound by); ``get``, ``in`` and iteration see only
    the values kept so far.
    """

    __slots__ = ("bound", "compute")

    def __init__(self, compute: Callable[[K], V] | None, bound: int) -> None:
        """``compute``: the value of a key (None: values come by :meth:`keep` only, and a
        missing key is a KeyError); ``bound``: how many values may be kept (at least 1)."""
        if not isinstance(bound, int) or isinstance(bound, bool) or bound < 1:
            raise ValueError(f"bound must be a positive int, got {bound!r}")
        super().__init__()
        self.compute = compute
        self.bound = bound

    def __missing__(self, key: K) -> V:
        """Compute, keep and return the value of a key not held (emptying a full cache first)."""
        if self.compute is None:
            raise KeyError(key)
        return self.keep(key, self.compute(key))

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` as ``key``'s (emptying a full cache first) and return it."""
        if len(self) >= self.bound:
            self.clear()
        self[key] = value
        return value

    def __repr__(self) -> str:
        name = getattr(self.compute, "__qualname__", repr(self.compute))
        return f"BoundedCache({name}, bound={self.bound}, held={len(self)})"
