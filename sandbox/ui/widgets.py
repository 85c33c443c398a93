"""Widgets: slider, toggle, picker (dropdown), button, numeric readout, label.

The frame contract, as in pygame_gui: `process_event(event) -> consumed`,
`update(dt)`, `draw(surface)`. Widgets never call game or search code: a
change posts a UI_EVENT (pygame custom event) carrying the widget id and the
new value, which the scene turns into a command. Mouse and keyboard both
work: a focused slider moves with Left/Right (Shift: bigger steps), a picker
cycles with Up/Down and opens with Enter, and Enter presses a focused button
or flips a focused toggle. Space never does: it is the scenes' play / pause,
and a clicked widget keeps the focus, so Space flipped that toggle back or
re-opened that picker instead.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import pygame

from ..render import palette as pal
from ..render.fonts import elide, text
from .events import post_change, post_click

FONT = 13


class Widget:
    focusable = True

    def __init__(self, wid: str, rect: pygame.Rect | tuple[int, int, int, int],
                 label: str = "", tooltip: str = "") -> None:
        self.id = wid
        self.rect = pygame.Rect(rect)
        self.label = label
        self.tooltip = tooltip
        self.focused = False
        self.enabled = True
        self.visible = True
        self.hovered = False

    def process_event(self, event: pygame.event.Event) -> bool:
        if not (self.visible and self.enabled):
            return False
        if event.type == pygame.MOUSEMOTION:
            self.hovered = self.rect.collidepoint(event.pos)
        return self._event(event)

    def _event(self, event: pygame.event.Event) -> bool:
        return False

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        raise NotImplementedError

    def _label(self, surface: pygame.Surface, s: str, x: int, y: int,
               color=pal.TEXT_DIM) -> None:
        surface.blit(text(s, FONT, color), (x, y))


class Label(Widget):
    focusable = False

    def __init__(self, wid: str, rect, label: str, size: int = FONT, color=pal.TEXT,
                 bold: bool = False) -> None:
        super().__init__(wid, rect, label)
        self.size, self.color, self.bold = size, color, bold

    def draw(self, surface: pygame.Surface) -> None:
        if self.visible:
            surface.blit(text(self.label, self.size, self.color, self.bold), self.rect.topleft)


class Button(Widget):
    def __init__(self, wid: str, rect, label: str, tooltip: str = "",
                 toggled: bool = False) -> None:
        super().__init__(wid, rect, label, tooltip)
        self.toggled = toggled
        self._down = False

    def _event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            self._down = True
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._down:
            self._down = False
            if self.rect.collidepoint(event.pos):
                post_click(self.id)
            return True
        if event.type == pygame.KEYDOWN and self.focused and event.key == pygame.K_RETURN:
            post_click(self.id)
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        bg = pal.PANEL_HI if (self.hovered or self._down) else pal.PANEL
        if self.toggled:
            bg = pal.lerp(bg, pal.ACCENT, 0.35)
        pygame.draw.rect(surface, bg, self.rect, border_radius=4)
        pygame.draw.rect(surface, pal.ACCENT if self.focused else pal.BORDER, self.rect, 1,
                         border_radius=4)
        lab = text(self.label, FONT, pal.TEXT if self.enabled else pal.TEXT_DIM)
        surface.blit(lab, lab.get_rect(center=self.rect.center))


class Toggle(Widget):
    def __init__(self, wid: str, rect, label: str, value: bool = False, tooltip: str = "") -> None:
        super().__init__(wid, rect, label, tooltip)
        self.value = bool(value)

    def set(self, value: bool, notify: bool = False) -> None:
        if bool(value) != self.value:
            self.value = bool(value)
            if notify:
                post_change(self.id, self.value)

    def _event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            self.set(not self.value, notify=True)
            return True
        if event.type == pygame.KEYDOWN and self.focused and event.key == pygame.K_RETURN:
            self.set(not self.value, notify=True)
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        r = self.rect
        box = pygame.Rect(r.x, r.y + (r.h - 14) // 2, 26, 14)
        pygame.draw.rect(surface, pal.ACCENT if self.value else pal.GRID, box, border_radius=7)
        knob_x = box.right - 7 if self.value else box.x + 7
        pygame.draw.circle(surface, pal.TEXT, (knob_x, box.centery), 5)
        if self.focused:
            pygame.draw.rect(surface, pal.ACCENT, r.inflate(2, 2), 1, border_radius=3)
        self._label(surface, self.label, box.right + 8, r.y + (r.h - 15) // 2,
                    pal.TEXT if self.value else pal.TEXT_DIM)


class Slider(Widget):
    """A horizontal slider over [lo, hi]. `step` snaps values (ints when
    integer=True); `log` maps the track logarithmically (for budgets)."""

    def __init__(self, wid: str, rect, label: str, lo: float, hi: float, value: float,
                 step: float = 0.0, integer: bool = False, log: bool = False,
                 fmt: str = "{:.2f}", tooltip: str = "") -> None:
        super().__init__(wid, rect, label, tooltip)
        self.lo, self.hi = float(lo), float(hi)
        self.step = step
        self.integer = integer
        self.log = log and lo > 0
        self.fmt = fmt
        self.value = self._snap(value)
        self.dragging = False

    # geometry: label line above, track below
    @property
    def track(self) -> pygame.Rect:
        return pygame.Rect(self.rect.x + 6, self.rect.bottom - 10, self.rect.w - 12, 4)

    def _frac(self, v: float) -> float:
        if self.log:
            return (math.log(v) - math.log(self.lo)) / (math.log(self.hi) - math.log(self.lo))
        return (v - self.lo) / (self.hi - self.lo) if self.hi > self.lo else 0.0

    def _from_frac(self, f: float) -> float:
        f = min(1.0, max(0.0, f))
        if self.log:
            return math.exp(math.log(self.lo) + f * (math.log(self.hi) - math.log(self.lo)))
        return self.lo + f * (self.hi - self.lo)

    def _snap(self, v: float) -> float:
        v = min(self.hi, max(self.lo, float(v)))
        if self.step > 0:
            v = self.lo + round((v - self.lo) / self.step) * self.step
            v = min(self.hi, max(self.lo, v))
        if self.integer:
            v = float(int(round(v)))
        return round(v, 10)

    @property
    def knob_x(self) -> int:
        t = self.track
        return int(round(t.x + self._frac(self.value) * t.w))

    def set(self, value: float, notify: bool = False) -> None:
        v = self._snap(value)
        if v != self.value:
            self.value = v
            if notify:
                post_change(self.id, int(v) if self.integer else v)

    def _event(self, event: pygame.event.Event) -> bool:
        hit = self.rect.inflate(0, 6)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and hit.collidepoint(event.pos):
            self.dragging = True
            self.set(self._from_frac((event.pos[0] - self.track.x) / max(1, self.track.w)), True)
            return True
        if event.type == pygame.MOUSEMOTION and self.dragging:
            self.set(self._from_frac((event.pos[0] - self.track.x) / max(1, self.track.w)), True)
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            self.dragging = False
            return True
        if event.type == pygame.MOUSEWHEEL and self.hovered:
            self._nudge(event.y)
            return True
        if event.type == pygame.KEYDOWN and self.focused and event.key in (pygame.K_LEFT, pygame.K_RIGHT):
            big = bool(event.mod & pygame.KMOD_SHIFT)
            self._nudge((1 if event.key == pygame.K_RIGHT else -1) * (10 if big else 1))
            return True
        return False

    def _nudge(self, steps: int) -> None:
        if self.log:
            f = self._frac(self.value) + steps * 0.02
            self.set(self._from_frac(f), True)
            return
        unit = self.step if self.step > 0 else (self.hi - self.lo) / 100.0
        self.set(self.value + steps * unit, True)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        value = self.fmt.format(int(self.value) if self.integer else self.value)
        self._label(surface, self.label, self.rect.x, self.rect.y,
                    pal.TEXT if (self.focused or self.dragging) else pal.TEXT_DIM)
        v = text(value, FONT, pal.TEXT, mono=True)
        surface.blit(v, (self.rect.right - v.get_width(), self.rect.y))
        t = self.track
        pygame.draw.rect(surface, pal.GRID, t, border_radius=2)
        filled = pygame.Rect(t.x, t.y, self.knob_x - t.x, t.h)
        pygame.draw.rect(surface, pal.ACCENT, filled, border_radius=2)
        pygame.draw.circle(surface, pal.TEXT if (self.hovered or self.dragging) else pal.TEXT_DIM,
                           (self.knob_x, t.centery), 6)
        if self.focused:
            pygame.draw.circle(surface, pal.ACCENT, (self.knob_x, t.centery), 8, 1)


class Picker(Widget):
    """A dropdown: click opens the option list; Up/Down cycles when focused."""

    def __init__(self, wid: str, rect, label: str, options: Sequence[tuple[Any, str]],
                 value: Any, tooltip: str = "") -> None:
        super().__init__(wid, rect, label, tooltip)
        self.options = list(options)
        self.value = value
        self.open = False

    @property
    def index(self) -> int:
        for i, (v, _) in enumerate(self.options):
            if v == self.value:
                return i
        return 0

    def set(self, value: Any, notify: bool = False) -> None:
        if value != self.value and any(v == value for v, _ in self.options):
            self.value = value
            if notify:
                post_change(self.id, value)

    @property
    def box(self) -> pygame.Rect:
        lw = text(self.label, FONT, pal.TEXT_DIM).get_width() + 8 if self.label else 0
        return pygame.Rect(self.rect.x + lw, self.rect.y, self.rect.w - lw, self.rect.h)

    def popup_width(self) -> int:
        """The option list is as wide as its longest option (never narrower
        than the box): a name cut to "UCB1-Tu…" cannot be told apart."""
        widest = max((text(name, FONT, pal.TEXT).get_width() for _, name in self.options),
                     default=0)
        return max(self.box.w, widest + 14)

    def option_rect(self, i: int) -> pygame.Rect:
        b = self.box
        w = self.popup_width()
        # a list wider than the box grows to the right, unless that leaves
        # the window: then it is right-aligned with the box
        x = b.x
        surf = pygame.display.get_surface()
        if surf is not None and x + w > surf.get_width():
            x = max(0, b.right - w)
        return pygame.Rect(x, b.bottom + i * b.h, w, b.h)

    def shown_name(self) -> str:
        """The chosen option's name as the closed box shows it (cut to fit
        beside the arrow; the tooltip then names it in full)."""
        name = self.options[self.index][1] if self.options else ""
        key = (name, self.rect.w, self.label)   # drawn every frame: measure once
        if getattr(self, "_shown", (None,))[0] != key:
            self._shown = (key, elide(name, FONT, self.box.w - 24))
        return self._shown[1]

    @property
    def tooltip(self) -> str:
        name = self.options[self.index][1] if self.options else ""
        tip = self._tooltip
        if name and self.shown_name() != name:
            return f"{name}: {tip}" if tip else name
        return tip

    @tooltip.setter
    def tooltip(self, value: str) -> None:
        self._tooltip = value

    def _event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.open:
                for i, (v, _) in enumerate(self.options):
                    if self.option_rect(i).collidepoint(event.pos):
                        self.set(v, notify=True)
                        self.open = False
                        return True
                self.open = False
                return self.box.collidepoint(event.pos)
            if self.box.collidepoint(event.pos):
                self.open = True
                return True
            return False
        if event.type == pygame.KEYDOWN and (self.focused or self.open):
            if event.key in (pygame.K_UP, pygame.K_DOWN):
                i = (self.index + (1 if event.key == pygame.K_DOWN else -1)) % len(self.options)
                self.set(self.options[i][0], notify=True)
                return True
            if event.key == pygame.K_RETURN:
                self.open = not self.open
                return True
            if event.key == pygame.K_ESCAPE and self.open:
                self.open = False
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        if self.label:
            self._label(surface, self.label, self.rect.x, self.rect.y + (self.rect.h - 15) // 2)
        b = self.box
        pygame.draw.rect(surface, pal.PANEL_HI if self.hovered else pal.PANEL, b, border_radius=4)
        pygame.draw.rect(surface, pal.ACCENT if (self.focused or self.open) else pal.BORDER, b, 1,
                         border_radius=4)
        surface.blit(text(self.shown_name(), FONT, pal.TEXT), (b.x + 6, b.y + (b.h - 15) // 2))
        cx, cy = b.right - 10, b.centery
        pygame.draw.polygon(surface, pal.TEXT_DIM, [(cx - 4, cy - 2), (cx + 4, cy - 2), (cx, cy + 3)])

    def draw_popup(self, surface: pygame.Surface) -> None:
        """Drawn last by the container, over everything else."""
        if not (self.visible and self.open):
            return
        for i, (v, name) in enumerate(self.options):
            r = self.option_rect(i)
            pygame.draw.rect(surface, pal.PANEL_HI if v == self.value else pal.PANEL, r)
            pygame.draw.rect(surface, pal.BORDER, r, 1)
            surface.blit(text(name, FONT, pal.TEXT), (r.x + 6, r.y + (r.h - 15) // 2))


class Readout(Widget):
    """A label and a live numeric value (read through a callable each frame)."""

    focusable = False

    def __init__(self, wid: str, rect, label: str, read: Callable[[], Any],
                 fmt: str = "{}", warn: Callable[[], bool] | None = None) -> None:
        super().__init__(wid, rect, label)
        self.read = read
        self.fmt = fmt
        self.warn = warn

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        try:
            value = self.read()
            s = "—" if value is None else self.fmt.format(value)
        except Exception:  # a readout must never take the frame down
            s = "?"
        self._label(surface, self.label, self.rect.x, self.rect.y)
        color = pal.WARN if (self.warn and self.warn()) else pal.TEXT
        v = text(s, FONT, color, mono=True)
        surface.blit(v, (self.rect.right - v.get_width(), self.rect.y))


class WidgetGroup:
    """Routes events to widgets (open pickers first), keeps keyboard focus
    (Tab / Shift+Tab), and draws pickers' popups on top."""

    def __init__(self, widgets: Sequence[Widget] = ()) -> None:
        self.widgets: list[Widget] = list(widgets)
        self.focus_index = -1

    def add(self, w: Widget) -> Widget:
        self.widgets.append(w)
        return w

    def get(self, wid: str) -> Widget:
        for w in self.widgets:
            if w.id == wid:
                return w
        raise KeyError(wid)

    def process_event(self, event: pygame.event.Event) -> bool:
        for w in self.widgets:  # an open dropdown owns the mouse
            if isinstance(w, Picker) and w.open and w.process_event(event):
                return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB and self._focusable():
            self._move_focus(-1 if event.mod & pygame.KMOD_SHIFT else 1)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            for i, w in enumerate(self.widgets):
                if w.visible and w.enabled and w.focusable and w.rect.collidepoint(event.pos):
                    self._set_focus(i)
        for w in self.widgets:
            if w.process_event(event):
                return True
        return False

    def carry_over(self, old: "WidgetGroup") -> None:
        """Take over what the user is in the middle of from the group this
        one replaces (a scene rebuilds its widgets when what they show
        changes): a drag in progress, the keyboard focus and an open
        dropdown stay with the widget of the same id. Without it a rebuild
        during a drag dropped the drag after its first step."""
        before = {w.id: w for w in old.widgets}
        for i, w in enumerate(self.widgets):
            o = before.get(w.id)
            if o is None or type(o) is not type(w):
                continue
            w.hovered = o.hovered
            if getattr(o, "dragging", False):
                w.dragging = True
            if isinstance(w, Picker) and o.open:
                w.open = True
            if o.focused:
                self._set_focus(i)

    def _focusable(self) -> list[int]:
        return [i for i, w in enumerate(self.widgets) if w.focusable and w.visible and w.enabled]

    def _set_focus(self, i: int) -> None:
        for j, w in enumerate(self.widgets):
            w.focused = j == i
        self.focus_index = i

    def _move_focus(self, step: int) -> None:
        order = self._focusable()
        if not order:
            return
        pos = order.index(self.focus_index) if self.focus_index in order else -1
        self._set_focus(order[(pos + step) % len(order)])

    def clear_focus(self) -> None:
        self._set_focus(-1)

    def update(self, dt: float) -> None:
        for w in self.widgets:
            w.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        for w in self.widgets:
            w.draw(surface)
        for w in self.widgets:
            if isinstance(w, Picker):
                w.draw_popup(surface)

    def dropdown_open(self) -> bool:
        return any(isinstance(w, Picker) and w.visible and w.open for w in self.widgets)

    def draw_popups(self, surface: pygame.Surface) -> None:
        """An open dropdown's list again, for scenes that draw hover boxes
        or panels after their widgets: the list must stay on top."""
        for w in self.widgets:
            if isinstance(w, Picker):
                w.draw_popup(surface)

    def tooltip_at(self, pos) -> str | None:
        if self.dropdown_open():   # the open list is under the mouse: no tip over it
            return None
        for w in self.widgets:   # the rect first: a picker's tooltip is worked out
            if w.visible and w.rect.collidepoint(pos) and w.tooltip:
                return w.tooltip
        return None
