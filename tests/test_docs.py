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


def test_readme_python_examples_run_and_print_what_they_did(
    capsys: pytest.CaptureFixture[str],
) -> None:
    readme = (DOCS.parent.parent / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
        assert capsys.readouterr().out.strip(), f"this README example prints nothing:\n{block}"


def test_the_replay_recipe_runs_on_a_saved_game_and_says_what_it_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabletop_envs import vaalbara_v1

    env = vaalbara_v1.raw_env(num_players=2)
    env.reset(seed=7)
    while not env.game.is_terminal:
        env.step(int(env.game.legal_actions()[0]))
    env.replay().save(tmp_path / "game.json")
    page = (DOCS.parent / "replays.md").read_text()
    recipe = page.split("## Rebuilding and checking")[1].split("```python\n")[1].split("```")[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(recipe, "docs/replays.md", "exec"), {})
    actions = len(env.replay().actions)
    assert capsys.readouterr().out.startswith(
        f"vaalbara_v1: {actions} actions rebuilt and checked, returns "
    )


def test_the_readme_says_what_make_test_installs_on_the_system() -> None:
    """``make test``'s browser target installs chromium with apt; the README must say so."""
    makefile = (DOCS.parent.parent / "Makefile").read_text()
    assert "apt-get install -y -q chromium" in makefile
    assert re.search(r"^test: .*\bbrowser\b", makefile, flags=re.MULTILINE)
    readme = " ".join((DOCS.parent.parent / "README.md").read_text().split())
    assert "`make test` also changes the system once" in readme
    assert "Debian's `chromium` package system-wide with `apt-get`" in readme
