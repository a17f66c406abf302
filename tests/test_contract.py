"""The game contract's shared machinery: layouts keyed by decisions, typed plain state,
registration, and the shape every game package has."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
from enum import IntEnum
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from toygame import observer, text
from toygame.rules import HighCard

import tabletop_envs
from tabletop_envs.core.actions import ActionLayout
from tabletop_envs.core.game import NO_SEAT, GameCore, StateError
from tabletop_envs.core.registry import bind_views
from tabletop_envs.core.state import PlainState


class Kind(IntEnum):
    PICK = 0
    TARGET = 1
    MOVE = 2


def test_layout_follows_the_decision_enum_and_shares_segments() -> None:
    layout = ActionLayout.for_decisions(
        Kind, {Kind.PICK: 3, Kind.TARGET: 4, Kind.MOVE: Kind.TARGET}
    )
    assert layout.names == ["pick", "target"]
    assert layout.segment_of(Kind.MOVE) is layout.segment_of(Kind.TARGET) is layout["target"]
    assert layout.segment_of(Kind.PICK).offset == 0 and layout.total == 7


@pytest.mark.parametrize(
    ("sizes", "message"),
    [
        ({Kind.PICK: 3, Kind.TARGET: 4}, r"missing \['MOVE'\]"),
        ({Kind.PICK: 3, Kind.TARGET: Kind.MOVE, Kind.MOVE: Kind.PICK}, "shares itself"),
        ({Kind.PICK: 0, Kind.TARGET: 1, Kind.MOVE: 1}, "PICK: segment size 0"),
    ],
)
def test_layout_refuses_incomplete_or_circular_sizes(sizes, message) -> None:
    with pytest.raises(ValueError, match=message):
        ActionLayout.for_decisions(Kind, sizes)


class Typed(PlainState, GameCore):
    """A bare core whose fields use every supported type."""

    NAME = "typed"
    MIN_PLAYERS = MAX_PLAYERS = DEFAULT_PLAYERS = 2
    STATE_FIELDS: ClassVar = {
        "count": int,
        "flag": bool,
        "label": str,
        "maybe": int | None,
        "rows": list[list[int]],
        "frames": list[tuple[int, ...]],
        "pair": tuple[int, int],
        "maybe_list": list[int] | None,
    }

    def __init__(self) -> None:
        super().__init__(2, seed=1)
        self.count, self.flag, self.label, self.maybe = 3, True, "x", None
        self.rows, self.frames, self.pair, self.maybe_list = [[1], [2, 3]], [(1, 2)], (4, 5), [6]

    current_player = NO_SEAT

    def pending_kind(self) -> int:
        return 0

    def legal_options(self) -> list[int]:
        return []

    def apply_unchecked(self, action: int) -> None:
        raise AssertionError("no decisions")

    def returns(self) -> np.ndarray:
        return np.zeros(2)

    def resample_hidden(self, player: int, rng: np.random.Generator) -> Typed:
        return self.clone()


def test_plain_state_round_trips_every_field_type_and_copies_lists() -> None:
    game = Typed()
    data = json.loads(json.dumps(game.state_dict()))
    loaded = Typed.from_state_dict(data)
    for name in Typed.STATE_FIELDS:
        assert getattr(loaded, name) == getattr(game, name), name
    assert loaded.frames == [(1, 2)] and type(loaded.pair) is tuple
    clone = game.clone()
    clone.rows[1].append(9)
    clone.maybe_list.append(7)
    assert game.rows == [[1], [2, 3]] and game.maybe_list == [6]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("count", True, "count: True is not an int"),
        ("count", 1.5, "count: 1.5 is not an int"),
        ("rows", [[1], ["a"]], r"rows\[1\]\[0\]: 'a' is not an int"),
        ("pair", [1, 2, 3], "pair: has 3 entries, expected 2"),
        ("maybe", "x", "maybe: 'x' is not int or NoneType"),
        ("frames", 5, "frames: 5 is not a list"),
    ],
)
def test_plain_state_names_the_field_of_a_wrong_type(field, value, message) -> None:
    data = json.loads(json.dumps(Typed().state_dict()))
    data["fields"][field] = value
    with pytest.raises(StateError, match=message):
        Typed.from_state_dict(data)


def test_missing_or_unknown_fields_are_named() -> None:
    data = json.loads(json.dumps(Typed().state_dict()))
    del data["fields"]["count"]
    data["fields"]["extra"] = 1
    with pytest.raises(StateError, match=r"missing \['count'\], unknown \['extra'\]"):
        Typed.from_state_dict(data)


def test_a_broken_invariant_is_refused_on_load_naming_the_field() -> None:
    game = HighCard(3, seed=2)
    save = json.loads(game.to_json())
    save["state"]["fields"]["cards"][0] = save["state"]["fields"]["cards"][1]
    with pytest.raises(ValueError, match="invalid saved highcard game: cards: "):
        HighCard.from_json(json.dumps(save))
    save = json.loads(game.to_json())
    save["state"]["fields"]["turn"] = 99
    with pytest.raises(ValueError, match="turn: 99 is outside"):
        HighCard.from_json(json.dumps(save))


def test_registration_builds_the_env_module_both_import_styles_find() -> None:
    from tabletop_envs import vaalbara_v1
    from tabletop_envs.vaalbara_v1 import Game, env, raw_env

    assert vaalbara_v1.Game is Game and Game.NAME == "vaalbara"
    assert raw_env.metadata["name"] == "vaalbara_v1" and env().metadata["name"] == "vaalbara_v1"
    assert tabletop_envs.game_module("vaalbara") is vaalbara_v1


def test_the_registry_names_each_env_module_file_whose_name_is_the_env_name() -> None:
    """One table of environments; each is a real module file named as the environment (its
    version written once), whose ``raw_env`` and ``env`` are defined there (go to definition
    lands in the file), and whose metadata carries that name."""
    folder = Path(tabletop_envs.__file__).parent
    files = {path.stem for path in folder.glob("*_v[0-9]*.py")}
    shipped = {
        name for name, module in tabletop_envs.GAMES.items() if module.startswith("tabletop_envs.")
    }
    assert files == shipped
    for name in tabletop_envs.GAMES:
        module = tabletop_envs.game_module(name)
        assert module.__name__.rpartition(".")[2] == name
        assert module.raw_env.metadata["name"] == name == module.env().metadata["name"]
        assert inspect.getsourcefile(module.raw_env) == inspect.getsourcefile(module.env)
        assert Path(inspect.getsourcefile(module.env)).stem == name


def test_registration_refuses_an_incomplete_observer() -> None:
    incomplete = type(observer)("incomplete")
    incomplete.SCHEMA = observer.SCHEMA
    with pytest.raises(TypeError, match=r"lacks \['view', 'observation'\]"):
        bind_views(HighCard, observer=incomplete, text=text)


PACKAGE_FILES = {"__init__.py", "spec.py", "rules.py", "observer.py", "text.py"}
SIDE_FILES = {"observer.py", "text.py", "picture.py"}
"""Files beside the rules that see the game only through its spec (and the core)."""


def game_packages() -> list[str]:
    """The package of every registered game's rules core (``tabletop_envs.vaalbara``)."""
    return sorted({game_class(name).__module__.rpartition(".")[0] for name in tabletop_envs.GAMES})


