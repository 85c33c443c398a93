"""The payoff table of a matrix game, with what each player is doing on it.

  round 3 / 10        Row +4      Column -4
                      ▁▅█ policy bars (the column player's search, live)
              rock     paper    scissors
   ██▏ rock   0, 0    -1, 1     1,-1       a cell: row's payoff, column's payoff;
   █▏  paper  1,-1     0, 0    -1, 1       tinted by how often it was played,
   ▏   sciss -1, 1     1,-1     0, 0       the last joint action outlined
   policy bars of the row player's search on the left of each row

The bars are the searching agents' current root policy (BoardContext.policies,
live from the arena or recorded in a replay); a thin grey bar beside each is
how often that action was actually played so far. A person plays the row
player by clicking a row, the column player by clicking a column.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from ...render import palette as pal
from ...render.fonts import elide, text
from ...render.grid import clipped
from .view import MatrixView


@dataclass(frozen=True)
class _Layout:
    table: pygame.Rect            # the cells
    cell_w: int
    cell_h: int
    left: int                     # row header band width (left of table)
    top: int                      # column header band height (above table)
    font: int


def _layout(rect: pygame.Rect, rows: int, cols: int) -> _Layout:
    m = max(3, rect.w // 50)
    inner = rect.inflate(-2 * m, -2 * m)
    font = max(8, min(15, inner.h // 22, inner.w // 36))
    info_h = font + 6
    left = min(max(8 * font, inner.w // 3), inner.w // 2)
    top = min(max(3 * font, inner.h // 5), inner.h // 2)
    cell_w = max(4, (inner.w - left) // cols)
    cell_h = max(4, min((inner.h - top - info_h) // rows, 3 * cell_w))
    table = pygame.Rect(inner.x + left, inner.y + info_h + top, cell_w * cols, cell_h * rows)
    return _Layout(table, cell_w, cell_h, left, top, font)


def _num(x: float) -> str:
    return f"{x:.3g}" if abs(x - round(x)) > 1e-9 else str(int(round(x)))


class MatrixRenderer:
    def __init__(self, colors, names, move_names=None) -> None:
        self.colors = list(colors) or [pal.agent_color(0), pal.agent_color(1)]
        while len(self.colors) < 2:
            self.colors.append(pal.agent_color(len(self.colors)))
        self.names = list(names)
        self.move_names = move_names

    def _action(self, agent: int, move: int) -> str:
        try:
            name = self.move_names[agent][move]
        except (TypeError, IndexError):
            name = "?"
        return name if name != "?" else ("r" if agent == 0 else "c") + str(move)

    def move_at(self, rect: pygame.Rect, view: MatrixView, pos, agent: int) -> int | None:
        """The row player clicks a row, the column player a column (cells or
        their header)."""
        if view.over or agent not in (0, 1):
            return None
        lay = _layout(rect, view.rows, view.cols)
        t = lay.table
        x, y = pos
        if agent == 0 and t.top <= y < t.bottom and t.left - lay.left <= x < t.right:
            return (y - t.top) // lay.cell_h
        if agent == 1 and t.left <= x < t.right and t.top - lay.top <= y < t.bottom:
            return (x - t.left) // lay.cell_w
        return None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: MatrixView,
             prev: MatrixView | None = None, alpha: float = 1.0, ctx=None) -> None:
        with clipped(surface, rect):
            surface.fill(pal.BG, rect)
            lay = _layout(rect, view.rows, view.cols)
            self._draw_info(surface, rect, lay, view)
            self._draw_cells(surface, lay, view, ctx,
                             alpha if prev is not None and prev.turn < view.turn else 1.0)
            self._draw_headers(surface, lay, view, ctx)

    def _draw_info(self, surface, rect, lay: _Layout, view: MatrixView) -> None:
        f = lay.font
        m = max(3, rect.w // 50)
        ta, tb = view.totals
        line = f"round {min(view.turn + 1, view.repeats)} / {view.repeats}" if not view.over \
            else f"{view.repeats} round{'s' if view.repeats != 1 else ''} played"
        x = rect.x + m
        surface.blit(text(line, f, pal.TEXT_DIM), (x, rect.y + m))
        x = max(x + 9 * f, lay.table.x)
        for a, total in ((0, ta), (1, tb)):
            name = self.names[a] if a < len(self.names) else f"P{a}"
            lab = text(elide(f"{name} {total:+.4g}", f, max(10, (rect.right - x) // 2 - 4)), f,
                       self.colors[a], bold=True)
            surface.blit(lab, (x, rect.y + m))
            x += lab.get_width() + 2 * f

    def _draw_cells(self, surface, lay: _Layout, view: MatrixView, ctx, fade: float) -> None:
        t = lay.table
        f = max(7, min(lay.font, lay.cell_h // 2, lay.cell_w // 5))
        most = max((c for row in view.counts for c in row), default=0)
        for r in range(view.rows):
            for c in range(view.cols):
                cell = pygame.Rect(t.x + c * lay.cell_w, t.y + r * lay.cell_h,
                                   lay.cell_w - 1, lay.cell_h - 1)
                heat = view.counts[r][c] / most if most else 0.0
                pygame.draw.rect(surface, pal.lerp(pal.PANEL, pal.ACCENT, 0.55 * heat), cell)
                if lay.cell_w >= 18 and lay.cell_h >= f + 2:
                    la = text(_num(view.a[r][c]), f, self.colors[0], bold=True)
                    lb = text(_num(view.b[r][c]), f, self.colors[1], bold=True)
                    gap = max(2, f // 3)
                    w = la.get_width() + gap + lb.get_width()
                    if w <= cell.w - 2:
                        x0 = cell.centerx - w // 2
                        surface.blit(la, (x0, cell.centery - la.get_height() // 2))
                        surface.blit(lb, (x0 + la.get_width() + gap,
                                          cell.centery - lb.get_height() // 2))
                    else:   # narrow cells: one payoff over the other
                        surface.blit(la, la.get_rect(midbottom=(cell.centerx, cell.centery)))
                        surface.blit(lb, lb.get_rect(midtop=(cell.centerx, cell.centery)))
        if view.last is not None:
            r, c = view.last
            cell = pygame.Rect(t.x + c * lay.cell_w, t.y + r * lay.cell_h,
                               lay.cell_w - 1, lay.cell_h - 1)
            pygame.draw.rect(surface, pal.lerp(pal.PANEL, pal.TEXT, fade), cell, 2)
        chosen = ctx.chosen if ctx is not None else {}
        if 0 in chosen and 0 <= chosen[0] < view.rows:
            pygame.draw.rect(surface, self.colors[0],
                             (t.x - 2, t.y + chosen[0] * lay.cell_h - 1, t.w + 3, lay.cell_h + 1), 2)
        if 1 in chosen and 0 <= chosen[1] < view.cols:
            pygame.draw.rect(surface, self.colors[1],
                             (t.x + chosen[1] * lay.cell_w - 1, t.y - 2, lay.cell_w + 1, t.h + 3), 2)

    def _draw_headers(self, surface, lay: _Layout, view: MatrixView, ctx) -> None:
        t = lay.table
        f = max(7, min(lay.font, lay.cell_h - 2, (lay.left // 6) or 7))
        policies = ctx.policies if ctx is not None else {}
        mine = ctx.highlight_agent if ctx is not None else None
        freq = (view.frequencies(0), view.frequencies(1))
        # rows: name, then the row player's policy as a bar growing leftward
        # (its share as a percentage at the far end), the played share below
        pol0 = dict(policies.get(0, ()))
        small = max(7, f - 2)
        pct_w = text("100%", small, pal.TEXT_DIM).get_width() + 4
        for r in range(view.rows):
            y = t.y + r * lay.cell_h
            name = elide(self._action(0, r), f, max(10, lay.left // 2))
            lab = text(name, f, self.colors[0] if mine == 0 else pal.TEXT)
            surface.blit(lab, (t.x - lab.get_width() - 4, y + (lay.cell_h - lab.get_height()) // 2))
            right = t.x - lab.get_width() - 8
            bar_w = max(0, right - (t.x - lay.left) - pct_w)
            h = max(2, min(10, lay.cell_h // 4))
            mid = y + lay.cell_h // 2
            p = pol0.get(r, 0.0)
            if p > 0 and bar_w > 4:
                w = max(1, int(bar_w * p))
                pygame.draw.rect(surface, self.colors[0], (right - w, mid - h, w, h))
                pl = text(f"{100 * p:.0f}%", small, self.colors[0])
                surface.blit(pl, (right - w - pl.get_width() - 3, mid - h // 2 - pl.get_height() // 2))
            fw = int(bar_w * freq[0][r])
            if fw:
                pygame.draw.rect(surface, pal.TEXT_DIM, (right - fw, mid + 1, fw, 2))
        # columns: name, then the column player's policy as a bar growing up
        pol1 = dict(policies.get(1, ()))
        for c in range(view.cols):
            x = t.x + c * lay.cell_w
            name = elide(self._action(1, c), f, lay.cell_w - 2)
            lab = text(name, f, self.colors[1] if mine == 1 else pal.TEXT)
            surface.blit(lab, lab.get_rect(midbottom=(x + lay.cell_w // 2, t.y - 3)))
            bottom = t.y - lab.get_height() - 6
            bar_h = max(0, bottom - (t.y - lay.top) - small - 4)
            w = max(2, min(10, lay.cell_w // 4))
            cx = x + lay.cell_w // 2
            p = pol1.get(c, 0.0)
            if p > 0 and bar_h > 4:
                h = max(1, int(bar_h * p))
                pygame.draw.rect(surface, self.colors[1], (cx - w, bottom - h, w, h))
                pl = text(f"{100 * p:.0f}%", small, self.colors[1])
                surface.blit(pl, pl.get_rect(midbottom=(cx - w // 2, bottom - h - 1)))
            fh = int(bar_h * freq[1][c])
            if fh:
                pygame.draw.rect(surface, pal.TEXT_DIM, (cx + 1, bottom - fh, 2, fh))
