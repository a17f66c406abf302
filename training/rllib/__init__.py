"""RLlib and Ray: ``tabletop-train --backend rllib`` and ``tabletop-eval --backend ray``.

Nothing here imports Ray at import time; :func:`require_ray` does, and says which extra to
install when it is missing.
"""

from __future__ import annotations

import os
import re
import signal
import socket
from types import ModuleType

LOCAL_OBJECT_STORE_BYTES = 512 * 1024**2  # a local instance holds little: weights and results
INSTALL_HINT = "pip install 'tabletop-envs[rllib]'"
ADDRESS_FORMS = "'auto', HOST:PORT or ray://HOST:PORT"
_ADDRESS = re.compile(r"(?:ray://)?(?P<host>[A-Za-z0-9.\-\[\]:]+?):(?P<port>\d+)")
REACH_SECONDS = 3.0
"""How long a cluster address may take to accept a connection before it is refused (Ray's
own retries take well over a minute)."""


def require_ray(what: str) -> ModuleType:
    """The ``ray`` module, or a ValueError naming the extra that provides it."""
    try:
        import ray
    except ImportError:
        raise ValueError(f"{what} needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


def check_address(address: str) -> str:
    """A Ray cluster address: ``auto``, or ``HOST:PORT`` / ``ray://HOST:PORT`` (port 1-65535)
    that accepts a connection within :data:`REACH_SECONDS`."""
    if address == "auto":
        return address
    match = _ADDRESS.fullmatch(address)
    if not match or not 1 <= int(match["port"]) <= 65535:
        raise ValueError(f"--address {address!r} is not a Ray address; expected {ADDRESS_FORMS}")
    host = match["host"].strip("[]")
    try:
        socket.create_connection((host, int(match["port"])), timeout=REACH_SECONDS).close()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ValueError(
            f"--address {address}: no Ray cluster answers there ({reason}, waited up to "
            f"{REACH_SECONDS:g} s); start one with `ray start --head`, or check the address"
        ) from None
    return address


def connect(what: str, address: str | None, cpus: int) -> ModuleType:
    """Join the Ray cluster at ``address``, or start a local instance with at least ``cpus``
    logical CPUs (once per process); the ``ray`` module."""
    ray = require_ray(what)
    if ray.is_initialized():
        return ray
    if address is not None:
        ray.init(address=address, logging_level="WARNING")
        return ray
    ray.init(
        num_cpus=max(os.cpu_count() or 1, cpus),
        object_store_memory=LOCAL_OBJECT_STORE_BYTES,
        include_dashboard=False,
        logging_level="WARNING",
    )
    return ray


def disconnect() -> None:
    """Leave Ray, and drop the SIGTERM handler its core worker installed in this process
    (processes forked later, such as the evaluation pool's, would print a stack dump when
    their pool ends them)."""
    import ray

    ray.shutdown()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
