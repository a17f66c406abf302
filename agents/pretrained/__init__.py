"""The trained policies the package ships: ``pretrained`` in ``tabletop-eval``/``tabletop-play``.

``manifest.json`` beside this file lists each shipped policy: the environment (name and
version: a policy belongs to one version), the player count, the ``.npz`` file, and how it was
trained (command, commit, steps, minutes, the machine's load) and evaluated. Policies are
plain numpy (see :mod:`tabletop_envs.agents.policy`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"


def shipped() -> list[dict[str, Any]]:
    """Every manifest entry, in file order."""
    return json.loads(MANIFEST.read_text())["policies"]


def pretrained_path(env: str, players: int | None) -> Path:
    """The shipped policy for ``env`` (``vaalbara_v1``) at ``players``; ValueError naming what
    is shipped when there is none."""
    entries = shipped()
    for entry in entries:
        if entry["env"] == env and entry["players"] == players:
            return MANIFEST.parent / entry["file"]
    available = [f"{entry['env']} {entry['players']}p" for entry in entries] or ["none"]
    count = "no player count given" if players is None else f"{players} players"
    raise ValueError(
        f"no pretrained policy for {env} with {count}; shipped: {', '.join(available)}"
    )
