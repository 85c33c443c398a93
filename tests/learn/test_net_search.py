"""The `value_net` setting: a network file valuing GT-CFR's and pubcfr's
frontier in C, and giving their PUCT priors (priors = net). Each test checks
the search against the net's own outputs (Net.evaluate), so a wrong sign, a
wrong row of the batch or a net left unused fails."""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.learn.netfile import Architecture, random_params, spec_for, write_net
from sandbox.native import Game, InvalidArgument, Search, SearchParams
from sandbox.native.net import load_net


def net_file(tmp_path, kind: str, params: str, arch: Architecture, seed: int = 5,
             edit=None, name: str = "n.sbxnet"):
    game = Game(kind, params, 1)
    spec = spec_for(kind, game.features_layout(), arch)
    weights = random_params(spec, seed, bias=0.1)
    if edit is not None:
        edit(spec, weights)
    return str(write_net(tmp_path / name, spec, weights)), game


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def test_gtcfr_values_its_frontier_and_takes_its_priors_from_the_net(tmp_path):
    """After one iteration GT-CFR's root holds every joint action's child,
    valued once: with a net, player 0's side (v0 - v1) / 2 of the net's two
    values at that child; the root's priors are the policy heads' softmax
    over the legal moves."""
    path, game = net_file(tmp_path, "goofspiel", "num_cards=5", Architecture(0, 0, 0, 1, 16))
    net = load_net(path)
    params = SearchParams(algorithm="gtcfr", value_net=path, priors="net")
    with Search(game, params, seed=3) as s:
        s.run(iterations=1)
        m = s.root_matrix()
    assert m.shape == (5, 5)
    children = []
    for a in m.moves[0]:
        for b in m.moves[1]:
            g = game.clone()
            g.step([a, b])
            children.append(g)
    values, _ = net.evaluate(children)
    want = (0.5 * (values[:, 0, 0] - values[:, 1, 0])).reshape(5, 5)
    assert np.allclose(m.values[0], want, atol=1e-6)
    assert np.allclose(m.values[1], -want, atol=1e-6)
    _, logits = net.evaluate([game])
    for p in range(2):
        mv = list(m.moves[p])
        assert np.allclose(m.priors[p], softmax(logits[0, p, mv].astype(np.float64)), atol=1e-9)
    # not vacuous: without the net the same search values them otherwise
    with Search(game, params.replace(value_net="", priors="uniform"), seed=3) as s:
        s.run(iterations=1)
        plain = s.root_matrix()
    assert np.abs(plain.values[0] - want).max() > 1e-3
    assert np.allclose(plain.priors[0], 0.2)


@pytest.mark.parametrize("parallel", ["serial", "tree"])
def test_mcgs_values_new_nodes_and_takes_its_priors_from_the_net(tmp_path, parallel):
    """MCGS's leaf value is the net's (each player's value at the new node,
    in place of a random rollout's), and priors = net are the policy heads'
    softmax over the legal moves (summed per outcome; goofspiel's cards are
    distinct outcomes). A joint action visited once holds its child's
    value as it was made."""
    path, game = net_file(tmp_path, "goofspiel", "num_cards=5", Architecture(0, 0, 0, 1, 16))
    net = load_net(path)
    threads = 1 if parallel == "serial" else 2
    params = SearchParams(algorithm="mcgs", value_net=path, priors="net", parallel=parallel,
                          threads=threads)
    with Search(game, params, seed=3) as s:
        s.run(iterations=12)
        m = s.root_matrix()
    _, logits = net.evaluate([game])
    for p in range(2):
        mv = list(m.moves[p])
        assert np.allclose(m.priors[p], softmax(logits[0, p, mv].astype(np.float64)), atol=1e-6)
    once = list(zip(*np.nonzero(m.visits == 1)))
    assert once
    for i, j in once:
        g = game.clone()
        g.step([m.moves[0][i], m.moves[1][j]])
        v, _ = net.evaluate([g])
        assert m.values[0][i, j] == pytest.approx(v[0, 0, 0], abs=1e-6)
        assert m.values[1][i, j] == pytest.approx(v[0, 1, 0], abs=1e-6)
    with Search(game, params.replace(value_net=""), seed=3) as s:   # not vacuous
        s.run(iterations=12)
        assert np.allclose(s.root_matrix().priors[0], 0.2)


def slot_after(game: Game, seat: int, joint) -> int:
    g = game.clone()
    g.step(joint)
    return g.private_slot(g.private_state(seat))


@pytest.mark.parametrize("grow_tree", [False, True])
def test_pubcfr_values_each_information_state_with_its_seats_head(tmp_path, grow_tree):
    """A net whose value is a table of the seat's own private state alone
    (value weights zero, biases random) makes hidden-bid goofspiel's
    one-round subgame a choice per seat: the card whose remaining hand the
    table values most. pubcfr must find both seats' cards: seat 1's value
    read with seat 1's head, from its own side (a sign slip, a seat's slot
    swapped or the game's evaluation kept instead all pick other cards)."""
    rng = np.random.default_rng(11)
    tables = {}

    def edit(spec, w):
        w["value_w"][:] = 0.0
        w["value_b"][:] = rng.standard_normal(w["value_b"].shape).astype(np.float32)
        tables["b"] = w["value_b"].reshape(spec.players, spec.value_slots).astype(np.float64)

    path, game = net_file(tmp_path, "goofspiel", "num_cards=4 imp_info=1",
                          Architecture(0, 0, 0, 1, 8), edit=edit)
    b = tables["b"]
    moves = [game.legal_moves(p) for p in range(2)]
    best = []
    for p in range(2):
        score = {m: b[p, slot_after(game, p, [m, moves[1][0]] if p == 0 else [moves[0][0], m])]
                 for m in moves[p]}
        ranked = sorted(score, key=score.get)
        assert score[ranked[-1]] - score[ranked[-2]] > 0.05   # a clear best card
        best.append(ranked[-1])
    params = SearchParams(algorithm="pubcfr", max_depth=1, value_net=path,
                          grow_tree=grow_tree, final_move="argmax")
    for seat in range(2):
        with Search(game, params.replace(info_seat=seat), seed=2) as s:
            s.run(iterations=300)
            stats = {st.move: st.policy for st in s.root_stats(seat)}
        assert stats[best[seat]] > 0.9, (seat, best, stats)


