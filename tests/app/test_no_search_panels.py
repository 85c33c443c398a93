"""Tree panels where nobody searches: one message for the whole tree area
(a person and the game's bot play), not a "no search data yet" panel per
agent; a person's panel beside a search says it has no tree."""
from __future__ import annotations

import pygame
from test_arena import app  # noqa: F401

from sandbox.app.arena import ArenaScene
from sandbox.config import load_scenario
from sandbox.render import fonts


def arena_of(app, name):  # noqa: F811
    a = ArenaScene(app, load_scenario(name), seed=1, recorder_factory=lambda: None, paused=True)
    app.push(a)
    return a


def texts_drawn(monkeypatch, arena, surf):
    """Every string the arena's frame writes (through fonts.text)."""
    seen = []
    real = fonts.text

    def spy(s, *a, **k):
        seen.append(s)
        return real(s, *a, **k)
    monkeypatch.setattr(fonts, "text", spy)
    import sandbox.app.arena.panels as panels
    monkeypatch.setattr(panels, "text", spy)
    arena.draw(surf)
    return seen


def test_nobody_searches_one_message(app, monkeypatch):  # noqa: F811
    arena = arena_of(app, "pods_you_vs_bots")
    seen = texts_drawn(monkeypatch, arena, pygame.Surface(app.screen.get_size()))
    assert sum("no search data yet" in s for s in seen) == 0
    assert sum("no root statistics yet" in s for s in seen) == 0
    assert sum(s.startswith("nobody searches in this match") for s in seen) == 1


def test_a_persons_panel_beside_a_search_says_it_has_no_tree(app, monkeypatch):  # noqa: F811
    arena = arena_of(app, "goofspiel_you")
    seen = texts_drawn(monkeypatch, arena, pygame.Surface(app.screen.get_size()))
    assert "a person plays: no search, no tree" in seen
    assert "You — human" in seen                 # its header stays


def test_a_persons_controls_note_is_not_under_the_pickers(app, monkeypatch):  # noqa: F811
    """The controls of a player a person moves: one line saying so, on a
    row of its own. It was drawn under the tree pickers, one letter showing
    between them: the frame with the note and the frame without it differ
    only in that letter."""
    arena = arena_of(app, "goofspiel_you")
    assert arena.selected == 0
    import sandbox.app.arena.controls as controls
    real = controls.text
    size = []

    def frame(hide: bool) -> pygame.Surface:
        def spy(s, *a, **k):
            lab = real(s, *a, **k)
            if s.startswith("You: "):
                size.append(lab.get_size())
                if hide:
                    return pygame.Surface((0, 0))
            return lab
        monkeypatch.setattr(controls, "text", spy)
        surf = pygame.Surface(app.screen.get_size())
        arena.draw(surf)
        return surf

    shown, hidden = frame(False), frame(True)
    assert size, "the note is not drawn"
    c = arena.layout["controls"]
    diff = [(x, y) for x in range(c.x, c.right) for y in range(c.y, c.y + 80)
            if shown.get_at((x, y)) != hidden.get_at((x, y))]
    xs = [x for x, _ in diff]
    assert diff and max(xs) - min(xs) >= 0.8 * size[0][0], "the note is mostly hidden"
