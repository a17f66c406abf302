"""Each registered game's environment page documents its whole observation and action layout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tabletop_envs

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
SHIPPED = sorted(
    name for name, package in tabletop_envs.GAMES.items() if package.startswith("tabletop_envs.")
)
"""The games the package ships (the toy game of the tests has no page)."""


def documents_range(page: str, name: str, first: int, last: int) -> bool:
    """A table row naming ``name`` with the index range ``first-last`` (hyphen or en dash)."""
    pattern = rf"`{re.escape(name)}`\s*\|\s*{first}\s*[-–]\s*{last}\s*\|"
    return re.search(pattern, page) is not None


@pytest.mark.parametrize("name", SHIPPED)
def test_environment_page_lists_every_field_and_segment(name: str) -> None:
    game = tabletop_envs.game_module(name).Game
    page = (DOCS / f"{game.NAME}.md").read_text()
    for field_name, start, end, _, _ in game.SCHEMA.describe():
        assert documents_range(page, field_name, start, end - 1), f"{field_name} not documented"
    for segment in game.LAYOUT.segments.values():
        last = segment.offset + segment.size - 1
        assert documents_range(page, segment.name, segment.offset, last), segment.name
    assert "## Rulings" in page and "## Version history" in page


def test_readme_links_every_environment_page() -> None:
    readme = (DOCS.parent.parent / "README.md").read_text()
    for name in SHIPPED:
        assert f"docs/rules/{tabletop_envs.game_module(name).Game.NAME}.md" in readme


def test_readme_python_examples_run() -> None:
    readme = (DOCS.parent.parent / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
