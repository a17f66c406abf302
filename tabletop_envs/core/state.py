"""Plain-data game state: clone, save and load from a declaration of the state's fields.

A core lists its mutable fields in ``STATE_FIELDS``, each with its type: ``int``, ``bool``,
``str``, ``None`` (or ``X | None``), and lists and tuples of those, nested
(``list[list[int]]``, ``list[tuple[int, ...]]``, ``tuple[int, int]``). Cloning is then a
structured copy made once per field type (no deepcopy), saving a JSON-ready dict with the
random generator, and loading checks every value against its type (tuples come back as
tuples) before the game's invariants are checked (:meth:`GameCore.validate`).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin

from tabletop_envs.core.game import StateError
from tabletop_envs.core.rng import clone_rng, rng_from_state, rng_state

StateT = TypeVar("StateT", bound="PlainState")
Copier = Callable[[Any], Any]
Loader = Callable[[Any, str], Any]


def _same(value: Any) -> Any:
    return value


def copier(kind: Any) -> Copier:
    """A function copying a value of type ``kind`` so that no list is shared."""
    lists = [option for option in _alternatives(kind) if get_origin(option) is list]
    if lists and len(_alternatives(kind)) > 1:
        (only,) = lists
        inner = copier(only)
        return lambda value: value if value is None else inner(value)
    if get_origin(kind) is not list:
        return _same  # scalars and tuples are immutable (tuples hold scalars or tuples)
    (item,) = get_args(kind)
    if get_origin(item) is not list:
        return lambda value: value[:]
    inner = copier(item)
    return lambda value: [inner(x) for x in value]


def _alternatives(kind: Any) -> tuple[Any, ...]:
    if get_origin(kind) in (Union, types.UnionType):
        return get_args(kind)
    return (kind,)


def _describe(kind: Any) -> str:
    return getattr(kind, "__name__", None) if get_origin(kind) is None else str(kind)


def loader(kind: Any) -> Loader:
    """A function checking JSON data against ``kind`` (ValueError naming the path) and
    returning it as that type (lists as lists, tuples as tuples)."""
    options = _alternatives(kind)
    loaders = [_loader_of(option) for option in options]

    def load(value: Any, path: str) -> Any:
        errors = []
        for one in loaders:
            try:
                return one(value, path)
            except StateError as error:
                errors.append(error)
        if len(errors) == 1:
            raise errors[0]
        raise StateError(path, f"{value!r:.60} is not {' or '.join(map(_describe, options))}")

    return load if len(loaders) > 1 else loaders[0]


def _loader_of(kind: Any) -> Loader:
    origin = get_origin(kind)
    if origin is list:
        (item,) = get_args(kind)
        return _sequence_loader(list, [loader(item)], repeat=True)
    if origin is tuple:
        args = get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence_loader(tuple, [loader(args[0])], repeat=True)
        return _sequence_loader(tuple, [loader(arg) for arg in args], repeat=False)
    if kind is None or kind is type(None):
        return _scalar_loader(lambda value: value is None, "null")
    if kind is bool:
        return _scalar_loader(lambda value: type(value) is bool, "a bool")
    if kind is int:
        return _scalar_loader(lambda value: type(value) is int, "an int")
    if kind is str:
        return _scalar_loader(lambda value: type(value) is str, "a string")
    raise TypeError(f"state field type {kind!r} is not supported")


def _scalar_loader(accepts: Callable[[Any], bool], what: str) -> Loader:
    def load(value: Any, path: str) -> Any:
        if not accepts(value):
            raise StateError(path, f"{value!r:.60} is not {what}")
        return value

    return load


def _sequence_loader(build: type, items: list[Loader], repeat: bool) -> Loader:
    def load(value: Any, path: str) -> Any:
        if not isinstance(value, (list, tuple)):
            raise StateError(path, f"{value!r:.60} is not a list")
        if not repeat and len(value) != len(items):
            raise StateError(path, f"has {len(value)} entries, expected {len(items)}")
        checks = items * len(value) if repeat else items
        return build(
            check(x, f"{path}[{i}]") for i, (check, x) in enumerate(zip(checks, value, strict=True))
        )

    return load


class PlainState:
    """Mixin giving ``clone``, ``state_dict`` and ``from_state_dict`` from ``STATE_FIELDS``.

    ``STATE_FIELDS`` maps each mutable field to its type (see the module docstring); a core
    may also derive attributes from its options in :meth:`restore_derived`.
    """

    STATE_FIELDS: ClassVar[Mapping[str, Any]]
    _copiers: ClassVar[tuple[tuple[str, Copier], ...]]
    _loaders: ClassVar[tuple[tuple[str, Loader], ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = cls.__dict__.get("STATE_FIELDS")
        if fields is not None:
            cls._copiers = tuple((name, copier(kind)) for name, kind in fields.items())
            cls._loaders = tuple((name, loader(kind)) for name, kind in fields.items())

    def restore_derived(self) -> None:
        """Set what a core derives from its options (called after a clone or a load)."""

    def clone(self: StateT) -> StateT:
        new = object.__new__(type(self))
        new.num_players = self.num_players
        new.options = self.options
        new.rng = clone_rng(self.rng)
        state = self.__dict__
        for name, copy in self._copiers:
            setattr(new, name, copy(state[name]))
        new.restore_derived()
        if self.observer_cache is not None:
            new.observer_cache = self.observer_cache.copy()
        return new

    def state_dict(self) -> dict[str, Any]:
        return {
            "num_players": self.num_players,
            "options": dict(self.options),
            "rng": rng_state(self.rng),
            "fields": {name: copy(getattr(self, name)) for name, copy in self._copiers},
        }

    @classmethod
    def from_state_dict(cls: type[StateT], data: Mapping[str, Any]) -> StateT:
        fields = data["fields"]
        if not isinstance(fields, Mapping):
            raise StateError("fields", "is not a mapping")
        missing = sorted(set(cls.STATE_FIELDS) - set(fields))
        unknown = sorted(set(fields) - set(cls.STATE_FIELDS))
        if missing or unknown:
            raise StateError("fields", f"missing {missing}, unknown {unknown}")
        new = object.__new__(cls)
        new.num_players = cls.check_players(data["num_players"])
        new.options = cls.resolve_options(data["options"])
        new.rng = rng_from_state(data["rng"])
        for name, load in cls._loaders:
            setattr(new, name, load(fields[name], name))
        new.restore_derived()
        return new
