"""Line charts drawn onto any pygame Surface: the replay scene's charts and
`replay plot`'s PNG. Pure drawing — no display, no events; only pygame.font
is initialised (on first use).

    draw_line_chart(surface, rect, {"Red": [..], "Blue": [..]}, colors, title="...")
    draw_replay_charts(surface, compute_stats(replay))   # the three replay charts

Series values may be NaN: the line breaks there (an eliminated agent, a
random player without search data).
"""
from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from . import palette as pal  # noqa: E402
from .fonts import font  # noqa: E402  (assets/fonts, else pygame's default font)

if TYPE_CHECKING:
    from ..replay.stats import ReplayStats

Color = tuple[int, int, int]

BACKGROUND: Color = pal.BG
PLOT_BG: Color = pal.PANEL
GRID: Color = pal.GRID
AXIS: Color = (140, 144, 156)
TEXT: Color = pal.TEXT
MUTED: Color = pal.TEXT_DIM
CURSOR: Color = (250, 250, 250)
MARKER_COLORS: dict[str, Color] = dict(pal.MARKER_COLORS)
PALETTE: tuple[Color, ...] = tuple(pal.AGENT_COLORS)


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """About `count` round tick values covering lo..hi (1, 2, 2.5, 5 x 10^k)."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(count, 1)
    mag = 10 ** math.floor(math.log10(raw))
    span = hi - lo
    step = min((m * mag for m in (1, 2, 2.5, 5, 10)), key=lambda st: abs(span / st - count))
    first = math.ceil(lo / step - 1e-9) * step
    ticks, v = [], first
    while v <= hi + step * 1e-9:
        ticks.append(0.0 if abs(v) < step * 1e-9 else v)
        v += step
    return ticks


def tick_label(v: float, step: float) -> str:
    if abs(v) >= 10_000:
        return f"{v / 1000:g}k"
    if step >= 1:
        return f"{v:.0f}"
    d = max(0, -math.floor(math.log10(step)))
    while d < 6 and abs(round(step * 10 ** d) - step * 10 ** d) > 1e-9:
        d += 1
    return f"{v:.{d}f}"


def _finite(values: Iterable[float]) -> list[float]:
    return [v for v in values if v is not None and math.isfinite(v)]


def _text(surface: pygame.Surface, text: str, pos: tuple[float, float], color: Color = TEXT,
          size: int = 16, anchor: str = "topleft") -> pygame.Rect:
    img = font(size).render(text, True, color)
    r = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surface.blit(img, r)
    return r


def _dashed_vline(surface: pygame.Surface, color: Color, x: int, y0: int, y1: int,
                  dash: int = 4, gap: int = 3) -> None:
    y = y0
    while y < y1:
        pygame.draw.line(surface, color, (x, y), (x, min(y + dash, y1)))
        y += dash + gap


def draw_line_chart(surface: pygame.Surface, rect: pygame.Rect | Sequence[int],
                    series: Mapping[str, Sequence[float]],
                    colors: Mapping[str, Color] | None = None, title: str = "",
                    x_label: str = "turn", y_label: str = "",
                    markers: Sequence[tuple] = (), x_values: Sequence[float] | None = None,
                    cursor: float | None = None,
                    y_range: tuple[float, float] | None = None,
                    text_size: int | None = None,
                    x_range: tuple[float, float] | None = None,
                    x_log: bool = False, y_log: bool = False) -> pygame.Rect:
    """One line chart filling `rect`: title and legend on top, y ticks left,
    x ticks and label below. `x_log` / `y_log`: a log10 axis with a tick per
    decade (values <= 0 break the line there). `x_values` are shared by every series (default
    0, 1, 2 ...). `markers` are (x, kind) or (x, kind, label) with kind
    "elimination" or "settings" (vertical dashed lines, a glyph on top);
    `cursor` draws the timeline position. `x_range` widens the x axis beyond
    the values (it never narrows it). Returns the plot area."""
    rect = pygame.Rect(rect)
    colors = dict(colors or {})
    pygame.draw.rect(surface, BACKGROUND, rect)
    # text_size: for small in-app panels; PNGs pick by height
    small = text_size or (14 if rect.height < 220 else 16)
    big = small + (4 if text_size is None else 2)
    title_h = font(big).get_linesize() + 4
    left, bottom, right = 56 if text_size is None else 4 * small, 2 * font(small).get_linesize() + 6, 12

    # title, then the legend to its right; a legend that does not fit there
    # gets a row of its own (a series nobody can name is worse than a
    # slightly shorter plot)
    x = rect.x + 8
    if title:
        x = _text(surface, title, (x, rect.y + 3), TEXT, big).right + 8
    if y_label:
        x = _text(surface, f"({y_label})", (x, rect.y + 3 + title_h // 2 - 2), MUTED, small,
                  "midleft").right + 8
    x += 8
    labels = list(series)
    need = sum(16 + font(small).size(label)[0] + 12 for label in labels)
    yy = rect.y + 3 + title_h // 2 - 2
    top = rect.y + title_h + 4
    if labels and x + need > rect.right:
        x, yy = rect.x + 8, top + font(small).get_linesize() // 2
        top += font(small).get_linesize() + 2
    for i, label in enumerate(labels):
        c = colors.setdefault(label, PALETTE[i % len(PALETTE)])
        if x + 60 > rect.right:
            break
        pygame.draw.rect(surface, c, (x, yy - 5, 12, 10))
        x = _text(surface, label, (x + 16, yy), MUTED, small, "midleft").right + 12
    plot = pygame.Rect(rect.x + left, top, max(10, rect.width - left - right),
                       max(10, rect.bottom - top - bottom))
    pygame.draw.rect(surface, PLOT_BG, plot)

    n = max((len(v) for v in series.values()), default=0)
    xs = list(x_values) if x_values is not None else list(range(n))
    if x_log:
        xs = [_log10(v) for v in xs]
        x_range = None if x_range is None else (_log10(x_range[0]), _log10(x_range[1]))
    if y_log:
        series = {k: [_log10(v) for v in vals] for k, vals in series.items()}
        y_range = None if y_range is None else (_log10(y_range[0]), _log10(y_range[1]))
    xs_ok = [v for v in xs if math.isfinite(v)]
    values = _finite(v for s in series.values() for v in s)
    if not values or not xs_ok:
        _text(surface, "no data", plot.center, MUTED, small + 2, "center")
        _frame(surface, plot)
        return plot
    x_lo, x_hi = min(xs_ok), max(xs_ok)
    if x_range is not None:
        x_lo, x_hi = min(x_lo, x_range[0]), max(x_hi, x_range[1])
    if x_hi <= x_lo:
        x_hi = x_lo + 1
    if y_range is not None:
        y_lo, y_hi = y_range
    else:
        y_lo, y_hi = min(values), max(values)
        pad = (y_hi - y_lo) * 0.08 or max(abs(y_hi) * 0.1, 0.5)
        y_lo, y_hi = y_lo - pad, y_hi + pad

    def px(v: float) -> float:
        return plot.x + (v - x_lo) / (x_hi - x_lo) * (plot.width - 1)

    def py(v: float) -> float:
        return plot.bottom - 1 - (v - y_lo) / (y_hi - y_lo) * (plot.height - 1)

    # grid and ticks
    count = max(2, plot.height // 40)
    yt = nice_ticks(y_lo, y_hi, count)
    ystep = yt[1] - yt[0] if len(yt) > 1 else 1.0
    ylabels = [tick_label(v, ystep) for v in yt]
    if y_log:
        yt = _decades(y_lo, y_hi)
        ylabels = [decade_label(v) for v in yt]
        if len(yt) < 2:   # less than a decade: round values of the linear range
            lin = [v for v in nice_ticks(10 ** y_lo, 10 ** y_hi, count) if v > 0]
            yt, ylabels = [math.log10(v) for v in lin], [f"{v:.3g}" for v in lin]
    for v, label in zip(yt, ylabels):
        y = round(py(v))
        if plot.top <= y < plot.bottom:
            pygame.draw.line(surface, GRID, (plot.x, y), (plot.right - 1, y))
            _text(surface, label, (plot.x - 6, y), MUTED, small, "midright")
    xt = _decades(x_lo, x_hi) if x_log else [
        v for v in nice_ticks(x_lo, x_hi, max(2, plot.width // 90)) if v == int(v)]
    xstep = xt[1] - xt[0] if len(xt) > 1 else 1.0
    for v in xt:
        x = round(px(v))
        if plot.x <= x < plot.right:
            pygame.draw.line(surface, GRID, (x, plot.top), (x, plot.bottom - 1))
            pygame.draw.line(surface, AXIS, (x, plot.bottom), (x, plot.bottom + 4))
            _text(surface, decade_label(v) if x_log else tick_label(v, xstep),
                  (x, plot.bottom + 5), MUTED, small, "midtop")
    _text(surface, x_label, (plot.centerx, rect.bottom - 2), MUTED, small, "midbottom")

    clip = surface.get_clip()
    surface.set_clip(plot.clip(clip) if clip else plot)
    # markers under the lines
    for m in markers:
        mx, kind = m[0], m[1]
        if not x_lo <= mx <= x_hi:
            continue
        c = MARKER_COLORS.get(kind, AXIS)
        x = round(px(mx))
        _dashed_vline(surface, c, x, plot.top, plot.bottom)
        if kind == "elimination":
            glyph = [(x - 4, plot.top), (x + 4, plot.top), (x, plot.top + 6)]
        else:
            glyph = [(x, plot.top), (x + 4, plot.top + 4), (x, plot.top + 8), (x - 4, plot.top + 4)]
        pygame.draw.polygon(surface, c, glyph)
    # the series: a polyline per run of finite values, a dot for a lone value
    for label, vals in series.items():
        c = colors[label]
        run: list[tuple[float, float]] = []
        for xv, v in list(zip(xs, vals)) + [(None, None)]:
            if v is not None and xv is not None and math.isfinite(v) and math.isfinite(xv):
                run.append((px(xv), py(v)))
                continue
            if len(run) == 1:
                pygame.draw.circle(surface, c, (round(run[0][0]), round(run[0][1])), 2)
            elif len(run) > 1:
                pygame.draw.lines(surface, c, False, run, 2)
            run = []
    if cursor is not None and x_lo <= cursor <= x_hi:
        x = round(px(cursor))
        pygame.draw.line(surface, CURSOR, (x, plot.top), (x, plot.bottom - 1))
    surface.set_clip(clip)
    _frame(surface, plot)
    return plot


def _log10(v: float | None) -> float:
    return math.log10(v) if v is not None and math.isfinite(v) and v > 0 else math.nan


def _decades(lo: float, hi: float) -> list[float]:
    return [float(k) for k in range(math.ceil(lo - 1e-9), math.floor(hi + 1e-9) + 1)]


def decade_label(k: float) -> str:
    """10^k as a tick label: 100, 1k, 10k, 1M; 0.1, 0.01, 1e-05."""
    v = 10.0 ** k
    for div, suffix in ((1e6, "M"), (1e3, "k")):
        if v >= div:
            return f"{v / div:g}{suffix}"
    return f"{v:g}"


def _frame(surface: pygame.Surface, plot: pygame.Rect) -> None:
    pygame.draw.line(surface, AXIS, plot.bottomleft, (plot.right - 1, plot.bottom))
    pygame.draw.line(surface, AXIS, plot.topleft, (plot.x, plot.bottom))


def draw_replay_charts(surface: pygame.Surface, stats: "ReplayStats",
                       colors: Mapping[str, Color] | None = None,
                       rect: pygame.Rect | Sequence[int] | None = None,
                       cursor: float | None = None, gap: int = 8,
                       text_size: int | None = None) -> list[pygame.Rect]:
    """The replay's three charts stacked in `rect` (default: the whole
    surface): root value per agent, iterations per turn per player, root
    visit entropy per agent; eliminations and settings changes as markers;
    `cursor` marks the timeline position. Returns the three chart rects."""
    rect = pygame.Rect(rect) if rect is not None else surface.get_rect()
    pygame.draw.rect(surface, BACKGROUND, rect)
    cols = {**stats.colors, **(colors or {})}
    markers = [(m.turn, m.kind, m.label) for m in stats.markers]
    xs = stats.turn_numbers
    # The axis runs to the match's last turn, not its last decision: an
    # elimination marker sits at the turn the agent is out (k+1 for the step
    # of turn k), and the replay scene's cursor reaches the final state.
    x_range = (stats.start_turn, stats.turns)
    h = (rect.height - 2 * gap) // 3
    rects = [pygame.Rect(rect.x, rect.y + i * (h + gap), rect.width, h) for i in range(3)]
    draw_line_chart(surface, rects[0], stats.root_value, cols,
                    "Root value per agent", markers=markers, x_values=xs, cursor=cursor,
                    y_label="visit-weighted mean of the root children",
                    text_size=text_size, x_range=x_range)
    draw_line_chart(surface, rects[1], stats.iterations, cols, "Iterations per turn",
                    markers=markers, x_values=xs, cursor=cursor, y_label="per player",
                    text_size=text_size, x_range=x_range)
    draw_line_chart(surface, rects[2], stats.entropy, cols, "Root visit entropy",
                    markers=markers, x_values=xs, cursor=cursor,
                    y_label="bits; 0 = one move took every visit", text_size=text_size,
                    x_range=x_range)
    return rects