def game_class(name: str) -> type:
    return tabletop_envs.game_module(name).Game


def parsed(path: Path) -> ast.Module:
    """A file's syntax tree with its ``TYPE_CHECKING`` blocks left out (not run)."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    return tree


def imports(path: Path, package: str) -> set[str]:
    """The modules a file imports at run time; ``from package import m`` counts as
    ``package.m``, any other ``from p import n`` as ``p``."""
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.ImportFrom) and node.module == package:
            found.update(f"{package}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def own_imports(path: Path, package: str) -> set[str]:
    """The modules of ``package`` a file imports at run time (``TYPE_CHECKING`` left out)."""
    return {module for module in imports(path, package) if module.startswith(f"{package}.")}


@pytest.mark.parametrize("package", game_packages())
def test_every_game_package_has_the_same_files_and_import_direction(package: str) -> None:
    """spec <- rules; spec <- observer, text, picture; all <- __init__: the rules import only
    their spec (and core), the observer, the text and the picture never each other or the
    rules. A game may add modules of its rules (an effect interpreter): they import only the
    spec, core and each other; the spec may import those that import nothing of the game (the
    language its cards are written in)."""
    folder = Path(importlib.import_module(package).__file__).parent
    files = {p.name for p in folder.glob("*.py")}
    assert files >= PACKAGE_FILES, f"missing {sorted(PACKAGE_FILES - files)}"
    rules_files = files - PACKAGE_FILES - SIDE_FILES
    extras = {f"{package}.{name[:-3]}" for name in rules_files}
    leaves = {
        f"{package}.{name[:-3]}" for name in rules_files if not own_imports(folder / name, package)
    }
    spec = {f"{package}.spec"}
    for name in ["spec.py", *sorted(SIDE_FILES & files), "rules.py", *sorted(rules_files)]:
        allowed = leaves if name == "spec.py" else spec
        if name == "rules.py" or name in rules_files:
            allowed = allowed | extras
        found = own_imports(folder / name, package)
        assert found <= allowed, f"{name} imports {sorted(found - allowed)}"


SHIPPED = [package for package in game_packages() if package.startswith("tabletop_envs.")]


@pytest.mark.parametrize("package", SHIPPED)
def test_every_shipped_game_registers_a_picture_drawn_from_spec_and_core(package: str) -> None:
    """The replay viewer draws every shipped game: ``picture.py``, registered, importing of
    this project only its spec and ``tabletop_envs.core`` (never the rules or the state)."""
    module = importlib.import_module(package)
    path = Path(module.__file__).parent / "picture.py"
    assert path.exists(), f"{package} has no picture.py (docs/viewer.md)"
    game = next(
        game_class(name)
        for name in tabletop_envs.GAMES
        if game_class(name).__module__.startswith(package)
    )
    assert game.PICTURE is importlib.import_module(f"{package}.picture"), "not registered"
    found = imports(path, package)
    ours = {name for name in found if name.split(".")[0] in ("tabletop_envs",)}
    allowed = {f"{package}.spec", "tabletop_envs.core"}
    outside = {name for name in ours if not any(name.startswith(a) for a in allowed)}
    assert not outside, f"picture.py imports {sorted(outside)}"
