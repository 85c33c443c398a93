"""The depthbias board: the three actions as lanes on one time axis.

  turn 5 of 16 · siege · 35 pts                      total  per turn
  sprint    ▕    [2-5]                        ▏     35     10
  10/turn
  ▆▆ 1%     (the search's root policy share under the name)
  march     ▕            [6-10]               ▏     64      8
  siege     ▕█████████             [13-│--18] ▏  108.5      7
              0    5    10   15   turns    (fill: turns played; │ the drawn L)

Each lane spans turns 0..T (T = the longest max); the band is the range of
episode lengths the action may draw, the right columns the expected raw total
(points * (min + max) / 2) and the per-turn rate — the two numbers whose
disagreement is the depth bias (tutorial §13). Once chosen, the lane fills
turn by turn up to the drawn length L (a tick marks L). A person clicks a
lane to choose; after the choice a click anywhere on the board plays `go`.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from ...render import palette as pal
from ...render.fonts import elide, text
from ...render.grid import clipped
from .view import GO, DepthBiasView


@dataclass(frozen=True)
class _Layout:
    lanes: tuple[pygame.Rect, ...]   # one row per action (the click targets)
    label_w: int                     # name/rate column left of the axis
    axis_x0: int                     # x of turn 0
    axis_w: int                      # pixels for turns 0..span
    cols_w: int                      # the two number columns right of the axis
    font: int
    span: int                        # turns on the axis


def _layout(rect: pygame.Rect, view: DepthBiasView) -> _Layout:
    m = max(3, rect.w // 50)
    inner = rect.inflate(-2 * m, -2 * m)
    font = max(8, min(16, inner.h // 14, inner.w // 30))
    head_h = font + 8
    foot_h = font + 4
    label_w = min(max(6 * font, inner.w // 5), inner.w // 3)
    cols_w = min(max(8 * font, inner.w // 6), inner.w // 4)
    lane_h = max(6, (inner.h - head_h - foot_h) // 3)
    lanes = tuple(pygame.Rect(inner.x, inner.y + head_h + i * lane_h, inner.w, lane_h)
                  for i in range(3))
    span = max(a.max for a in view.actions)
    axis_x0 = inner.x + label_w
    axis_w = max(4, inner.w - label_w - cols_w - 4)
    return _Layout(lanes, label_w, axis_x0, axis_w, cols_w, font, span)


def _x(lay: _Layout, turns: float) -> int:
    return lay.axis_x0 + int(lay.axis_w * turns / max(1, lay.span))


class DepthBiasRenderer:
    def __init__(self, colors, names, move_names=None) -> None:
        self.color = tuple(colors[0]) if colors else pal.agent_color(0)
        self.name = names[0] if names else "P0"

    def move_at(self, rect: pygame.Rect, view: DepthBiasView, pos, agent: int) -> int | None:
        """Before the choice: the lane under the pointer; after it: `go`
        anywhere on the board; nothing once the episode is over."""
        if view.over or agent != 0 or not rect.collidepoint(pos):
            return None
        if view.choice is not None:
            return GO
        lay = _layout(rect, view)
        for i, lane in enumerate(lay.lanes):
            if lane.collidepoint(pos):
                return i
        return None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: DepthBiasView,
             prev: DepthBiasView | None = None, alpha: float = 1.0, ctx=None) -> None:
        with clipped(surface, rect):
            surface.fill(pal.BG, rect)
            lay = _layout(rect, view)
            self._draw_head(surface, rect, lay, view)
            policy = dict(ctx.policies.get(0, ())) if ctx is not None else {}
            picked = ctx.chosen.get(0) if ctx is not None else None
            # the fill grows smoothly from the previous turn to this one
            shown = view.turn
            if prev is not None and prev.turn < view.turn:
                shown = prev.turn + (view.turn - prev.turn) * max(0.0, min(1.0, alpha))
            self._draw_axis(surface, lay)     # grid first: the lanes go over it
            for i, lane in enumerate(lay.lanes):
                self._draw_lane(surface, lay, lane, view, i, policy.get(i, 0.0),
                                picked == i, shown)

    def _draw_head(self, surface, rect, lay: _Layout, view: DepthBiasView) -> None:
        f = lay.font
        m = max(3, rect.w // 50)
        if view.choice is None:
            line = "turn 0 · choose sprint, march or siege"
        elif view.over:
            line = f"{view.choice_name} over after {view.length} turns · {view.points} pts"
        else:
            line = (f"turn {view.turn} of {view.length} · {view.choice_name} · "
                    f"{view.points} pts")
        y = rect.y + m
        head = elide(line, f, max(10, rect.w - lay.cols_w - 2 * m))
        surface.blit(text(head, f, pal.TEXT), (rect.x + m, y))
        right = lay.axis_x0 + lay.axis_w + 4
        half = lay.cols_w // 2
        small = max(7, f - 2)
        for k, label in enumerate(("total", "per turn")):
            lab = text(elide(label, small, max(8, half - 2)), small, pal.TEXT_DIM)
            surface.blit(lab, lab.get_rect(topright=(right + (k + 1) * half - 2, y)))

    def _draw_lane(self, surface, lay: _Layout, lane: pygame.Rect, view: DepthBiasView,
                   i: int, p: float, picked: bool, shown: float) -> None:
        spec = view.actions[i]
        f = lay.font
        chosen = view.choice == i
        dim = view.choice is not None and not chosen
        name_col = self.color if chosen or picked else (pal.TEXT_DIM if dim else pal.TEXT)
        # label: name, rate, and the search's policy share as a bar below,
        # the block centred on the lane
        small = max(7, f - 2)
        name = text(elide(spec.name, f, lay.label_w - 4), f, name_col, bold=chosen or picked)
        rate = text(elide(f"{spec.points}/turn", small, lay.label_w - 4), small, pal.TEXT_DIM)
        bar_h = max(2, small // 3)
        block = name.get_height() + rate.get_height() + 2 + bar_h
        y = lane.y + max(1, (lane.h - block) // 2)
        surface.blit(name, (lane.x, y))
        surface.blit(rate, (lane.x, y + name.get_height()))
        bar_y = y + name.get_height() + rate.get_height() + 2
        if p > 0 and bar_y + bar_h <= lane.bottom:
            pct = text(f"{100 * p:.0f}%", small, self.color)
            w = max(1, int(max(0, lay.label_w - pct.get_width() - 10) * p))
            pygame.draw.rect(surface, self.color, (lane.x, bar_y, w, bar_h))
            surface.blit(pct, (lane.x + w + 3, bar_y + bar_h // 2 - pct.get_height() // 2))
        # the band of possible lengths, the fill of turns played, the tick at L
        band_h = max(4, min(lane.h // 3, 2 * f))
        cy = lane.centery
        track = pygame.Rect(lay.axis_x0, cy - band_h // 2, lay.axis_w, band_h)
        pygame.draw.rect(surface, pal.PANEL, track)
        # where the episode may end: turn min..max (a narrow band for min == max)
        band = pygame.Rect(_x(lay, spec.min) - 1, track.y,
                           max(3, _x(lay, spec.max) - _x(lay, spec.min) + 2), band_h)
        pygame.draw.rect(surface, pal.lerp(pal.PANEL, pal.ACCENT, 0.25 if dim else 0.5), band)
        if band.w > 6 * small:
            lab = text(f"{spec.min}-{spec.max}", small, pal.TEXT if not dim else pal.TEXT_DIM)
            if lab.get_width() < band.w - 4 and lab.get_height() <= band_h + 4:
                surface.blit(lab, lab.get_rect(center=band.center))
        if chosen:
            fill = pygame.Rect(lay.axis_x0, track.y, max(1, _x(lay, shown) - lay.axis_x0), band_h)
            pygame.draw.rect(surface, self.color, fill)
            lx = _x(lay, view.length or 0)
            pygame.draw.line(surface, pal.TEXT, (lx, track.y - 3), (lx, track.bottom + 2), 2)
        if picked or chosen:
            pygame.draw.rect(surface, self.color, track.inflate(4, 4), 1)
        # the two numbers the backups disagree on
        right = lay.axis_x0 + lay.axis_w + 4
        half = lay.cols_w // 2
        for k, value in enumerate((f"{spec.expected_total:.4g}", str(spec.points))):
            lab = text(value, f, pal.TEXT_DIM if dim else pal.TEXT, bold=k == 1)
            surface.blit(lab, lab.get_rect(midright=(right + (k + 1) * half - 2, cy)))
        pygame.draw.line(surface, pal.GRID, (lane.x, lane.bottom - 1),
                         (lane.right, lane.bottom - 1))

    def _draw_axis(self, surface, lay: _Layout) -> None:
        small = max(7, lay.font - 2)
        y = lay.lanes[-1].bottom + 1
        step = next(s for s in (1, 2, 5, 10, 20, 30) if lay.span / s <= 8) if lay.span > 1 else 1
        for t in range(0, lay.span + 1, step):
            x = _x(lay, t)
            pygame.draw.line(surface, pal.GRID, (x, lay.lanes[0].y), (x, y), 1)
            lab = text(str(t), small, pal.TEXT_DIM)
            surface.blit(lab, lab.get_rect(midtop=(x, y)))
        lab = text("turns", small, pal.TEXT_DIM)
        surface.blit(lab, (_x(lay, lay.span) + 4, y))
