"""Depth-bias lab. The `depthbias` game is built on another branch: the
tests that need it skip until it is registered; the lab's own machinery
(three backups, ranking, report) runs on a stand-in game meanwhile."""
from __future__ import annotations

import json

import numpy as np
import pytest

import sandbox.games
from sandbox.labs.common import LabError
from sandbox.labs.depth import BACKUPS, DepthLab, max_depth_for, run_depth
from sandbox.labs.kinds import matrix_game, matrix_params

HAVE_DEPTHBIAS = "depthbias" in sandbox.games.kinds()
needs_depthbias = pytest.mark.skipif(not HAVE_DEPTHBIAS,
                                     reason="the depthbias game is not merged yet")


def stand_in(params: str):
    return matrix_game(matrix_params("biased_rps"))


def test_three_searches_with_the_three_backups():
    seen = []
    with DepthLab(siege_max=30, seed=2,
                  game_factory=lambda p: seen.append(p) or stand_in(p)) as lab:
        assert seen == ["siege_max=30"]
        assert list(lab.searches) == ["raw", "discounted", "normalised"]
        for name, s in lab.searches.items():
            p = s.params
            assert (p.gamma, p.depth_normalize) == (BACKUPS[name]["gamma"],
                                                     BACKUPS[name]["depth_normalize"])
            assert p.max_depth == 32 and p.tree_reuse is False
        assert (BACKUPS["raw"]["gamma"], BACKUPS["discounted"]["gamma"]) == (1.0, 0.97)
        lab.advance_to(500)
        for row in lab.rows():
            assert row.iterations == 500
            # the ranking is by mean, best first, and names its first
            means = np.array(row.means)
            assert list(means[list(row.ranking)]) == sorted(means, reverse=True)
            assert row.first == lab.names[row.ranking[0]] == row.ranked[0]


def test_max_depth_covers_the_longest_episode():
    assert max_depth_for(None) == 20 and max_depth_for(18) == 20 and max_depth_for(30) == 32


def test_report_on_a_stand_in():
    rep = run_depth(2000, seed=1, game_factory=stand_in)
    assert rep.checkpoints == [1000, 2000]
    assert len(rep.rows) == 2 and [r.backup for r in rep.rows[-1]] == list(BACKUPS)
    assert "ranking: raw:" in rep.text()
    json.dumps(rep.to_dict(), allow_nan=False)


@pytest.mark.skipif(HAVE_DEPTHBIAS, reason="the depthbias game is here")
def test_without_the_game_the_lab_says_so():
    with pytest.raises(LabError, match="depthbias"):
        run_depth(100)


def test_bad_siege_max_is_refused():
    with pytest.raises(LabError, match="--siege-max"):
        DepthLab(siege_max=0, game_factory=stand_in)


@needs_depthbias
def test_raw_prefers_siege_and_normalised_prefers_sprint():
    """The tutorial's §13 by hand, defaults: Sprint 2-5 turns x10 points,
    March 6-10 x8, Siege 13-18 x7. Expected totals 35, 64, 108.5 (raw ranks
    Siege first); per turn 10, 8, 7 (normalised ranks Sprint first)."""
    rep = run_depth(20_000, seed=1)
    rows = {r.backup: r for r in rep.rows[-1]}
    assert rep.names[:3] == ["sprint", "march", "siege"]
    assert rows["raw"].first == "siege"
    assert rows["normalised"].first == "sprint"
    assert np.allclose(rows["raw"].means[:3], [35.0, 64.0, 108.5], rtol=0.1)


@needs_depthbias
def test_a_wider_siege_restarts_on_a_new_game():
    with DepthLab(siege_max=40, seed=1) as lab:
        assert "siege_max=40" in lab.game.params
        assert all(s.params.max_depth == 42 for s in lab.searches.values())
