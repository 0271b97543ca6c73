"""Output files the command line writes: asked before any work whether one can be written,
then written whole or not at all.

Standard library only, so both the referee's commands (``export -o``, ``backup``) and the
detector's (``detect --annotate``) can refuse a bad path up front without importing more.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import suppress
from pathlib import Path


def names_a_folder(arg: str) -> bool:
    """Whether an output path as typed ends in a slash: a folder is meant, whatever its name."""
    return str(arg).endswith(("/", os.sep))


def _target(path: Path) -> Path:
    """The file ``path`` names: a symbolic link's target (also a dangling link's), else itself."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def cannot_write(path: Path) -> str | None:
    """Why a file cannot be written at ``path`` (in words: "it is a folder", "the folder X
    does not exist", "it is not a plain file" for a pipe or a device, the system's reason),
    or None when it can.

    Opens the file for appending, which leaves an existing file as it is, and removes it
    again when it did not exist, so a read-only folder or disk is caught too.  A symbolic
    link is checked at its target and kept; a folder that cannot be entered is a reason,
    not an error."""
    try:
        target = _target(Path(path))
        if target.is_dir():
            return "it is a folder"
        if not target.parent.is_dir():
            what = "is not a folder" if target.parent.exists() else "does not exist"
            return f"the folder {target.parent} {what}"
        existed = target.exists()
        if existed and not target.is_file():
            return "it is not a plain file (a pipe or a device)"
        with target.open("ab"):
            pass
    except OSError as e:
        return e.strerror or str(e)
    if not existed:
        with suppress(OSError):
            target.unlink()
    return None


def same_file(a: Path, b: Path) -> bool:
    """Whether paths ``a`` and ``b`` name one file (through links, hard links and ``..``), or
    would name one once made (a file that comes and goes, such as SQLite's ``-wal``)."""
    a, b = Path(a), Path(b)
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
    except OSError:
        pass
    return Path(os.path.realpath(a)) == Path(os.path.realpath(b))


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: into a new file beside it, then renamed
    over it, so a full disk or a failure part way leaves an existing file as it was and no
    partial one.  A symbolic link is kept and its target written.  Raises OSError."""
    target = _target(Path(path))
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if target.exists():
            with suppress(OSError):  # keep the old file's permissions
                os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
