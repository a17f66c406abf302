"""``make bench``: every speed figure on benchmarks/RESULTS.md in one command, and the README's.

Runs, one after the other in this process:

- ``benchmarks.throughput``: every registered game at every player count and PettingZoo's
  ``connect_four_v3`` and ``texas_holdem_v4``, through ``env()``, ``raw_env()`` and the bare
  core; ``clone()`` and JSON; memory; the evaluation harness with 1 and 2 workers;
- ``benchmarks.training_throughput``: MaskablePPO on 2-player Vaalbara against the
  ``connect_four_v3`` tutorial setup, in pure self-play and with the config's teachers, the
  three in turn for ``--rounds`` rounds (medians of each round's own ratios);

each rewriting its own section of RESULTS.md (its command, commit, date and load on the first
line), then the README's speed sentence (between ``<!-- BEGIN speed -->`` and ``<!-- END
speed -->``), which is made from those sections alone (``speed_sentence``; a test holds the
README to it). ``--no-write`` prints everything and writes nothing.

    python -m benchmarks.bench [--seconds 0.5] [--repeats 3] [--steps 4000] [--rounds 3]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks import throughput
from benchmarks.results_page import (
    RESULTS_MD,
    number,
    publish,
    read_section,
    table_rows,
)
from tabletop_envs.cli import OneLineParser, positive_int

PROG = "python -m benchmarks.bench"
README = Path(__file__).resolve().parent.parent / "README.md"
SENTENCE = "speed"
"""The README's section that ``speed_sentence`` writes."""
TRAINING_SECTION = "training-throughput"


def throughput_ratios(page: Path = RESULTS_MD) -> dict[str, dict[int, float]]:
    """``x C4`` of every game row in the page's throughput section: {game: {players: ratio}}
    (the references and the null core left out)."""
    ratios: dict[str, dict[int, float]] = {}
    for row in table_rows(read_section(throughput.SECTION, page), "Game"):
        if row["Game"] in (*throughput.REFERENCE_MODULES, throughput.FLOOR):
            continue
        ratios.setdefault(row["Game"], {})[int(row["Players"])] = number(row["x C4"])
    return ratios


def provenance(section: str) -> tuple[str, str, bool]:
    """The commit and date on a section's first line, and whether it is marked provisional."""
    first = section.splitlines()[0]
    found = re.search(r"at commit `([^`]+)`, (\d{4}-\d\d-\d\d)", first)
    if not found:
        raise ValueError(f"no commit and date on the section's first line: {first!r}")
    return found.group(1), found.group(2), "**Provisional**" in first


def _span(values: Sequence[float], suffix: str = "") -> str:
    low, high = f"{min(values):.2f}", f"{max(values):.2f}"
    return f"{low}{suffix}" if low == high else f"{low}-{high}{suffix}"


def speed_sentence(page: Path = RESULTS_MD) -> str:
    """The README's speed figures, from the page's throughput and training sections alone."""
    section = read_section(throughput.SECTION, page)
    commit, date, provisional = provenance(section)
    games = []
    for game, by_players in throughput_ratios(page).items():
        counts = sorted(by_players)
        players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        games.append(f"`{game}` {_span(list(by_players.values()), 'x')} ({players} players)")
    text = (
        f"Measured by `make bench` at commit `{commit}` ({date}"
        + (", provisional: a shared, loaded machine" if provisional else "")
        + "), each game steps through `env()` at this multiple of `connect_four_v3`'s rate in "
        f"the same run: {'; '.join(games)}."
    )
    training = read_section(TRAINING_SECTION, page)
    rows = table_rows(training, "setup")
    if len(rows) == 3:
        pure, mixed = number(rows[1]["ratio"]), number(rows[2]["ratio"])
        commit, date, provisional = provenance(training)
        text += (
            f" Self-play training runs {pure:.2f}x the PettingZoo SB3 tutorial setup's steps per "
            f"second, {mixed:.2f}x with its default scripted teachers (commit `{commit}`, {date}"
            + (", provisional" if provisional else "")
            + ")."
        )
    return text + " The tables: [benchmarks/RESULTS.md](benchmarks/RESULTS.md)."


def parse_args(argv: Sequence[str] | None) -> tuple[list[str], list[str], bool]:
    """The flags for ``benchmarks.throughput`` and ``benchmarks.training_throughput``, and
    whether to write the pages."""
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", default="0.5", help="each throughput measurement's budget")
    parser.add_argument("--repeats", type=positive_int, default=3, help="throughput repetitions")
    parser.add_argument("--steps", type=positive_int, default=4_000, help="training steps")
    parser.add_argument("--rounds", type=positive_int, default=3, help="training rounds")
    parser.add_argument("--games", nargs="+", help="only these games' throughput (default: all)")
    parser.add_argument("--no-training", action="store_true", help="skip training throughput")
    parser.add_argument("--no-write", action="store_true", help="print only; write no page")
    args = parser.parse_args(argv)
    speed = ["--seconds", args.seconds, "--repeats", str(args.repeats)]
    if args.games:
        speed += ["--games", *args.games]
    training = (
        [] if args.no_training else ["--steps", str(args.steps), "--rounds", str(args.rounds)]
    )
    if args.no_write:
        speed.append("--no-write")
        training = training and [*training, "--no-write"]
    return speed, training, not args.no_write


def main(argv: Sequence[str] | None = None) -> int:
    speed_flags, training_flags, write = parse_args(argv)
    status = throughput.main(speed_flags)
    if status == 0 and training_flags:
        from benchmarks import training_throughput  # torch and sb3: only when training runs

        status = training_throughput.main(training_flags)
    if status == 0:
        publish(SENTENCE, speed_sentence(RESULTS_MD), README, write=write)
    return status


if __name__ == "__main__":
    sys.exit(main())
