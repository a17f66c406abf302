"""Command-line helpers shared by the tools: one-line errors with exit code 2, checked numbers,
and help that shows every option's default."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from typing import Any, NoReturn

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Bad input from the command line; reported as one line, exit code 2."""


def plain_text(text: str) -> str:
    """Docstring text for a terminal: no reStructuredText markup (````x````, ``::``)."""
    text = re.sub(r"``([^`]+)``", r"\1", text)
    return text.replace("::\n", ":\n")


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the description's line breaks and appends each option's default to its help."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or action.default is argparse.SUPPRESS:
            return text
        if action.required or (not action.option_strings and action.nargs not in ("?", "*")):
            return text  # a required argument has no default
        default = action.default
        if action.nargs == 0:  # a switch
            default = "on" if default else "off"
        elif default is None:
            default = "none"
        return f"{text} (default: {default})"


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage dump) with exit code 2, and whose
    help shows plain text and every option's default."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        if kwargs.get("description"):
            kwargs["description"] = plain_text(kwargs["description"])
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


def fail(prog: str, message: str, code: int = EXIT_USAGE) -> int:
    print(f"{prog}: error: {message}", file=sys.stderr)
    return code


def cpu_count() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def add_workers_flags(parser: argparse.ArgumentParser, default: int, what: str) -> None:
    """``--workers N`` (``what`` says what a worker is) and ``--oversubscribe``, which lets N
    exceed the CPUs (see :func:`check_workers`)."""
    parser.add_argument("--workers", type=positive_int, default=default, help=what)
    parser.add_argument(
        "--oversubscribe",
        action="store_true",
        help="allow more --workers than this machine's CPUs",
    )


def check_workers(args: argparse.Namespace) -> int:
    """``args.workers``, unless it exceeds the CPUs without ``--oversubscribe`` (a UsageError
    naming both)."""
    cpus = cpu_count()
    if args.workers > cpus and not args.oversubscribe:
        raise UsageError(
            f"--workers {args.workers} is more than the {cpus} CPUs here; use at most {cpus}, "
            "or pass --oversubscribe"
        )
    return args.workers


def positive_int(text: str) -> int:
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive whole number")
    return value


def seed_int(text: str) -> int:
    """A seed: a whole number from 0 up (numpy's seeding refuses negative ones)."""
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; expected a whole number >= 0")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (no nan, inf or negatives)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive finite number")
    return value


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
