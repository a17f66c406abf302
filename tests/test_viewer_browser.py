"""The replay viewer in a real browser: Debian's ``chromium`` driven headless by Playwright.

For every game with a picture, a page is opened, stepped through with the keys, buttons and
slider, and every view of every step is read back from the DOM: the cards shown are the
picture's, and no seat's view shows a face the everything view marks as hidden from it.
These tests fail (never skip) without the browser: ``make test`` installs it (docs/viewer.md).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_viewer import PICTURED, cards, game_class, leaks, random_replay

from tabletop_envs.viewer import page_html, story_of

STEPS = 24
"""Actions per replay: enough for hidden picks, reveals and a few turns, and quick."""
CHROMIUM = os.environ.get("TABLETOP_CHROMIUM") or shutil.which("chromium") or ""
READ_CARDS = """() => Array.from(document.querySelectorAll('#table [data-card]'), (element) =>
    Object.fromEntries(Object.entries(element.dataset).map(([key, value]) =>
        [key.replace(/[A-Z]/g, (letter) => '-' + letter.toLowerCase()), value])))"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM:
        pytest.fail("chromium not found: `make test` installs it (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail('playwright is not installed: pip install -e ".[dev]" (or make test)')
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def open_page(browser: Any, path: Path, requests: list[str]) -> Any:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=20_000)
    return page


def shown(page: Any) -> tuple[int, int]:
    return int(page.evaluate("document.body.dataset.step")), int(
        page.evaluate("document.body.dataset.view")
    )


@pytest.mark.parametrize("name", PICTURED)
def test_a_replay_steps_switches_views_and_hides_each_seats_secrets(
    browser: Any, tmp_path: Path, name: str
) -> None:
    players = game_class(name).MIN_PLAYERS + 1
    replay = random_replay(name, players, seed=5, max_steps=STEPS)
    story = story_of(replay)
    path = tmp_path / "replay.html"
    path.write_text(page_html(story))
    requests: list[str] = []
    page = open_page(browser, path, requests)
    last = len(replay.actions)
    assert shown(page) == (0, 0) and page.get_attribute("#slider", "max") == str(last)

    for step in range(last + 1):  # every step, every view, read back from the DOM
        views = []
        for view in range(players + 1):
            page.select_option("#view", str(view))
            assert shown(page) == (step, view)
            assert page.text_content("#caption") == story.captions[step][view]
            dom = page.evaluate(READ_CARDS)
            assert dom == cards(story.pictures[story.frames[step][view]]), (step, view)
            views.append(page.inner_html("#table"))
        assert not leaks(views[0], views[1:]), f"step {step}"
        page.keyboard.press("ArrowRight")
    assert shown(page) == (last, players)

    page.keyboard.press("Home")
    assert shown(page) == (0, players)
    page.click("#next")
    page.click("#next")
    page.click("#previous")
    assert shown(page) == (1, players)
    page.click("#last")
    assert shown(page)[0] == last
    page.fill("#slider", "3")
    page.keyboard.press("0")
    assert shown(page) == (3, 0)
    screenshot = page.screenshot(path=tmp_path / f"{name}.png", full_page=True)
    assert screenshot[:8] == b"\x89PNG\r\n\x1a\n" and len(screenshot) > 20_000
    assert all(url.startswith(("file:", "data:")) for url in requests), requests
    page.close()


def test_a_hash_opens_a_step_and_view(browser: Any, tmp_path: Path) -> None:
    replay = random_replay(PICTURED[0], 2, seed=3, max_steps=6)
    path = tmp_path / "replay.html"
    path.write_text(page_html(story_of(replay)))
    page = browser.new_page()
    page.goto(path.as_uri() + "#step=4&view=2")
    page.wait_for_selector("body[data-ready='1']")
    assert shown(page) == (4, 2)
    page.close()
