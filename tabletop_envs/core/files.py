"""Writing files atomically (a temporary file in the same folder, then a rename), all with one
mode (``0o666`` less the umask, like any ``open()``): replays and pictures here, the tools'
results, checkpoints and policies through ``tabletop_envs.agents.files``."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

TEMP_SUFFIX = ".tmp"


def file_mode() -> int:
    """The mode a plain ``open()`` would give a new file: ``0o666`` less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _temporary_copy(path: Path, data: bytes) -> Path:
    """``data`` in a new temporary file beside ``path`` (flushed to disk, final mode)."""
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(name, file_mode())
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name)


def write_atomic(path: Path, data: bytes | str) -> None:
    """Replace ``path`` by ``data`` at once: readers see the old file or the new, never half."""
    write_all_atomic({Path(path): data})


def write_all_atomic(files: Mapping[Path, bytes | str]) -> None:
    """Write every file to a temporary copy first, then rename them all; if writing any copy
    fails, the previous files stay as they were and no temporary file is left."""
    temporaries: dict[Path, Path] = {}
    try:
        for path, data in files.items():
            path = Path(path)
            encoded = data.encode() if isinstance(data, str) else data
            temporaries[path] = _temporary_copy(path, encoded)
        for path, temporary in temporaries.items():
            os.replace(temporary, path)
    finally:
        for temporary in temporaries.values():
            temporary.unlink(missing_ok=True)
