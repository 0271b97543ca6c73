"""Errors raised by the vision package.  All are ``ValueError``s, so the main CLI prints them
as one line and exits 2."""

from __future__ import annotations


class VisionError(ValueError):
    """Base class of the vision package's errors."""


class ImageError(VisionError):
    """The input is not a usable image: empty, truncated, not an image, too large, HEIC
    without a decoder."""


class ModelError(VisionError):
    """A model file is missing, unreadable or has an unexpected shape, or a backend is
    not installed."""


def exit_on_model_error(main) -> None:
    """Run a script's ``main()`` and exit with its return code; a :class:`ModelError` (a
    missing or mismatched model file) ends it with one ``error:`` line instead of a traceback."""
    try:
        code = main()
    except ModelError as e:
        raise SystemExit(f"error: {e}") from None
    raise SystemExit(code)
