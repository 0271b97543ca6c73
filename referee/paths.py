"""Output files the command line writes: whether one can be written, asked before any work.

Standard library only, so both the referee's commands (``export -o``, ``backup``) and the
detector's (``detect --annotate``) can refuse a bad path up front without importing more.
"""

from __future__ import annotations

from pathlib import Path


def cannot_write(path: Path) -> str | None:
    """Why a file cannot be written at ``path`` (in words: "it is a folder", "the folder X
    does not exist", the system's reason), or None when it can.

    Opens the file for appending, which leaves an existing file as it is, and removes it
    again when it did not exist, so a read-only folder or disk is caught too."""
    path = Path(path)
    if path.is_dir():
        return "it is a folder"
    if not path.parent.is_dir():
        what = "is not a folder" if path.parent.exists() else "does not exist"
        return f"the folder {path.parent} {what}"
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as e:
        return e.strerror or str(e)
    if not existed:
        path.unlink(missing_ok=True)
    return None
