"""The generated sections of ``benchmarks/RESULTS.md``: each command rewrites its own.

A section is the text between ``<!-- BEGIN name -->`` and ``<!-- END name -->``; a benchmark
replaces what lies between its two markers (written atomically) and leaves every other byte of
the page as it was. ``measured_at`` is the line each section starts with: the commit, the date
and the machine's load (``RunLoad``), without which a figure cannot be reproduced or judged.
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tabletop_envs.agents.files import write_atomic

RESULTS_MD = Path(__file__).with_name("RESULTS.md")
QUIET_LOAD = 0.5
SECTION_NAME = re.compile(r"[a-z][a-z0-9-]*")


def markers(name: str) -> tuple[str, str]:
    """The begin and end marker lines of section ``name`` (lower case, digits, dashes)."""
    if not SECTION_NAME.fullmatch(name):
        raise ValueError(f"section name {name!r}: expected lower-case letters, digits and dashes")
    return f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"


def publish(name: str, body: str, path: Path = RESULTS_MD, write: bool = True) -> None:
    """Print ``body``, then (unless ``write`` is off) make it section ``name`` of ``path``."""
    print(body)
    if write:
        replace_section(name, body, path)


def replace_section(name: str, body: str, path: Path = RESULTS_MD) -> None:
    """Put ``body`` between section ``name``'s markers in ``path``, atomically.

    A page without the section gets it at its end; a marker found twice, or one without the
    other, or an end before its begin, is a ValueError naming the marker and the page.
    """
    begin, end = markers(name)
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    body = body.rstrip("\n")
    block = f"{begin}\n{body}\n{end}"
    counts = text.count(begin), text.count(end)
    if counts == (0, 0):
        write_atomic(path, text.rstrip("\n") + f"\n\n{block}\n")
        return
    if counts != (1, 1) or text.index(begin) > text.index(end):
        raise ValueError(
            f"{path}: expected one {begin!r} followed by one {end!r}, found the begin "
            f"{counts[0]} and the end {counts[1]} times"
        )
    start, stop = text.index(begin), text.index(end) + len(end)
    write_atomic(path, text[:start] + block + text[stop:])


def read_section(name: str, path: Path = RESULTS_MD) -> str:
    """The text between section ``name``'s markers in ``path``; a ValueError naming the section
    and the page when it is missing."""
    begin, end = markers(name)
    text = path.read_text()
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise ValueError(f"{path}: no single section {name!r} (between {begin!r} and {end!r})")
    return text[text.index(begin) + len(begin) : text.index(end)].strip("\n")


def table_rows(text: str, first_column: str) -> list[dict[str, str]]:
    """The rows of the markdown table in ``text`` whose header starts with ``first_column``,
    each as {header: cell}; a ValueError when there is no such table."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        cells = _cells(line)
        if cells and cells[0] == first_column:
            rows = []
            for row in lines[number + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append(dict(zip(cells, _cells(row), strict=True)))
            return rows
    raise ValueError(f"no table whose first column is {first_column!r}")


def _cells(line: str) -> list[str]:
    if not line.startswith("|"):
        return []
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def number(cell: str) -> float:
    """A figure as the tables print it (``12,345`` or ``1.57``)."""
    return float(cell.replace(",", ""))


OUTPUTS = ("benchmarks/RESULTS.md", "benchmarks/throughput.json", "README.md")
"""What the benchmarks write (``make bench`` writes the README's speed sentence): changes to
them alone leave the measured code at HEAD."""


def commit() -> str:
    """``git rev-parse --short HEAD`` of this checkout, ``+changes`` when a tracked file other
    than the benchmarks' own outputs differs from it."""
    root = Path(__file__).resolve().parent.parent
    outputs = [f":(exclude){path}" for path in OUTPUTS]
    try:
        head = _git(root, "rev-parse", "--short", "HEAD")
        changed = _git(root, "status", "--porcelain", "--untracked-files=no", "--", ".", *outputs)
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return head + ("+changes" if changed else "")


def _git(root: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages as ``uptime`` prints them."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def machine_busy_seconds() -> float | None:
    """CPU-seconds the whole machine has spent busy since boot (``/proc/stat``; None where
    there is no such file)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    """CPU-seconds of this process and of the children it has waited for."""
    return sum(os.times()[:4])


@dataclass(frozen=True)
class RunLoad:
    """The machine at a run's start, to tell afterwards whether other work shared it: the
    load averages include the benchmark's own processes, so the CPU time the machine spent
    beyond the run's own is what says whether it was quiet."""

    averages: str
    wall: float
    busy: float | None
    own: float

    @classmethod
    def now(cls) -> RunLoad:
        return cls(load_average(), time.monotonic(), machine_busy_seconds(), own_cpu_seconds())

    def others_cpus(self) -> float | None:
        """CPUs busy on average with other processes' work since the start (None: unknown)."""
        busy, wall = machine_busy_seconds(), time.monotonic() - self.wall
        if busy is None or self.busy is None or wall <= 0:
            return None
        others = (busy - self.busy) - (own_cpu_seconds() - self.own)
        return max(others, 0.0) / wall


def measured_at(command: str, start: RunLoad, timed: bool = True) -> str:
    """One line: the command, the commit, the date, the CPUs, the load before and after and
    the CPUs other processes used meanwhile; a timed figure is called provisional when the
    others' mean use reaches ``QUIET_LOAD`` (where it cannot be known, the 1-minute load at
    the start or the end: the load averages count this run's own processes, and a run just
    before it, such as another part of ``make bench``)."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    others = start.others_cpus()
    line = (
        f"`{command}` at commit `{commit()}`, {now}, {os.cpu_count()} CPUs; load average "
        f"(1, 5, 15 min) {start.averages} at the start, {load_average()} at the end"
    )
    if others is None:
        busiest = max(float(start.averages.split(",")[0]), os.getloadavg()[0])
        line += "."
    else:
        busiest = others
        line += f"; other processes used {others:.2f} CPUs on average meanwhile."
    if timed and busiest >= QUIET_LOAD:
        line += (
            f" **Provisional**: the machine was shared (load up to {busiest:.1f} besides this "
            f"run, quiet is under {QUIET_LOAD}); the timings want a rerun on a quiet machine."
        )
    return line
