"""Each game's features (sbx.h section 1), a network's input: the layout
pinned by hand-computed positions, the views, the private slots, and the
rule that public features carry no private information."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from sandbox.native import Game, InvalidArgument, InvalidState


def goof(params: str = "num_cards=5", seed: int = 1) -> Game:
    return Game("goofspiel", params, seed)


def test_goofspiel_layout_by_hand():
    g = goof("num_cards=5")
    lay = g.features_layout()
    assert (lay.size, lay.planes, lay.scalars, lay.players, lay.moves, lay.slots) == \
        (1 + 10 + 2 * 6 + 2 * 5, 0, 33, 2, 5, 0)
    g.step([4, 2])          # prize 5: 5 against 3, seat 0 wins it
    g.step([0, 3])          # prize 4: 1 against 4, seat 1 wins it
    f = g.features()
    assert f[0] == pytest.approx(2 / 5)
    assert list(f[1:6]) == [0, 0, 1, 0, 0]           # prize 3 is up
    assert list(f[6:11]) == [1, 1, 0, 0, 0]          # 1 and 2 face down
    assert f[11] == pytest.approx(5 / 15) and list(f[12:17]) == [0, 0, 0, 0, 1]
    assert f[17] == pytest.approx(4 / 15) and list(f[18:23]) == [0, 0, 0, 1, 0]
    assert list(f[23:28]) == [0, 1, 1, 1, 0]         # seat 0 holds 2, 3, 4
    assert list(f[28:33]) == [1, 1, 0, 0, 1]         # seat 1 holds 1, 2, 5
    # view 1: the same numbers, seat 1's blocks first
    f1 = g.features(view=1)
    assert np.array_equal(f1[:11], f[:11])
    assert np.array_equal(f1[11:17], f[17:23]) and np.array_equal(f1[17:23], f[11:17])
    assert np.array_equal(f1[23:28], f[28:33]) and np.array_equal(f1[28:33], f[23:28])
    assert np.array_equal(g.features(view=0), f)


def test_hidden_bids_leave_no_trace_in_public_features():
    """Two states that differ only in the hidden bids (so the hands) have
    the same features from every view; with public bids they differ."""
    for imp in (1, 0):
        a, b = goof(f"num_cards=5 imp_info={imp}"), goof(f"num_cards=5 imp_info={imp}")
        a.step([4, 0])      # 5 against 1 ...
        b.step([4, 1])      # ... or 5 against 2: seat 0 wins prize 5 either way
        a.step([1, 3])      # 2 against 4 ...
        b.step([0, 2])      # ... or 1 against 3: seat 1 wins prize 4 either way
        assert a.export().tolist() != b.export().tolist()
        same = all(np.array_equal(a.features(view=v), b.features(view=v)) for v in (None, 0, 1))
        assert same == bool(imp), imp


def test_hidden_features_are_those_of_every_determinization():
    """A seat's determinization resamples the other's hidden bids: the
    public features cannot change."""
    g = goof("num_cards=6 imp_info=1", seed=3)
    for joint in ([5, 2], [0, 4], [3, 3]):
        g.step(joint)
    want = g.features()
    for seat in (0, 1):
        for seed in range(20):
            d = g.clone()
            d.determinize(seat, seed)
            assert np.array_equal(d.features(), want)


def test_hidden_goofspiel_slots_rank_the_hands():
    """Slots: every hand of k cards gets its own slot below C(N, k), the
    rank given in sbx.h (sum of C(card - 1, i))."""
    n = 6
    g = goof(f"num_cards={n} imp_info=1")
    assert g.features_layout().slots == math.comb(n, n // 2)
    for turn in range(3):
        k = n - turn
        slots = set()
        for cards in itertools.combinations(range(1, n + 1), k):
            mask = sum(1 << (c - 1) for c in cards)
            s = g.private_slot(mask)
            assert s == sum(math.comb(c - 1, i + 1) for i, c in enumerate(cards))
            slots.add(s)
        assert slots == set(range(math.comb(n, k)))
        with pytest.raises(InvalidArgument, match="cannot be held"):
            g.private_slot((1 << (k - 1)) - 1)      # a hand one card short
        g.step([turn, turn])
    with pytest.raises(InvalidState, match="no private states"):
        goof("num_cards=5").private_slot(31)


def test_snakes_planes_by_hand():
    g = Game("snakes", "snakes=2 width=7 height=7 initial_food=0 minimum_food=0 "
                       "food_spawn_chance=0", 5)
    lay = g.features_layout()
    assert (lay.planes, lay.height, lay.width, lay.scalars) == (6, 7, 7, 6)
    assert lay.size == 6 * 49 + 6
    assert list(g.export()[11:13]) == [3, 1] and list(g.export()[22:24]) == [3, 5]
    g.step([0, 1])          # up, down (y grows upwards); the tails still stack
    g.step([2, 3])          # left, right
    words = g.export()
    assert g.alive == [True, True]
    f = g.features()
    planes = f[:6 * 49].reshape(6, 7, 7)
    assert planes[0].sum() == 49 and planes[1].sum() == 0
    pos = 6
    for k in range(2):
        alive, health, length, _, _ = words[pos:pos + 5]
        body = words[pos + 5:pos + 5 + 2 * length].reshape(length, 2)
        head = np.zeros((7, 7))
        head[body[0][1], body[0][0]] = 1
        assert np.array_equal(planes[2 + 2 * k], head)
        for i, (x, y) in enumerate(body):
            assert planes[3 + 2 * k][y, x] == pytest.approx((length - i) / length)
        assert np.count_nonzero(planes[3 + 2 * k]) == len({(x, y) for x, y in body})
        assert f[6 * 49 + 3 * k:6 * 49 + 3 * k + 3] == pytest.approx(
            [alive, health / 100, length / 49])
        pos += 5 + 2 * length
    f1 = g.features(view=1).copy()
    p1 = f1[:6 * 49].reshape(6, 7, 7)
    assert np.array_equal(p1[2:4], planes[4:6]) and np.array_equal(p1[4:6], planes[2:4])


def test_matrix_features_by_hand():
    g = Game("matrix", "preset=biased_rps repeats=4", 1)
    assert g.features_layout().size == 1 + 9 + 3 + 3
    g.step([0, 2])          # rock, scissors
    g.step([0, 1])
    f0, f1 = g.features(view=0), g.features(view=1)
    assert f0[0] == pytest.approx(0.5)
    counts = f0[1:10].reshape(3, 3) * 4
    assert counts[0, 2] == 1 and counts[0, 1] == 1 and counts.sum() == 2
    assert np.array_equal(f1[1:10].reshape(3, 3), f0[1:10].reshape(3, 3).T)
    assert list(f0[10:16]) == [1, 0, 0, 0, 1, 0]
    assert list(f1[10:16]) == [0, 1, 0, 1, 0, 0]


def test_features_refusals():
    with pytest.raises(InvalidState, match="has no features"):
        Game("maze", None, 1).features()
    with pytest.raises(InvalidState, match="snakebyte has no features"):
        Game("snakes", "ruleset=snakebyte", 1).features_layout()
    g = goof()
    with pytest.raises(InvalidArgument, match="view"):
        g.features(view=2)
    with pytest.raises(InvalidArgument, match="need 33 floats"):
        g.features(out=np.zeros(10, dtype=np.float32))
    with pytest.raises(InvalidArgument, match="float32"):
        g.features(out=np.zeros(40))


def _examples():
    from sandbox.games import plugins
    return [(pl.kind, pl.c_params(ex)) for pl in plugins() for ex in pl.examples]


@pytest.mark.parametrize("kind,params", _examples(), ids=lambda v: str(v)[:40])
def test_every_example_with_features_writes_finite_numbers_of_its_size(kind, params):
    """Random play through each plugin example: a game with features
    writes exactly its layout's size of finite numbers from every view; one
    without says so."""
    g = Game(kind, params, 4)
    try:
        lay = g.features_layout()
    except InvalidState:
        return
    assert lay.size == lay.planes * lay.height * lay.width + lay.scalars
    rng = np.random.default_rng(0)
    buf = np.full(lay.size + 5, 7.0, dtype=np.float32)
    for _ in range(12):
        for view in (None, *range(g.num_agents)):
            f = g.features(view, out=buf)
            assert f.shape == (lay.size,) and np.all(np.isfinite(f))
            assert np.all(buf[lay.size:] == 7.0)          # nothing past the layout
        assert np.array_equal(g.features(), g.features(0))
        if g.is_terminal:
            break
        g.step([int(rng.choice(m)) if (m := g.legal_moves(a)) else None
                for a in range(g.num_agents)])
