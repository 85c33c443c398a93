"""The root's visit distribution for one agent as horizontal bars.

    draw_root_bars(surface, rect, search.root_stats(agent), move_name, agent_color(agent),
                   chosen_move=best, title="Agent 0")

One bar per root move: length = share of the root's child visits, labelled
with the move and its percentage; the mean backed-up score as a number (and
a value-coloured square when the agent's score bounds are passed as `norm`);
the chosen move drawn brighter and outlined. A pass node (move -1) reads
"pass". Pure drawing: reads the stats, keeps no state.

With `policy_name` (an Exp3 / regret-matching search, whose move comes from
its average strategy, not from the visit counts) the bar is MoveStat.policy,
the average strategy, and the visit share stays visible as a thin light
line along the bottom of each bar; a legend line says which is which.

With `net` (a search that reads a value net) a line above the bars gives
the net's value of the root for this agent and a gold tick on each bar marks
the net's policy prior for that move, beside what the search made of it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from . import fonts, palette  # noqa: E402


def _name(move: int, move_name: Callable[[int], str]) -> str:
    return "pass" if move < 0 or move == 255 else move_name(int(move))


def draw_root_bars(surface: pygame.Surface, rect: pygame.Rect | Sequence[int],
                   stats: Sequence, move_name: Callable[[int], str],
                   color: tuple[int, int, int], chosen_move: int | None = None,
                   title: str | None = None,
                   norm: tuple[float, float] | None = None,
                   empty: str = "no root statistics yet",
                   policy_name: str | None = None,
                   net: NetReadout | None = None) -> None:
    """`stats`: MoveStat-like objects (move, visits, mean, prob, policy).
    `norm`: the agent's (min, max) score bounds, to colour each mean on the
    value map. `empty`: what to say when there are no stats. `policy_name`
    (e.g. "Exp3"): bars show the policy's average strategy, the visit share
    is the thin line. `net`: the value net's reading of the root, its
    value in a line above the bars and each move's prior as a tick on the
    move's bar."""
    rect = pygame.Rect(rect)
    surface.fill(palette.PANEL, rect)
    if rect.w < 20 or rect.h < 12:
        return
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip) if clip else rect)
    try:
        _draw(surface, rect, stats, move_name, color, chosen_move, title, norm, empty,
              policy_name, net)
    finally:
        surface.set_clip(clip)


VISIT_LINE = (236, 238, 244)   # the visit share under a policy bar
NET_TICK = (250, 204, 92)      # the value net's prior for a move: a tick on its bar


@dataclass(frozen=True)
class NetReadout:
    """What the search's value net says of the root, for one agent: its
    value there and its policy prior per legal move (move id -> share)."""
    value: float
    priors: Mapping[int, float]


