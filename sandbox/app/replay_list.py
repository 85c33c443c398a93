"""The menu's replay library panel: every replay in the folder as a row
(scenario, date, turns, winner, size; damaged files say why), scrolled with
the mouse wheel or PageUp/PageDown/Home/End, filtered by scenario with a
picker, and deleted with a confirming second click (or Delete key).

The panel only lays out widgets and keeps the scroll, filter and pending
delete; the rows come from sandbox.replay.library (header and tail reads,
no re-simulation), and opening a replay is the menu's job (`on_watch`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pygame

from ..render import palette as pal
from ..render.fonts import text
from ..replay import library
from ..replay.library import ReplaySummary
from ..ui import Button, Picker, WidgetGroup, is_ui

ROW_H, ROW_STEP = 34, 40
DELETE_W = 74
LIST_TOP = 210          # first row's y (title and filter above)
BOTTOM_MARGIN = 100     # room for the menu's message and description lines


class ReplayRow(Button):
    """A row button drawn as left-aligned columns (Button centres one label)."""

    def __init__(self, wid: str, rect, row: ReplaySummary) -> None:
        super().__init__(wid, rect, row.path.name, f"watch {row.path}")
        self.row = row

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        bg = pal.PANEL_HI if (self.hovered or self._down) else pal.PANEL
        pygame.draw.rect(surface, bg, self.rect, border_radius=4)
        pygame.draw.rect(surface, pal.ACCENT if self.focused else pal.BORDER, self.rect, 1,
                         border_radius=4)
        x, y = self.rect.x + 8, self.rect.y + 2
        r = self.row
        clip = surface.get_clip()
        surface.set_clip(self.rect.inflate(-4, 0).clip(clip))
        if r.damaged:
            surface.blit(text(f"damaged: {r.damaged}", 13, pal.ERROR), (x, y))
            meta = f"{r.path.name}  ·  {library.human_size(r.size)}"
        else:
            turns = "? turns" if r.turns is None else f"{r.turns} turns"
            surface.blit(text(r.scenario[:40], 13, pal.TEXT, bold=True), (x, y))
            meta = (f"{r.date}  ·  {turns}  ·  {r.winner}  ·  {library.human_size(r.size)}"
                    f"  ·  {r.path.name}")
        surface.blit(text(meta[:120], 12, pal.TEXT_DIM), (x, y + 16))
        surface.set_clip(clip)


class ReplayList:
    def __init__(self, directory: Callable[[], Path], on_watch: Callable[[Path], None],
                 on_message: Callable[[str], None]) -> None:
        self.directory = directory
        self.on_watch = on_watch
        self.on_message = on_message
        self.rows: list[ReplaySummary] = []     # every file, newest first
        self.filter: str | None = None          # a scenario, None = all
        self.scroll = 0                         # index of the first visible row
        self.visible_rows = 1
        self.pending_delete: Path | None = None
        self.area = pygame.Rect(0, 0, 0, 0)     # where the rows are (mouse wheel)
        self.mouse = (-1, -1)                   # last pointer position (wheel events have none)

    # ------------------------------------------------------------ data
    def refresh(self) -> None:
        self.rows = library.scan(self.directory())
        if self.filter is not None and self.filter not in library.scenarios(self.rows):
            self.filter = None
        self.pending_delete = None
        self._clamp()

    @property
    def shown(self) -> list[ReplaySummary]:
        return library.filtered(self.rows, self.filter)

    def _clamp(self) -> None:
        last = max(0, len(self.shown) - self.visible_rows)
        self.scroll = min(max(0, self.scroll), last)

    # ---------------------------------------------------------- layout
    def build(self, g: WidgetGroup, x: int, width: int, height: int) -> None:
        """Add the filter picker and the visible rows to the menu's group."""
        self.visible_rows = max(1, (height - BOTTOM_MARGIN - LIST_TOP) // ROW_STEP)
        self._clamp()
        options = [(None, "all scenarios")] + [(s, s) for s in library.scenarios(self.rows)]
        g.add(Picker("replay_filter", (x, 168, min(360, width), 28), "Scenario", options,
                     self.filter, "show the replays of one scenario"))
        shown = self.shown
        row_w = max(120, width - DELETE_W - 6)
        for i in range(self.scroll, min(len(shown), self.scroll + self.visible_rows)):
            y = LIST_TOP + (i - self.scroll) * ROW_STEP
            g.add(ReplayRow(f"replay:{i}", (x, y, row_w, ROW_H), shown[i]))
            asking = self.pending_delete == shown[i].path
            g.add(Button(f"delete:{i}", (x + row_w + 6, y, DELETE_W, ROW_H),
                         "confirm?" if asking else "delete",
                         "click again to delete the file" if asking
                         else f"delete {shown[i].path.name} (asks first)", toggled=asking))
        self.area = pygame.Rect(x, LIST_TOP, width, self.visible_rows * ROW_STEP)
        self.x, self.width = x, width

    # ---------------------------------------------------------- events
    def handle(self, event: pygame.event.Event, focused_id: str | None) -> bool | str:
        """True: handled; "relayout": handled and the widgets must be rebuilt;
        False: not the panel's."""
        if is_ui(event, "change") and event.id == "replay_filter":
            self.filter, self.scroll, self.pending_delete = event.value, 0, None
            return "relayout"
        if is_ui(event, "click"):
            if event.id.startswith("replay:"):
                self.pending_delete = None
                self.on_watch(self.shown[int(event.id[7:])].path)
                return "relayout"
            if event.id.startswith("delete:"):
                return self.ask_or_delete(int(event.id[7:]))
            return False
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            return False
        if event.type == pygame.MOUSEWHEEL:
            if self.area.collidepoint(self.mouse):
                return self.scroll_by(-3 * event.y)
            return False
        if event.type == pygame.KEYDOWN:
            page = max(1, self.visible_rows - 1)
            step = {pygame.K_PAGEDOWN: page, pygame.K_PAGEUP: -page,
                    pygame.K_END: len(self.shown), pygame.K_HOME: -len(self.shown)}.get(event.key)
            if step is not None:
                return self.scroll_by(step)
            if event.key == pygame.K_DELETE and focused_id and focused_id.split(":")[0] in (
                    "replay", "delete"):
                return self.ask_or_delete(int(focused_id.split(":")[1]))
            if event.key == pygame.K_ESCAPE and self.pending_delete is not None:
                self.pending_delete = None     # Esc cancels the question, not the app
                return "relayout"
        return False

    def scroll_by(self, rows: int) -> str:
        self.scroll += rows
        self._clamp()
        return "relayout"

    def ask_or_delete(self, i: int) -> str:
        shown = self.shown
        if not 0 <= i < len(shown):
            return "relayout"
        path = shown[i].path
        if self.pending_delete != path:
            self.pending_delete = path          # first click: ask
            return "relayout"
        why = library.delete(path)              # second click: delete, then re-list
        self.on_message(why or f"deleted {path.name}")
        self.refresh()
        return "relayout"

    # ------------------------------------------------------------ draw
    def draw(self, surface: pygame.Surface) -> None:
        n, total = len(self.shown), len(self.rows)
        if not total:
            surface.blit(text(f"no replays in {self.directory()}/ yet: every match in the "
                              "window records one", 13, pal.TEXT_DIM), (self.x, LIST_TOP))
            return
        last = min(n, self.scroll + self.visible_rows)
        where = f"{self.scroll + 1}-{last} of {n}" if n else "none"
        of = f" ({total} in all)" if self.filter is not None else ""
        hint = "  ·  wheel / PgUp PgDn Home End scroll" if n > self.visible_rows else ""
        surface.blit(text(f"{where}{of}{hint}", 12, pal.TEXT_DIM),
                     (self.x, LIST_TOP + max(1, last - self.scroll) * ROW_STEP + 2))

    def state(self) -> dict[str, Any]:
        shown = self.shown
        return {"filter": self.filter, "scroll": self.scroll, "visible_rows": self.visible_rows,
                "shown": len(shown), "total": len(self.rows),
                "pending_delete": str(self.pending_delete) if self.pending_delete else None}
