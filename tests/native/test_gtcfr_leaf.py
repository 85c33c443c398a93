"""GT-CFR's frontier values (gtcfr.c leaf_value) against hand-computed
expectations: `leaf_rollouts` random rollouts averaged into a leaf's value.

Goofspiel-3, prizes 3, 2, 1 (descending), point_difference: player 0's value
is (p0 - p1) / 2. After the first bids, each player holds two cards; a
uniformly random rollout picks one of the 2 x 2 second bids with
probability 1/4 each, and the last bid is forced. By hand:

  player 0 bids 3, player 1 bids 1: player 0 takes 3 and keeps {1, 2}
  against {2, 3}; second prize 2, then 1:
      1 v 2: 2 to p1, then 2 v 3: 1 to p1     3 - 3 = 0    -> 0
      1 v 3: 2 to p1, then 2 v 2: tie         3 - 2 = 1    -> 0.5
      2 v 2: tie,     then 1 v 3: 1 to p1     3 - 1 = 2    -> 1
      2 v 3: 2 to p1, then 1 v 2: 1 to p1     3 - 3 = 0    -> 0
    expectation 1.5 / 4 = 0.375; one rollout is 0, 0.5 or 1.
  player 0 bids 2, player 1 bids 1: player 0 takes 3 and keeps {1, 3}
  against {2, 3}:
      1 v 2: 2 to p1, then 3 v 3: tie         3 - 2 = 1    -> 0.5
      1 v 3: 2 to p1, then 3 v 2: 1 to p0     4 - 2 = 2    -> 1
      3 v 2: 2 to p0, then 1 v 3: 1 to p1     5 - 1 = 4    -> 2
      3 v 3: tie,     then 1 v 2: 1 to p1     3 - 1 = 2    -> 1
    expectation 4.5 / 4 = 1.125.

With 1,024 rollouts a leaf the value's standard error is about 0.013 (0.021
for the second), so a tolerance of 0.06 holds them; a search that ignored
leaf_rollouts (one rollout a leaf) is at least 0.125 away from both.

Mutations of gtcfr.c these tests were run against (edited, rebuilt, this
file run; the tests that failed):
  leaf_rollouts ignored (one rollout)          many rollouts, mean of n
  a refining visit leaves the value as it was  refined leaves
  the parent's slot not given the new mean     refined leaves
  expanded one visit late (<= expand_after)    expanded at the n-th visit
  the new sample weighted 1/2 (not 1/(m+1))    refined leaves
"""
from __future__ import annotations

import pytest

from sandbox.native import Game, InvalidArgument, Search, SearchParams
from sandbox.native._lib import ffi, lib

GAME = "num_cards=3 returns_type=point_difference"
# (player 0's card, player 1's card): the hand-computed expectation, and the
# values a single rollout can give
CASES = {(3, 1): (0.375, {0.0, 0.5, 1.0}), (2, 1): (1.125, {0.5, 1.0, 2.0})}


def node(s: Search, i: int):
    d = ffi.new("sbx_gtcfr_debug_node *")
    assert lib.sbx_search_debug_gtcfr_node(s._h.get(), i, d) == 0
    return d


def root_leaf_values(n: int, seed: int, rollout: bool = True) -> dict[tuple[int, int], float]:
    """The values of the root's children as they joined the tree (L0):
    c = 100, so no regret update has run after one iteration."""
    with Game("goofspiel", GAME) as g, \
            Search(g, SearchParams(algorithm="gtcfr", rollout=rollout, max_depth=13,
                                   leaf_rollouts=n, expansions_per_update=100),
                   seed=seed) as s:
        s.run(iterations=1)
        root = node(s, 0)
        assert root.updates == 0
        out = {}
        for a in range(root.k[0]):
            for b in range(root.k[1]):
                cards = (root.moves[0][a] + 1, root.moves[1][b] + 1)
                child = root.child[a * root.k[1] + b]
                if cards in CASES:
                    assert child > 0
                    out[cards] = node(s, child).value
        return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_many_rollouts_average_to_the_hand_computed_expectation(seed):
    vals = root_leaf_values(1024, seed)
    for cards, (want, _) in CASES.items():
        assert vals[cards] == pytest.approx(want, abs=0.06), cards


