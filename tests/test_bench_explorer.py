"""`bench --explorer` runs end to end (quick: a 100,000-node tree) and its
zoom really goes down the tree: the view's root moves deeper and C is asked
for those subtrees. No timing is asserted (figures are the bench's job)."""
from __future__ import annotations

import json

from sandbox.bench.report import run_bench


def test_bench_explorer_quick_json(capsys):
    assert run_bench(json_out=True, quick=True, explorer=True) == 0
    out = json.loads(capsys.readouterr().out)
    r = out["explorer"]
    assert "not comparable" in out["note"]
    assert r["tree_nodes"] >= 100_000 and r["visible_rows"] == 4_000
    assert r["zoom_frames"] == 80 and r["renders"] == 80     # every zoom step re-rendered
    assert r["subtree_fetches"] > 0 and r["deepest_root"] >= 3
    assert r["frame_ms_p50"] <= r["frame_ms_p95"] <= r["frame_ms_max"]
    assert len(r["reroot_frame_ms"]) == 3
