"""MCGS in games with chance, and the short-circuit on new links
(native/src/search/mcgs.c). An edge keeps one child per successor state it
met; its value is the visit-weighted average over them. Each
test has its own oracle: the same search on the game without chance, the
symmetry of a symmetric position, counts that the graph's raw data must
satisfy, a Python recomputation of the values."""
from __future__ import annotations

import statistics

import pytest

from sandbox.native import Game, Search, SearchParams
from sandbox.native._lib import ffi, lib

from test_mcgs import mcgs, node


def children(s: Search, i: int, e: int):
    """Edge e of node i: [(child, visits, (r0, r1))], the edge's own child
    first (test-only sbx_search_debug_mcgs_children)."""
    cap = 256
    child, visits = ffi.new("int32_t[]", cap), ffi.new("int32_t[]", cap)
    r, n = ffi.new("float[]", 2 * cap), ffi.new("int *")
    assert lib.sbx_search_debug_mcgs_children(s._h.get(), i, e, child, visits, r, cap, n) == 0
    assert n[0] <= cap
    return [(child[k], visits[k], (r[2 * k], r[2 * k + 1])) for k in range(n[0])]


def links(s: Search):
    """Every (parent, edge, child, visits) of the graph: one per child of an edge."""
    out = []
    for i in range(s.stats().nodes[0]):
        d = node(s, i)
        if d.flags & 1 and not d.flags & 2:
            for e in range(d.n1 * d.n2):
                out.extend((i, e, c, v) for c, v, _ in children(s, i, e))
    return out


def goof(order: str, cards: int = 6) -> Game:
    return Game("goofspiel", f"num_cards={cards} points_order={order}", seed=1)


def mean_depth(order: str, iterations: int, max_depth: int, seed: int) -> float:
    with Search(goof(order), mcgs(max_depth=max_depth), seed=seed) as s:
        r = s.run(iterations=iterations)
        return r.sim_turns / r.iterations


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_prize_order_goes_as_deep_as_the_fixed_order(seed):
    """Oracle: the same search on the same game with the prizes in a fixed
    order. Chance multiplies the states below a node (5 prizes can follow the
    first, 4 the second, ...), so a budget that saturates the fixed-order
    game's top also covers the random one's there: 30,000 playouts at
    max_depth 3 (a deeper horizon needs far more playouts for the random
    game's tree, as it would for any search). Playouts that stop wherever
    chance differs from the edge's first sample reach about 1.2 turns."""
    fixed = mean_depth("descending", 30_000, 3, seed)
    rand = mean_depth("random", 30_000, 3, seed)
    assert fixed > 2.9  # the fixed-order game's top is saturated
    assert rand == pytest.approx(fixed, rel=0.10)


def test_every_edge_visit_reaches_its_child():
    """Goofspiel's states carry their history: the graph is a tree, each node
    linked once. Every visit of a link then either made its child (the one
    playout that stops at a new node) or went on through the child, adding
    one of the child's edge visits; at a terminal child every visit stops.
    So link visits = child visits + 1 below a non-terminal child, exactly. A
    visit that stopped because chance led elsewhere breaks the count."""
    with Search(goof("random", 5), mcgs(max_depth=10), seed=4) as s:
        s.run(iterations=6000)
        total = short = 0
        seen = set()
        for _, _, c, v in links(s):
            assert c not in seen  # a tree: one link per node
            seen.add(c)
            d = node(s, c)
            total += v
            if not d.flags & 2:
                short += v - (d.visits + 1)
        assert total > 6000  # deeper than one turn on average
        assert short == 0


def test_a_symmetric_position_is_worth_zero():
    """Both players hold the same hand at the start of random-order
    goofspiel: by symmetry each player's value is 0 (win/loss returns), so
    the root's Q is 0 up to the search's noise. Over eight seeds the mean
    and every single value stay within 0.015 (the same search with the
    prizes in a fixed order stays within 0.01); a bias of a few hundredths
    fails."""
    qs = []
    for seed in range(1, 9):
        with Search(goof("random"), mcgs(), seed=seed) as s:
            s.run(iterations=4000)
            r = node(s, 0)
            assert r.q[0] == pytest.approx(-r.q[1], abs=1e-9)  # zero-sum
            qs.append(r.q[0])
    assert abs(statistics.mean(qs)) < 0.015
    assert max(abs(q) for q in qs) < 0.015


