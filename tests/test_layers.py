"""The installed packages' import graph, read from the source (``ast``): no import cycle
anywhere, and no import from a lower layer to a higher one (docs/architecture.md):
``tabletop_envs`` (games, core, viewer) -> ``agents`` -> ``training`` -> ``tools``. Imports
under ``TYPE_CHECKING`` never run and are left out; imports inside functions count."""

import sys
from pathlib import Path

import pytest
from imports import imported_modules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("tabletop_envs", "tabletop_envs.agents", "tabletop_envs.training", "tabletop_envs.tools")
NOT_INSTALLED = ("benchmarks", "experiments", "tests")


def package_folders() -> dict[str, Path]:
    """Each installed package's folder, as pyproject.toml's setuptools table maps them."""
    table = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {name: ROOT / folder for name, folder in table.get("package-dir", {}).items()}
    return {name: folders.get(name) or folders_of(name, folders) for name in table["packages"]}


def folders_of(name: str, folders: dict[str, Path]) -> Path:
    """A package's folder: under its nearest mapped parent, else the path its name spells."""
    parts = name.split(".")
    for end in range(len(parts) - 1, 0, -1):
        parent = ".".join(parts[:end])
        if parent in folders:
            return folders[parent].joinpath(*parts[end:])
    return ROOT.joinpath(*parts)


def installed_modules() -> dict[str, Path]:
    """Every module the wheel installs: dotted name -> source file."""
    modules: dict[str, Path] = {}
    for package, folder in package_folders().items():
        for path in folder.glob("*.py"):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            modules[name] = path
    return modules


MODULES = installed_modules()
GRAPH = {
    name: imported_modules(path, name, set(MODULES) | set(NOT_INSTALLED))
    for name, path in MODULES.items()
}


def layer(module: str) -> int:
    """The index in LAYERS of the deepest layer package that contains ``module``."""
    return max(i for i, top in enumerate(LAYERS) if module == top or module.startswith(top + "."))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while component[-1:] != [node]:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_package_table_finds_every_layer() -> None:
    assert {layer(name) for name in MODULES} == set(range(len(LAYERS)))
    assert "tabletop_envs.core.registry" in MODULES and "tabletop_envs.agents.base" in MODULES


def test_no_import_cycle_anywhere_in_the_installed_packages() -> None:
    assert cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_climbs_to_a_higher_layer_or_outside_the_install(module: str) -> None:
    outside = sorted(GRAPH[module] & set(NOT_INSTALLED))
    assert not outside, f"{module} imports {outside}, which the wheel does not install"
    higher = sorted(target for target in GRAPH[module] if layer(target) > layer(module))
    assert not higher, f"{module} (layer {LAYERS[layer(module)]}) imports {higher}"
