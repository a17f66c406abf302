"""The toy game of the contributor walkthrough joins the registry for every test.

``tests/integrations/`` (the real RL libraries) is collected only with ``--integrations``,
as ``make test-integrations`` runs it; ``make test`` neither needs nor collects it.
"""

from pathlib import Path

import pytest

import tabletop_envs

tabletop_envs.add_game("highcard_v0", "highcard_v0")

INTEGRATIONS = Path(__file__).parent / "integrations"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--integrations",
        action="store_true",
        help="run tests/integrations (needs the 'integrations' extra)",
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path == INTEGRATIONS and not config.getoption("--integrations"):
        return True
    return None
