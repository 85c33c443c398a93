"""Geometry shared by grid boards (snakes, maze): square cells, (0, 0)
bottom-left on the board, screen y growing downward."""
from __future__ import annotations

import pygame


def board_geometry(rect: pygame.Rect, width: int, height: int) -> tuple[int, int, int]:
    """(cell size, x0, y0) of the largest square-celled board fitting rect."""
    cell = max(4, min(rect.w // width, rect.h // height))
    x0 = rect.x + (rect.w - cell * width) // 2
    y0 = rect.y + (rect.h - cell * height) // 2
    return cell, x0, y0


def cell_center(x: float, y: float, cell: int, x0: int, y0: int, height: int) -> tuple[float, float]:
    """Board (0,0) is bottom-left, screen y grows downward."""
    return x0 + (x + 0.5) * cell, y0 + (height - 1 - y + 0.5) * cell


def cell_at(rect: pygame.Rect, width: int, height: int, pos) -> tuple[int, int] | None:
    """The board cell under a screen position, or None."""
    cell, x0, y0 = board_geometry(rect, width, height)
    gx = (pos[0] - x0) // cell
    gy = height - 1 - (pos[1] - y0) // cell
    if 0 <= gx < width and 0 <= gy < height:
        return int(gx), int(gy)
    return None


def clipped(surface: pygame.Surface, rect: pygame.Rect):
    """Context manager: draw only inside rect (and the surface's own clip)."""
    return _Clip(surface, rect)


class _Clip:
    def __init__(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        self.surface, self.rect = surface, rect

    def __enter__(self):
        self.old = self.surface.get_clip()
        self.surface.set_clip(self.rect.clip(self.old) if self.old else self.rect)
        return self.surface

    def __exit__(self, *exc) -> None:
        self.surface.set_clip(self.old)
