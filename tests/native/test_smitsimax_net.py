"""Smitsimax with a value net: a leaf that is not terminal is scored by the
net's values (one state a batch, on the search's own evaluator), a terminal
one by the game's result. Oracle: the net's own forward pass (Net.evaluate)
on the leaf state, rebuilt in Python from the traced iteration's moves."""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from sandbox.native import Game, Net, Search, SearchParams, cores

NET = Path(__file__).resolve().parents[2] / "assets" / "nets" / "goofspiel5.sbxnet"
PARAMS = "num_cards=5,points_order=descending,returns_type=win_loss"


def _leaf(trace) -> Game:
    g = Game("goofspiel", PARAMS, seed=1)
    for d in range(trace.depth):
        g.step([int(m) for m in trace.moves[:, d]])
    return g


@pytest.mark.parametrize("algorithm", ["smitsimax", "suct", "joint"])
@pytest.mark.parametrize("max_depth, relative", [(1, False), (2, False), (5, False), (2, True)])
def test_each_leaf_is_scored_by_the_net_or_by_the_result(algorithm, max_depth, relative):
    """With relative_scores the net's values are transformed as the
    evaluation's are (each minus the other's). SUCT and joint score their
    leaves at the same point (sbx_search_evaluate), so the same oracle holds."""
    net = Net(NET)
    params = SearchParams(algorithm=algorithm, value_net=str(NET), max_depth=max_depth,
                          gamma=1.0, relative_scores=relative)
    differs = 0
    with Search(Game("goofspiel", PARAMS, seed=1), params, seed=5) as s:
        for _ in range(40):
            tr = s.step_traced()
            leaf = _leaf(tr)
            own = leaf.evaluate()
            if leaf.is_terminal:
                want = own
            else:
                values, _ = net.evaluate([leaf])
                want = values[0, :, 0]
                differs += not np.allclose(want, own, atol=1e-3)
            if relative:
                want = np.array([want[0] - want[1], want[1] - want[0]])
            assert tr.scores == pytest.approx(want, abs=1e-5)
            leaf.close()
    if max_depth < 5:   # the net, not the evaluation, scored these leaves
        assert differs > 0


def test_a_net_change_starts_the_trees_afresh():
    """Scores and ranges gathered from one set of values would be mixed with
    another's: attaching or detaching the net clears the trees."""
    with Search(Game("goofspiel", PARAMS, seed=1),
                SearchParams(value_net=str(NET), max_depth=2), seed=5) as s:
        s.run(iterations=500)
        s.update_params(value_net="")
        s.run(iterations=300)
        assert s.stats().root_visits[0] == 300


def _table_net(tmp_path, params: str):
    """A net whose values are a random table of (player, slot) alone: value
    weights 0, random biases. Every leaf it scores gets exactly its entry."""
    from sandbox.learn.netfile import Architecture, random_params, spec_for, write_net
    game = Game("goofspiel", params, 1)
    spec = spec_for("goofspiel", game.features_layout(), Architecture(0, 0, 0, 1, 8))
    w = random_params(spec, 5, bias=0.1)
    w["value_w"][:] = 0.0
    w["value_b"][:] = np.random.default_rng(11).standard_normal(
        w["value_b"].shape).astype(np.float32)
    table = w["value_b"].reshape(spec.players, spec.value_slots).astype(np.float64)
    game.close()
    return str(write_net(tmp_path / "t.sbxnet", spec, w)), table


