"""SVG drawing primitives shared by every game's picture (``<game>/picture.py``).

A picture is built on a :class:`Canvas` and returned as one standalone ``<svg>`` string:
no scripts, no external fonts or images, every text escaped. The replay viewer
(``tabletop-view``, docs/viewer.md) shows one picture per step and per view.

Writing a game's ``picture.py`` (the contract; ``tests/test_viewer.py`` checks it for every
game registered with ``bind_views(..., picture=picture)``):

- ``draw(game, seat) -> str``. With a seat, draw only from ``game.view(seat)`` (the plain
  reference view the observation is encoded from; its seat axes are relative, row 0 is the
  observer) and public constant data from the spec. Never read the state itself: then the
  picture cannot show what the seat cannot see, and it is unchanged when the hidden state is
  redrawn (``game.resample_hidden(seat, rng)``), which the tests check at every step of
  seeded games. With ``seat=None`` ("everything") draw the whole state: all hands face up.
- Import only the game's ``spec`` and ``tabletop_envs.core`` (``tests/test_contract.py``).
  A good shape: a small plain record of what the table shows, built either from the view
  or from the state, and one drawing function for both.
- Face-down cards: :meth:`Canvas.card_back` (it takes no face). Give every card a ``slot``,
  a stable name of where it lies (``"hand/0/2"``, ``"row/1/3"``), the same in every view.
- Secrets in the "everything" picture: a face that some seat cannot see is drawn with
  ``seen_by=`` the seats that may see it (``()`` for nobody, e.g. a deck's next card). It is
  outlined dashed, and the browser test checks that no other seat's view at that step shows
  that face in that slot. Anything public takes no ``seen_by``.
- Show the round and whose turn it is, scores (or the team's progress), hands, decks with
  their counts. Clear and legible at 100 % zoom: text 11 px or larger, about 1000 px wide.
  Look at it: ``tabletop-view REPLAY.json --step K --seat S --svg out.svg``, then
  ``chromium --headless --screenshot=out.png out.svg`` or ``rsvg-convert out.svg > out.png``.
- ``data={"key": value}`` on any element becomes ``data-key="value"``, so tests can read
  what a picture shows from its DOM. The viewer's tests read ``data-card`` (the face, or
  ``hidden``), ``data-slot`` and ``data-seen-by`` (space-separated seats); a helper that
  draws a card its own way passes them in ``data`` (``{"slot": "hand/0/2", "seen-by": "0"}``).
- The everything picture shows what is hidden (hands, the next card of a deck) and marks
  it: the tests require at least one ``seen_by`` face over a game, and that the everything
  picture changes when the hidden state is redrawn.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from html import escape

import numpy as np

FONT = "DejaVu Sans, Verdana, sans-serif"
INK = "#222"
PAPER = "#fdfaf3"
CARD_BACK = "#6b5b95"
BACK_LINE = "#d8cfee"
MUTED = "#8a8479"
SECRET = "#6b5b95"
"""The outline of a face that some seats cannot see (drawn dashed)."""
DASH = "5 3"


def _attributes(data: dict[str, object] | None, css_class: str) -> str:
    """`` class="..." data-key="value"`` for an element (escaped)."""
    parts = [f' class="{escape(css_class)}"'] if css_class else []
    for key, value in (data or {}).items():
        parts.append(f' data-{escape(key)}="{escape(str(value))}"')
    return "".join(parts)


def _card_marks(
    face: str, slot: str, seen_by: Sequence[int] | None, data: dict[str, object] | None
) -> dict[str, object]:
    """The data attributes of a card: its face (``hidden`` for a back), slot, who sees it."""
    marks: dict[str, object] = {"card": face}
    if slot:
        marks["slot"] = slot
    if seen_by is not None:
        marks["seen-by"] = " ".join(str(seat) for seat in seen_by)
    return {**marks, **(data or {})}


class Canvas:
    """An SVG picture drawn element by element, in painting order."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width, self.height = width, height
        self.items: list[str] = []
        if title:
            self.items.append(f"<title>{escape(title)}</title>")
        self.rect(0, 0, width, height, fill=PAPER, stroke="none", radius=0)

    def rect(
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        *,
        fill: str = "#fff",
        stroke: str = INK,
        radius: float = 4,
        dashed: bool = False,
        data: dict[str, object] | None = None,
        css_class: str = "",
    ) -> None:
        dash = f' stroke-dasharray="{DASH}" stroke-width="2"' if dashed else ""
        self.items.append(
            f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" '
            f'rx="{radius:g}" fill="{fill}" stroke="{stroke}"{dash}{_attributes(data, css_class)}/>'
        )

    def circle(
        self,
        x: float,
        y: float,
        radius: float,
        *,
        fill: str = "#fff",
        stroke: str = INK,
        data: dict[str, object] | None = None,
        css_class: str = "",
    ) -> None:
        self.items.append(
            f'<circle cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="{fill}" '
            f'stroke="{stroke}"{_attributes(data, css_class)}/>'
        )

    def line(
        self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = INK, width: float = 1
    ) -> None:
        self.items.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" '
            f'stroke-width="{width:g}"/>'
        )

    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        *,
        fill: str = "#fff",
        stroke: str = INK,
        width: float = 1,
        data: dict[str, object] | None = None,
        css_class: str = "",
    ) -> None:
        """A closed polygon (``fill="none"`` for an outline alone, ``width`` its stroke's)."""
        coordinates = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        thick = f' stroke-width="{width:g}" stroke-linejoin="round"' if width != 1 else ""
        self.items.append(
            f'<polygon points="{coordinates}" fill="{fill}" stroke="{stroke}"{thick}'
            f"{_attributes(data, css_class)}/>"
        )

    @contextmanager
    def group(self, x: float, y: float, scale: float = 1) -> Iterator[None]:
        """What is drawn inside the ``with`` block, moved by (x, y) and scaled by ``scale``
        (about its own origin): draw it at its own coordinates from (0, 0)."""
        size = f" scale({scale:g})" if scale != 1 else ""
        self.items.append(f'<g transform="translate({x:.1f},{y:.1f}){size}">')
        yield
        self.items.append("</g>")

    def text(
        self,
        x: float,
        y: float,
        words: str,
        *,
        size: float = 12,
        anchor: str = "start",
        bold: bool = False,
        fill: str = INK,
        data: dict[str, object] | None = None,
        css_class: str = "",
    ) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.items.append(
            f'<text x="{x:g}" y="{y:g}" font-family="{FONT}" font-size="{size:g}" '
            f'text-anchor="{anchor}" fill="{fill}"{weight}{_attributes(data, css_class)}>'
            f"{escape(words)}</text>"
        )

    def card(
        self,
        x: float,
        y: float,
        name: str,
        *,
        detail: str = "",
        width: float = 70,
        height: float = 96,
        fill: str = "#fff",
        slot: str = "",
        seen_by: Sequence[int] | None = None,
        data: dict[str, object] | None = None,
    ) -> None:
        """A face-up card: its name on top, an optional detail line below. ``seen_by``: the
        seats that may see this face, for a secret in the "everything" picture (dashed)."""
        marks = _card_marks(name, slot, seen_by, data)
        secret = seen_by is not None
        stroke = SECRET if secret else INK
        self.rect(x, y, width, height, fill=fill, stroke=stroke, dashed=secret, data=marks)
        size = min(11, (width - 4) / max(1, 0.6 * len(name)))
        self.text(x + width / 2, y + 15, name, size=max(size, 7), anchor="middle", bold=True)
        if detail:
            self.text(x + width / 2, y + height / 2 + 8, detail, size=16, anchor="middle")

    def card_back(
        self,
        x: float,
        y: float,
        *,
        width: float = 70,
        height: float = 96,
        slot: str = "",
        data: dict[str, object] | None = None,
    ) -> None:
        """A face-down card: a plain back that shows nothing of the face."""
        marks = _card_marks("hidden", slot, None, data)
        self.rect(x, y, width, height, fill=CARD_BACK, data=marks)
        inset = min(6, width / 6)
        self.rect(
            x + inset,
            y + inset,
            width - 2 * inset,
            height - 2 * inset,
            fill="none",
            stroke=BACK_LINE,
        )

    def pile(
        self, x: float, y: float, count: int, label: str, *, width: float = 70, height: float = 96
    ) -> None:
        """A face-down pile (a deck) with its count on it and a label below."""
        if count:
            self.rect(x + 3, y + 3, width, height, fill=CARD_BACK, stroke=INK)
            self.card_back(x, y, width=width, height=height, data={"pile": label})
        else:
            self.rect(x, y, width, height, fill="none", stroke=MUTED, data={"pile": label})
        self.rect(x + width / 2 - 16, y + height / 2 - 12, 32, 22, fill=PAPER, radius=6)
        self.text(
            x + width / 2, y + height / 2 + 4, str(count), size=14, anchor="middle", bold=True
        )
        self.text(x + width / 2, y + height + 15, label, size=11, anchor="middle")

    def badge(
        self,
        x: float,
        y: float,
        words: str,
        *,
        fill: str = "#fff",
        ink: str = INK,
        size: float = 11,
    ) -> float:
        """A rounded label at (x, y) (top left); returns its width."""
        width = 0.62 * size * len(words) + 10
        self.rect(x, y, width, size + 8, fill=fill, stroke="none", radius=(size + 8) / 2)
        self.text(x + width / 2, y + size + 2, words, size=size, anchor="middle", fill=ink)
        return width

    def to_svg(self) -> str:
        """The standalone ``<svg>`` element."""
        body = "\n".join(self.items)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:g}" '
            f'height="{self.height:g}" viewBox="0 0 {self.width:g} {self.height:g}">\n'
            f"{body}\n</svg>"
        )


