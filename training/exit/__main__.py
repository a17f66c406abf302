"""``python -m tabletop_envs.training.exit GAME ...``: the same as ``tabletop-train GAME
--algo exit ...`` (``tabletop_envs.training.exit.cli``), kept for older commands."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tabletop_envs.training.train import main as train_main


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    return train_main([*arguments, "--algo", "exit"])


if __name__ == "__main__":
    sys.exit(main())
