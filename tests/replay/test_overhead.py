"""The recording-cost measurement behind `python -m sandbox bench --recording`:
its figures are measured, not made up (a recorder that writes nothing, or a
timer that never runs, would fail here). Speeds are not asserted."""
from __future__ import annotations

from sandbox.replay.overhead import measure


def test_measure_reports_a_real_share_and_real_bytes():
    r = measure(turns=3, ms=5.0, reps=1, trees=50)
    assert r["no_record_mean_turn_ms"] > 0
    plain, trees = r["record"], r["record_trees_50"]
    for x in (plain, trees):
        assert 0 < x["direct_share"] < 1
        assert x["recorder_ms_per_turn"] > 0
        assert x["bytes_per_turn"] > 0
    # the tree-recording file holds the trees as well: more bytes per turn
    assert trees["bytes_per_turn"] > plain["bytes_per_turn"]
