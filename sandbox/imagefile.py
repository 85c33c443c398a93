"""Where a screenshot may go (no pygame here: the command line checks the
path before it opens a window or plays a turn)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .native import SandboxError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tga")   # what pygame.image.save writes


class ScreenshotError(SandboxError):
    """A screenshot that cannot be written (one line)."""


def screenshot_problem(path: str | os.PathLike) -> str:
    """Why a screenshot cannot go to `path` ("" when it can, as far as can
    be told without writing): a name without an image extension (pygame
    would silently write TGA), a folder, a parent that is a file or a
    folder that cannot be written."""
    p = Path(path)
    if p.suffix.lower() not in IMAGE_SUFFIXES:
        return (f"not an image file name (end it with {', '.join(IMAGE_SUFFIXES[:-1])} "
                f"or {IMAGE_SUFFIXES[-1]})")
    if p.is_dir():
        return "is a folder"
    parent = p.parent if str(p.parent) else Path(".")
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return f"cannot write it: {parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        return "cannot write it: permission denied"
    if parent == (p.parent if str(p.parent) else Path(".")):
        # the folder exists: try a file in it (access() says yes to root in
        # /proc, and the failure would come after the match was played); a
        # folder still to be made is made by the screenshot itself
        try:
            fd, probe = tempfile.mkstemp(prefix=".sbx-probe-", dir=parent)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            return f"cannot write it: {exc.strerror or exc}"
    return ""
