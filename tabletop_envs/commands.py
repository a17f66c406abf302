"""The installed commands' entry points: each checks that the extra it needs is installed, and
says in one line which to install when it is not, before importing the command itself.

The base install (numpy, gymnasium, pettingzoo) holds the environments only; the commands
that play, evaluate and train need the packages of an extra (``pyproject.toml``).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tabletop_envs.cli import fail


@dataclass(frozen=True)
class Command:
    """An installed command: its module (with a ``main``) and the extra it needs."""

    name: str
    module: str
    extra: str
    needs: tuple[str, ...]  # the import names the extra provides and the command uses


TOOLS_MODULES = ("rich", "tqdm", "matplotlib", "openskill")
COMMANDS = {
    command.name: command
    for command in (
        Command("tabletop-play", "tabletop_envs.agents.play", "tools", TOOLS_MODULES),
        Command("tabletop-eval", "tabletop_envs.tools.evaluate", "tools", TOOLS_MODULES),
        Command(
            "tabletop-train",
            "tabletop_envs.training.train",
            "train",
            ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", *TOOLS_MODULES),
        ),
    )
}


def missing_modules(command: Command) -> list[str]:
    """The modules ``command`` needs that this installation cannot import."""
    return [name for name in command.needs if importlib.util.find_spec(name) is None]


def run(name: str, argv: Sequence[str] | None = None) -> int:
    """Run the command ``name``, or exit 2 naming the extra to install."""
    command = COMMANDS[name]
    missing = missing_modules(command)
    if missing:
        return fail(
            name,
            f"needs the '{command.extra}' extra (missing: {', '.join(missing)}): "
            f"pip install 'tabletop-envs[{command.extra}]'",
        )
    main: Callable[[Sequence[str] | None], int] = importlib.import_module(command.module).main
    return main(argv)


def play() -> int:
    return run("tabletop-play")


def evaluate() -> int:
    return run("tabletop-eval")


def train() -> int:
    return run("tabletop-train")


if __name__ == "__main__":
    sys.exit(run(sys.argv[1], sys.argv[2:]))