def test_an_edge_is_the_visit_weighted_average_of_its_children():
    """The raw children of every edge, recomputed in Python: visits add up to
    the edge's, each child is a different state, its reward is
    evaluate(child) - evaluate(parent), and the node's Q is the backup's
    formula with each edge's term summed over its children."""
    with Search(goof("random", 5), mcgs(rollout_steps=2), seed=6) as s:
        s.run(iterations=3000)
        lib.sbx_search_debug_mcgs_recompute(s._h.get(), 0)
        several = 0
        for i in range(0, s.stats().nodes[0], 5):
            d = node(s, i)
            if not d.flags & 1 or d.flags & 2:
                continue
            acc, total = [0.0, 0.0], 0
            for e in range(d.n1 * d.n2):
                outs = children(s, i, e)
                assert sum(v for _, v, _ in outs) == d.edge_visits[e]
                if outs:
                    assert (outs[0][0], tuple(outs[0][2])) == (d.edge_child[e],
                                                                tuple(d.edge_r[e]))
                hashes = [node(s, c).hash for c, _, _ in outs]
                assert len(set(hashes)) == len(hashes)
                several += len(outs) > 1
                for c, v, r in outs:
                    ch = node(s, c)
                    for p in range(2):
                        assert r[p] == pytest.approx(ch.base[p] - d.base[p], abs=1e-6)
                        acc[p] += v * (r[p] + ch.q[p])
                    total += v
            lib.sbx_search_debug_mcgs_recompute(s._h.get(), i)
            d = node(s, i)
            want = [(d.u[p] + acc[p]) / (1 + total) for p in range(2)]
            assert list(d.q) == pytest.approx(want, rel=1e-9, abs=1e-12)
        assert several > 10  # chance met: edges with several children


def _check_children(s: Search):
    n = s.stats().nodes[0]
    for i in range(n):
        d = node(s, i)
        for e in range(d.n1 * d.n2 if d.flags & 1 and not d.flags & 2 else 0):
            outs = children(s, i, e)
            assert all(0 < c < n for c, _, _ in outs)
            assert sum(v for _, v, _ in outs) == d.edge_visits[e]
        assert d.visits == sum(d.edge_visits[e] for e in range(d.n1 * d.n2))


def test_chance_children_respect_node_cap_and_survive_reuse():
    """node_cap bounds a graph with chance as any other (the search stops
    with node_cap, every child in the graph), and a re-root keeps
    each kept edge's children with their counts."""
    with Search(goof("random"), SearchParams(algorithm="mcgs", node_cap=1024), seed=2) as s:
        r = s.run(iterations=100_000)
        assert r.stop_reason == "node_cap" and r.iterations < 100_000
        assert s.stats().nodes[0] <= 1024
        _check_children(s)
    g = goof("random")
    with Search(g, mcgs(tree_reuse=True), seed=2) as s:
        for _ in range(3):
            s.run(iterations=3000)
            _check_children(s)
            moves = s.best_moves()
            g.step(moves)
            s.advance(moves, new_root=g)
            _check_children(s)
            # the chance drawn in the game was met by the search: kept
            assert node(s, 0).flags & 1 and node(s, 0).hash == g.state_hash()


def test_debug_children_refuses_bad_arguments():
    with Search(goof("random", 4), mcgs(), seed=1) as s:
        s.run(iterations=50)
        n = ffi.new("int *")
        buf = ffi.new("int32_t[]", 4)
        f = ffi.new("float[]", 8)
        h = s._h.get()
        assert lib.sbx_search_debug_mcgs_children(h, 10**6, 0, buf, buf, f, 4, n) != 0
        assert lib.sbx_search_debug_mcgs_children(h, 0, 999, buf, buf, f, 4, n) != 0
        assert lib.sbx_search_debug_mcgs_children(h, 0, -1, buf, buf, f, 4, n) != 0
        assert lib.sbx_search_debug_mcgs_children(h, 0, 0, ffi.NULL, buf, f, 4, n) != 0
        assert lib.sbx_search_debug_mcgs_children(h, 0, 0, buf, buf, f, -1, n) != 0
        assert lib.sbx_search_debug_mcgs_children(h, 0, 0, ffi.NULL, ffi.NULL, ffi.NULL, 0,
                                                  n) == 0