def test_one_rollout_is_one_outcome():
    """The default (1): a leaf's value is one whole rollout's."""
    for seed in range(1, 6):
        vals = root_leaf_values(1, seed)
        for cards, (_, singles) in CASES.items():
            assert any(abs(vals[cards] - v) < 1e-12 for v in singles), (cards, vals[cards])


def test_n_rollouts_give_a_mean_of_n_outcomes():
    """Four rollouts: the value is a mean of four single outcomes, so four
    times it is a sum of four of them (a multiple of 0.5 here)."""
    seen = set()
    for seed in range(1, 9):
        for cards, v in root_leaf_values(4, seed).items():
            assert (4 * v * 2) == pytest.approx(round(4 * v * 2), abs=1e-9), (cards, v)
            lo, hi = min(CASES[cards][1]), max(CASES[cards][1])
            assert lo - 1e-12 <= v <= hi + 1e-12
            seen.add(round(v * 8))
    # not only single outcomes: some value between them (a true mean)
    singles = {round(x * 8) for _, s in CASES.values() for x in s}
    assert seen - singles


def test_rollout_off_ignores_leaf_rollouts():
    """Without rollouts a leaf is the game's evaluation, however many
    rollouts are asked for."""
    assert root_leaf_values(1, 1, rollout=False) == root_leaf_values(64, 1, rollout=False)


@pytest.mark.parametrize("name,bad", [("leaf_rollouts", 0), ("leaf_rollouts", -1),
                                      ("leaf_rollouts", 1025), ("leaf_rollouts", "many"),
                                      ("expand_after", 0), ("expand_after", (1 << 20) + 1),
                                      ("expand_after", 2.5)])
def test_out_of_range_is_refused(name, bad):
    with pytest.raises((InvalidArgument, ValueError)):
        SearchParams(algorithm="gtcfr", **{name: bad})


@pytest.mark.parametrize("name,bad", [("leaf_rollouts", 0), ("leaf_rollouts", 1025),
                                      ("expand_after", 0)])
def test_the_c_side_refuses_out_of_range_too(name, bad):
    """Past Python's checks (a raw C parameter set): a status and a message,
    no crash."""
    with Game("goofspiel", GAME) as g, \
            Search(g, SearchParams(algorithm="gtcfr"), seed=1) as s:
        p = ffi.new("sbx_search_params *")
        assert lib.sbx_search_get_params(s._h.get(), p) == 0
        setattr(p, name, bad)
        assert lib.sbx_search_set_params(s._h.get(), p) != 0
        assert name in ffi.string(lib.sbx_last_error()).decode()


# ------------------------------------------------------------ expand_after


def test_refined_leaves_average_to_the_hand_computed_expectation():
    """expand_after larger than the run: the root's children stay leaves, and
    every simulation that reaches one adds a rollout to its mean (the one it
    was made with, then one per visit). A child visited often is near the
    hand-computed expectation; its parent's slot holds the same value (the
    regret update reads a leaf's value from the slot). Without refinement
    each value would be one rollout's: 0.125 or more away."""
    with Game("goofspiel", GAME) as g, \
            Search(g, SearchParams(algorithm="gtcfr", rollout=True, max_depth=13,
                                   expand_after=1 << 20, expansions_per_update=10),
                   seed=4) as s:
        s.run(iterations=20_000)
        root = node(s, 0)
        assert s.stats().nodes[0] == 10               # the root and its 9 leaves
        checked = 0
        for a in range(root.k[0]):
            for b in range(root.k[1]):
                i = a * root.k[1] + b
                child = node(s, root.child[i])
                assert child.kind == 0                  # still a frontier leaf
                assert root.slot_value[i] == child.value
                cards = (root.moves[0][a] + 1, root.moves[1][b] + 1)
                if cards in CASES and child.visits >= 400:
                    # standard deviation of one rollout <= 0.75 in both cases
                    assert child.value == pytest.approx(
                        CASES[cards][0], abs=4 * 0.75 / (child.visits + 1) ** 0.5), cards
                    checked += 1
        assert checked >= 1


