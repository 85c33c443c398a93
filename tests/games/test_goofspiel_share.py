"""Goofspiel's leaf evaluation with w_pairs (native/src/games/goofspiel.c):
the prizes still in play are shared by a blend of the card sums and the
fraction of the pairs (own card, other's card) the own card wins, ties half:
share_i = (1 - w_pairs) * sums_i + w_pairs * pairs_i. Every expected value
below is worked out by hand from that rule."""
from __future__ import annotations

import pytest

from sandbox.games.goofspiel.params import GoofspielGameParams
from sandbox.native import Game, InvalidArgument


def new(**params) -> Game:
    return Game("goofspiel", params, seed=0)


def bid(g: Game, *cards: int) -> None:
    g.step([c - 1 for c in cards])


# num_cards=4, descending: prize 4, bids 4 and 1 -> P0 has 4 points; hands
# {1,2,3} and {2,3,4}; R = 3 + 2 + 1 = 6. P0's pairs (9): 1 wins none;
# 2 ties the 2 (1/2); 3 beats the 2 and ties the 3 (1 1/2): pairs_0 = 2/9.
#   w_pairs 1:   est = [4 + 6 * 2/9, 6 * 7/9] = [16/3, 14/3]
#   w_pairs 0:   sums 6/15 -> est [6.4, 3.6] (the default)
#   w_pairs 0.5: share_0 = (0.4 + 2/9) / 2 = 14/45 -> est [4 + 28/15, 6 - 28/15]
@pytest.mark.parametrize("wp,w,returns_type,expected", [
    (1, 1, "total_points", [16 / 3, 14 / 3]),
    (1, 1, "point_difference", [1 / 3, -1 / 3]),
    (1, 1, "win_loss", [(2 / 3) / 7, -(2 / 3) / 7]),
    (1, 0.5, "total_points", [4 + 2 / 3, 7 / 3]),
    (1, 0, "win_loss", [4 / 7, -4 / 7]),
    (0.5, 1, "total_points", [4 + 28 / 15, 6 - 28 / 15]),
    (0, 1, "total_points", [6.4, 3.6]),
])
def test_pairs_share_by_hand(wp, w, returns_type, expected):
    g = new(num_cards=4, returns_type=returns_type, w_expected=w, w_pairs=wp)
    bid(g, 4, 1)
    assert list(g.evaluate()) == pytest.approx(expected)


def test_a_hand_that_wins_no_bid_gets_no_share():
    """num_cards=4: P0 wins the 4 with its 4 (P1 bids 1) and the 3 with its 3
    (P1 bids 2): points [7, 0], hands {1,2} and {3,4}, R = 2 + 1 = 3. P0's
    cards lose every pair, so est = [7, 0 + 3]. By the card sums P0 would
    still hold 3/10 of R: est [7 + 0.9, 2.1]."""
    g = new(num_cards=4, w_pairs=1, returns_type="total_points")
    bid(g, 4, 1)
    bid(g, 3, 2)
    assert list(g.evaluate()) == pytest.approx([7.0, 3.0])
    g2 = new(num_cards=4, returns_type="total_points")
    bid(g2, 4, 1)
    bid(g2, 3, 2)
    assert list(g2.evaluate()) == pytest.approx([7.0 + 3 * 3 / 10, 3 * 7 / 10])


def test_equal_hands_share_half_and_the_end_is_the_returns():
    g = new(num_cards=5, w_pairs=1, returns_type="total_points")
    bid(g, 5, 5)  # a tie: the 5 is discarded, both hold {1..4}; R = 10
    assert list(g.evaluate()) == pytest.approx([5.0, 5.0])
    for c in (4, 3, 2, 1):
        bid(g, c, c)
    assert g.is_terminal and list(g.evaluate()) == [0.0, 0.0]


@pytest.mark.parametrize("params,word", [
    ({"w_pairs": 1.5}, "w_pairs"),
    ({"w_pairs": -0.1}, "w_pairs"),
    ({"w_pairs": float("nan")}, "w_pairs"),
    ({"w_pairs": 0.5, "players": 3}, "players"),
])
def test_bad_w_pairs_is_refused(params, word):
    with pytest.raises(InvalidArgument, match=word):
        new(**params)
    with pytest.raises(ValueError, match="w_pairs|players"):
        GoofspielGameParams(**params)


def test_w_pairs_is_an_evaluation_weight():
    """A player may set its own (an agent file's [weights]) and the arena
    shows a slider: the game's weights are its w_* parameters."""
    from sandbox.games import plugin
    assert "w_pairs" in plugin("goofspiel").weight_names()
    assert GoofspielGameParams().w_pairs == 0.0


def test_the_description_names_w_pairs_so_a_rebuilt_game_is_the_same_game():
    """A game rebuilt from its own description (as replays and imports do)
    must be the same game: w_pairs is named when set, and a game without it
    keeps the description recorded replays hold."""
    g = Game("goofspiel", "num_cards=5 w_pairs=0.25", seed=1)
    assert "w_pairs=0.25" in g.params
    again = Game("goofspiel", g.params, seed=1)
    assert again.params == g.params
    again.import_state(g.export())                 # refused for another game
    assert "w_pairs" not in Game("goofspiel", "num_cards=5", seed=1).params