@pytest.mark.skipif(cores() < 2, reason="needs two cores")
@pytest.mark.parametrize("mode", ["wu_uct", "tree", "root", "leaf"])
def test_every_parallel_mode_scores_its_leaves_with_the_net(tmp_path, mode):
    """Each worker asks the net on its own evaluator. Two rounds deep no
    leaf of goofspiel-5 is terminal (leaf parallelism's rollouts end there too), so with a table net every backed-up
    score is the table's entry and every root mean is exactly it (the
    game's evaluation would spread them); no iteration is lost."""
    path, table = _table_net(tmp_path, PARAMS)
    params = SearchParams(value_net=path, max_depth=2, gamma=1.0, parallel=mode, threads=2,
                          rollout=mode == "leaf")
    with Search(Game("goofspiel", PARAMS, seed=1), params, seed=5) as s:
        # until the helper has worked: on a busy machine it may not be
        # scheduled before worker 0 has run a whole short budget alone, many
        # times over, so the bound is a generous wall-clock one, not a count
        # (leaf parallelism, exempt below, stops after 50 runs)
        runs, deadline = 0, time.monotonic() + 120
        while True:
            assert s.run(iterations=3000).iterations == 3000
            runs += 1
            if (s.stats().thread_iterations[1] > 0 or time.monotonic() > deadline
                    or (mode == "leaf" and runs >= 50)):
                break
        # Leaf parallelism is exempt from this check, for a reason: its helper
        # rolls out only when it wakes before worker 0, which rolls out an
        # unclaimed slot itself; on a loaded machine it may never wake in time
        # (the rollouts here are a step long). Its runs still check worker 0's
        # rollouts of the helper slots; the TSan stage runs the helper's.
        assert mode == "leaf" or s.stats().thread_iterations[1] > 0
        for a in range(2):
            rows = [m for m in s.root_stats(a) if m.visits]
            assert sum(m.visits for m in rows) == s.stats().root_visits[a] >= 3000 * runs
            assert len(rows) > 1
            for m in rows:
                assert m.mean == pytest.approx(table[a, 0], abs=1e-6)


@pytest.mark.parametrize("mode", ["wu_uct", "tree", "root"])
def test_one_thread_of_a_parallel_mode_with_a_net_is_the_serial_search(mode):
    """With one thread each mode's own code path runs the serial formulas in
    the serial order (test_parallel.py): with a net too, the same root rows
    and moves, turn after turn."""
    def rows(params):
        out = []
        with Game("goofspiel", PARAMS, seed=1) as g, Search(g, params, 7) as s:
            for _ in range(3):
                s.run(iterations=800)
                moves = s.best_moves()
                out.append((moves, [[(m.move, m.visits, round(m.mean, 12))
                                     for m in s.root_stats(a)] for a in range(2)]))
                g.step(moves)
                s.advance(moves)
        return out
    serial = SearchParams(value_net=str(NET), max_depth=2)
    assert rows(serial.model_copy(update={"parallel": mode, "threads": 1})) == rows(serial)


def test_hidden_bids_each_agent_reads_its_own_hands_value(tmp_path):
    """A net for hidden information values each private state from beliefs.
    Smitsimax scores a determinized state, where every hand is known: the
    net is asked with each seat's belief on its own hand, and each agent
    reads its own head at its own hand's slot. The net here is a table of
    (seat, slot) alone (value weights 0, random biases), so the searcher's
    leaf score must be its table entry for the hand its own traced bids
    leave it (slot 0 for every hand, or the other seat's head, fail)."""
    params = "num_cards=5 imp_info=1"
    game = Game("goofspiel", params, 1)
    path, table = _table_net(tmp_path, params)
    seen = set()
    for seat in range(2):
        search = SearchParams(value_net=path, max_depth=2, gamma=1.0, info_seat=seat)
        with Search(game, search, seed=3) as s:
            for _ in range(30):
                tr = s.step_traced()
                g = game.clone()   # the searcher's hand follows its own bids
                for d in range(tr.depth):
                    other = g.legal_moves(1 - seat)[0]
                    g.step([int(tr.moves[seat, d]), other] if seat == 0
                           else [other, int(tr.moves[seat, d])])
                slot = g.private_slot(g.private_state(seat))
                seen.add(slot)
                assert tr.scores[seat] == pytest.approx(table[seat, slot], abs=1e-5)
    assert len(seen) > 3
