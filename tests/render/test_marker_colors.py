"""Timeline and chart markers do not read as player colours: an
elimination marker was drawn in red, next to the Red snake's own red.
They are neutral shades now, told apart by shape."""
from __future__ import annotations

import math

import pygame

from sandbox.config import list_scenarios, load_scenario
from sandbox.render import charts
from sandbox.render import palette as pal
from sandbox.replay.stats import PALETTE
from sandbox.ui import timeline

MIN_DISTANCE = 60.0      # RGB distance: red (230,80,70) vs the old marker (235,95,95) was 30
MAX_CHROMA = 16          # max - min channel: a grey, not a hue


def player_colors() -> set[tuple[int, int, int]]:
    out = {tuple(c) for c in pal.AGENT_COLORS} | {tuple(c) for c in PALETTE}
    for path in list_scenarios():
        for p in load_scenario(path).players:
            if p.color is not None:
                out.add(tuple(p.color))
    return out


def test_marker_colours_are_neutral_and_far_from_every_player_colour():
    players = player_colors()
    assert (230, 80, 70) in players and len(players) >= 8
    marks = pal.MARKER_COLORS
    assert charts.MARKER_COLORS == marks and timeline.MARKER_COLORS == marks
    for kind, c in marks.items():
        assert max(c) - min(c) <= MAX_CHROMA, (kind, c)
        for p in players:
            assert math.dist(c, p) >= MIN_DISTANCE, (kind, c, p)
    a, b = marks["elimination"], marks["settings"]
    assert math.dist(a, b) >= MIN_DISTANCE


def test_the_timeline_draws_its_markers_in_those_colours():
    surf = pygame.Surface((400, 60))
    surf.fill(pal.BG)
    tl = timeline.Timeline("t", (10, 20, 380, 16), 0, 40, 0,
                           [(10, "elimination", "Red out"), (30, "settings", "Blue: c=1.2")])
    tl.draw(surf)
    colours = {tuple(surf.get_at((x, y)))[:3] for x in range(400) for y in range(60)}
    assert pal.MARKER_COLORS["elimination"] in colours
    assert pal.MARKER_COLORS["settings"] in colours
    assert (235, 95, 95) not in colours and (110, 170, 255) not in colours