def _draw(surface, rect, stats, move_name, color, chosen_move, title, norm, empty,
          policy_name=None, net=None) -> None:
    x, y = rect.x + 4, rect.y + 2
    total = sum(max(int(s.visits), 0) for s in stats)
    if title is not None:
        pygame.draw.rect(surface, color, (x, y + 3, 9, 9))
        lab = fonts.text(title, 12, palette.TEXT, bold=True)
        surface.blit(lab, (x + 13, y))
        if stats and (total > 0 or not policy_name):
            sub = fonts.text(f"root visits {total:,}", 10, palette.TEXT_DIM)
            if x + 13 + lab.get_width() + 8 + sub.get_width() <= rect.right - 4:
                surface.blit(sub, (x + 21 + lab.get_width(), y + 2))
        y += 17
    if not stats:
        lab = fonts.text(empty, 11, palette.TEXT_DIM)
        surface.blit(lab, (x, y + 2))
        return
    # a search that counts no visits (CFR over public states built
    # breadth-first sweeps a fixed tree) has no visit share to draw beside
    # its strategy; grown, it counts its simulations and shows them
    visits = total > 0
    if policy_name:
        y = _legend(surface, x, y, rect.right - 4, policy_name, color, visits)
    if net is not None:
        y = _net_legend(surface, x, y, rect.right - 4, net)
    # Rows of at least 9 px; when they do not all fit (goofspiel has 13
    # moves), they flow into columns side by side rather than being cut.
    n = len(stats)
    fit = max(1, int((rect.bottom - y - 2) // 9))
    ncols = min(n, -(-n // fit))
    per = -(-n // ncols)
    col_w = (rect.right - x) // ncols
    rh = int(min(22, max(9, (rect.bottom - y - 2) / per)))
    fs = 11 if rh >= 14 else 9
    names = [_name(int(s.move), move_name) for s in stats]
    name_w = max(fonts.font(fs, bold=True).size(nm)[0] for nm in names) + 8
    wide = 136 if policy_name else 96     # "v 30%  μ 0.4" after a policy's bar
    right_w = wide if col_w >= 124 + wide else 44 if col_w >= 120 else 0
    dim = palette.lerp(color, palette.PANEL, 0.45)
    top = y
    for i, (s, nm) in enumerate(zip(stats, names)):
        cx = x + (i // per) * col_w
        y = top + (i % per) * rh
        bar_x = cx + name_w
        bar_w = max(cx + col_w - 4 - right_w - bar_x, 4)
        chosen = chosen_move is not None and int(s.move) == int(chosen_move)
        share = s.visits / total if total > 0 else 0.0
        value = min(max(float(s.policy), 0.0), 1.0) if policy_name else share
        bh = max(rh - 4, 3)
        by = y + (rh - bh) // 2
        pygame.draw.rect(surface, palette.GRID, (bar_x, by, bar_w, bh))
        fill_w = int(round(value * bar_w))
        if fill_w > 0:
            pygame.draw.rect(surface, color if chosen else dim, (bar_x, by, fill_w, bh))
        if policy_name and visits:   # the visit share: a line along the bar's bottom
            lh = 2 if bh >= 7 else 1
            vis_w = int(round(share * bar_w))
            pygame.draw.rect(surface, palette.PANEL, (bar_x, by + bh - lh - 1, bar_w, 1))
            if vis_w > 0:
                pygame.draw.rect(surface, VISIT_LINE, (bar_x, by + bh - lh, vis_w, lh))
            surface.fill(VISIT_LINE, (bar_x + min(vis_w, bar_w - 1), by + bh - lh - 2, 1, lh + 2))
        if net is not None and int(s.move) in net.priors:   # the net's prior: a tick
            px = bar_x + min(int(round(net.priors[int(s.move)] * bar_w)), bar_w - 2)
            pygame.draw.rect(surface, NET_TICK, (px, by - 1, 2, bh + 2))
        if chosen:
            pygame.draw.rect(surface, palette.TEXT, (bar_x - 1, by - 1, bar_w + 2, bh + 2), 1)
        lab = fonts.text(nm, fs, palette.TEXT if chosen else palette.TEXT_DIM, bold=chosen)
        surface.blit(lab, (cx, y + (rh - lab.get_height()) // 2))
        pct = f"{value * 100:.1f}%"
        if right_w:
            tx = bar_x + bar_w + 6
            plab = fonts.text(pct, fs, palette.TEXT)
            surface.blit(plab, (tx, y + (rh - plab.get_height()) // 2))
            if right_w >= 96:
                mx = tx + 44
                if norm is not None:
                    lo, hi = norm
                    t = (s.mean - lo) / (hi - lo) if hi > lo else 0.5
                    pygame.draw.rect(surface, palette.value_color(t), (mx, y + rh // 2 - 4, 8, 8))
                    mx += 11
                mtxt = f"v {share * 100:.0f}%  μ {s.mean:.3g}" if policy_name and visits \
                    else f"μ {s.mean:.3g}"
                mlab = fonts.text(mtxt, fs - 1, palette.TEXT_DIM)
                surface.blit(mlab, (mx, y + (rh - mlab.get_height()) // 2))
        elif bar_w > 40:   # no room on the right: the percentage goes in the bar
            plab = fonts.text(pct, fs - 1, palette.TEXT)
            surface.blit(plab, (bar_x + 2, y + (rh - plab.get_height()) // 2))
        # A probability that is not the visit share shows its own number.
        if not policy_name and total > 0 and abs(float(s.prob) - share) > 0.005 and bar_w > 80:
            qlab = fonts.text(f"p {float(s.prob) * 100:.0f}%", fs - 1, palette.ACCENT)
            surface.blit(qlab, (bar_x + bar_w - qlab.get_width() - 2,
                                y + (rh - qlab.get_height()) // 2))


def _legend(surface, x: int, y: int, right: int, policy_name: str, color,
            visits: bool = True) -> int:
    """'▆ Exp3 average strategy  ▁ visit share' in one line; returns the y
    below it. Shortened to fit; the swatches always show. Without `visits`
    only the strategy's half."""
    if not visits:
        lab = fonts.text(f"{policy_name} average strategy", 10, palette.TEXT_DIM)
        pygame.draw.rect(surface, color, (x, y + 3, 9, 7))
        surface.blit(lab, (x + 12, y))
        return y + 13
    for words in ((f"{policy_name} average strategy", "visit share"),
                  (f"{policy_name} avg strategy", "visits"), ("strategy", "visits")):
        labs = [fonts.text(w, 10, palette.TEXT_DIM) for w in words]
        if x + 12 + labs[0].get_width() + 10 + 12 + labs[1].get_width() <= right:
            break
    pygame.draw.rect(surface, color, (x, y + 3, 9, 7))
    surface.blit(labs[0], (x + 12, y))
    x2 = x + 12 + labs[0].get_width() + 10
    pygame.draw.rect(surface, VISIT_LINE, (x2, y + 8, 9, 2))
    surface.blit(labs[1], (x2 + 12, y))
    return y + 13


def _net_legend(surface, x: int, y: int, right: int, net: NetReadout) -> int:
    """'net value +0.31   ▍ net prior' in one line; returns the y below it."""
    lab = fonts.text(f"net value {net.value:+.3g}", 10, palette.TEXT)
    surface.blit(lab, (x, y))
    tx = x + lab.get_width() + 12
    tip = fonts.text("net prior", 10, palette.TEXT_DIM)
    if tx + 6 + tip.get_width() <= right:
        surface.fill(NET_TICK, (tx, y + 2, 2, 9))
        surface.blit(tip, (tx + 6, y))
    return y + 13
