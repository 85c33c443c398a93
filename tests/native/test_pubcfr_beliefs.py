"""pubcfr's public belief states below the root (Search.public_nodes,
Search.node_ranges, Search.public_state): what the app's belief view shows.

Oracles, independent of pubcfr.c's tree walk:
  - goofspiel-3 before any iteration (both seats uniform), by hand: each
    first-round outcome has probability 1/3, and "Red won the 3" leaves Red
    holding {1, 3} (it bid the 2) with probability 1/3 and {1, 2} with 2/3,
    since a bid of 3 beats two of Blue's bids and a bid of 2 only one;
  - goofspiel-4 after CFR+ iterations: the first round's public outcomes
    and each seat's posterior there, enumerated in Python over the 16 bid
    pairs from the two root average strategies (Search.root_stats) and the
    rule "the higher bid wins the prize";
  - the law of total probability one level further down: a public state's
    probability is the sum of its children's wherever no joint move ends
    the game (a reach that forgot its parent's would break it).
"""
from __future__ import annotations

import itertools

import pytest

from sandbox.games import plugin
from sandbox.native import InvalidArgument, InvalidState, Search, SearchParams
from pubcfr_oracle import imp_game

P = plugin("goofspiel")
NAMES = ("Red", "Blue")


def mask(cards) -> int:
    return sum(1 << (c - 1) for c in cards)


def by_event(s: Search) -> dict[str, int]:
    """The first round's public states by their label."""
    out = {}
    for n in s.public_nodes():
        if n.depth == 1:
            out[P.public_event(P.decode(s.public_state(n.index).export()), NAMES)] = n.index
    return out


def test_by_hand_before_any_iteration():
    s = Search(imp_game(3), SearchParams(algorithm="pubcfr", max_depth=3), seed=1)
    nodes = s.public_nodes()
    assert nodes[0].parent == -1 and nodes[0].depth == 0 and nodes[0].reach == 1.0
    first = by_event(s)
    assert set(first) == {"Red won the 3", "Blue won the 3", "tie on the 3"}
    for i in first.values():
        assert nodes[i].reach == pytest.approx(1 / 3) and nodes[i].parent == 0
        assert nodes[i].histories == 3
    won = first["Red won the 3"]
    assert dict(s.node_ranges(won, 0)) == pytest.approx({mask([1, 3]): 1 / 3,
                                                         mask([1, 2]): 2 / 3})
    assert dict(s.node_ranges(won, 1)) == pytest.approx({mask([2, 3]): 2 / 3,
                                                         mask([1, 3]): 1 / 3})
    # the range CFR carries: Red's own reach alone, its bids 2 and 3 alike
    assert dict(s.node_ranges(won, 0, belief=False)) == pytest.approx(
        {mask([1, 3]): 0.5, mask([1, 2]): 0.5})
    tie = first["tie on the 3"]
    for seat in (0, 1):
        assert dict(s.node_ranges(tie, seat)) == pytest.approx(
            {mask([1, 2]): 1 / 3, mask([1, 3]): 1 / 3, mask([2, 3]): 1 / 3})
    # at the root, the one hand each seat holds
    for seat in (0, 1):
        assert s.node_ranges(0, seat) == ((mask([1, 2, 3]), 1.0),)


@pytest.mark.parametrize("iterations", [30, 300])
def test_first_round_posteriors_match_the_root_strategies(iterations):
    s = Search(imp_game(4), SearchParams(algorithm="pubcfr", max_depth=4), seed=1)
    s.run(iterations=iterations)
    sigma = [{m.move + 1: m.policy for m in s.root_stats(seat)} for seat in (0, 1)]
    assert all(abs(sum(sg.values()) - 1) < 1e-9 for sg in sigma)
    assert max(sigma[0].values()) > 0.4          # trained: far from uniform
    nodes = s.public_nodes()
    hand = (1, 2, 3, 4)
    outcome = {"Red won the 4": lambda a, b: a > b, "Blue won the 4": lambda a, b: b > a,
               "tie on the 4": lambda a, b: a == b}
    for label, index in by_event(s).items():
        pairs = [(a, b) for a, b in itertools.product(hand, hand) if outcome[label](a, b)]
        weight = {(a, b): sigma[0][a] * sigma[1][b] for a, b in pairs}
        total = sum(weight.values())
        assert nodes[index].reach == pytest.approx(total, abs=1e-12)
        for seat in (0, 1):
            want: dict[int, float] = {}
            own: dict[int, float] = {}
            for (a, b), w in weight.items():
                bid = (a, b)[seat]
                left = mask(c for c in hand if c != bid)
                want[left] = want.get(left, 0.0) + w / total
                own[left] = sigma[seat][bid]
            got = dict(s.node_ranges(index, seat))
            assert got == pytest.approx(want, abs=1e-9), (label, seat)
            norm = sum(own.values())
            assert dict(s.node_ranges(index, seat, belief=False)) == pytest.approx(
                {k: v / norm for k, v in own.items()}, abs=1e-9)


def test_a_public_states_probability_is_its_childrens_sum():
    s = Search(imp_game(4), SearchParams(algorithm="pubcfr", max_depth=4), seed=3)
    s.run(iterations=200)
    nodes = s.public_nodes()
    kids: dict[int, list[float]] = {}
    for n in nodes[1:]:
        kids.setdefault(n.parent, []).append(n.reach)
    checked = 0
    for n in nodes:
        if n.depth in (1, 2) and n.expanded:   # rounds 2 and 3 never end the game
            assert sum(kids[n.index]) == pytest.approx(n.reach, abs=1e-12)
            checked += 1
    assert checked >= 9
    for n in nodes:      # every posterior is a distribution
        for seat in (0, 1):
            rng = s.node_ranges(n.index, seat)
            assert [i for i, _ in rng] == sorted(i for i, _ in rng)
            if n.reach > 0:
                assert sum(p for _, p in rng) == pytest.approx(1.0)


def test_public_state_shows_the_nodes_public_record():
    s = Search(imp_game(4), SearchParams(algorithm="pubcfr", max_depth=4), seed=1)
    for n in s.public_nodes():
        v = P.decode(s.public_state(n.index).export())
        assert v.turn == n.depth and len(v.history) == n.depth
        parent = P.decode(s.public_state(max(n.parent, 0)).export())
        if n.parent >= 0:   # its record extends its parent's by one round
            assert [(r.prize, r.winner) for r in v.history[:-1]] == \
                [(r.prize, r.winner) for r in parent.history]


def test_bad_arguments_and_other_searches_are_refused():
    s = Search(imp_game(3), SearchParams(algorithm="pubcfr", max_depth=3), seed=1)
    n = len(s.public_nodes())
    for bad in (-1, n, 1 << 29):
        with pytest.raises(InvalidArgument, match="node"):
            s.node_ranges(bad, 0)
        with pytest.raises(InvalidArgument, match="node"):
            s.public_state(bad)
    with pytest.raises(InvalidArgument):
        s.node_ranges(0, 2)
    with pytest.raises(InvalidArgument, match="belief"):
        s.node_ranges(0, 0, belief=1)
    with pytest.raises(InvalidArgument):
        s.node_ranges(1.0, 0)
    other = Search(imp_game(3), SearchParams(algorithm="random"), seed=1)
    for call in (other.public_nodes, lambda: other.node_ranges(0, 0),
                 lambda: other.public_state(0)):
        with pytest.raises(InvalidState, match="pubcfr"):
            call()
