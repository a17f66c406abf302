"""The bounded cache of computed values (``tabletop_envs.core.cache``)."""

from __future__ import annotations

import pytest

from tabletop_envs.core.cache import BoundedCache


def counting_square() -> tuple[BoundedCache[int, int], list[int]]:
    """A cache of squares (bound 3) and the list of keys it computed, in order."""
    computed: list[int] = []

    def square(key: int) -> int:
        computed.append(key)
        return key * key

    return BoundedCache(square, 3), computed


def test_a_value_is_computed_on_its_first_use_only() -> None:
    cache, computed = counting_square()
    assert cache[4] == 16 and cache[4] == 16 and cache[5] == 25
    assert computed == [4, 5]
    assert dict(cache) == {4: 16, 5: 25}


def test_the_cache_never_holds_more_than_its_bound_and_empties_when_full() -> None:
    cache, computed = counting_square()
    for key in range(3):
        assert cache[key] == key * key
    assert len(cache) == 3
    assert cache[1] == 1 and computed == [0, 1, 2], "a hit computes nothing"
    assert cache[7] == 49
    assert dict(cache) == {7: 49}, "a miss in a full cache empties it first"
    assert cache[0] == 0 and computed == [0, 1, 2, 7, 0]
    for key in range(100):
        cache[key]
        assert len(cache) <= 3


def test_a_failed_computation_keeps_nothing() -> None:
    def fail(key: int) -> int:
        raise KeyError(key)

    cache = BoundedCache(fail, 2)
    with pytest.raises(KeyError):
        cache[1]
    assert len(cache) == 0


def test_get_and_in_do_not_compute() -> None:
    cache, computed = counting_square()
    assert cache.get(2) is None and 2 not in cache and computed == []


@pytest.mark.parametrize("bound", [0, -1, 2.5, True, "3"])
def test_a_bad_bound_is_refused_by_name(bound: object) -> None:
    with pytest.raises(ValueError, match="bound must be a positive int"):
        BoundedCache(abs, bound)  # type: ignore[arg-type]


def test_values_worked_out_elsewhere_are_kept_under_the_same_bound() -> None:
    """``keep`` stores a value its caller computed, emptying a full cache first; a cache with
    no ``compute`` answers a missing key with a KeyError."""
    cache: BoundedCache[int, str] = BoundedCache(None, 2)
    assert cache.keep(1, "one") == "one" and cache[1] == "one"
    cache.keep(2, "two")
    cache.keep(3, "three")
    assert dict(cache) == {3: "three"}
    with pytest.raises(KeyError):
        cache[4]
