"""The scoreboard and the meters at the right (draw_meters, a function of what it shows): a
row per player (iterations/s, simulated turns/s, iterations per turn, tree nodes, search
time; threads; a full tree), then the log of settings changes."""
from __future__ import annotations

from typing import Any

import pygame

from ...render import palette as pal
from ...render.scoreboard import draw_scoreboard
from ...names import agent_labels, player_labels
from ...render.fonts import elide, text


def draw_meters(surface, r: pygame.Rect, match, plugin, view, colors, scores,
                change_log: list[str]) -> None:
    """The right-hand column: the game's scoreboard (plugin, view, the last turn's scores),
    a meter row per player from its controller's latest snapshot, the settings changes."""
    m = match
    board_rows = pygame.Rect(r.x, r.y, r.w, 26 * plugin.num_agents(view))
    draw_scoreboard(surface, board_rows, plugin, view, colors, agent_labels(m.names), scores)
    y = board_rows.bottom + 10
    header = ["player", "it/s", "turns/s", "it/turn", "nodes", "ms"]
    f = min(1.0, (r.w - 30) / 380)    # narrow windows: the columns close up
    xs = [r.x + int(o * f) for o in (0, 88, 158, 240, 310, 380)]   # names need 80+ px
    for h, x in zip(header, xs):
        surface.blit(text(h, 11, pal.TEXT_DIM), (x, y))
    y += 16
    for c in m.controllers:
        snap = c.latest
        color = colors[c.agents[0]] if c.agents else pal.TEXT
        name = player_labels([k.name for k in m.controllers])[c.player]
        surface.blit(text(elide(name, 12, xs[1] - xs[0] - 6, bold=True), 12, color, bold=True),
                     (xs[0], y))
        if snap is not None and snap.stop_reason == "eliminated":
            surface.blit(text("out: no search", 12, pal.TEXT_DIM), (xs[1], y))
        elif snap is not None:
            own = sum(snap.tree_nodes[a] for a in c.agents)
            warn = snap.cap_reached or own > 0.9 * snap.node_cap * len(c.agents)
            vals = [f"{snap.iterations_per_s / 1000:,.0f}k", f"{snap.sim_turns_per_s / 1e6:.2f}M",
                    _count(snap.iterations), _count(own), f"{snap.search_ms:.0f}"]
            for v, x in zip(vals, xs[1:]):
                col = pal.WARN if (warn and v == vals[3]) else pal.TEXT
                surface.blit(text(v, 12, col, mono=True), (x, y))
            if len(snap.thread_iterations) > 1:   # parallel Smitsimax's meter
                total = max(1, sum(snap.thread_iterations))
                shares = " | ".join(f"{100 * v / total:.0f}%" for v in snap.thread_iterations)
                surface.blit(text(f"{len(snap.thread_iterations)} threads: {shares} of it, "
                                  f"waiting {100 * snap.wait_share:.0f}%", 11,
                                  pal.TEXT_DIM), (xs[0], y + 14))
                y += 14
            note = tree_full_note(snap)
            if note:
                surface.blit(text(note, 11, pal.WARN), (xs[0], y + 14))
                y += 14
        else:
            # a player without a search may say more than its kind (a remote
            # program: its last answer time and failures)
            line = c.status_line() if hasattr(c, "status_line") else c.kind
            surface.blit(text(line[:60], 12, pal.TEXT_DIM), (xs[1], y))
        y += 17
    y += 8
    if change_log:
        surface.blit(text("settings changes", 11, pal.TEXT_DIM), (r.x, y))
        y += 15
        for line in change_log[-6:]:
            if y > r.bottom - 14:
                break
            surface.blit(text(line[:70], 11, pal.TEXT), (r.x, y))
            y += 14


def tree_full_note(snap) -> str:
    """The meter's warning when a player's search stopped because a tree hit
    its node cap (it then plays the best move found so far): "" otherwise."""
    if snap.cap_reached or snap.stop_reason == "node_cap":
        return f"tree full (node cap {_count(snap.node_cap)})"
    return ""


def _count(n: int) -> str:
    """At most 7 characters: 9,417 · 105,712 · 1.05M (columns stay apart)."""
    return f"{n:,}" if n < 1_000_000 else f"{n / 1e6:.3g}M"


def _fmt(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)
