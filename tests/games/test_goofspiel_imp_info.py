"""Goofspiel with hidden bids (imp_info=1): what each seat sees, the
determinization the searches use, and that no search peeks.

Oracles: OpenSpiel's own information-state strings when pyspiel is
installed (the partition of histories into information sets must be the
same), hand-played rounds, and an exact enumeration of the opponent's bid
sequences consistent with a seat's record (itertools)."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

from sandbox.games import plugin
from sandbox.games.goofspiel.info import info_key, seat_view
from sandbox.games.goofspiel.view import decode_goofspiel
from sandbox.native import Game, Search, SearchParams
from sandbox.native.errors import InvalidArgument, InvalidState

P = plugin("goofspiel")


def imp(n: int = 4, **kw) -> Game:
    extra = " ".join(f"{k}={v}" for k, v in kw.items())
    return Game("goofspiel", f"num_cards={n} imp_info=1 {extra}".strip(), seed=1)


def play(g: Game, rounds) -> Game:
    for a, b in rounds:
        g.step([a - 1, b - 1])
    return g


def test_seat_view_after_hand_played_rounds():
    # 4 cards, prizes 4, 3, ...: Red bids 3 vs 1 (Red wins 4), then 2 vs 2 (tie)
    g = play(imp(4), [(3, 1), (2, 2)])
    v0 = seat_view(decode_goofspiel(g.export()), 0)
    assert v0.hand == (1, 4) and v0.bids == (3, 2)
    assert v0.prizes == (4, 3) and v0.winners == (0, -1) and v0.points == (4, 0)
    assert v0.prize == 2
    v1 = seat_view(decode_goofspiel(g.export()), 1)
    assert v1.hand == (3, 4) and v1.bids == (1, 2)
    # Red cannot tell Blue's 1 from Blue's 2 in round one (both lose to a 3)
    other = play(imp(4), [(3, 2), (1, 3)])
    same_for_red = play(imp(4), [(3, 1), (1, 3)])
    assert info_key(other.export(), 0) == info_key(same_for_red.export(), 0)
    assert info_key(other.export(), 1) != info_key(same_for_red.export(), 1)


def test_perfect_information_keys_are_states():
    g = Game("goofspiel", "num_cards=3", seed=1)
    assert not g.hidden_info
    assert P.info_key(g, 0) == g.state_hash()
    assert imp(3).hidden_info


@pytest.mark.parametrize("n", [3, 4])
def test_information_sets_match_openspiel(n):
    pyspiel = pytest.importorskip("pyspiel")
    os_game = pyspiel.load_game(f"goofspiel(num_cards={n},imp_info=True,"
                                "points_order=descending,returns_type=win_loss)")
    ours: dict[int, dict] = {0: {}, 1: {}}
    theirs: dict[int, dict] = {0: {}, 1: {}}

    def walk(g: Game, s, hist: tuple):
        # OpenSpiel plays the forced last round itself: its state is then
        # terminal while ours still has one (forced) bid to make
        if g.is_terminal or s.is_terminal():
            return
        for seat in (0, 1):
            ours[seat][hist] = info_key(g.export(), seat)
            theirs[seat][hist] = s.information_state_string(seat)
        for a in g.legal_moves(0):
            for b in g.legal_moves(1):
                h, t = g.clone(), s.clone()
                h.step([a, b])
                t.apply_actions([a, b])          # OpenSpiel's action = card - 1 too
                walk(h, t, hist + ((a, b),))

    walk(imp(n), os_game.new_initial_state(), ())
    for seat in (0, 1):
        def partition(keys):
            groups: dict = {}
            for hist, k in keys.items():
                groups.setdefault(k, set()).add(hist)
            return sorted(sorted(v) for v in groups.values())
        assert partition(ours[seat]) == partition(theirs[seat])
        assert len(partition(ours[seat])) < len(ours[seat])     # something is hidden


def consistent_opponent_bids(view) -> list[tuple[int, ...]]:
    """Every opponent bid sequence that fits seat 0's record (enumerated)."""
    out = []
    for seq in itertools.permutations(range(1, view.num_cards + 1), view.turn):
        ok = True
        for mine, theirs, w in zip(view.bids, seq, view.winners):
            if (w == 0 and not theirs < mine) or (w == -1 and theirs != mine) or \
               (w == 1 and not theirs > mine):
                ok = False
        if ok:
            out.append(seq)
    return out


