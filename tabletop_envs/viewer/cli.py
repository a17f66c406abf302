"""``tabletop-view``: watch a replay in a browser, or draw one step of it.

Examples::

    tabletop-view game.json --out game.html
    tabletop-view game.json --svg table.svg --step 12 --seat 1

The page is one self-contained HTML file (no network): step controls (buttons, a slider,
the arrow keys), the action taken and by whom, and a view selector: everything, or one seat's
view, which shows only what that seat could see at that step; with ``--seat``, the page holds
that seat's view alone. ``--svg`` writes one step's picture (default: the last step,
everything).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tabletop_envs.cli import OneLineParser, fail
from tabletop_envs.core.files import write_atomic
from tabletop_envs.core.replay import Replay
from tabletop_envs.viewer.page import page_html
from tabletop_envs.viewer.story import picture_module, story_of

PROG = "tabletop-view"


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__)
    parser.add_argument("replay", type=Path, help="a replay file (JSON, docs/replays.md)")
    out = parser.add_mutually_exclusive_group(required=True)
    out.add_argument("--out", type=Path, help="write the HTML page here")
    out.add_argument("--svg", type=Path, help="write one step's picture here")
    parser.add_argument("--step", help="with --svg: the step, 0 (the deal) to the last action")
    parser.add_argument(
        "--seat",
        help="a seat number, or all (default: all); with --out, a page of that seat's view only",
    )
    return parser


def parse_step(text: str | None, actions: int) -> int:
    """The step ``text`` names (default: the last), within ``0..actions``."""
    if text is None:
        return actions
    if not text.strip().isdigit() or int(text) > actions:
        raise ValueError(
            f"--step {text} is not a step of this replay: give 0 (the deal) to {actions} "
            f"(after its last action)"
        )
    return int(text)


def parse_seat(text: str | None, players: int) -> int | None:
    """The seat ``text`` names, or ``None`` for everything (``all``, the default)."""
    if text is None or text == "all":
        return None
    if not text.strip().isdigit() or int(text) >= players:
        raise ValueError(
            f"--seat {text} is not a seat of this {players}-player game: "
            f"give 0 to {players - 1}, or all"
        )
    return int(text)


def check_output(path: Path) -> None:
    folder = path.resolve().parent
    if not folder.is_dir():
        raise ValueError(f"{path}: the folder {folder} does not exist")
    if path.is_dir():
        raise ValueError(f"{path} is a folder; give a file name")


def run(args: argparse.Namespace) -> str:
    """Write what ``args`` ask for; returns a line saying what was written."""
    if args.out is not None and args.step is not None:
        raise ValueError("--step chooses one picture: use it with --svg")
    output = args.out or args.svg
    check_output(output)
    replay = Replay.load(args.replay)
    picture = picture_module(replay.game_class())
    seat = parse_seat(args.seat, replay.num_players)
    if args.svg is not None:
        step = parse_step(args.step, len(replay.actions))
        write_atomic(args.svg, picture.draw(replay.states()[step], seat) + "\n")
        return f"wrote {args.svg} (step {step}, {'everything' if seat is None else f'seat {seat}'})"
    story = story_of(replay, seat=seat)
    html = page_html(story)
    write_atomic(args.out, html)
    steps, size = len(story.frames), len(html.encode()) / 1024
    return f"wrote {args.out}: {steps} steps, {len(story.views)} views, {size:.0f} KiB"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        print(run(args))
    except ValueError as error:
        return fail(PROG, str(error))
    except OSError as error:
        return fail(PROG, f"cannot write {error.filename or ''}: {error.strerror}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
