"""The bundled UI fonts (assets/fonts, DejaVu), loaded once per size."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame

FONT_DIR = Path(__file__).resolve().parents[2] / "assets" / "fonts"
FILES = {
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (False, True): "DejaVuSansMono.ttf",
    (True, True): "DejaVuSansMono.ttf",
}


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, mono: bool = False) -> pygame.font.Font:
    """DejaVu Sans (or Mono) at `size` pixels; pygame's default font if the
    asset is missing, so rendering never fails on a font."""
    if not pygame.font.get_init():
        pygame.font.init()
    path = FONT_DIR / FILES[(bold, mono)]
    try:
        return pygame.font.Font(str(path), size)
    except (OSError, FileNotFoundError):
        return pygame.font.Font(None, int(size * 1.3))


@lru_cache(maxsize=2048)
def text(s: str, size: int, color: tuple[int, int, int], bold: bool = False,
         mono: bool = False) -> pygame.Surface:
    """A rendered, cached label: UI text repeats from frame to frame."""
    return font(size, bold, mono).render(s, True, color)


def elide(s: str, size: int, width: int, bold: bool = False, mono: bool = False) -> str:
    """`s` cut to `width` pixels at `size`, ending in "…" where cut."""
    f = font(size, bold, mono)
    if f.size(s)[0] <= width:
        return s
    while s and f.size(s + "…")[0] > width:
        s = s[:-1]
    return s.rstrip() + "…"