@pytest.mark.parametrize("after", [1, 3])
def test_a_leaf_is_expanded_at_its_nth_visit(after):
    """A frontier node has had fewer than expand_after simulations; an
    interior node below the root at least expand_after (the one that
    expanded it and any after)."""
    with Game("goofspiel", "num_cards=5") as g, \
            Search(g, SearchParams(algorithm="gtcfr", rollout=True, expand_after=after),
                   seed=3) as s:
        s.run(iterations=300)
        kinds = {0: 0, 1: 0}
        for i in range(1, s.stats().nodes[0]):
            d = node(s, i)
            if d.kind == 0:
                assert d.visits < after, (i, d.visits)
            elif d.kind == 1:
                assert d.visits >= after, (i, d.visits)
            kinds[d.kind] = kinds.get(d.kind, 0) + 1
        assert kinds[0] > 0 and kinds[1] > 0


def test_refined_search_is_deterministic_for_a_seed():
    """Refinement draws from the search's own stream: the same seed and
    iteration budget give the same moves and the same tree."""
    out = []
    for _ in range(2):
        with Game("goofspiel", "num_cards=6") as g, \
                Search(g, SearchParams(algorithm="gtcfr", rollout=True, expand_after=8,
                                       leaf_rollouts=2, expansions_per_update=3),
                       seed=11) as s:
            s.run(iterations=2_000)
            out.append((s.best_moves(), s.stats().nodes[0], node(s, 0).value))
    assert out[0] == out[1]


def test_a_traced_refining_simulation_reports_the_leaf_it_refined():
    """The step view's record of a refining simulation (sbx_trace: refined,
    leaf_visits, leaf_samples, leaf_value, leaf_mean), against what the tree
    holds before and after the step: the leaf is the path's last node, its
    visits went up by one and stay below expand_after, its new mean is the
    old one moved 1/n of the way to the new value (n: its values now), one
    of the values a single rollout can give (hand-computed above), and the
    visit that reaches expand_after expands instead (no refine record)."""
    after = 4
    with Game("goofspiel", GAME) as g, \
            Search(g, SearchParams(algorithm="gtcfr", rollout=True, max_depth=13,
                                   expand_after=after, expansions_per_update=100),
                   seed=5) as s:
        s.step_traced()                       # L0: the root and its 9 leaves
        refined = expanded = checked = 0
        for _ in range(60):
            before = {i: (node(s, i).visits, node(s, i).value) for i in range(s.stats().nodes[0])}
            t = s.step_traced()
            leaf = t.paths[0][-1]
            if t.refine is None:
                expanded += bool(t.expanded.any())
                continue
            refined += 1
            r = t.refine
            visits, mean = before[leaf]
            d = node(s, leaf)
            assert d.kind == 0 and r.visits == d.visits == visits + 1 < after
            assert r.expand_after == after
            assert r.mean == d.value == pytest.approx(mean + (r.value - mean) / r.samples)
            root = node(s, 0)
            children = list(root.child[0:9])
            if leaf in children:
                cards = tuple(root.moves[p][m] + 1
                              for p, m in enumerate(divmod(children.index(leaf), 3)))
                if cards in CASES:
                    checked += 1
                    assert r.value in CASES[cards][1]
        assert refined > 0 and expanded > 0 and checked > 0
    # expand_after 1 (every leaf met expands): no simulation refines
    with Game("goofspiel", GAME) as g, \
            Search(g, SearchParams(algorithm="gtcfr", rollout=True, expand_after=1),
                   seed=5) as s:
        assert all(s.step_traced().refine is None for _ in range(30))
