"""The step view of a GT-CFR iteration: its regret-update phase first
(sweeps, nodes, each player's root strategies before -> after), then the
expansion simulation; laid out inside the arena's panel sizes without
overlap, a "no sweep" step saying why."""
from __future__ import annotations

import numpy as np
import pygame
import pytest

from sandbox.native import Game, Search, SearchParams
from sandbox.render import fonts, palette
from sandbox.render.step_view import (GT_PHASES, MERGE_COLOR, PHASES, UPDATE_COLOR,
                                      StepAnimation)

COLORS = [palette.agent_color(a) for a in range(2)]


def card(m: int) -> str:
    return str(m + 1)


def gt_trace(cards: int = 5, c: float = 1.0, steps: int = 1, seed: int = 1):
    with Game("goofspiel", f"num_cards={cards}") as g, \
            Search(g, SearchParams(algorithm="gtcfr", expansions_per_update=c), seed=seed) as s:
        for _ in range(steps):
            t = s.step_traced()
    return t


def count(surf, color) -> int:
    a = pygame.surfarray.array3d(surf)
    return int(np.all(a == np.array(color), axis=-1).sum())


def test_gtcfr_plays_its_update_phase_first():
    t = gt_trace(steps=3)
    anim = StepAnimation(t, 2, COLORS, card, held=True)
    assert anim.phases == GT_PHASES and len(anim.phase_ms) == 5
    seen = []
    while not anim.done:
        anim.update(1e6)
        seen.append(anim.phase)
        anim.skip_phase()
    assert seen == ["update", *PHASES]
    # a smitsimax trace (no update) keeps its four phases
    with Game("goofspiel", "num_cards=5") as g, Search(g, seed=1) as s:
        plain = StepAnimation(s.step_traced(), 2, COLORS, card)
    assert plain.phases == PHASES and len(plain.phase_ms) == 4
    with pytest.raises(ValueError):
        StepAnimation(t, 2, COLORS, card, phase_ms=(1, 2, 3))


def test_update_text_says_what_the_sweeps_did():
    t = gt_trace(steps=2)
    anim = StepAnimation(t, 2, COLORS, card, expansions_per_update=1.0)
    u = t.update
    assert u.sweeps == 1 and u.nodes > 0
    assert anim.status_text() == f"regret update: 1 sweep over {u.nodes} nodes"
    rows = anim.update_rows(0)
    assert [r[0] for r in rows] == list(u.moves[0])
    assert [r[2] for r in rows] == list(u.current_after[0])
    assert [r[4] for r in rows] == list(u.average_after[0])
    idle = StepAnimation(gt_trace(c=4.0), 2, COLORS, card, expansions_per_update=4.0)
    assert idle.trace.update.sweeps == 0
    assert idle.status_text() == "no sweep this step (c = 4: one sweep every 4 expansions)"


# the arena at 1600x1000: one GT-CFR panel for both players, or one per
# player (each its own panel); at 1280x800 the panels are lower
LAYOUTS = {
    "one panel": ([pygame.Rect(8, 40, 1260, 250)], [pygame.Rect(8, 20, 1260, 270)]),
    "two panels": ([pygame.Rect(8, 40, 620, 250), pygame.Rect(640, 40, 620, 250)],
                   [pygame.Rect(8, 20, 620, 270), pygame.Rect(640, 20, 620, 270)]),
    "small window": ([pygame.Rect(8, 40, 1000, 180)], [pygame.Rect(8, 20, 1000, 200)]),
}


@pytest.mark.parametrize("cards", [5, 13])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_update_phase_fits_the_panels_without_overlap(layout, cards):
    rects, boxes = LAYOUTS[layout]
    t = gt_trace(cards=cards, steps=2)
    anim = StepAnimation(t, 2, COLORS, card, held=True)
    surf = pygame.Surface((1280, 320))
    anim.draw_overlay(surf, rects, box_rects=boxes)
    union = boxes[0].unionall(boxes[1:])
    head = anim.update_header
    assert union.contains(head)
    cols = anim.update_boxes
    assert len(cols) == 2
    for a, col in enumerate(cols):
        assert union.contains(col) and not col.colliderect(head)
        if len(boxes) == 2:                       # each player in its own panel
            assert boxes[a].contains(col)
        lh = max(fonts.font(10).get_linesize(), 13)
        moves = len(t.update.moves[a])
        # a heading, then a line per move or, where they do not all fit,
        # as many as fit and a line counting the others
        fits = (col.h - lh) // lh
        assert fits == moves or (fits < moves and col.bottom > union.bottom - 2 * lh - 2)
    assert not cols[0].colliderect(cols[1])
    assert count(surf, UPDATE_COLOR) > 0 and count(surf, MERGE_COLOR) == 0
    # then the expansion: the joint-action strip, no update boxes drawn
    anim.skip_phase()
    anim.skip_phase()
    anim.update(1e6)
    surf.fill((0, 0, 0))
    strip = anim.draw_overlay(surf, rects, box_rects=boxes)
    assert anim.phase == "joint" and strip.h == anim.strip_height
    assert count(surf, MERGE_COLOR) > 0 and count(surf, UPDATE_COLOR) == 0


def test_more_moves_than_fit_are_counted():
    t = gt_trace(cards=13, steps=2)
    anim = StepAnimation(t, 2, COLORS, card)
    surf = pygame.Surface((600, 200))
    anim.draw_overlay(surf, [pygame.Rect(0, 0, 600, 140)])
    lh = max(fonts.font(10).get_linesize(), 13)
    for col in anim.update_boxes:
        assert col.bottom <= 140
        # heading + shown moves + the "… N more moves" line
        assert (col.h // lh) - 2 < 13


def test_a_refining_simulation_says_so_at_its_last_phase():
    """expand_after > 1: a simulation that ends on a leaf short of its
    expansion adds a value to it; the last phase says that (visit, the
    value, the new mean) instead of "new leaf valued", and the value box
    leads with it, from each player's side."""
    with Game("goofspiel", "num_cards=5") as g, \
            Search(g, SearchParams(algorithm="gtcfr", rollout=True, expand_after=8),
                   seed=2) as s:
        traces = [s.step_traced() for _ in range(12)]
    t = next(x for x in traces if x.refine is not None)
    r = t.refine
    anim = StepAnimation(t, 2, COLORS, card, held=True)
    while anim.phase != "backprop":
        anim.skip_phase()
        anim.update(1e6)
    text = anim.status_text()
    assert text.startswith(f"leaf refined, not expanded (visit {r.visits} of 8): "
                           f"value {r.value:+.3g}, mean of {r.samples} now {r.mean:.3g}")
    assert anim.score_lines(0)[:2] == [
        f"leaf refined, not expanded: visit {r.visits} (it expands at visit 8)",
        f"this value {r.value:+.3g}, the leaf's mean of {r.samples} now {r.mean:.3g}"]
    assert anim.score_lines(1)[1].startswith(f"this value {-r.value:+.3g}")
    # a simulation that expanded keeps the plain text
    plain = gt_trace(steps=3)
    assert plain.refine is None
    anim = StepAnimation(plain, 2, COLORS, card, held=True)
    while anim.phase != "backprop":
        anim.skip_phase()
        anim.update(1e6)
    assert anim.status_text().startswith("new leaf valued")
