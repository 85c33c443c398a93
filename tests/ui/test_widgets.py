"""Widgets (sandbox.ui) driven by synthesised pygame events.

Every test builds widgets at known rectangles, feeds MOUSEBUTTONDOWN /
MOUSEMOTION / MOUSEBUTTONUP / KEYDOWN / MOUSEWHEEL events through
WidgetGroup.process_event (or a widget's own process_event), then reads back
what the widgets posted on the pygame event queue (UI_EVENT, recognised by
is_ui) and the widgets' values. No game or search code is involved: widgets
only post events. The dummy video driver comes from tests/conftest.py.
"""
from __future__ import annotations

import math

import pygame
import pytest

from sandbox.render import palette as pal
from sandbox.ui import (UI_EVENT, Button, Label, Picker, Readout, Slider, Toggle, WidgetGroup,
                        is_ui, post_change, post_click)


@pytest.fixture(autouse=True)
def _pygame():
    pygame.display.init()
    pygame.font.init()
    pygame.event.clear()
    yield
    pygame.event.clear()


# ------------------------------------------------------------------ helpers
def down(pos, button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def up(pos, button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def motion(pos, buttons=(1, 0, 0)) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons)


def key(k: int, mod: int = 0, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0)


def wheel(y: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_x=0.0,
                              precise_y=float(y))


def posted() -> list[tuple[str, str, object]]:
    """The UI events widgets posted since the last call (and only those)."""
    return [(e.kind, e.id, e.value) for e in pygame.event.get(UI_EVENT)]


def feed(target, *events) -> list[bool]:
    return [target.process_event(e) for e in events]


def at(slider: Slider, frac: float, dy: int = 0) -> tuple[int, int]:
    """A point on the slider's track, `frac` of the way from its left end."""
    t = slider.track
    return (t.x + int(round(frac * t.w)), t.centery + dy)


def linear_slider(**kw) -> Slider:
    # rect w=212 -> track x=106, w=200: one pixel is 0.05 of [0, 10]
    args = dict(lo=0.0, hi=10.0, value=5.0)
    args.update(kw)
    return Slider("s", (100, 50, 212, 30), "s", **args)


# ------------------------------------------------------------------ events.py
def test_post_change_and_click_are_ui_events_with_kind_id_value():
    post_change("gamma", 0.9)
    post_click("step")
    evs = pygame.event.get(UI_EVENT)
    assert [(e.kind, e.id, e.value) for e in evs] == [("change", "gamma", 0.9),
                                                      ("click", "step", None)]
    assert all(is_ui(e) for e in evs)
    assert is_ui(evs[0], "change") and not is_ui(evs[0], "click")
    assert is_ui(evs[1], "click") and not is_ui(evs[1], "change")
    assert not is_ui(key(pygame.K_a))
    assert not is_ui(pygame.event.Event(pygame.USEREVENT, kind="change", id="x", value=1))


# ------------------------------------------------------------------ slider: mouse
def test_slider_track_geometry():
    s = linear_slider()
    assert s.track == pygame.Rect(106, 70, 200, 4)   # 6 px inset, 10 px above the bottom
    assert s.knob_x == 206                              # 5 of [0, 10]: the middle


@pytest.mark.parametrize("frac, value", [(0.0, 0.0), (0.25, 2.5), (0.5, 5.0), (0.8, 8.0),
                                         (1.0, 10.0)])
def test_slider_press_maps_x_linearly(frac, value):
    s = linear_slider(value=3.0)
    assert feed(s, down(at(s, frac))) == [True]
    assert s.value == pytest.approx(value)
    assert s.dragging
    assert posted() == [("change", "s", pytest.approx(value))]
    assert s.knob_x == at(s, frac)[0]


def test_slider_drag_follows_the_mouse_and_clamps_at_the_ends():
    s = linear_slider(value=5.0)
    g = WidgetGroup([s])
    assert feed(g, down(at(s, 0.25)), motion(at(s, 0.75)),
                motion((s.track.right + 300, 0)),         # far right, far above: still dragging
                motion((s.track.x - 300, 500)),           # far left
                motion(at(s, 0.6)), up(at(s, 0.6))) == [True] * 6
    assert [v for _, _, v in posted()] == pytest.approx([2.5, 7.5, 10.0, 0.0, 6.0])
    assert s.value == pytest.approx(6.0) and not s.dragging
    # released: motion no longer moves it, and is not consumed
    assert feed(g, motion(at(s, 0.1))) == [False]
    assert s.value == pytest.approx(6.0) and posted() == []


def test_slider_ignores_motion_without_a_press_and_other_buttons():
    s = linear_slider(value=5.0)
    assert feed(s, motion(at(s, 0.9))) == [False]
    assert feed(s, down(at(s, 0.9), button=3)) == [False]
    assert feed(s, down((s.rect.x, s.rect.bottom + 20))) == [False]   # below the widget
    assert s.value == 5.0 and not s.dragging and posted() == []
    assert s.hovered   # the motion over it did register as hover


def test_slider_press_that_does_not_change_the_value_posts_nothing():
    s = linear_slider(value=5.0)
    feed(s, down(at(s, 0.5)), up(at(s, 0.5)))
    assert s.value == 5.0 and posted() == []


def test_slider_step_snaps_to_the_grid():
    # the arena's C slider: [0, 3] in steps of 0.05, track 288 px
    s = Slider("c", (472, 82, 300, 30), "C", 0.0, 3.0, 0.7, step=0.05)
    t = s.track
    assert (t.x, t.w) == (478, 288)
    feed(s, down((t.x + 118, t.centery)))     # raw 118/288*3 = 1.229 -> 1.25
    assert s.value == 1.25                     # exact: snapped values are rounded
    assert posted() == [("change", "c", 1.25)]
    feed(s, motion((t.x + 113, t.centery)))   # raw 1.177 -> 1.20
    assert s.value == 1.2 and posted() == [("change", "c", 1.2)]
    feed(s, motion((t.x + 114, t.centery)))   # raw 1.1875 -> still 1.20: no event
    assert s.value == 1.2 and posted() == []


def test_slider_integer_posts_ints():
    # the arena's depth slider: [1, 40], integer
    s = Slider("max_depth", (0, 0, 212, 30), "depth", 1, 40, 10, step=1, integer=True)
    feed(s, down(at(s, 0.3)))                 # raw 12.7 -> 13
    ((kind, wid, value),) = posted()
    assert (kind, wid) == ("change", "max_depth")
    assert value == 13 and type(value) is int
    feed(s, motion(at(s, 0.12)))              # raw 5.68 -> 6
    assert posted() == [("change", "max_depth", 6)] and s.value == 6.0
    s.set(7.4, notify=True)
    assert s.value == 7.0 and posted() == [("change", "max_depth", 7)]


def test_slider_log_mapping():
    # the arena's budget slider: 1..1000 ms, logarithmic track; w=300
    s = Slider("budget_ms", (0, 0, 312, 30), "ms", 1, 1000, 10, log=True, fmt="{:.0f}")
    assert s.log
    assert s.knob_x == s.track.x + 100            # 10 ms sits a third of the way
    feed(s, down(at(s, 2 / 3)))
    assert s.value == pytest.approx(100.0, rel=1e-9)
    feed(s, motion(at(s, 0.5)))
    assert s.value == pytest.approx(math.sqrt(1000.0), rel=1e-9)
    feed(s, motion(at(s, 1.0)), motion(at(s, 0.0)))
    values = [v for _, _, v in posted()]
    assert values == pytest.approx([100.0, math.sqrt(1000.0), 1000.0, 1.0])


def test_slider_log_needs_a_positive_low_end():
    s = Slider("x", (100, 50, 212, 30), "x", 0.0, 10.0, 1.0, log=True)
    assert not s.log
    feed(s, down(at(s, 0.5)))
    assert s.value == pytest.approx(5.0)


def test_slider_set_clamps_and_notifies_only_on_change():
    s = linear_slider(value=5.0, step=0.5)
    s.set(99.0, notify=True)
    s.set(-3.0, notify=True)
    s.set(-7.0, notify=True)                  # already at lo: nothing to post
    s.set(4.3, notify=False)                  # silent, snapped
    assert posted() == [("change", "s", 10.0), ("change", "s", 0.0)]
    assert s.value == 4.5
    assert linear_slider(value=42.0).value == 10.0   # the constructor clamps too


# ------------------------------------------------------------------ slider: keys, wheel
def test_tab_focus_then_arrow_keys_nudge_the_slider():
    s = linear_slider(value=5.0, step=0.5)
    g = WidgetGroup([s])
    assert feed(g, key(pygame.K_RIGHT)) == [False]       # not focused: not ours
    assert s.value == 5.0 and posted() == []
    assert feed(g, key(pygame.K_TAB)) == [True]
    assert s.focused and g.focus_index == 0
    feed(g, key(pygame.K_RIGHT), key(pygame.K_LEFT), key(pygame.K_LEFT))
    assert [v for _, _, v in posted()] == [5.5, 5.0, 4.5]
    feed(g, key(pygame.K_RIGHT, mod=pygame.KMOD_LSHIFT))  # Shift: ten steps, clamped
    assert s.value == 9.5
    feed(g, key(pygame.K_RIGHT, mod=pygame.KMOD_SHIFT), key(pygame.K_RIGHT))
    assert s.value == 10.0
    assert [v for _, _, v in posted()] == [9.5, 10.0]    # the clamped press posts nothing


def test_slider_without_step_nudges_by_a_hundredth_of_the_range():
    s = Slider("g", (0, 0, 212, 30), "g", 0.8, 1.0, 0.9)
    s.focused = True
    feed(s, key(pygame.K_RIGHT))
    assert s.value == pytest.approx(0.902)
    feed(s, key(pygame.K_LEFT, mod=pygame.KMOD_RSHIFT))
    assert s.value == pytest.approx(0.882)


def test_log_slider_nudges_in_track_fractions():
    s = Slider("ms", (0, 0, 312, 30), "ms", 1, 1000, 10, log=True)
    s.focused = True
    feed(s, key(pygame.K_RIGHT, mod=pygame.KMOD_SHIFT))  # +0.2 of the track
    assert s.value == pytest.approx(10 ** (3 * (1 / 3 + 0.2)), rel=1e-9)


def test_mouse_wheel_moves_a_hovered_slider_only():
    s = linear_slider(value=5.0, step=0.5)
    g = WidgetGroup([s])
    assert feed(g, wheel(1)) == [False]
    assert s.value == 5.0
    feed(g, motion((s.rect.centerx, s.rect.centery), buttons=(0, 0, 0)))
    assert s.hovered
    assert feed(g, wheel(2), wheel(-1)) == [True, True]
    assert [v for _, _, v in posted()] == [6.0, 5.5]
    feed(g, motion((0, 0), buttons=(0, 0, 0)))
    assert not s.hovered
    assert feed(g, wheel(1)) == [False] and s.value == 5.5


# ------------------------------------------------------------------ focus
def focus_group():
    hidden = Button("hidden", (0, 200, 50, 20), "h")
    hidden.visible = False
    disabled = Button("disabled", (0, 230, 50, 20), "d")
    disabled.enabled = False
    return WidgetGroup([
        Label("title", (0, 0, 100, 20), "title"),
        Button("a", (0, 30, 80, 24), "A"),
        Slider("s", (0, 60, 212, 30), "s", 0, 10, 5),
        hidden,
        Readout("r", (0, 100, 100, 20), "r", lambda: 1),
        Toggle("t", (0, 130, 100, 22), "t"),
        disabled,
    ])


def focused_ids(g: WidgetGroup) -> list[str]:
    return [w.id for w in g.widgets if w.focused]


def test_tab_and_shift_tab_cycle_focus_over_focusable_visible_enabled_widgets():
    g = focus_group()
    seen = []
    for _ in range(4):
        assert feed(g, key(pygame.K_TAB)) == [True]
        seen.append(focused_ids(g))
    assert seen == [["a"], ["s"], ["t"], ["a"]]            # wraps around
    feed(g, key(pygame.K_TAB, mod=pygame.KMOD_LSHIFT))
    assert focused_ids(g) == ["t"]
    feed(g, key(pygame.K_TAB, mod=pygame.KMOD_SHIFT), key(pygame.K_TAB, mod=pygame.KMOD_SHIFT))
    assert focused_ids(g) == ["a"]
    g.clear_focus()
    assert focused_ids(g) == [] and g.focus_index == -1
    assert posted() == []                                   # focus alone changes nothing


def test_tab_without_focusable_widgets_is_not_consumed():
    g = WidgetGroup([Label("l", (0, 0, 50, 20), "l"), Readout("r", (0, 30, 50, 20), "r", int)])
    assert feed(g, key(pygame.K_TAB)) == [False]


def test_click_focuses_the_widget_under_the_mouse():
    g = focus_group()
    t = g.get("t")
    feed(g, down(t.rect.center), up(t.rect.center))
    assert focused_ids(g) == ["t"] and t.value is True
    # keyboard now goes to the toggle: Enter flips it, Space (the scenes'
    # play / pause) does not
    assert feed(g, key(pygame.K_SPACE, unicode=" ")) == [False]
    assert t.value is True
    feed(g, key(pygame.K_RETURN))
    assert t.value is False
    assert posted() == [("change", "t", True), ("change", "t", False)]
    with pytest.raises(KeyError):
        g.get("nope")


def test_hidden_and_disabled_widgets_ignore_events_and_never_take_focus():
    g = focus_group()
    feed(g, key(pygame.K_TAB))
    assert focused_ids(g) == ["a"]
    for wid in ("hidden", "disabled"):
        b = g.get(wid)
        assert feed(g, down(b.rect.center), up(b.rect.center)) == [False, False]
        assert focused_ids(g) == ["a"]       # Tab skips them; so does a click
    assert posted() == []


# ------------------------------------------------------------------ toggle
def test_toggle_flips_on_click_and_on_keys_when_focused():
    t = Toggle("death_penalty", (10, 10, 150, 22), "death penalty", value=False)
    g = WidgetGroup([t])
    assert feed(g, down(t.rect.center)) == [True]
    assert t.value is True
    assert feed(g, up(t.rect.center)) == [False]            # flips on press only
    feed(g, down(t.rect.center))
    assert t.value is False
    feed(g, down(t.rect.center, button=3), down((400, 400)))   # right button, elsewhere
    assert t.value is False
    t.focused = True
    feed(g, key(pygame.K_RETURN), key(pygame.K_SPACE), key(pygame.K_RETURN))
    assert t.value is False
    assert posted() == [("change", "death_penalty", v) for v in (True, False, True, False)]
    t.set(False)                                            # silent
    t.set(False, notify=True)                               # no change: silent
    assert t.value is False and posted() == []


def test_unfocused_toggle_ignores_keys():
    t = Toggle("x", (10, 10, 150, 22), "x", value=True)
    assert feed(t, key(pygame.K_SPACE), key(pygame.K_RETURN)) == [False, False]
    assert t.value is True and posted() == []


# ------------------------------------------------------------------ button
def test_button_clicks_on_release_inside():
    b = Button("step", (20, 20, 64, 26), "Step")
    g = WidgetGroup([b])
    assert feed(g, down(b.rect.center)) == [True]
    assert posted() == []                                   # nothing on press
    assert feed(g, up(b.rect.center)) == [True]
    assert posted() == [("click", "step", None)]
    # pressed inside, released outside: cancelled
    feed(g, down(b.rect.center), motion((300, 300)), up((300, 300)))
    assert posted() == []
    # a release that was not pressed here is not ours
    assert feed(g, up(b.rect.center)) == [False]
    assert posted() == []


def test_focused_button_clicks_on_return_not_space():
    b = Button("play", (20, 20, 64, 26), "Play")
    g = WidgetGroup([b])
    feed(g, key(pygame.K_RETURN))
    assert posted() == []
    feed(g, key(pygame.K_TAB), key(pygame.K_RETURN), key(pygame.K_SPACE), key(pygame.K_a))
    assert posted() == [("click", "play", None)]


# ------------------------------------------------------------------ picker
ELIM = [("pass", "pass-through nodes"), ("freeze", "freeze tree")]
SPEEDS = [(0.5, "x0.5"), (1.0, "x1"), (2.0, "x2"), (None, "max")]


def test_picker_box_leaves_room_for_the_label():
    p = Picker("e", (100, 100, 300, 24), "eliminated:", ELIM, "pass")
    q = Picker("f", (100, 100, 300, 24), "", ELIM, "pass")
    assert q.box == q.rect
    assert p.box.x > p.rect.x and p.box.right == p.rect.right
    assert p.option_rect(0).top == p.box.bottom
    assert p.option_rect(1).top == p.box.bottom + p.box.h


def test_picker_opens_on_click_and_chooses_an_option():
    p = Picker("speed", (50, 10, 200, 26), "speed", SPEEDS, 1.0)
    g = WidgetGroup([p])
    assert feed(g, down(p.box.center)) == [True]
    assert p.open and p.value == 1.0 and posted() == []
    feed(g, up(p.box.center))
    assert p.open                                          # stays open until a choice
    assert feed(g, down(p.option_rect(3).center)) == [True]
    assert not p.open and p.value is None and p.index == 3
    assert posted() == [("change", "speed", None)]
    # choosing the current value again posts nothing
    feed(g, down(p.box.center), down(p.option_rect(3).center))
    assert not p.open and posted() == []


def test_open_picker_owns_the_mouse_over_widgets_below_it():
    p = Picker("elimination", (0, 0, 300, 24), "", ELIM, "pass")
    below = Toggle("death_penalty", (0, 48, 150, 22), "death penalty")   # under option 1
    g = WidgetGroup([below, p])                 # the toggle comes first in order
    assert p.option_rect(1).colliderect(below.rect)
    feed(g, down(p.box.center))
    click = (p.option_rect(1).x + 5, p.option_rect(1).centery)
    assert below.rect.collidepoint(click)
    feed(g, down(click), up(click))
    assert p.value == "freeze" and below.value is False
    assert posted() == [("change", "elimination", "freeze")]


def test_click_elsewhere_closes_the_picker_without_a_change():
    p = Picker("e", (0, 0, 300, 24), "", ELIM, "pass")
    g = WidgetGroup([p])
    feed(g, down(p.box.center))
    assert p.open
    assert feed(g, down((600, 600))) == [False]
    assert not p.open and p.value == "pass"
    feed(g, down(p.box.center))
    assert feed(g, down(p.box.center)) == [True]           # its own box closes it too
    assert not p.open and posted() == []


def test_picker_keys_cycle_open_and_close():
    p = Picker("speed", (50, 10, 200, 26), "", SPEEDS, 1.0)
    g = WidgetGroup([p])
    assert feed(g, key(pygame.K_DOWN)) == [False]           # not focused
    feed(g, key(pygame.K_TAB))
    assert p.focused
    feed(g, key(pygame.K_DOWN), key(pygame.K_DOWN), key(pygame.K_DOWN), key(pygame.K_UP))
    assert [v for _, _, v in posted()] == [2.0, None, 0.5, None]   # wraps both ways
    feed(g, key(pygame.K_RETURN))
    assert p.open
    feed(g, key(pygame.K_ESCAPE))
    assert not p.open
    feed(g, key(pygame.K_SPACE))
    assert not p.open                                      # Space is play / pause
    feed(g, key(pygame.K_RETURN))
    assert p.open
    # while open, it has the keys even without focus
    g.clear_focus()
    feed(g, key(pygame.K_UP))
    assert p.value == 2.0 and posted() == [("change", "speed", 2.0)]
    feed(g, key(pygame.K_RETURN))
    assert not p.open
    assert feed(g, key(pygame.K_ESCAPE)) == [False]        # closed and unfocused


def test_picker_set_ignores_values_it_does_not_offer():
    p = Picker("e", (0, 0, 300, 24), "", ELIM, "pass")
    p.set("explode", notify=True)
    assert p.value == "pass" and posted() == []
    p.set("freeze", notify=True)
    assert p.value == "freeze" and posted() == [("change", "e", "freeze")]


# ------------------------------------------------------------------ drawing
def count(surface: pygame.Surface, rect: pygame.Rect, color) -> int:
    n = 0
    c = surface.map_rgb(color)
    for x in range(rect.x, rect.right):
        for y in range(rect.y, rect.bottom):
            if surface.get_at_mapped((x, y)) == c:
                n += 1
    return n


def test_open_picker_popup_is_drawn_over_the_widgets_below():
    surf = pygame.Surface((400, 200))
    p = Picker("e", (0, 0, 300, 24), "", ELIM, "pass")
    below = Toggle("t", (0, 48, 150, 22), "t", value=True)   # its switch is ACCENT
    g = WidgetGroup([p, below])
    surf.fill(pal.BG)
    g.draw(surf)
    assert count(surf, below.rect, pal.ACCENT) > 50
    p.open = True
    surf.fill(pal.BG)
    g.draw(surf)
    assert count(surf, below.rect, pal.ACCENT) == 0


def test_slider_fill_follows_the_value():
    surf = pygame.Surface((400, 100))
    s = linear_slider(value=2.5)
    t = s.track
    lit = []
    for v in (2.5, 7.5):
        s.set(v)
        surf.fill(pal.BG)
        s.draw(surf)
        lit.append(count(surf, pygame.Rect(t.x, t.y, t.w, t.h), pal.ACCENT))
    assert 0 < lit[0] < lit[1]


def test_readout_reads_each_frame_and_survives_a_failing_read():
    surf = pygame.Surface((300, 40))
    state = {"value": 12, "warn": False}

    def read():
        if state["value"] is None:
            raise RuntimeError("gone")
        return state["value"]

    r = Readout("its", (0, 0, 200, 20), "it/s", read, fmt="{:,}", warn=lambda: state["warn"])
    assert not r.focusable
    r.draw(surf)
    assert count(surf, r.rect, pal.TEXT) > 0 and count(surf, r.rect, pal.WARN) == 0
    state["warn"] = True
    surf.fill((0, 0, 0))
    r.draw(surf)
    assert count(surf, r.rect, pal.WARN) > 0
    state["value"] = None
    r.draw(surf)                                   # does not raise
    assert feed(r, down(r.rect.center)) == [False]


def test_tooltip_at_finds_the_widget_under_the_mouse():
    b = Button("shot", (0, 0, 40, 20), "PNG", tooltip="screenshot (P)")
    t = Toggle("t", (0, 30, 40, 20), "t")
    g = WidgetGroup([b, t])
    assert g.tooltip_at((5, 5)) == "screenshot (P)"
    assert g.tooltip_at((5, 35)) is None                   # no tooltip
    b.visible = False
    assert g.tooltip_at((5, 5)) is None