# ------------------------------------------------------- the short-circuit

def _transposition_steps(short_circuit: bool, iterations: int = 600):
    """RPS played 4 times, traced playout by playout: (a, b, c) and (b, a, c)
    are one state (the state holds the counts of each joint action and the
    last one). For each playout that linked an edge to a node already in the
    graph: the step of that link, the playout's depth, the node's visits
    before and after the playout and whether it is terminal."""
    g = Game("matrix", "preset=rps repeats=4", seed=1)
    events = []
    with Search(g, mcgs(short_circuit=short_circuit, max_depth=10), seed=3) as s:
        for _ in range(iterations):
            hits0 = s.stats().transposition_hits
            before = [node(s, i) for i in range(s.stats().nodes[0])]
            t = s.step_traced()
            if s.stats().transposition_hits == hits0:
                continue
            path = t.paths[0]
            for k in range(1, len(path)):
                par, child = before[path[k - 1]], path[k]
                if child >= len(before) or t.expanded[0][k - 1]:
                    continue  # a node made by this playout
                e = [e for e in range(par.n1 * par.n2)
                     if (par.act[0][e // par.n2], par.act[1][e % par.n2])
                     == (t.moves[0][k - 1], t.moves[1][k - 1])][0]
                if par.edge_child[e] == 0:  # the edge was linked by this playout
                    events.append((k, t.depth, before[child].visits, node(s, child).visits,
                                   bool(before[child].flags & 2)))
                    break
    return events


def test_a_new_link_to_a_better_known_node_stops_the_playout():
    """KataGo's rule: a child with more visits (N = 1 + its edge visits)
    than the edge that reaches it only gets the edge counted, no playout
    below. A newly linked edge has 0 visits, so with short_circuit every new
    link to an existing node ends the playout there: the node is the path's
    last and its visits do not change."""
    events = _transposition_steps(True)
    inner = [e for e in events if not e[4]]
    assert len(inner) >= 5  # links to non-terminal nodes happened
    for step, depth, v0, v1, _ in events:
        assert depth == step
        assert v1 == v0


def test_without_short_circuit_a_new_link_goes_on():
    """The same situation without the rule: the playout goes on through the
    linked node (so the test above tells the two apart)."""
    events = [e for e in _transposition_steps(False) if not e[4]]
    assert events
    for step, depth, v0, v1, _ in events:
        assert depth > step
        assert v1 == v0 + 1


def test_transposition_hits_count_every_child_link():
    """Snakes: food appears at random (chance) and two move orders can meet
    (transpositions). Every node but the root was made through one link (an
    edge's first child or a later one); any other link found its node in the
    table, so the hits are the links minus the made nodes."""
    g = Game("snakes", "snakes=2 width=7 height=7", seed=3)
    with Search(g, mcgs(max_depth=12), seed=2) as s:
        s.run(iterations=20_000)
        all_links = links(s)
        n = s.stats().nodes[0]
        assert len(all_links) > len({(i, e) for i, e, _, _ in all_links})  # chance met
        assert s.stats().transposition_hits == len(all_links) - (n - 1) > 0
        assert len({c for _, _, c, _ in all_links}) == n - 1  # every node reachable


def test_views_show_every_child_of_a_chance_edge():
    """What a person sees of a graph with chance, read back from the raw
    children: the snapshot has a row per node (each reached through the one
    link that made it: goofspiel's graph is a tree), a row's share is its
    link's visits over its parent's, so a node's child rows add up to 1;
    the root matrix's cell is the edge's visit-weighted average; a move path
    leads to the edge's most visited child."""
    with Search(goof("random", 4), mcgs(), seed=5) as s:
        s.run(iterations=3000)
        n = s.stats().nodes[0]
        snap = s.snapshot(0, max_nodes=n)
        assert sorted(int(x) for x in snap.node) == list(range(n))
        share = {}
        for r in range(1, len(snap)):
            p = int(snap.parent[r])
            share[p] = share.get(p, 0.0) + float(snap.rows["prob"][r])
        for p, total in share.items():
            assert total == pytest.approx(1.0, abs=1e-5)
        root = node(s, 0)
        m = s.root_matrix()
        paths = 0
        for e in range(root.n1 * root.n2):
            i, j = divmod(e, root.n2)
            kids = children(s, 0, e)
            v = sum(k[1] for k in kids)
            if not v:
                continue
            want = root.base[0] + sum(k[1] * (k[2][0] + node(s, k[0]).q[0]) for k in kids) / v
            assert m.values[0, i, j] == pytest.approx(want, rel=1e-5, abs=1e-6)
            top = max(kids, key=lambda k: k[1])
            if len(kids) > 1 and sorted(k[1] for k in kids)[-2] < top[1]:
                step = (root.act[0][i], root.act[1][j])
                assert s.find_path(0, [step]) == top[0]
                paths += 1
        assert paths > 0


def _estimate(points, hands, left):
    """Goofspiel's win/loss leaf estimate for two players, from the rules
    (docs: each player is credited with its points plus a share of what is
    still in play proportional to the card strength it holds), written here
    without the C code: ((est_0 - est_1) / (left + 1)) clamped to [-1, 1]."""
    if not hands[0]:  # the end: the returns
        d = points[0] - points[1]
        return (d > 0) - (d < 0)
    tot = sum(hands[0]) + sum(hands[1])
    est = [points[i] + left * sum(hands[i]) / tot for i in range(2)]
    return max(-1.0, min(1.0, (est[0] - est[1]) / (left + 1)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_bid_ahead_every_chance_edge_is_worth_the_estimate_after_it(seed):
    """Random-order goofspiel-13 a few bids in (points and hands unequal),
    searched one turn deep with the game's estimate at the leaves
    (rollout_steps 0). Each joint bid leads to up to eight children, one per
    prize that can be drawn next, and the estimate does not depend on which
    (it reads the points, the hands and the total still in play): so every
    visited cell of the root matrix must be the estimate after that bid,
    computed by hand from the rules, for both seats with their own signs.
    A child weighed with another edge's visits, a reward read from the other
    seat's side or added twice moves these values. (This is the depth the
    search reaches on random prizes at 1,000 iterations: a playout ends at
    the first new chance child; docs/measuring-strength.md.)"""
    g = Game("goofspiel", "num_cards=13 points_order=random", seed=seed)
    hands = [set(range(1, 14)), set(range(1, 14))]
    points, drawn = [0, 0], 0
    for bids in ((13, 2), (5, 9), (7, 7), (1, 12)):  # prize won, lost, tied, lost
        prize = int(g.export()[6])
        drawn += prize
        for i in range(2):
            hands[i].discard(bids[i])
        if bids[0] != bids[1]:
            points[bids[0] < bids[1]] += prize
        g.step([b - 1 for b in bids])  # a bid's move id is its card - 1
    prize = int(g.export()[6])
    left = 91 - drawn  # the current prize and those still face down
    assert g.evaluate()[0] == pytest.approx(_estimate(points, hands, left))
    with Search(g, mcgs(max_depth=1, rollout_steps=0, c_puct=4), seed=seed) as s:
        s.run(iterations=3000)
        m = s.root_matrix()
        several = 0
        for i, a in enumerate(m.moves[0]):
            for j, b in enumerate(m.moves[1]):
                if not m.visits[i, j]:
                    continue
                ca, cb = a + 1, b + 1
                pts = list(points)
                if ca != cb:
                    pts[ca < cb] += prize
                h = [hands[0] - {ca}, hands[1] - {cb}]
                want = _estimate(pts, h, left - prize)
                assert m.values[0, i, j] == pytest.approx(want, abs=1e-6)
                assert m.values[1, i, j] == pytest.approx(-want, abs=1e-6)
                several += len(children(s, 0, i * len(m.moves[1]) + j)) > 1
        assert several > 20  # chance met: most edges have several children
