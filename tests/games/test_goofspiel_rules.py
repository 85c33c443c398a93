"""One case per rule of docs/games.md, Goofspiel (goofspiel, OpenSpiel's parameterisation).

Every expected value below is worked out by hand in the comment next to it
(points, returns, evaluations), never taken from the engine itself. Bids are
written as card values; the engine's move id is card - 1.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.native import Game, InvalidArgument, InvalidState, Search, SearchParams

RETURNS_TYPES = ["win_loss", "point_difference", "total_points"]
ORDERS = ["descending", "ascending", "random"]
VERSION = 1
ORDER_CODE = {"descending": 0, "ascending": 1, "random": 2}
RETURNS_CODE = {"win_loss": 0, "point_difference": 1, "total_points": 2}


def new(seed: int = 0, **params) -> Game:
    return Game("goofspiel", params, seed=seed)


def bid(g: Game, *cards: int) -> np.ndarray:
    """One round: every player bids the given card value."""
    return g.step([c - 1 for c in cards])


def decode(words) -> dict:
    """The export layout of sbx.h (goofspiel), as plain Python values."""
    w = [int(x) for x in words]
    n_players, turn = w[2], w[3]
    players = [(w[8 + 2 * a], w[9 + 2 * a]) for a in range(n_players)]
    p = 8 + 2 * n_players
    rounds = []
    for _ in range(turn):
        rounds.append((w[p], w[p + 1], w[p + 2:p + 2 + n_players]))
        p += 2 + n_players
    assert p == len(w)
    return {
        "version": w[0], "num_cards": w[1], "players": n_players, "turn": turn,
        "order": w[4], "returns": w[5], "prize": w[6],
        "unrevealed": {v for v in range(1, 17) if w[7] >> (v - 1) & 1},
        "points": [pts for pts, _ in players],
        "hands": [{c for c in range(1, 17) if h >> (c - 1) & 1} for _, h in players],
        "rounds": rounds,
    }


def mask(cards) -> int:
    return sum(1 << (c - 1) for c in cards)


def fnv_hash(words) -> int:
    """FNV-1a over the 32-bit words, finished with the splitmix64 mixer."""
    m = (1 << 64) - 1
    h = 0xCBF29CE484222325
    for w in words:
        h = ((h ^ (int(w) & 0xFFFFFFFF)) * 0x100000001B3) & m
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & m
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & m
    return h ^ (h >> 31)


# ------------------------------------------------------------ a full game

# num_cards=3, 2 players, descending: prizes 3, 2, 1.
#   prize 3: P0 bids 3, P1 bids 2 -> P0 +3
#   prize 2: P0 bids 1, P1 bids 3 -> P1 +2
#   prize 1: P0 bids 2, P1 bids 1 -> P0 +1
# points [4, 2]
FULL_GAME = [(3, 2), (1, 3), (2, 1)]
FULL_EXPECTED = {
    # win_loss: one winner +1, one loser -1, all paid at the last step
    "win_loss": ([4, 2], [1.0, -1.0], [[0, 0], [0, 0], [1, -1]]),
    # point_difference: points - mean (3); per round the winner gets
    # v - v/2 and the other -v/2
    "point_difference": ([4, 2], [1.0, -1.0], [[1.5, -1.5], [-1, 1], [0.5, -0.5]]),
    # total_points: the prize won each round
    "total_points": ([4, 2], [4.0, 2.0], [[3, 0], [0, 2], [1, 0]]),
}


@pytest.mark.parametrize("returns_type", RETURNS_TYPES)
def test_full_three_card_game(returns_type):
    points, returns, step_rewards = FULL_EXPECTED[returns_type]
    g = new(num_cards=3, returns_type=returns_type)
    assert decode(g.export())["prize"] == 3
    for cards, want in zip(FULL_GAME, step_rewards):
        assert list(bid(g, *cards)) == pytest.approx(want)
    assert g.is_terminal and g.turn == 3
    st = decode(g.export())
    assert st["points"] == points
    assert st["prize"] == 0 and st["unrevealed"] == set()
    assert st["hands"] == [set(), set()]
    assert st["rounds"] == [(3, 0, [3, 2]), (2, 1, [1, 3]), (1, 0, [2, 1])]
    assert list(g.evaluate()) == pytest.approx(returns)
    assert g.ranking() == [0, 1]


def test_tie_for_highest_bid_discards_the_prize():
    # prize 3: 3 vs 3 -> tie, discarded (nobody scores, winner -1)
    # prize 2: 1 vs 2 -> P1 +2;  prize 1: 2 vs 1 -> P0 +1   => [1, 2]
    g = new(num_cards=3, returns_type="total_points")
    assert list(bid(g, 3, 3)) == [0, 0]
    st = decode(g.export())
    assert st["points"] == [0, 0] and st["rounds"] == [(3, -1, [3, 3])]
    bid(g, 1, 2)
    bid(g, 2, 1)
    assert decode(g.export())["points"] == [1, 2]
    assert list(g.evaluate()) == [1.0, 2.0]


def test_tie_below_the_highest_bid_does_not_matter():
    # 3 players, prize 3: bids 1, 1, 3 -> P2 is the unique highest, +3
    g = new(num_cards=3, players=3, returns_type="total_points")
    assert list(bid(g, 1, 1, 3)) == [0, 0, 3]


@pytest.mark.parametrize("returns_type,expected", [
    ("win_loss", [0, 0]), ("point_difference", [0, 0]), ("total_points", [0, 0])])
def test_every_round_tied_is_a_draw(returns_type, expected):
    g = new(num_cards=3, returns_type=returns_type)
    for c in (2, 3, 1):
        bid(g, c, c)
    assert g.is_terminal
    assert list(g.evaluate()) == expected
    assert g.ranking() == [0, 0]


# ------------------------------------------------------------ prize order

@pytest.mark.parametrize("order,sequence", [
    ("descending", [5, 4, 3, 2, 1]), ("ascending", [1, 2, 3, 4, 5])])
def test_fixed_prize_orders(order, sequence):
    g = new(num_cards=5, points_order=order)
    seen = []
    while not g.is_terminal:
        st = decode(g.export())
        seen.append(st["prize"])
        # the face-down prizes are exactly those not yet shown
        assert st["unrevealed"] == set(range(1, 6)) - set(seen)
        bid(g, min(st["hands"][0]), max(st["hands"][1]))
    assert seen == sequence
    assert [r[0] for r in decode(g.export())["rounds"]] == sequence


def test_descending_is_the_default():
    g = new()
    assert "points_order=descending" in g.params and "num_cards=13" in g.params
    assert decode(g.export())["prize"] == 13


def prize_sequence(g: Game, policy=min) -> list[int]:
    seq = []
    while not g.is_terminal:
        st = decode(g.export())
        seq.append(st["prize"])
        g.step([policy(h) - 1 for h in st["hands"]])
    return seq


def test_random_order_is_seeded_reproducible_and_a_permutation():
    orders = set()
    for seed in range(20):
        a = prize_sequence(new(seed, num_cards=8, points_order="random"))
        b = prize_sequence(new(seed, num_cards=8, points_order="random"))
        assert a == b                          # same seed, same order
        assert sorted(a) == list(range(1, 9))  # each prize exactly once
        orders.add(tuple(a))
    assert len(orders) >= 15                   # different seeds, different orders


def test_random_order_does_not_depend_on_the_bids():
    # The reveal is a chance event of the state's own RNG, not of the play.
    for seed in range(5):
        a = prize_sequence(new(seed, num_cards=8, points_order="random"), min)
        b = prize_sequence(new(seed, num_cards=8, points_order="random"), max)
        assert a == b


def test_reseed_changes_the_prizes_still_to_come():
    # The search reseeds each iteration's copy: future reveals must differ.
    base = new(3, num_cards=10, points_order="random")
    first = decode(base.export())["prize"]
    futures = set()
    for s in range(10):
        g = base.clone()
        g.reseed(1000 + s)
        seq = prize_sequence(g)
        assert seq[0] == first                 # the prize already shown stays
        futures.add(tuple(seq))
    assert len(futures) >= 8


def test_random_first_prize_varies_with_the_seed():
    firsts = {decode(new(s, num_cards=13, points_order="random").export())["prize"]
              for s in range(60)}
    assert len(firsts) >= 10


# ------------------------------------------------------------ 3 and 4 players

# num_cards=4, 3 players, descending (prizes 4, 3, 2, 1):
#   prize 4: bids 4, 1, 2 -> P0 +4
#   prize 3: bids 1, 4, 3 -> P1 +3
#   prize 2: bids 3, 2, 4 -> P2 +2
#   prize 1: bids 2, 3, 1 -> P1 +1       points [4, 4, 2]
# win_loss: two winners share +1 (+1/2 each), the loser gets -1/1
# point_difference: mean 10/3 -> [2/3, 2/3, -4/3]
THREE_PLAYERS = [(4, 1, 2), (1, 4, 3), (3, 2, 4), (2, 3, 1)]
THREE_EXPECTED = {"win_loss": [0.5, 0.5, -1.0],
                  "point_difference": [2 / 3, 2 / 3, -4 / 3],
                  "total_points": [4, 4, 2]}

# num_cards=4, 4 players:
#   prize 4: bids 4, 3, 2, 1 -> P0 +4
#   prize 3: bids 1, 4, 3, 2 -> P1 +3
#   prize 2: bids 2, 1, 4, 3 -> P2 +2
#   prize 1: bids 3, 2, 1, 4 -> P3 +1    points [4, 3, 2, 1]
# win_loss: one winner +1, three losers share -1 (-1/3 each)
# point_difference: mean 2.5 -> [1.5, 0.5, -0.5, -1.5]
FOUR_ONE_WINNER = [(4, 3, 2, 1), (1, 4, 3, 2), (2, 1, 4, 3), (3, 2, 1, 4)]
FOUR_ONE_EXPECTED = {"win_loss": [1, -1 / 3, -1 / 3, -1 / 3],
                     "point_difference": [1.5, 0.5, -0.5, -1.5],
                     "total_points": [4, 3, 2, 1]}

# num_cards=4, 4 players:
#   prize 4: bids 4, 1, 2, 2 -> P0 +4
#   prize 3: bids 1, 3, 1, 1 -> P1 +3
#   prize 2: bids 3, 2, 4, 4 -> tie at 4 (P2, P3): discarded
#   prize 1: bids 2, 4, 3, 3 -> P1 +1    points [4, 4, 0, 0]
# win_loss: +1/2, +1/2, -1/2, -1/2; point_difference: mean 2 -> [2, 2, -2, -2]
FOUR_TWO_WINNERS = [(4, 1, 2, 2), (1, 3, 1, 1), (3, 2, 4, 4), (2, 4, 3, 3)]
FOUR_TWO_EXPECTED = {"win_loss": [0.5, 0.5, -0.5, -0.5],
                     "point_difference": [2, 2, -2, -2],
                     "total_points": [4, 4, 0, 0]}


@pytest.mark.parametrize("returns_type", RETURNS_TYPES)
@pytest.mark.parametrize("bids,expected,ranks", [
    (THREE_PLAYERS, THREE_EXPECTED, [0, 0, 2]),
    (FOUR_ONE_WINNER, FOUR_ONE_EXPECTED, [0, 1, 2, 3]),
    (FOUR_TWO_WINNERS, FOUR_TWO_EXPECTED, [0, 0, 2, 2]),
], ids=["3p", "4p-one-winner", "4p-two-winners"])
def test_multiplayer_returns(returns_type, bids, expected, ranks):
    g = new(num_cards=4, players=len(bids[0]), returns_type=returns_type)
    total = np.zeros(len(bids[0]))
    for cards in bids:
        total += bid(g, *cards)
    assert g.is_terminal
    assert list(g.evaluate()) == pytest.approx(expected[returns_type])
    assert list(total) == pytest.approx(expected[returns_type])
    assert g.ranking() == ranks


def test_everyone_alive_always():
    g = new(num_cards=2, players=4)
    while not g.is_terminal:
        assert g.alive == [True] * 4
        bid(g, *[min(h) for h in decode(g.export())["hands"]])
    assert g.alive == [True] * 4


# ------------------------------------------------------------ moves

def test_legal_moves_shrink_and_spent_cards_are_refused():
    g = new(num_cards=4)
    assert g.legal_moves(0) == [0, 1, 2, 3]
    assert [g.move_name(0, m) for m in range(4)] == ["1", "2", "3", "4"]
    assert g.move_name(0, 4) == "?" and g.move_name(0, -1) == "?"
    bid(g, 3, 1)
    assert g.legal_moves(0) == [0, 1, 3]       # cards 1, 2, 4 (ascending)
    assert g.legal_moves(1) == [1, 2, 3]       # cards 2, 3, 4
    before = g.state_hash()
    with pytest.raises(InvalidArgument):
        bid(g, 3, 2)                            # card 3 was spent by P0
    with pytest.raises(InvalidArgument):
        bid(g, 1, 1)                            # card 1 was spent by P1
    with pytest.raises(InvalidArgument):
        g.step([0, 16])                         # no such card
    assert g.state_hash() == before and g.turn == 1
    for _ in range(3):
        bid(g, min(decode(g.export())["hands"][0]), min(decode(g.export())["hands"][1]))
    assert g.is_terminal
    assert g.legal_moves(0) == [] and g.legal_moves(1) == []
    with pytest.raises(InvalidState):
        g.step([0, 0])


def test_sixteen_cards_move_names():
    g = new(num_cards=16)
    assert g.legal_moves(1) == list(range(16))
    assert g.move_name(1, 15) == "16" and g.move_name(1, 16) == "?"


# ------------------------------------------------------------ evaluation

@pytest.mark.parametrize("returns_type", RETURNS_TYPES)
def test_terminal_evaluation_equals_the_returns(returns_type):
    for seed in range(30):
        g = new(seed, num_cards=6, players=2 + seed % 3, returns_type=returns_type,
                points_order=ORDERS[seed % 3])
        rewards = np.zeros(g.num_agents)
        g2 = g.clone()
        rng = np.random.default_rng(seed)
        while not g2.is_terminal:
            rewards += g2.step([int(rng.choice(g2.legal_moves(a)))
                                for a in range(g2.num_agents)])
        assert list(g2.evaluate()) == pytest.approx(list(rewards))


# num_cards=4, 2 players, after prize 4: P0 bid 4, P1 bid 1 -> P0 +4.
#   points [4, 0]; hands P0 {1,2,3} sum 6, P1 {2,3,4} sum 9 (total 15)
#   R = 3 + 2 + 1 = 6
#   w=1:   est = [4 + 6*6/15, 6*9/15] = [6.4, 3.6]
#   w=0.5: est = [4 + 1.2, 1.8]        = [5.2, 1.8]
@pytest.mark.parametrize("w,returns_type,expected", [
    (1, "total_points", [6.4, 3.6]),
    (1, "point_difference", [1.4, -1.4]),         # est - mean(est) = est - 5
    (1, "win_loss", [2.8 / 7, -2.8 / 7]),         # lead / (R + 1)
    (0.5, "total_points", [5.2, 1.8]),
    (0.5, "point_difference", [1.7, -1.7]),       # mean 3.5
    (0.5, "win_loss", [3.4 / 7, -3.4 / 7]),
    (0, "total_points", [4, 0]),
    (0, "win_loss", [4 / 7, -4 / 7]),
])
def test_non_terminal_evaluation_two_players(w, returns_type, expected):
    g = new(num_cards=4, returns_type=returns_type, w_expected=w)
    bid(g, 4, 1)
    assert list(g.evaluate()) == pytest.approx(expected)


# num_cards=3, 3 players, after prize 3 with bids 3, 3, 2 (tie, discarded):
#   points [0, 0, 0]; hands {1,2} {1,2} {1,3}: sums 3, 3, 4 (total 10)
#   R = 2 + 1 = 3; est = [0.9, 0.9, 1.2]
#   win_loss: P0: (0.9 - 1.2) / 4 = -0.075, P1 the same, P2: (1.2 - 0.9) / 4
#   point_difference: est - 1.0
@pytest.mark.parametrize("returns_type,expected", [
    ("total_points", [0.9, 0.9, 1.2]),
    ("point_difference", [-0.1, -0.1, 0.2]),
    ("win_loss", [-0.075, -0.075, 0.075]),
])
def test_non_terminal_evaluation_three_players(returns_type, expected):
    g = new(num_cards=3, players=3, returns_type=returns_type)
    bid(g, 3, 3, 2)
    assert list(g.evaluate()) == pytest.approx(expected)


def test_win_loss_evaluation_is_clamped():
    # num_cards=5, w_expected=0: P0 wins prizes 5 and 4 -> points [9, 0],
    # R = 3 + 2 + 1 = 6, lead 9 / 7 > 1 -> clamped to +1 / -1
    g = new(num_cards=5, w_expected=0)
    bid(g, 5, 1)
    bid(g, 4, 2)
    assert list(g.evaluate()) == [1.0, -1.0]


def test_evaluation_at_the_start_is_even():
    # everyone holds the same cards: est_i = R / n for all, margins 0
    for players in (2, 3, 4):
        for rt in RETURNS_TYPES:
            ev = new(num_cards=13, players=players, returns_type=rt).evaluate()
            want = 91 / players if rt == "total_points" else 0.0
            assert list(ev) == pytest.approx([want] * players)


# ------------------------------------------------------------ export / import

def test_export_layout_at_the_start():
    g = new(num_cards=4, players=3, returns_type="point_difference")
    full = mask(range(1, 5))
    assert list(g.export()) == [VERSION, 4, 3, 0, 0, 1, 4, mask([1, 2, 3]),
                                0, full, 0, full, 0, full]


def test_export_layout_mid_game():
    g = new(num_cards=4, players=2, points_order="ascending")
    bid(g, 2, 1)        # prize 1: P0 +1
    bid(g, 4, 4)        # prize 2: tie, discarded
    assert list(g.export()) == [VERSION, 4, 2, 2, 1, 0, 3, mask([4]),
                                1, mask([1, 3]), 0, mask([2, 3]),
                                1, 0, 2, 1,
                                2, -1, 4, 4]


def play_some(g: Game, steps: int, seed: int = 0) -> Game:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.is_terminal:
            break
        g.step([int(rng.choice(g.legal_moves(a))) for a in range(g.num_agents)])
    return g


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("steps", [0, 1, 5, 13])
def test_export_import_export_identical(order, steps):
    g = play_some(new(7, num_cards=13, players=3, points_order=order), steps)
    words = g.export()
    h = new(99, num_cards=13, players=3, points_order=order)
    h.import_state(words)
    assert list(h.export()) == list(words)
    assert h.state_hash() == g.state_hash()
    assert h.turn == g.turn and h.is_terminal == g.is_terminal
    assert list(h.evaluate()) == list(g.evaluate())
    for a in range(3):
        assert h.legal_moves(a) == g.legal_moves(a)


def test_hash_is_the_hash_of_the_export_stable_under_clone_changed_by_a_step():
    g = new(num_cards=6, players=2)
    assert g.state_hash() == fnv_hash(g.export())
    c = g.clone()
    assert c.state_hash() == g.state_hash()
    bid(c, 6, 5)
    assert c.state_hash() != g.state_hash()
    assert c.state_hash() == fnv_hash(c.export())
    d = g.clone()
    bid(d, 5, 6)                                 # same prize, other winner
    assert d.state_hash() not in (g.state_hash(), c.state_hash())


def test_hash_does_not_include_the_rng():
    g = new(1, num_cards=6, points_order="random")
    h = g.clone()
    h.reseed(12345)
    assert g.state_hash() == h.state_hash()


def test_import_keeps_the_games_own_rng():
    src = new(3, num_cards=10, points_order="random")
    words = src.export()
    x1, x2 = new(1, num_cards=10, points_order="random"), new(1, num_cards=10, points_order="random")
    x1.import_state(words)
    x2.import_state(words)
    assert prize_sequence(x1) == prize_sequence(x2)  # same game RNG, same future
    futures = set()
    for seed in range(8):
        y = new(seed, num_cards=10, points_order="random")
        y.import_state(words)
        assert y.state_hash() == src.state_hash()
        futures.add(tuple(prize_sequence(y)))
    assert len(futures) >= 6                         # the RNG is each game's


def mid_game_words(order="descending", players=2, num_cards=5, steps=2):
    g = play_some(new(4, num_cards=num_cards, players=players, points_order=order), steps, seed=2)
    return g, [int(x) for x in g.export()]


def with_word(words, i, value):
    w = list(words)
    w[i] = value
    return w


def malformed_cases():
    """(name, words) pairs each breaking one rule, from valid 5-card exports.
    Layout for 2 players: 8 header words, points/hand at 8..11, then rounds
    of 4 words (prize, winner, bid0, bid1) from 12."""
    _, w = mid_game_words()               # turn 2, descending: prizes 5, 4 played
    st = decode(w)
    cases = [
        ("empty", []),
        ("header only", w[:8]),
        ("truncated", w[:-1]),
        ("extra word", w + [0]),
        ("version", with_word(w, 0, 2)),
        ("num_cards", with_word(w, 1, 6)),
        ("players", with_word(w, 2, 3)),
        ("turn -1", with_word(w, 3, -1)),
        ("turn +1 (length)", with_word(w, 3, 3)),
        ("turn huge", with_word(w, 3, 2**31 - 1)),
        ("points_order", with_word(w, 4, 1)),
        ("returns_type", with_word(w, 5, 2)),
        ("prize 0 mid-game", with_word(w, 6, 0)),
        ("prize out of order", with_word(with_word(w, 6, 1), 7, mask([2, 3]))),
        ("prize out of range", with_word(w, 6, 17)),
        ("prize negative", with_word(w, 6, -3)),
        ("unrevealed holds the current prize", with_word(w, 7, w[7] | mask([3]))),
        ("unrevealed missing a prize", with_word(w, 7, w[7] & ~mask([1]))),
        ("unrevealed holds a played prize", with_word(w, 7, mask([1, 5]))),
        ("unrevealed beyond num_cards", with_word(w, 7, w[7] | mask([6]))),
        ("unrevealed negative", with_word(w, 7, -1)),
        ("points wrong", with_word(w, 8, w[8] + 1)),
        ("points negative", with_word(w, 10, -1)),
        ("hand with a spent card", with_word(w, 9, w[9] | mask([st["rounds"][0][2][0]]))),
        ("hand missing a card", with_word(w, 9, w[9] & (w[9] - 1))),
        ("hand swaps a held card for a spent one",
         with_word(w, 9, (w[9] & (w[9] - 1)) | mask([st["rounds"][0][2][0]]))),
        ("hand beyond num_cards", with_word(w, 11, w[11] | mask([7]))),
        ("hand negative", with_word(w, 11, -2**31)),
        ("round prize out of order", with_word(w, 12, 4)),
        ("round prize 0", with_word(w, 12, 0)),
        ("round winner wrong", with_word(w, 13, 1 - w[13] if w[13] >= 0 else 0)),
        ("round winner out of range", with_word(w, 13, 5)),
        ("round bid 0", with_word(w, 14, 0)),
        ("round bid huge", with_word(w, 15, 2**31 - 1)),
        ("round bid repeated", with_word(w, 18, w[14])),
    ]
    # terminal with a prize still shown
    _, t = mid_game_words(steps=5)
    cases.append(("terminal with a prize", with_word(t, 6, 1)))
    cases.append(("terminal with unrevealed", with_word(t, 7, 1)))
    # random order: a prize played twice, and the current prize played before
    _, r = mid_game_words(order="random", steps=2)
    rs = decode(r)
    cases.append(("random: prize repeated", with_word(r, 16, r[12])))
    cases.append(("random: current prize played", with_word(r, 6, rs["rounds"][0][0])))
    return cases


@pytest.mark.parametrize("name,words", malformed_cases(), ids=[c[0] for c in malformed_cases()])
def test_malformed_imports_are_refused_and_leave_the_state(name, words):
    order = "random" if name.startswith("random") else "descending"
    g = play_some(new(8, num_cards=5, points_order=order), 1, seed=9)
    before, exported = g.state_hash(), list(g.export())
    with pytest.raises(InvalidArgument):
        g.import_state(words)
    assert g.state_hash() == before and list(g.export()) == exported


def test_malformed_cases_start_from_valid_words():
    # the unmutated sources of the cases above import fine
    for order, steps in [("descending", 2), ("descending", 5), ("random", 2)]:
        src, w = mid_game_words(order=order, steps=steps)
        g = new(0, num_cards=5, points_order=order)
        g.import_state(w)
        assert g.state_hash() == src.state_hash()


def test_import_checks_a_history_consistent_with_the_bids():
    # hand-made 2-player 3-card state after one round: prize 3, bids 1 and 2,
    # so P1 won 3. Claiming P0 won it, or giving P0 the points, is refused.
    good = [VERSION, 3, 2, 1, 0, 0, 2, mask([1]),
            0, mask([2, 3]), 3, mask([1, 3]),
            3, 1, 1, 2]
    g = new(num_cards=3)
    g.import_state(good)
    assert decode(g.export())["points"] == [0, 3]
    assert g.legal_moves(0) == [1, 2] and g.legal_moves(1) == [0, 2]
    bad_winner = with_word(good, 13, 0)
    bad_points = with_word(with_word(good, 8, 3), 10, 0)
    tie_claimed = with_word(good, 13, -1)
    for words in (bad_winner, bad_points, tie_claimed):
        h = new(num_cards=3)
        before = h.state_hash()
        with pytest.raises(InvalidArgument):
            h.import_state(words)
        assert h.state_hash() == before


def test_import_fuzz_never_crashes():
    rng = np.random.default_rng(0)
    g = new(5, num_cards=6, players=3, points_order="random")
    valid = [list(play_some(new(s, num_cards=6, players=3, points_order="random"),
                            int(s % 7), seed=s).export()) for s in range(10)]
    accepted = 0
    for i in range(3000):
        kind = i % 4
        if kind == 0:      # random words of random length
            words = list(rng.integers(-5, 70, size=int(rng.integers(0, 40))))
        elif kind == 1:    # a valid export truncated
            v = valid[i % len(valid)]
            words = v[:int(rng.integers(0, len(v)))]
        elif kind == 2:    # one word changed to a small or huge value
            words = list(valid[i % len(valid)])
            j = int(rng.integers(0, len(words)))
            words[j] = int(rng.choice([rng.integers(-3, 20), 2**31 - 1, -2**31, 1 << 16]))
        else:              # two words swapped
            words = list(valid[i % len(valid)])
            j, k = rng.integers(0, len(words), size=2)
            words[j], words[k] = words[k], words[j]
        before = g.state_hash()
        try:
            g.import_state(words)
        except InvalidArgument:
            assert g.state_hash() == before
            continue
        accepted += 1
        assert list(g.export()) == [int(x) for x in words]   # accepted = canonical
        check_invariants(g)
    assert accepted > 0


# ------------------------------------------------------------ parameters

@pytest.mark.parametrize("params,key", [
    ("num_cards=0", "num_cards"),
    ("num_cards=17", "num_cards"),
    ("num_cards=abc", "num_cards"),
    ("players=1", "players"),
    ("players=5", "players"),
    ("points_order=sideways", "points_order"),
    ("returns_type=score", "returns_type"),
    ("w_expected=1.5", "w_expected"),
    ("w_expected=-0.1", "w_expected"),
    ("w_expected=nan", "w_expected"),
    ("colour=red", "colour"),
])
def test_bad_parameters_name_the_key(params, key):
    with pytest.raises(InvalidArgument, match=key):
        Game("goofspiel", params, seed=0)


def test_bad_parameter_message():
    with pytest.raises(InvalidArgument) as e:
        Game("goofspiel", "num_cards=20", seed=0)
    assert "num_cards: must be in 1..16 (got 20)" in str(e.value)


def test_describe_round_trips():
    g = new(num_cards=7, players=3, points_order="random", returns_type="point_difference",
            w_expected=0.25)
    assert g.params == ("num_cards=7 players=3 points_order=random "
                        "returns_type=point_difference w_expected=0.25")
    assert Game("goofspiel", g.params, seed=0).params == g.params


# ------------------------------------------------------------ random play

def check_invariants(g: Game) -> None:
    st = decode(g.export())
    n, N, t = st["players"], st["num_cards"], st["turn"]
    assert g.turn == t and g.is_terminal == (t == N)
    played = [r[0] for r in st["rounds"]]
    shown = [] if st["prize"] == 0 else [st["prize"]]
    assert sorted(played + shown + sorted(st["unrevealed"])) == list(range(1, N + 1))
    won = [0] * n
    for prize, winner, bids in st["rounds"]:
        top = max(bids)
        assert winner == (bids.index(top) if bids.count(top) == 1 else -1)
        if winner >= 0:
            won[winner] += prize
    assert st["points"] == won
    for a in range(n):
        spent = [r[2][a] for r in st["rounds"]]
        assert len(set(spent)) == t and not set(spent) & st["hands"][a]
        assert set(spent) | st["hands"][a] == set(range(1, N + 1))
        assert g.legal_moves(a) == [c - 1 for c in sorted(st["hands"][a])]
        assert g.is_alive(a)
    assert g.ranking() == [sum(p > q for p in st["points"]) for q in st["points"]]
    ev = g.evaluate()
    assert all(math.isfinite(x) for x in ev)
    if st["returns"] == RETURNS_CODE["win_loss"]:
        assert all(-1 <= x <= 1 for x in ev)
    # zero-sum: point_difference always; win_loss at the end, and before it
    # with two players (margins against the best other are antisymmetric)
    if st["returns"] == RETURNS_CODE["point_difference"] or (
            st["returns"] == RETURNS_CODE["win_loss"] and (n == 2 or t == N)):
        assert sum(ev) == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("num_cards", [1, 2, 5, 13, 16])
def test_random_play_invariants(players, num_cards):
    games = 0
    for seed in range(30):
        order = ORDERS[seed % 3]
        rt = RETURNS_TYPES[(seed // 3) % 3]
        g = new(seed, num_cards=num_cards, players=players, points_order=order,
                returns_type=rt)
        rng = np.random.default_rng(seed)
        total = np.zeros(players)
        check_invariants(g)
        while not g.is_terminal:
            total += g.step([int(rng.choice(g.legal_moves(a))) for a in range(players)])
            check_invariants(g)
            c = new(0, num_cards=num_cards, players=players, points_order=order,
                    returns_type=rt)
            c.import_state(g.export())
            assert c.state_hash() == g.state_hash()
        assert g.turn == num_cards
        assert list(total) == pytest.approx(list(g.evaluate()))
        assert all(g.legal_moves(a) == [] for a in range(players))
        games += 1
    assert games == 30


def test_playout_runs_to_the_end():
    g = new(num_cards=13, players=3, points_order="random")
    assert g.playout(1000, seed=5) == 13 and g.is_terminal
    h = new(num_cards=13)
    assert h.playouts(50, 1000, seed=1) == 50 * 13 and h.turn == 0


# ------------------------------------------------------------ search

def test_smitsimax_plays_goofspiel():
    g = new(1, num_cards=13)
    with Search(g, SearchParams(max_depth=13), seed=1) as s:
        r = s.run(iterations=2000)
        assert r.iterations == 2000
        best = s.best_moves()
        assert all(m in g.legal_moves(a) for a, m in enumerate(best))
        assert sorted(st.move for st in s.root_stats(0)) == list(range(13))


def test_search_takes_the_free_last_prize():
    # 2 cards left each: P0 holds {1, 4}, P1 holds {2, 3}; prize 2 now, 1 last.
    # Bidding 4 wins 2 for sure (and then 1 loses to P1's last card); bidding
    # 1 gives prize 2 to P1, then 4 wins 1. total_points: 4 beats 1.
    # history: prize 4, bids 2 vs 4 -> P1 +4; prize 3, bids 3 vs 1 -> P0 +3
    words = [VERSION, 4, 2, 2, 0, 2, 2, mask([1]),
             3, mask([1, 4]), 4, mask([2, 3]),
             4, 1, 2, 4,
             3, 0, 3, 1]
    g = new(num_cards=4, returns_type="total_points")
    g.import_state(words)
    assert decode(g.export())["points"] == [3, 4]
    with Search(g, SearchParams(max_depth=4), seed=0) as s:
        s.run(iterations=3000)
        assert s.best_moves()[0] == 3
