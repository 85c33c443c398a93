"""The belief view: the way down to the picked public state (each step a
click back up), its children with their probabilities given it (each a click
down), what a childless state is, and the picked state's posteriors drawn as
range bars."""
from __future__ import annotations

import pygame
import pytest

import sandbox.render.belief_view as bv
from sandbox.games import plugin
from sandbox.sim.controller import BeliefNode

P = plugin("goofspiel")
COLORS = [(230, 80, 70), (80, 140, 240)]


def node(index, parent, depth, reach, label, ranges=((), ()), expanded=True, children=0):
    return BeliefNode(index=index, parent=parent, depth=depth, reach=reach, histories=1,
                      expanded=expanded, children=children, state=(label,), ranges=ranges)


TREE = (
    node(0, -1, 0, 1.0, "start", (((0b111, 1.0),), ((0b111, 1.0),)), children=2),
    node(1, 0, 1, 0.25, "tie on the 3", children=0),
    node(2, 0, 1, 0.75, "Red won the 3", (((0b011, 1.0),), ((0b101, 0.4), (0b110, 0.6))),
         children=3),
    node(3, 2, 2, 0.5, "Blue won the 2", expanded=False),
)


def draw(texts, selected, tree=TREE, size=(640, 300)):
    """(the strings drawn, the clickable rectangles) of one frame."""
    texts.clear()
    surface = pygame.Surface(size)
    hits = bv.draw_beliefs(surface, pygame.Rect(0, 0, *size), tree, selected,
                           lambda b: b.state[0], P.private_label, COLORS, ["Red", "Blue"])
    return list(texts), hits


def test_the_root_offers_its_children_likeliest_first(texts):
    drawn, hits = draw(texts, 0)
    assert "now" in drawn
    assert drawn.index("Red won the 3 75%") < drawn.index("tie on the 3 25%")
    assert [i for _, i in hits] == [2, 1]            # no step back: it is the root
    assert "Red's belief (1 hand)" in drawn and "1 2 3" in drawn


def test_a_picked_state_shows_the_way_back_its_children_and_its_posteriors(texts):
    drawn, hits = draw(texts, 2)
    assert "now" in drawn and "Red won the 3" in drawn
    # the child's probability is given its parent: 0.5 / 0.75
    assert "Blue won the 2 67%" in drawn
    assert sorted(i for _, i in hits) == [0, 3]      # back to the root, down to 3
    assert "Blue's belief (2 hands)" in drawn and "60.0%" in drawn and "2 3" in drawn
    back = next(r for r, i in hits if i == 0)
    down = next(r for r, i in hits if i == 3)
    assert back.y < down.y                           # the way down first, then the children


@pytest.mark.parametrize("selected, why", [
    (3, "the frontier: valued by the game's evaluation"),
    (1, "every joint move here ends the game"),
])
def test_a_childless_state_says_why(texts, selected, why):
    drawn, _ = draw(texts, selected)
    assert why in drawn


def test_states_below_the_views_depth_are_counted(texts):
    tree = TREE[:3]      # node 2 has three children in the search, none here
    drawn, _ = draw(texts, 2, tree)
    assert "3 public states below: deeper than the view walks" in drawn


def test_an_unknown_pick_falls_back_to_the_root_and_none_says_so(texts):
    drawn, hits = draw(texts, 99)
    assert [i for _, i in hits] == [2, 1]
    drawn, hits = draw(texts, 0, ())
    assert hits == [] and "no public tree yet" in drawn
