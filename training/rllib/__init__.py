"""RLlib and Ray: the ``--backend rllib`` of ``tabletop-train`` and the Ray pool of ``tabletop-eval``.

Nothing here imports Ray at import time; :func:`require_ray` does, and says which extra to
install when it is missing.
"""

from __future__ import annotations

import re
from types import ModuleType

INSTALL_HINT = "pip install 'tabletop-envs[rllib]'"
ADDRESS_FORMS = "'auto', HOST:PORT or ray://HOST:PORT"
_ADDRESS = re.compile(r"(?:ray://)?(?P<host>[A-Za-z0-9.\-\[\]:]+?):(?P<port>\d+)")


def require_ray(what: str) -> ModuleType:
    """The ``ray`` module, or a ValueError naming the extra that provides it."""
    try:
        import ray
    except ImportError:
        raise ValueError(f"{what} needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


def check_address(address: str) -> str:
    """A Ray cluster address: ``auto``, ``HOST:PORT`` or ``ray://HOST:PORT`` (port 1-65535)."""
    match = _ADDRESS.fullmatch(address)
    if address == "auto" or (match and 1 <= int(match["port"]) <= 65535):
        return address
    raise ValueError(f"--address {address!r} is not a Ray address; expected {ADDRESS_FORMS}")