def test_the_net_is_switched_on_and_off_live_and_off_is_as_before(tmp_path):
    path, game = net_file(tmp_path, "goofspiel", "num_cards=5", Architecture(0, 0, 0, 1, 16))
    base = SearchParams(algorithm="gtcfr", rollout=False)   # the game's evaluation: no RNG
    with Search(game, base, seed=4) as plain:
        plain.run(iterations=1)
        want = plain.root_matrix().values
    with Search(game, base.replace(value_net=path), seed=4) as s:
        assert s.net is not None and s.c_params().value_net == path
        s.run(iterations=1)
        with_net = s.root_matrix().values
        assert np.abs(with_net - want).max() > 1e-3
        s.set_params(base)             # off: a fresh tree values as the game does
        assert s.net is None
        s.reset(game)
        s.run(iterations=1)
        assert np.array_equal(s.root_matrix().values, want)
        s.update_params(value_net=path)   # on again, from the next iteration
        s.reset(game)
        s.run(iterations=1)
        assert np.array_equal(s.root_matrix().values, with_net)


def test_a_net_change_starts_gtcfrs_tree_afresh(tmp_path):
    """Each frontier value is asked once, when its node is expanded, and CFR
    builds on them: after a change of net (here: off, mid-search, no reset)
    the next iteration is a fresh tree's, valued as the game does."""
    path, game = net_file(tmp_path, "goofspiel", "num_cards=5", Architecture(0, 0, 0, 1, 16))
    base = SearchParams(algorithm="gtcfr", rollout=False)
    with Search(game, base, seed=4) as plain:
        plain.run(iterations=1)
        want = plain.root_matrix().values
    with Search(game, base.replace(value_net=path), seed=4) as s:
        s.run(iterations=200)
        assert s.stats().nodes[0] > 50
        s.update_params(value_net="")
        s.run(iterations=1)
        assert np.array_equal(s.root_matrix().values, want)


def test_the_file_is_loaded_once_per_process(tmp_path):
    path, game = net_file(tmp_path, "goofspiel", "num_cards=5", Architecture(0, 0, 0, 1, 16))
    p = SearchParams(algorithm="gtcfr", value_net=path)
    with Search(game, p) as a, Search(game, p) as b:
        assert a.net is b.net is load_net(path)


def test_a_bad_value_net_is_refused_in_one_line(tmp_path):
    path, _ = net_file(tmp_path, "goofspiel", "num_cards=4", Architecture(0, 0, 0, 1, 8))
    game = Game("goofspiel", "num_cards=6", 1)
    with pytest.raises(InvalidArgument, match="takes 27 features.*has 39"):
        Search(game, SearchParams(algorithm="gtcfr", value_net=path))
    with Search(game, SearchParams(algorithm="gtcfr")) as s:
        with pytest.raises(InvalidArgument, match="takes 27 features"):
            s.update_params(value_net=path)
        with pytest.raises(InvalidArgument, match="takes 27 features"):
            s.check_params(s.params.replace(value_net=path))
        with pytest.raises(InvalidArgument, match="cannot read"):
            s.update_params(value_net=str(tmp_path / "missing.sbxnet"))
        assert s.params.value_net == "" and s.net is None
        s.run(iterations=5)


def test_net_states_counts_the_states_the_net_valued(tmp_path):
    """The stats' net_states meter, counted by hand: GT-CFR's first iteration
    makes the tree L0 (the root and its children: one batch of the root, for
    its priors, and its 5 x 5 children, none of which ends the game) and its
    simulation expands one child (itself and its 4 x 4 children), so
    1 + 25 + 1 + 16 = 43 states; a search without a net counts 0."""
    path, game = net_file(tmp_path, "goofspiel", "num_cards=5", Architecture(0, 0, 0, 1, 16))
    params = SearchParams(algorithm="gtcfr", value_net=path, priors="net")
    with Search(game, params, seed=3) as s:
        assert s.stats().net_states == 0
        s.run(iterations=1)
        assert s.stats().net_states == 43
    with Search(game, params.replace(value_net="", priors="uniform"), seed=3) as s:
        s.run(iterations=50)
        assert s.stats().net_states == 0


def test_gtcfr_does_not_ask_the_net_again_to_refine_a_leaf(tmp_path):
    """With expand_after > 1 a leaf's visits before its expansion refine its
    value; a rollout's differs each time, a net's does not, so those visits
    count a sample and leave the net alone (each asked it once more before):
    no traced refine adds a net state, the value it reports is the leaf's own,
    and expansions still do."""
    path, game = net_file(tmp_path, "goofspiel", "num_cards=5", Architecture(0, 0, 0, 1, 16))
    params = SearchParams(algorithm="gtcfr", value_net=path, expand_after=4)
    refines = expansions = 0
    with Search(game, params, seed=3) as s:
        s.run(iterations=1)  # the tree L0, one batch
        for _ in range(300):
            before = s.stats().net_states
            t = s.step_traced()
            added = s.stats().net_states - before
            if t.refine is not None and t.refine.samples > 1:
                refines += 1
                assert added == 0
                assert t.refine.value == pytest.approx(t.refine.mean)
            elif added:
                expansions += 1
    assert refines > 50 and expansions > 5
