"""The bench's GT-CFR section (sandbox/bench/gtcfr.py): which cases have it,
that its figures are C's own counts (the update's node count is exact for a
seed and a budget, so it is asserted; speeds only as positive), and that the
cost table shows the update's work growing with the tree."""
from __future__ import annotations

import pytest

from sandbox.bench.gtcfr import QUICK_SIZES, gtcfr_figures, growth, print_and_rows
from sandbox.bench.markdown import Rows
from sandbox.games import plugins
from sandbox.native import Game, Search, SearchParams

CASES = [(p.kind, c) for p in plugins() for c in p.bench[:1] if c.gtcfr is not None]


def test_two_games_declare_a_gtcfr_case():
    assert len(CASES) >= 2
    for kind, case in CASES:
        with Game(kind, case.game_params) as g:
            assert g.num_agents == 2, kind      # GT-CFR solves two-player games


@pytest.mark.parametrize("kind,case", CASES, ids=[k for k, _ in CASES])
def test_figures_are_the_searchs_own(kind, case):
    m = gtcfr_figures(kind, case, quick=True)
    assert m["expansions_per_s"] > 0 and m["update_nodes_per_s"] > 0
    # the same search again: its stats give the node count and the bytes
    with Game(kind, case.game_params, seed=1) as g, \
            Search(g, SearchParams(**{**case.gtcfr, "algorithm": "gtcfr"}), seed=1) as s:
        s.run(iterations=m["expansions"])
        st = s.stats()
    assert m["nodes"] == st.nodes[0]
    assert m["node_struct_bytes"] == st.node_bytes == 80
    assert m["bytes_per_node"] == pytest.approx(80 + st.edge_bytes / st.nodes[0], abs=0.05)
    rows = m["growth"]
    assert [r["size"] for r in rows] == list(QUICK_SIZES)
    for r in rows:
        assert r["note"] == "" and r["nodes"] >= r["size"], r
        assert r["ms_per_expansion"] > 0
    # an update walks the interior: its work per expansion grows with the tree
    work = [r["update_nodes_per_expansion"] for r in rows]
    assert work[0] < work[1] < work[2], work


def test_growth_is_deterministic_in_its_counts():
    kind, case = CASES[0]
    search = {**case.gtcfr, "algorithm": "gtcfr"}
    a = growth(kind, case.game_params, search, (1_000, 4_000))
    b = growth(kind, case.game_params, search, (1_000, 4_000))
    assert [(r["nodes"], r["update_nodes_per_expansion"]) for r in a] == \
        [(r["nodes"], r["update_nodes_per_expansion"]) for r in b]


def test_a_full_arena_is_a_note_not_a_crash():
    kind, case = CASES[0]
    rows = growth(kind, case.game_params, {**case.gtcfr, "algorithm": "gtcfr",
                                           "node_cap": 1024}, (1_000, 4_000))
    assert rows[-1]["note"] == "arena full" and rows[-1]["ms_per_expansion"] is None


def test_the_report_prints_a_line_per_figure_and_size(capsys):
    kind, case = CASES[0]
    res = {"gtcfr": {kind: gtcfr_figures(kind, case, quick=True)}}
    seen = []
    print_and_rows(res, Rows(), lambda src, label, key, *a, **k: seen.append(key), "")
    assert seen[:3] == ["expansions_per_s", "update_nodes_per_s", "bytes_per_node"]
    assert seen[3:] == ["ms_per_expansion", "update_nodes_per_expansion"] * len(QUICK_SIZES)
