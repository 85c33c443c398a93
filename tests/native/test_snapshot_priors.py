"""The prior of each node in a tree snapshot (`prior`, flag PRIOR): what the
arena's tooltip shows beside a node's statistics, and what a replay keeps.

The oracle is the net's own forward pass (Net.evaluate) at the state the
node's parent stands for, softmaxed over the legal moves: a row of one
agent's move carries that agent's prior, a joint-action row the product of
the players' priors. Searches without priors set no flag."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sandbox.native import Game, Search, SearchParams
from sandbox.native.net import load_net
from sandbox.native.snapshot import FLAG_PRIOR, SNAPSHOT_DTYPE
from sandbox.replay.format import TreeColumns

NET = Path(__file__).resolve().parents[2] / "assets" / "nets" / "goofspiel5.sbxnet"
GOOF5 = "num_cards=5,points_order=descending,returns_type=win_loss"


def _priors(game: Game) -> list[dict[int, float]]:
    """Each agent's policy-head softmax over its legal moves at `game`."""
    _, logits = load_net(NET).evaluate([game])
    out = []
    for a in range(2):
        legal = [int(m) for m in game.legal_moves(a)]
        z = logits[0, a, legal].astype(float)
        p = np.exp(z - z.max())
        out.append(dict(zip(legal, p / p.sum())))
    return out


def _snapshot(alg: str, priors: str = "net"):
    game = Game("goofspiel", GOOF5, seed=1)
    p = SearchParams(algorithm=alg, priors=priors, value_net=str(NET), max_depth=5)
    with Search(game, p, seed=2) as s:
        s.run(iterations=400)
        # min_visits 0: the children PUCT has not tried yet carry priors too
        return game, s.snapshot(0, 20000, min_visits=0), s.snapshot(1, 20000, min_visits=0)


@pytest.mark.parametrize("alg", ["joint", "mcgs", "gtcfr"])
def test_a_joint_action_row_carries_the_product_of_the_players_priors(alg):
    game, snap, _ = _snapshot(alg)
    want = _priors(game)
    rows = snap.rows
    kids = np.flatnonzero(rows["parent"] == 0)
    assert len(kids) >= 5
    assert not rows["flags"][0] & FLAG_PRIOR and rows["prior"][0] == 0.0   # the root has none
    for r in kids:
        j0, j1 = int(rows["joint"][r][0]), int(rows["joint"][r][1])
        assert rows["flags"][r] & FLAG_PRIOR
        assert rows["prior"][r] == pytest.approx(want[0][j0] * want[1][j1], rel=1e-4, abs=1e-7)


@pytest.mark.parametrize("alg", ["smitsimax", "suct"])
def test_a_row_of_one_agents_move_carries_that_agents_prior(alg):
    game, snap0, snap1 = _snapshot(alg)
    want = _priors(game)
    # Smitsimax: a tree per agent, its root's children are its own moves.
    # SUCT: one tree, agent 0 moves first, so its root's children are agent 0's.
    for agent, snap in ((0, snap0), (1, snap1)) if alg == "smitsimax" else ((0, snap0),):
        rows = snap.rows
        kids = np.flatnonzero(rows["parent"] == 0)
        assert len(kids) == 5
        got = {int(rows["move"][r]): float(rows["prior"][r]) for r in kids}
        assert all(rows["flags"][r] & FLAG_PRIOR for r in kids)
        assert got == pytest.approx(want[agent], rel=1e-5)
        assert max(got.values()) - min(got.values()) > 0.05   # not uniform


@pytest.mark.parametrize("alg", ["joint", "smitsimax", "suct", "mcgs", "gtcfr", "uct", "random",
                                 "greedy"])
def test_no_priors_no_flag(alg):
    game = Game("goofspiel", GOOF5, seed=1)
    with Search(game, SearchParams(algorithm=alg, max_depth=5), seed=2) as s:
        s.run(iterations=200)
        # a buffer of garbage: a writer that leaves `prior` or a flag unset shows
        out = np.frombuffer(b"\xff" * (100 * SNAPSHOT_DTYPE.itemsize),
                            dtype=SNAPSHOT_DTYPE).copy()
        rows = s.snapshot(0, 100, out=out).rows
    assert not (rows["flags"] & FLAG_PRIOR).any()
    assert not rows["prior"].any()


def test_a_replay_keeps_the_priors_and_an_older_file_claims_none():
    _, snap, _ = _snapshot("smitsimax")
    cols = TreeColumns.from_snapshot(snap)
    assert cols.prior is not None
    back = cols.to_snapshot(0).rows
    assert (back["flags"] & FLAG_PRIOR).tolist() == (snap.rows["flags"] & FLAG_PRIOR).tolist()
    assert back["prior"] == pytest.approx(snap.rows["prior"], abs=1e-5)
    older = TreeColumns.model_validate(cols.model_dump() | {"prior": None}).to_snapshot(0).rows
    assert not (older["flags"] & FLAG_PRIOR).any()
    with pytest.raises(ValueError, match="prior"):
        TreeColumns.model_validate(cols.model_dump() | {"prior": [2.0] * len(cols.parent)})


def test_a_subtree_view_and_a_pass_have_no_prior_and_a_priors_change_starts_gtcfr_afresh():
    """The explorer's subtree top is the view's root (no move: no prior), a
    SUCT pass carries no prior (as Smitsimax's), and gtcfr's tree is grown
    again after a change of priors, so no kept node shows an old prior."""
    from sandbox.render.tree_explore import subtree
    _, snap, _ = _snapshot("joint")
    kid = int(np.flatnonzero(snap.rows["parent"] == 0)[0])
    top = subtree(snap, kid).rows
    assert top["prior"][0] == 0.0 and not top["flags"][0] & FLAG_PRIOR
    assert (top["flags"][1:] & FLAG_PRIOR).all()
    game = Game("goofspiel", GOOF5, seed=1)
    p = SearchParams(algorithm="gtcfr", max_depth=5, value_net=str(NET))
    with Search(game, p, seed=2) as s:
        s.run(iterations=300)
        s.update_params(priors="net")
        s.run(iterations=5)
        rows = s.snapshot(0, 20000, min_visits=0).rows
        want = _priors(game)
        for r in np.flatnonzero(rows["parent"] == 0):
            j0, j1 = int(rows["joint"][r][0]), int(rows["joint"][r][1])
            assert rows["prior"][r] == pytest.approx(want[0][j0] * want[1][j1], rel=1e-4)
