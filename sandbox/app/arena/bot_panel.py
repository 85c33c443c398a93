"""A process player's panels in the arena (docs/bots.md): what its bot
said and did. In the controls area: its last debug message, its answers'
latency (last, median, 95th percentile), its failures (how many, the
latest few), and the tail of its stderr log with the log's path. In its
tree panel: the last turn's visits and values per move, as root bars."""
from __future__ import annotations

import statistics
import time
from pathlib import Path

import pygame

from ...native import MoveStat
from ...render import palette as pal
from ...render.fonts import elide, text

LOG_TAIL_BYTES = 4096
LOG_EVERY_S = 0.5          # the log's tail is read at most this often


def is_external(ctl) -> bool:
    """A controller driven from outside (sandbox.bots.external): it keeps
    BotStats and the last turn's BotTurnInfo."""
    return hasattr(ctl, "stats") and hasattr(ctl, "last_info")


def debug_stats(ctl, agent: int) -> tuple[MoveStat, ...]:
    """The last answer's debug visits and values for `agent` as root-bar
    rows: the bars are the visits' shares (empty when the bot sends values
    alone), the values the means beside them."""
    info = ctl.last_info
    dbg = info.debug if info is not None and info.debug else {}
    visits = dbg.get("visits", {}).get(str(agent), {})
    values = dbg.get("values", {}).get(str(agent), {})
    moves = sorted({int(m) for m in (*visits, *values)})
    total = sum(visits.values()) or 0.0
    out = []
    for m in moves:
        v = visits.get(str(m), 0.0)
        p = v / total if total > 0 else 0.0
        out.append(MoveStat(move=m, visits=int(v), mean=float(values.get(str(m), 0.0)),
                            prob=p, policy=p))
    return tuple(out)


def latency_text(ctl) -> str:
    lat = ctl.stats.latencies
    if not lat:
        return "no answer yet"
    recent = lat[-200:]
    q = sorted(recent)
    return (f"latency {lat[-1]:.1f} ms (median {statistics.median(recent):.1f}, "
            f"p95 {q[min(len(q) - 1, int(len(q) * 0.95))]:.1f})")


class LogTail:
    """The last lines of a bot's stderr log, re-read at most every LOG_EVERY_S."""

    def __init__(self) -> None:
        self._at = 0.0
        self._path: Path | None = None
        self.lines: list[str] = []

    def read(self, path: Path | None) -> list[str]:
        now = time.monotonic()
        if path == self._path and now - self._at < LOG_EVERY_S:
            return self.lines
        self._at, self._path = now, path
        self.lines = []
        if path is None:
            return self.lines
        try:
            with open(path, "rb") as f:
                f.seek(0, 2)
                size = f.tell()
                f.seek(max(0, size - LOG_TAIL_BYTES))
                data = f.read(LOG_TAIL_BYTES)
        except OSError:
            return self.lines
        lines = data.decode("utf-8", errors="replace").splitlines()
        self.lines = ["".join(c if c.isprintable() else "?" for c in x) for x in lines[-6:]]
        return self.lines


def draw_bot_controls(surface: pygame.Surface, r: pygame.Rect, ctl, tail: LogTail) -> None:
    """The controls area of a process player, below its tab row, the note
    row and the tree pickers (PlayerControls._build_widgets)."""
    y = r.y + 90
    w = r.w - 4

    def line(s: str, color=pal.TEXT_DIM, size: int = 12, bold: bool = False) -> None:
        nonlocal y
        if y + size + 4 > r.bottom:
            return
        surface.blit(text(elide(s, size, w, bold=bold), size, color, bold=bold), (r.x, y))
        y += size + 5

    cmd = " ".join(Path(x).name if i < 2 and "/" in x else x
                   for i, x in enumerate(getattr(ctl, "command", []) or []))
    line(f"{ctl.name}: a program of yours ({ctl.kind})", pal.TEXT, 13, True)
    if cmd:
        line(cmd)
    url = getattr(ctl, "url", None)          # a remote player: where it is asked
    if url:
        line(str(url))
    if ctl.gone:
        line(f"stopped: {ctl.gone}", pal.WARN, 12, True)
    info = ctl.last_info
    msg = (info.debug or {}).get("message") if info is not None else None
    line(f"says: {msg}" if msg else "says: -", pal.TEXT)
    line(latency_text(ctl))
    s = ctl.stats
    line(f"failed turns: {s.failures} of {s.turns}", pal.WARN if s.failures else pal.TEXT_DIM)
    for turn, f in reversed(s.recent_failures[-4:]):
        line(f"  turn {turn}, agent {f.agent}: {f.kind}: {f.detail}", pal.WARN, 11)
    if not hasattr(ctl, "log_path"):         # a remote player keeps no log here
        return
    path = getattr(ctl, "log_path", None)
    line(f"stderr log: {path.name}" if path else "stderr log: none yet", pal.TEXT_DIM, 11)
    if path:
        line(f"  in {path.parent}", pal.TEXT_DIM, 11)
    for x in tail.read(path):
        line("  " + x, pal.TEXT_DIM, 11)
