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
