"""tools/goofspiel_bids.py: the bid profile the estimate diagnosis in
docs/measuring-strength.md quotes, checked on hand-made rounds, and one
short real run (both seats' rounds come from the game's own history)."""
from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "goofspiel_bids.py"
spec = importlib.util.spec_from_file_location("goofspiel_bids", TOOL)
bids = importlib.util.module_from_spec(spec)
sys.modules["goofspiel_bids"] = bids     # its dataclasses look their module up
spec.loader.exec_module(bids)
Round = bids.Round


def test_profile_by_hand():
    # two games of three rounds, the first two early
    g1 = [Round(3, 0, (3, 1)), Round(2, 1, (1, 2)), Round(1, -1, (2, 2))]
    g2 = [Round(3, -1, (2, 2)), Round(2, 0, (3, 1)), Round(1, 1, (1, 3))]
    p0 = bids.profile([g1, g2], 0, early=2)
    # early bids 3, 1, 2, 3 on prizes 3, 2, 3, 2: mean 2.25
    assert p0.early_bid == 2.25
    # seat 0 won 3 (game 1) and 2 (game 2) early, nothing later: per game
    assert (p0.early_points, p0.late_points) == (2.5, 0.0)
    # r of (3, 1, 2, 3) with (3, 2, 3, 2): covariance 0.125 / (sqrt(0.6875) * 0.5)
    assert p0.correlation == pytest.approx(0.125 / (math.sqrt(0.6875) * 0.5))
    p1 = bids.profile([g1, g2], 1, early=2)
    assert (p1.early_bid, p1.early_points, p1.late_points) == (1.5, 1.0, 0.5)


def test_a_short_run_records_every_round():
    games = bids.play("goofspiel_13_duel", ["game_params.num_cards=5"], "random", "uct", 50,
                      range(1, 3))
    assert len(games) == 2
    for rounds in games:
        assert len(rounds) == 5
        for seat in range(2):   # each card spent once
            assert sorted(r.bids[seat] for r in rounds) == [1, 2, 3, 4, 5]
        assert sorted(r.prize for r in rounds) == [1, 2, 3, 4, 5]
        for r in rounds:
            hi = max(r.bids)
            assert r.winner == (-1 if r.bids[0] == r.bids[1] else r.bids.index(hi))
