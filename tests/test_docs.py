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


def documents_range(page: str, name: str, first: int, last: int, rest: str = "") -> bool:
    """A table row naming ``name`` with the index range ``first-last`` (hyphen or en dash),
    followed by the cells ``rest`` (a regular expression) when given."""
    pattern = rf"`{re.escape(name)}`\s*\|\s*{first}\s*[-–]\s*{last}\s*\|{rest}"
    return re.search(pattern, page) is not None


def shape_and_scale(shape: tuple[int, ...], scale: float) -> str:
    """The shape and scale cells of a field's row, e.g. ``(4, 8) | 7 |``."""
    number = f"{scale:g}"
    return rf"\s*{re.escape(str(shape))}\s*\|\s*{re.escape(number)}\s*\|"


@pytest.mark.parametrize("name", SHIPPED)
def test_environment_page_lists_every_field_and_segment(name: str) -> None:
    game = tabletop_envs.game_module(name).Game
    page = (DOCS / f"{game.NAME}.md").read_text()
    for field_name, start, end, shape, scale in game.SCHEMA.describe():
        cells = shape_and_scale(shape, scale)
        assert documents_range(page, field_name, start, end - 1, cells), (
            f"{field_name} not documented as {start}-{end - 1} | {shape} | {scale:g}"
        )
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
