"""The generated sections of benchmarks/RESULTS.md: replaced in place, the rest untouched."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from benchmarks import results_page
from benchmarks.results_page import RunLoad, markers, measured_at, replace_section

PAGE = (
    "# Results\n\nBy hand, kept as written.  \n\n## Speed\n\n<!-- BEGIN speed -->\nold table\n"
    "<!-- END speed -->\n\nMore prose\nafter the section.\n\n## Strength\n\n"
    "<!-- BEGIN strength -->\n<!-- END strength -->\nlast line without a newline"
)


def around(text: str, name: str) -> tuple[str, str]:
    """The page before the section's begin marker and after its end marker."""
    begin, end = markers(name)
    return text[: text.index(begin)], text[text.index(end) + len(end) :]


def test_a_section_is_replaced_and_every_other_byte_kept(tmp_path: Path) -> None:
    page = tmp_path / "RESULTS.md"
    page.write_text(PAGE)
    replace_section("speed", "| new | table |\n|---|---|\n", page)
    text = page.read_text()
    assert "old table" not in text and "| new | table |\n|---|---|\n<!-- END speed -->" in text
    assert around(text, "speed") == around(PAGE, "speed")
    replace_section("speed", "| new | table |\n|---|---|\n", page)
    assert page.read_text() == text, "a second run of the same table changes nothing"
    replace_section("strength", "strong\n", page)
    again = page.read_text()
    assert around(again, "strength") == around(text, "strength")
    assert again.count("<!-- BEGIN strength -->") == again.count("strong") == 1


def test_a_missing_section_is_added_at_the_end(tmp_path: Path) -> None:
    page = tmp_path / "RESULTS.md"
    page.write_text(PAGE)
    replace_section("training", "fast\n", page)
    text = page.read_text()
    assert text.startswith(PAGE) and text.endswith(
        "\n\n<!-- BEGIN training -->\nfast\n<!-- END training -->\n"
    )
    replace_section("training", "faster\n", page)
    assert page.read_text() == text.replace("fast\n", "faster\n")


@pytest.mark.parametrize(
    "broken",
    [
        PAGE.replace("<!-- END speed -->", ""),
        PAGE.replace("<!-- BEGIN speed -->", ""),
        PAGE + "\n<!-- BEGIN speed -->\n<!-- END speed -->\n",
        PAGE.replace(
            "<!-- BEGIN speed -->\nold table\n<!-- END speed -->",
            "<!-- END speed -->\n<!-- BEGIN speed -->",
        ),
    ],
)
def test_broken_markers_are_refused_and_the_page_left_alone(tmp_path: Path, broken: str) -> None:
    page = tmp_path / "RESULTS.md"
    page.write_text(broken)
    with pytest.raises(ValueError, match="expected one '<!-- BEGIN speed -->' followed by one"):
        replace_section("speed", "new\n", page)
    assert page.read_text() == broken


def test_section_names_are_checked() -> None:
    with pytest.raises(ValueError, match="expected lower-case letters, digits and dashes"):
        markers("Speed -->")


def test_a_failed_write_leaves_the_page_whole(tmp_path: Path, monkeypatch) -> None:
    from tabletop_envs.core import files

    page = tmp_path / "RESULTS.md"
    page.write_text(PAGE)

    def disk_full(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "_temporary_copy", disk_full)
    with pytest.raises(OSError):
        replace_section("speed", "new\n", page)
    assert page.read_text() == PAGE and list(tmp_path.iterdir()) == [page]


def test_the_line_names_the_commit_and_calls_a_busy_machine_provisional(monkeypatch) -> None:
    root = Path(results_page.__file__).resolve().parent.parent
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    assert re.fullmatch(re.escape(head) + r"(\+changes)?", results_page.commit())
    monkeypatch.setattr(results_page.os, "getloadavg", lambda: (0.2, 0.1, 0.0))
    machine = Clock(busy=100.0, own=10.0, wall=0.0)
    machine.install(monkeypatch)
    start = RunLoad.now()
    machine.advance(seconds=10.0, own=10.0, others=2.0)
    monkeypatch.setattr(results_page.os, "getloadavg", lambda: (1.2, 0.1, 0.0))
    quiet = measured_at("python -m benchmarks.x", start)
    assert quiet.startswith("`python -m benchmarks.x` at commit `" + head)
    assert "0.20, 0.10, 0.00 at the start, 1.20, 0.10, 0.00 at the end" in quiet
    assert "other processes used 0.20 CPUs on average meanwhile" in quiet
    assert "Provisional" not in quiet
    machine.advance(seconds=10.0, own=0.0, others=18.0)
    busy = measured_at("cmd", start)
    assert "other processes used 1.00 CPUs" in busy and "**Provisional**" in busy
    assert "Provisional" not in measured_at("cmd", start, timed=False)


def test_a_load_left_by_an_earlier_run_does_not_make_a_quiet_run_provisional(monkeypatch) -> None:
    monkeypatch.setattr(results_page.os, "getloadavg", lambda: (1.2, 0.1, 0.0))
    machine = Clock(busy=0.0, own=0.0, wall=0.0)
    machine.install(monkeypatch)
    start = RunLoad.now()
    machine.advance(seconds=5.0, own=5.0, others=0.0)
    assert "Provisional" not in measured_at("cmd", start)


def test_without_proc_stat_the_end_load_decides(monkeypatch) -> None:
    monkeypatch.setattr(results_page, "machine_busy_seconds", lambda: None)
    monkeypatch.setattr(results_page.os, "getloadavg", lambda: (0.1, 0.1, 0.0))
    start = RunLoad.now()
    assert "Provisional" not in measured_at("cmd", start)
    monkeypatch.setattr(results_page.os, "getloadavg", lambda: (1.5, 0.1, 0.0))
    line = measured_at("cmd", start)
    assert "other processes" not in line and "**Provisional**" in line


def test_the_machine_reading_counts_busy_time() -> None:
    busy = results_page.machine_busy_seconds()
    assert busy is None or busy > 0
    assert results_page.own_cpu_seconds() > 0


class Clock:
    """A machine whose busy time, own CPU time and wall clock the test moves by hand."""

    def __init__(self, busy: float, own: float, wall: float) -> None:
        self.busy, self.own, self.wall = busy, own, wall

    def install(self, monkeypatch) -> None:
        monkeypatch.setattr(results_page, "machine_busy_seconds", lambda: self.busy)
        monkeypatch.setattr(results_page, "own_cpu_seconds", lambda: self.own)
        monkeypatch.setattr(results_page.time, "monotonic", lambda: self.wall)

    def advance(self, seconds: float, own: float, others: float) -> None:
        self.wall += seconds
        self.own += own
        self.busy += own + others


def test_the_repository_page_has_each_generated_section_once() -> None:
    text = results_page.RESULTS_MD.read_text()
    for name in ("throughput", "strength", "policies", "training-throughput"):
        begin, end = markers(name)
        assert text.count(begin) == text.count(end) == 1
        assert text.index(begin) < text.index(end)
    assert not re.search(r"/(work|home|root|tmp)/", text), "no machine paths on the page"
