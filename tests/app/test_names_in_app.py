"""Names in the arena that a person must tell apart: a team's agents in the
scoreboard and the tree panels, the player tabs, the meters' name column
(a name must not run into the number beside it)."""
from __future__ import annotations

import pygame
from test_arena import app  # noqa: F401

from sandbox.app.arena import ArenaScene
from sandbox.config import Budget, load_scenario
from sandbox.names import agent_labels, agent_phrase, player_labels, short_name
from sandbox.render import palette as pal
from sandbox.render.fonts import text


def test_labels_by_hand():
    assert short_name("Red (Smitsimax)") == "Red" and short_name("(x)") == "(x)"
    names = ["Red (Smitsimax)"] * 4 + ["Blue (SUCT)"] * 4
    assert agent_labels(names) == ["Red #0", "Red #1", "Red #2", "Red #3",
                                   "Blue #4", "Blue #5", "Blue #6", "Blue #7"]
    assert agent_labels(["You", "Smitsimax"]) == ["You", "Smitsimax"]
    assert player_labels(["Red (A)", "Blue (B)"]) == ["Red", "Blue"]
    assert player_labels(["Red (A)", "Red (B)"]) == ["Red (A)", "Red (B)"]   # kept apart
    assert agent_phrase(["You", "You", "Blue", "Blue"], 1) == "your agent 1"
    assert agent_phrase(["Red", "Red"], 1) == "Red #1"


def arena_of(app, name: str) -> ArenaScene:  # noqa: F811
    a = ArenaScene(app, load_scenario(name), seed=1, budget=Budget(iterations=100, ms=0),
                   recorder_factory=lambda: None, paused=True)
    app.push(a)
    return a


def test_four_a_side_tabs_rows_and_panels_can_be_told_apart(app, monkeypatch):  # noqa: F811
    arena = arena_of(app, "snakebyte_4v4")
    tabs = [arena.widgets.get(f"tab{i}") for i in range(2)]
    assert [t.label for t in tabs] == ["Red", "Blue"]
    for t in tabs:   # the whole label inside its button
        assert text(t.label, 13, pal.TEXT).get_width() <= t.rect.w - 8
    # what the scoreboard writes: one distinct row name per agent
    import sandbox.app.arena.meters as meters
    seen = []
    monkeypatch.setattr(meters, "draw_scoreboard",
                        lambda surface, rect, plugin, view, colors, names, scores:
                        seen.append(list(names)))
    arena.draw(pygame.Surface(app.screen.get_size()))
    assert len(seen[0]) == 8 and len(set(seen[0])) == 8
    # the tree panels' headers: one per panel, each names its agents apart
    heads = [arena._group_title(g)[0] for g in arena._groups]
    assert len(set(heads)) == len(heads)
    assert heads[0].startswith("Red #0")


def test_a_name_in_the_meters_does_not_run_into_its_number(app):  # noqa: F811
    arena = arena_of(app, "goofspiel_you")
    surf = pygame.Surface(app.screen.get_size())
    arena.draw(surf)
    r = arena.layout["right"]
    f = min(1.0, (r.w - 30) / 380)
    gap_x = r.x + int(88 * f) - 3            # just left of the it/s column
    # the meters' rows start below the scoreboard (26 px a row) and the header
    y0 = r.y + 26 * 2 + 10 + 16
    for y in range(y0, y0 + 2 * 17):
        for x in range(gap_x - 2, gap_x + 2):
            assert tuple(surf.get_at((x, y)))[:3] == tuple(pal.BG), (x, y)
