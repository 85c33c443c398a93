"""The range bars: one row per hand (entries for one hand summed), most
likely first, the labels the game gives, and what does not fit summed."""
from __future__ import annotations

import pygame
import pytest

import sandbox.render.range_bars as rb
from sandbox.games import plugin


def test_a_hands_entries_are_summed_and_the_likeliest_come_first():
    rows = rb.ordered([(0b011, 0.25), (0b101, 0.5), (0b011, 0.125), (0b110, 0.125)])
    assert rows == [(0b101, 0.5), (0b011, 0.375), (0b110, 0.125)]
    assert rb.ordered([]) == []
    # reach weights that do not sum to 1 are shown as shares
    assert rb.ordered([(1, 0.2), (2, 0.6)]) == [(2, pytest.approx(0.75)), (1, pytest.approx(0.25))]


def test_goofspiel_labels_a_hand_by_its_cards():
    label = plugin("goofspiel").private_label
    assert label(0b1011) == "1 2 4" and label(1 << 12) == "13" and label(0) == "-"


@pytest.mark.parametrize("height, shown", [(400, 3), (16 * 2 + 18, 1)])
def test_what_is_drawn(texts, height, shown):
    drawn = texts
    surface = pygame.Surface((500, 420))
    ranges = (((0b0011, 1.0),),
              ((0b1100, 0.5), (0b1010, 0.25), (0b0110, 0.125), (0b1100, 0.125)))
    rb.draw_ranges(surface, pygame.Rect(0, 0, 500, height), ranges,
                   plugin("goofspiel").private_label, [(230, 80, 70), (80, 140, 240)],
                   ["Red", "Blue"])
    assert "Red's range (1 hand)" in drawn and "Blue's range (3 hands)" in drawn
    assert "1 2" in drawn and "100.0%" in drawn
    blue = ["3 4", "2 4", "2 3"][:shown]
    assert all(x in drawn for x in blue)
    if shown == 3:
        assert "62.5%" in drawn                      # 3 4: its two entries summed
    else:
        assert any(s.startswith("2 more hands: ") for s in drawn)