def test_determinization_is_consistent_and_exactly_uniform():
    g = play(imp(5), [(3, 2), (1, 4)])      # Red won 5 (3 > 2), Blue won 4 (4 > 1)
    view = seat_view(decode_goofspiel(g.export()), 0)
    support = consistent_opponent_bids(view)
    assert len(support) > 3
    counts: Counter = Counter()
    draws = 6000
    for seed in range(draws):
        h = g.clone()
        h.determinize(0, seed)
        assert info_key(h.export(), 0) == info_key(g.export(), 0)
        dec = decode_goofspiel(h.export())
        counts[tuple(r.bids[1] for r in dec.history)] += 1
        check = Game("goofspiel", "num_cards=5 imp_info=1", seed=1)
        check.import_state(h.export())                     # a valid full state
    assert set(counts) == set(support)
    expect = draws / len(support)
    sigma = (expect * (1 - 1 / len(support))) ** 0.5
    for seq in support:
        assert abs(counts[seq] - expect) < 5 * sigma, (seq, counts[seq], expect)


def test_large_hands_sample_consistently():
    g = play(imp(13), [(13, 12), (1, 11), (7, 7), (2, 3)])
    for seed in range(200):
        h = g.clone()
        h.determinize(1, seed)
        assert info_key(h.export(), 1) == info_key(g.export(), 1)


def test_determinize_refusals():
    with pytest.raises(InvalidState):
        Game("goofspiel", "num_cards=4", seed=1).determinize(0, 1)
    with pytest.raises(InvalidArgument):
        imp(4).determinize(2, 1)
    with pytest.raises(InvalidArgument, match="imp_info"):
        Game("goofspiel", "num_cards=4 imp_info=1 players=3", seed=1)
    with pytest.raises(InvalidArgument, match="imp_info"):
        Game("goofspiel", "num_cards=4 imp_info=2", seed=1)
    with pytest.raises(ValueError, match="imp_info"):
        P.params({"imp_info": 1, "players": 3})


@pytest.mark.parametrize("algorithm", ["suct", "joint", "mcgs", "uct", "gtcfr", "greedy"])
def test_peeking_searches_are_refused(algorithm):
    with pytest.raises(InvalidArgument, match="hidden information"):
        Search(imp(4), SearchParams(algorithm=algorithm), seed=1)


def test_parallel_and_bad_seat_refused():
    with pytest.raises(InvalidArgument, match="serial"):
        Search(imp(4), SearchParams(parallel="root", threads=2), seed=1)
    with pytest.raises(InvalidArgument, match="info_seat"):
        Search(imp(4), SearchParams(info_seat=2), seed=1)


@pytest.mark.parametrize("policy", ["rm", "ucb1"])
def test_search_depends_on_the_information_set_only(policy):
    # Blue's 1 or 2 against Red's 3: one information set for Red
    a = play(imp(4), [(3, 1)])
    b = play(imp(4), [(3, 2)])
    assert a.state_hash() != b.state_hash()
    out = []
    for g in (a, b):
        with Search(g, SearchParams(policy=policy, max_depth=4, info_seat=0), seed=7) as s:
            s.run(iterations=3000)
            out.append([(st.move, st.visits, round(st.policy, 12)) for st in s.root_stats(0)])
    assert out[0] == out[1]
    # and Blue's search on the same two states differs (Blue knows its bid)
    res = []
    for g in (a, b):
        with Search(g, SearchParams(policy=policy, max_depth=4, info_seat=1), seed=7) as s:
            s.run(iterations=3000)
            res.append(sorted(st.move for st in s.root_stats(1)))
    assert res[0] != res[1]
