"""Smitsimax and joint-action MCTS draw exact UCB ties at random
(search.h: sbx_keep_max_fair), pinned on a position where the game itself
says which joint moves must be simulated.

With ties kept by the earlier child, the two trees of a symmetric position
(goofspiel after tied bids: the same hands, the same points) held the same
statistics and picked the same child at every step, so only equal joint
bids were ever simulated and every bid looked a draw: a fresh Smitsimax
search lost to goofspiel-6's exact equilibrium (0.30; 0.50 for a search
that reused its tree)."""
from __future__ import annotations

from collections import Counter

import pytest

from sandbox.native import Game, Search

GOOF6 = "num_cards=6 points_order=descending returns_type=win_loss"
DUEL = dict(max_depth=13, policy="ucb1_tuned", c=1.0, random_threshold=0, gamma=1.0,
            rollout=True)
SEARCHES = {
    "smitsimax_ucb1_tuned": DUEL,
    "smitsimax_ucb1": dict(DUEL, policy="ucb1"),
    "joint": dict(algorithm="joint", max_depth=13, random_threshold=0, rollout=True),
}


def symmetric_endgame() -> Game:
    """Both seats tie on the prizes 6, 5, 4 and 3: each holds {1, 2}, no
    points, prizes 2 and then 1 to come. Bidding 2 wins against 1 and ties
    against 2, so it dominates."""
    g = Game("goofspiel", GOOF6, seed=1)
    for card in (6, 5, 4, 3):
        g.step([card - 1, card - 1])
    return g


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_the_two_seats_of_a_symmetric_position_do_not_move_in_lockstep(name):
    with symmetric_endgame() as g, Search(g, SEARCHES[name], seed=1) as s:
        joints = Counter()
        for _ in range(500):
            t = s.step_traced()
            joints[(int(t.moves[0][0]), int(t.moves[1][0]))] += 1
    # ties kept by index: every simulated first bid was equal, (1, 1) or (2, 2)
    assert joints[(0, 1)] + joints[(1, 0)] > 0, (name, joints)


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_the_tie_draws_keep_a_search_reproducible(name):
    runs = []
    for _ in range(2):
        with symmetric_endgame() as g, Search(g, SEARCHES[name], seed=7) as s:
            s.run(iterations=3000)
            runs.append([[(m.move, m.visits, m.mean) for m in s.root_stats(a)] for a in (0, 1)])
    assert runs[0] == runs[1]
