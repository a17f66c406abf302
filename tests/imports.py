"""What a Python file imports when it runs, read from its syntax tree (for the layer tests)."""

import ast
from pathlib import Path


def parsed(path: Path) -> ast.Module:
    """A file's syntax tree with its ``TYPE_CHECKING`` blocks left out (not run)."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    return tree


def imported_modules(path: Path, module: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that the file of ``module`` imports at run time, at any depth
    (a function's own imports too). ``from p import n`` counts as ``p.n`` where that is a
    module, else as ``p``; ``import a.b`` as its longest known prefix; relative imports are
    resolved against ``module``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found.update(_known_prefix(alias.name, known) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.add(name if name in known else _known_prefix(base, known))
    return found - {"", module}


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    parts = parts[: len(parts) - node.level + 1]
    return ".".join([*parts, node.module] if node.module else parts)


def _known_prefix(name: str, known: set[str]) -> str:
    """The longest prefix of the dotted ``name`` that is a known module ('' if none)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in known:
            return ".".join(parts[:end])
    return ""
