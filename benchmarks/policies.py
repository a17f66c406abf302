"""The shipped policies as a table, read from agents/pretrained/manifest.json.

    python -m benchmarks.policies [--no-write]

One row per policy: its environment and player count, how it was trained (the command, the
commit, minutes, and PPO steps or expert-iteration rounds) and the final evaluation recorded
when it was shipped. The table replaces the ``policies`` section of benchmarks/RESULTS.md
(``--no-write``: print it only); run it after shipping a policy. It plays no games:
``python -m benchmarks.strength`` measures every policy again beside the bots.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import tabletop_envs.agents.pretrained as pretrained

from benchmarks.results_page import RESULTS_MD, publish
from tabletop_envs.cli import OneLineParser

PROG = "python -m benchmarks.policies"
SECTION = "policies"


def evaluation_text(entry: dict[str, Any]) -> str:
    """Each line-up of the recorded evaluation: wins of games and the 95 % interval."""
    record = entry["evaluation"]
    parts = [
        f"{against}: {result['wins']} / {record['games']} "
        f"[{result['interval95'][0]:.3f}, {result['interval95'][1]:.3f}]"
        for against, result in record["against"].items()
    ]
    return "; ".join(parts)


def training_amount(entry: dict[str, Any]) -> str:
    """How much training made the policy: PPO steps, or expert-iteration rounds."""
    if "steps" in entry:
        return f"{entry['steps']:,} PPO steps"
    return f"{entry['rounds']} ExIt rounds"


def markdown(entries: Sequence[dict[str, Any]]) -> str:
    """The section: where the figures come from, then one row per shipped policy."""
    lines = [
        f"`{PROG}`, from `agents/pretrained/manifest.json`. Wins of the policy's seat (a team "
        "of it in a cooperative game) in the final evaluation of the training run, seats "
        "rotated; in a cooperative game each line-up is a team of its own, for comparison.",
        "",
        "| policy | players | trained with | commit | minutes | trained for "
        "| final evaluation (wins / games [95 %]) |",
        "|---|---|---|---|---|---|---|",
    ]
    for entry in entries:
        lines.append(
            f"| `{entry['file']}` | {entry['players']} | `{entry['command']}` "
            f"| `{entry['commit']}` | {entry['minutes']:g} | {training_amount(entry)} "
            f"| {evaluation_text(entry)} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--no-write",
        action="store_true",
        help=f"print the table only; RESULTS.md's {SECTION!r} section stays as it is",
    )
    args = parser.parse_args(argv)
    text = markdown(pretrained.shipped())
    publish(SECTION, text, RESULTS_MD, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
