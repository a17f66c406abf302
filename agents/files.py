"""Files the tools write: atomically (:mod:`tabletop_envs.core.files`, re-exported here), and
output places checked before any work starts."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tabletop_envs.core.files import write_all_atomic, write_atomic

__all__ = [
    "check_output_file",
    "check_output_folder",
    "nearest_existing",
    "write_all_atomic",
    "write_atomic",
]


def nearest_existing(path: Path) -> Path:
    """``path`` itself or its closest ancestor that exists."""
    path = Path(os.path.abspath(path))
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_output_folder(path: Path, flag: str) -> None:
    """Raise ValueError unless ``path`` is a folder, or can become one, that we can write in.

    Nothing is created: the closest existing folder on the way must let a probe file be made
    (removed at once).
    """
    _check_writable(Path(path), f"{flag} {path}")


def check_output_file(path: Path, flag: str) -> None:
    """Raise ValueError unless a file can be written at ``path``."""
    if Path(path).is_dir():
        raise ValueError(f"{flag} {path} is a folder; expected a file name")
    _check_writable(Path(os.path.abspath(path)).parent, f"{flag} {path}")


def _check_writable(folder: Path, named: str) -> None:
    existing = nearest_existing(folder)
    if not existing.is_dir():
        raise ValueError(f"{named}: {existing} is a file, not a folder")
    try:
        handle, probe = tempfile.mkstemp(dir=existing, prefix=".write-probe.")
    except OSError as error:
        raise ValueError(f"{named}: cannot write in {existing} ({error.strerror})") from None
    os.close(handle)
    os.unlink(probe)
