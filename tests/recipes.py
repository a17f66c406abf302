"""The recipes of docs/ecosystem.md, as the tests run them: each ```python block whose first
line is ``# recipe: NAME``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ECOSYSTEM = Path(__file__).resolve().parent.parent / "docs" / "ecosystem.md"
BLOCK = re.compile(r"```python\n# recipe: (\S+)\n(.*?)```", re.DOTALL)


def recipes() -> dict[str, str]:
    """Recipe name -> its code, as written on the page."""
    return {name: code for name, code in BLOCK.findall(ECOSYSTEM.read_text())}


def run_recipe(name: str) -> dict[str, Any]:
    """Run recipe ``name`` as a script; the names it defines."""
    namespace: dict[str, Any] = {"__name__": f"recipe_{name}"}
    exec(compile(recipes()[name], f"{ECOSYSTEM}:{name}", "exec"), namespace)
    return namespace
