"""The soak command (sandbox/bench/soak.py) on a tiny budget: it plays, swaps
settings that reach C, samples memory and decides by its limit. The real
10,000-turn figure is in the README, not in a test."""
from __future__ import annotations

import io
import random

import pytest

from sandbox.cli import main
from sandbox.native import Game, InvalidArgument, Search, SearchParams
from sandbox.bench.soak import (SOAK_LIMITS, SoakResult, random_settings, rss_bytes, run_soak,
                          soak_scenarios)


def test_random_settings_are_valid_for_c_and_stay_within_the_soak_limits():
    rng = random.Random(7)
    base = SearchParams()
    changed: set[str] = set()
    refused = accepted = 0
    with Game("snakes", {"snakes": 8, "width": 25, "height": 9}, seed=1) as g, \
            Search(g, SearchParams(node_cap=1024), seed=1) as s:
        for _ in range(600):   # every knob is drawn often enough to change
            new = random_settings(rng, base)
            try:
                s.set_params(new)
            except InvalidArgument as exc:
                # only C's cross-field rules for this game may refuse one:
                # joint-action MCTS on 8 snakes (4^8 joint actions), or a
                # node_cap below the algorithm's worst iteration, MCGS, GT-CFR or
                # pubcfr (two players only), or Smitsimax's heuristic priors
                # (snakes have no move scores); the soak draws again then
                assert (new.algorithm in ("joint", "mcgs", "gtcfr", "pubcfr")
                        or "node_cap" in str(exc)
                        or (new.priors == "heuristic" and "move scores" in str(exc))), str(exc)
                assert s.c_params() != new
                refused += 1
                continue
            accepted += 1
            assert s.c_params() == new
            for name, limit in SOAK_LIMITS.items():   # what it sets, not what it keeps
                assert getattr(new, name) == getattr(base, name) or getattr(new, name) <= limit
            changed |= {k for k in SearchParams.model_fields if getattr(new, k) != getattr(base, k)}
    # every knob gets changed at some point; most draws are accepted. Not
    # value_net: it names a network file, which a random draw cannot invent
    # (tests/learn/test_net_search.py attaches, swaps and refuses nets)
    assert changed == set(SearchParams.model_fields) - {"value_net"}
    assert accepted > 4 * refused > 0


def test_chained_random_settings_always_validate():
    """The soak swaps from the settings in force, so rules must hold for any
    chain of draws (MCGS drawn while root or leaf parallelism was on used
    to raise pydantic's error and end the soak)."""
    for seed in range(5):
        rng = random.Random(seed)
        p = SearchParams()
        for _ in range(600):
            p = random_settings(rng, p)   # raises if a draw breaks a rule


def test_a_short_soak_plays_swaps_and_reports_memory():
    out = io.StringIO()
    rc, res = run_soak(turns=60, iterations=20, swap_every=5, out=out)
    text = out.getvalue()
    assert res.turns == 60 and res.matches >= 1
    assert res.swaps == 12
    # a swap reaches C at the searcher's next slice; only the last few can
    # still be pending when the run stops
    assert res.swaps_confirmed >= res.swaps - 4
    assert res.rss_warm is not None and res.rss_end > 0
    assert "growth=" in text and "turns=60" in text
    assert rc == (0 if res.growth_pct <= 5.0 else 1)


def test_growth_compares_the_peaks_of_the_two_halves():
    """A settings walk moves the resident set up and down; a leak raises
    every later peak. Single first and last samples judged the walk."""
    def res(samples):
        return SoakResult(turns=1, matches=1, swaps=0, swaps_confirmed=0, seconds=1.0,
                          rss_warm=samples[0] if samples else None, rss_warm_turn=1,
                          rss_end=samples[-1] if samples else 0, rss_samples=tuple(samples))
    walk = res([100, 130, 105, 110, 128, 104])   # up and down: the same peak
    assert walk.peaks == (130, 128) and walk.growth_pct < 0
    leak = res([100, 101, 102, 103, 104, 105])
    assert leak.peaks == (102, 105) and leak.growth_pct == pytest.approx(300 / 102)
    assert res([100]).peaks is None and res([100]).growth_pct is None


def test_a_leak_in_the_swap_path_fails_the_soak(monkeypatch):
    """The check catches what it is for: memory kept by every swap (touched;
    a quarter of the process's RSS over the 40 swaps, so that the test means
    the same inside a long test run, whose RSS is several times a bare
    soak's) makes the second half's peak stand above the first's."""
    from sandbox.sim.controller import SearchController
    kept = []
    orig = SearchController.update_settings
    size = max(300_000, rss_bytes() // 160)

    def leaky(self, *a, **k):
        kept.append(b"x" * size)
        return orig(self, *a, **k)

    monkeypatch.setattr(SearchController, "update_settings", leaky)
    rc, res = run_soak(turns=400, iterations=20, swap_every=10, out=io.StringIO())
    assert len(kept) >= 40 and res.growth_pct > 5.0 and rc == 1


def test_the_growth_limit_decides_the_exit_status():
    rc, res = run_soak(turns=20, iterations=10, swap_every=3, max_growth_pct=-100.0,
                       out=io.StringIO())
    assert rc == 1 and res.turns == 20
    rc, _ = run_soak(turns=20, iterations=10, swap_every=3, max_growth_pct=1e9,
                     out=io.StringIO())
    assert rc == 0


def test_rotation_skips_scenarios_with_a_person():
    scenarios = soak_scenarios(None, rotate=True)
    assert len(scenarios) >= 2
    assert all(p.controller != "human" for sc in scenarios for p in sc.players)


@pytest.mark.parametrize("argv, words", [
    (["soak", "--turns", "0"], "--turns"),
    (["soak", "--iterations", "0", "--turns", "5"], "--iterations"),
    (["soak", "--iterations", "2000000000", "--turns", "5"], "1,000,000,000"),
    (["soak", "--scenario", "snakes_you_vs_three", "--turns", "5"], "human"),
    (["soak", "--scenario", "snakes_duel_trees", "--rotate"], "not both"),
])
def test_bad_soak_arguments_are_one_error_line(argv, words, capsys):
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert err.startswith("error:") and words in err and err.count("\n") == 1


def test_a_rotation_is_judged_at_its_cycle_ends():
    """A rotation's halves hold different scenarios, so their peaks differ
    with no leak (+56% once, the RSS at the end back at its warm-up figure):
    it is judged by the slope of RSS over turns at the end of each full
    cycle. Too short for two cycles: status 2 and a line saying so."""
    out = io.StringIO()
    rc, res = run_soak(turns=80, iterations=10, swap_every=5, rotate=True, out=out)
    assert rc == 2 and res.cycle_samples == () and "two needed" in out.getvalue()

    def res_of(points):
        return SoakResult(turns=1, matches=1, swaps=0, swaps_confirmed=0, seconds=1.0,
                          rss_warm=1, rss_warm_turn=1, rss_end=1, cycle_samples=tuple(points))
    flat = res_of([(1000, 100 << 20), (3000, 101 << 20), (5000, 100 << 20)])
    assert abs(flat.bytes_per_turn) < 1
    leak = res_of([(1000, 100 << 20), (3000, (100 << 20) + 2_048_000),
                   (5000, (100 << 20) + 4_096_000)])
    assert leak.bytes_per_turn == pytest.approx(1024)
    assert res_of([(1000, 5)]).bytes_per_turn is None


def test_inject_leak_is_checked(capsys):
    assert main(["soak", "--turns", "5", "--inject-leak", "-1"]) != 0
    assert "--inject-leak" in capsys.readouterr().err