# ----- layout helpers shared by the card games' pictures --------------------------------
HIDDEN_INK = "#8a2be2"
"""The colour of what no player can see, in an "everything" picture (deck orders)."""


def letters_in(width: float, size: float) -> int:
    """About how many letters fit ``width`` pixels at font ``size`` (at least 1)."""
    return max(1, int(width / (0.6 * size)))


def fit(words: str, width: float, size: float = 12) -> str:
    """``words`` cut with an ellipsis to fit ``width`` pixels at font ``size`` (estimated)."""
    room = letters_in(width, size)
    return words if len(words) <= room else words[: room - 1] + "…"


def wrap_words(words: str, width: float, size: float = 12) -> list[str]:
    """``words`` broken at spaces into lines that fit ``width`` pixels at font ``size``."""
    room = letters_in(width, size)
    lines: list[str] = []
    for word in words.split():
        if lines and len(lines[-1]) + 1 + len(word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def row_step(count: int, width: float, card_width: float, gap: float = 4) -> float:
    """The distance between the left edges of ``count`` cards laid in a row ``width`` wide:
    ``card_width + gap``, or less (the cards overlap) when they would not fit."""
    if count <= 1:
        return card_width + gap
    return min(card_width + gap, (width - card_width) / (count - 1))


def panel(canvas: Canvas, x: float, y: float, width: float, height: float, title: str) -> None:
    """A framed area with its title on the top left."""
    canvas.rect(x, y, width, height, fill="#fffdf8", stroke="#b9ad94", radius=6)
    canvas.text(x + 8, y + 16, fit(title, width - 16, 13), size=13, bold=True)


def meter(
    canvas: Canvas,
    x: float,
    y: float,
    width: float,
    fraction: float,
    label: str,
    *,
    fill: str = "#93c98f",
    data: dict[str, object] | None = None,
) -> None:
    """A progress bar ``fraction`` full (clipped to 0..1) with ``label`` written on it."""
    done = min(max(fraction, 0.0), 1.0)
    canvas.rect(x, y, width, 16, fill="#e8e2d4", stroke="#b9ad94", radius=3, data=data)
    if done > 0:
        canvas.rect(x, y, width * done, 16, fill=fill, stroke="none", radius=3)
    canvas.text(x + width / 2, y + 12, label, size=11, anchor="middle", bold=True)


def pile(
    canvas: Canvas,
    x: float,
    y: float,
    name: str,
    count: int,
    *,
    width: float = 50,
    height: float = 68,
    data: dict[str, object] | None = None,
) -> None:
    """A face-down deck: a card back with its name above and its card count on it."""
    canvas.text(x + width / 2, y - 4, fit(name, width + 30, 11), size=11, anchor="middle")
    if count:
        canvas.card_back(x, y, width=width, height=height, data={"deck": name, **(data or {})})
    else:
        canvas.rect(x, y, width, height, fill="none", stroke="#b9ad94", data={"deck": name})
    canvas.text(
        x + width / 2,
        y + height / 2 + 6,
        str(count),
        size=16,
        anchor="middle",
        bold=True,
        fill="#fff" if count else "#999",
    )


def hidden_frame(canvas: Canvas, x: float, y: float, width: float, height: float) -> None:
    """A dashed frame around what no player can see (an "everything" picture only)."""
    canvas.items.append(
        f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" rx="6" fill="none" '
        f'stroke="{HIDDEN_INK}" stroke-dasharray="6 4" stroke-width="1.5" data-hidden="true"/>'
    )


def small_card(
    canvas: Canvas,
    x: float,
    y: float,
    name: str,
    *,
    title: str,
    big: str = "",
    note: str = "",
    width: float = 48,
    height: float = 66,
    fill: str = "#fff",
    data: dict[str, object] | None = None,
) -> None:
    """A face-up card too small for its full name: a short ``title`` on top, a ``big``
    number or symbol in the middle, a ``note`` at the bottom; ``name`` (the full card
    name) goes to its ``data-card`` attribute."""
    canvas.rect(x, y, width, height, fill=fill, data={"card": name, **(data or {})})
    canvas.text(x + width / 2, y + 13, fit(title, width - 4, 10), size=10, anchor="middle")
    if big:
        canvas.text(x + width / 2, y + height / 2 + 8, big, size=20, anchor="middle", bold=True)
    if note:
        canvas.text(x + width / 2, y + height - 6, fit(note, width, 9), size=9, anchor="middle")


def labelled_back(
    canvas: Canvas,
    x: float,
    y: float,
    label: str,
    *,
    width: float = 48,
    height: float = 66,
    data: dict[str, object] | None = None,
) -> None:
    """A face-down card whose back prints something public (a deck's name, a letter)."""
    canvas.card_back(x, y, width=width, height=height, data={"back": label, **(data or {})})
    canvas.text(
        x + width / 2,
        y + height / 2 + 5,
        fit(label, width - 8, 11),
        size=11,
        anchor="middle",
        bold=True,
        fill="#fff",
    )


# ----- reading a seat's view into a scene -------------------------------------------------
def one_hot(values: Iterable[float]) -> int:
    """The first index set in a one-hot field of a view, -1 if none."""
    return next((index for index, value in enumerate(values) if value), -1)


def player_name(seat: int) -> str:
    """A seat as the agents are named (``player_2``)."""
    return f"player_{seat}"


# ----- polygons: measures for laying out maps (rings of points, any orientation) -----------


Point = tuple[float, float]
Ring = tuple[Point, ...]


def _edges(ring: Ring) -> list[tuple[Point, Point]]:
    return list(zip(ring, ring[1:] + ring[:1], strict=True))


def _bounds(ring: Ring) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    return min(xs), min(ys), max(xs), max(ys)


def shared_border(a: Ring, b: Ring, tolerance: float = 1e-9) -> float:
    """How long a stretch of border rings ``a`` and ``b`` share (0: they do not border)."""
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = _bounds(a), _bounds(b)
    if (
        ax0 > bx1 + tolerance
        or bx0 > ax1 + tolerance
        or ay0 > by1 + tolerance
        or by0 > ay1 + tolerance
    ):
        return 0.0
    total = 0.0
    for (p, q), (r, s) in itertools.product(_edges(a), _edges(b)):
        length = math.dist(p, q)
        if length == 0:
            continue
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        off = [abs((t[0] - p[0]) * uy - (t[1] - p[1]) * ux) for t in (r, s)]
        if max(off) > tolerance:
            continue
        along = sorted((t[0] - p[0]) * ux + (t[1] - p[1]) * uy for t in (r, s))
        total += max(0.0, min(length, along[1]) - max(0.0, along[0]))
    return total


def inside(points: np.ndarray, ring: Ring) -> np.ndarray:
    """Which of ``points`` (n x 2) lie inside ``ring`` (even-odd rule)."""
    x, y = points[:, :1], points[:, 1:]
    start = np.array(ring)
    end = np.roll(start, -1, axis=0)
    (x0, y0), (x1, y1) = start.T, end.T
    spans = (y0 > y) != (y1 > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        cross_x = x0 + (x1 - x0) * (y - y0) / (y1 - y0)
    return np.sum(spans & (x < cross_x), axis=1) % 2 == 1


Box = tuple[float, float, float, float]
"""A box by its centre and half its width and height."""


def largest_boxes(ring: Ring, aspects: tuple[float, ...], step: float) -> tuple[Box, ...]:
    """For each aspect (width / height), the largest box of it, sides along the axes, that
    lies inside ``ring``: its centre tried on a grid ``step`` apart. A box meets an edge where
    it meets the edge's bounding box and the edge's line (convex shapes: those axes suffice),
    so each edge bounds the box's half height at a centre by the larger of the two sizes."""
    left, bottom, right, top = _bounds(ring)
    gx, gy = np.meshgrid(np.arange(left, right, step), np.arange(bottom, top, step))
    centres = np.column_stack([gx.ravel(), gy.ravel()])
    centres = centres[inside(centres, ring)]
    if not len(centres):
        centres = np.array([[(left + right) / 2, (bottom + top) / 2]])
    start = np.array(ring)
    end = np.roll(start, -1, axis=0)
    normal = np.column_stack([start[:, 1] - end[:, 1], end[:, 0] - start[:, 0]])
    cx, cy = centres[:, :1], centres[:, 1:]
    reach = np.abs((cx - start[:, 0]) * normal[:, 0] + (cy - start[:, 1]) * normal[:, 1])
    low, high = np.minimum(start, end), np.maximum(start, end)
    boxes = []
    for aspect in aspects:
        by_line = reach / (np.abs(normal[:, 0]) * aspect + np.abs(normal[:, 1]) + 1e-12)
        by_bounds = np.maximum.reduce(
            [
                (low[:, 0] - cx) / aspect,
                (cx - high[:, 0]) / aspect,
                low[:, 1] - cy,
                cy - high[:, 1],
                np.zeros_like(by_line),
            ]
        )
        half_height = np.min(np.maximum(by_line, by_bounds), axis=1)
        best = int(np.argmax(half_height))
        h = float(half_height[best])
        boxes.append((float(cx[best, 0]), float(cy[best, 0]), h * aspect, h))
    return tuple(boxes)
