"""The viewer's HTML page: one self-contained file (no network, no external assets) holding a
replay's story as gzip-compressed JSON, unpacked and shown by the page's own script.

Pictures are stored as lists of line numbers into one table of unique lines (a picture's
elements are one per line, and most of them repeat from step to step and view to view),
which makes a page about 30 times smaller than gzip alone (gzip sees only 32 KiB back)."""

from __future__ import annotations

import base64
import gzip
import json
from html import escape
from importlib import resources

from tabletop_envs.viewer.story import Story

TEMPLATE = "page.html"


def page_html(story: Story) -> str:
    """The page for ``story``: step controls, a view selector, one picture at a time."""
    template = resources.files(__package__).joinpath(TEMPLATE).read_text(encoding="utf-8")
    data = json.dumps(_packed(story), separators=(",", ":")).encode()
    packed = base64.b64encode(gzip.compress(data, mtime=0)).decode("ascii")
    title = escape(f"Replay: {story.title}")
    return template.replace("__TITLE__", title).replace("__STORY__", packed)


def _packed(story: Story) -> dict[str, object]:
    """The story's data with each picture as line numbers into ``lines``."""
    lines: dict[str, int] = {}
    pictures = [
        [lines.setdefault(line, len(lines)) for line in picture.split("\n")]
        for picture in story.pictures
    ]
    return {**story.to_json_data(), "pictures": pictures, "lines": list(lines)}


def unpack_story(page: str) -> dict[str, object]:
    """The story data inside a page made by :func:`page_html`, pictures as text again."""
    start = page.index('<script id="story" type="application/octet-stream">')
    body = page[page.index(">", start) + 1 : page.index("</script>", start)]
    data = json.loads(gzip.decompress(base64.b64decode(body.strip())))
    lines = data.pop("lines")
    data["pictures"] = ["\n".join(lines[i] for i in picture) for picture in data["pictures"]]
    return data
