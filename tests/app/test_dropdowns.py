"""Open dropdowns in the app: on top of everything, no hover box over their
list, and every option's name readable in full (a list as wide as its
longest option; a closed box that has to cut its name says it in full in its
tooltip)."""
from __future__ import annotations

import pygame
from test_arena import app, down, make_arena, motion  # noqa: F401

from sandbox.render import fonts, palette as pal
from sandbox.ui import Picker, WidgetGroup


def test_an_open_list_is_as_wide_as_its_longest_option_and_a_cut_name_has_a_tooltip():
    pygame.display.init()
    pygame.font.init()
    p = Picker("policy", (10, 10, 90, 24), "", [("a", "UCB1"), ("b", "UCB1-Tuned power mean")],
               "b", tooltip="selection policy")
    longest = fonts.text("UCB1-Tuned power mean", 13, pal.TEXT).get_width()
    assert p.box.w < longest                       # the box is too narrow for it...
    assert p.shown_name().endswith("…")
    assert p.tooltip.startswith("UCB1-Tuned power mean")     # ...so its tooltip names it
    assert "selection policy" in p.tooltip
    assert all(p.option_rect(i).w >= longest + 12 for i in range(2))   # the list fits it
    p.set("a")
    assert p.shown_name() == "UCB1" and p.tooltip == "selection policy"


def test_no_tooltip_while_a_dropdown_is_open():
    pygame.display.init()
    pygame.font.init()
    g = WidgetGroup()
    p = g.add(Picker("pick", (10, 10, 120, 24), "", [(1, "one"), (2, "two")], 1, "pick one"))
    below = g.add(Picker("other", (10, 40, 120, 24), "", [(1, "x")], 1, "a tip"))
    assert g.tooltip_at(below.rect.center) == "a tip"
    p.open = True
    assert g.tooltip_at(below.rect.center) is None


def test_the_arena_draws_an_open_list_last_and_no_hover_box(app, monkeypatch):  # noqa: F811
    arena = make_arena(app)
    pick = arena.widgets.get("algorithm")          # its list opens over the sliders
    arena.handle_event(down(pick.box.center))
    assert pick.open
    # the mouse over an option that lies on a slider with a tooltip
    under = [(i, w) for i in range(len(pick.options)) for w in arena.widgets.widgets
             if w is not pick and w.tooltip and w.rect.collidepoint(pick.option_rect(i).center)]
    assert under, "no widget under the open list: the test needs one"
    i, w = under[-1]
    arena.handle_event(motion(pick.option_rect(i).center))
    calls = []
    import sandbox.app.arena.scene as scene_mod
    monkeypatch.setattr(scene_mod, "draw_tooltip", lambda *a, **k: calls.append(a))
    for tv in arena.trees:
        monkeypatch.setattr(tv, "draw_tooltip", lambda *a, **k: calls.append(a))
    monkeypatch.setattr(type(arena.matrices[0]) if arena.matrices else object,
                        "draw_tooltip", lambda *a, **k: calls.append(a), raising=False)
    surf = pygame.Surface(app.screen.get_size())
    arena.draw(surf)
    assert calls == []
    # the option rows are the popup's colours edge to edge (nothing over them)
    for i in range(len(pick.options)):
        o = pick.option_rect(i)
        fill = pal.PANEL_HI if pick.options[i][0] == pick.value else pal.PANEL
        for x in (o.x + 2, o.right - 3):
            assert tuple(surf.get_at((x, o.y + 3)))[:3] == tuple(fill)
