"""The C goofspiel against OpenSpiel's (pyspiel), when it is installed.

open_spiel is not a dependency of the project: this module is skipped unless
`import pyspiel` works. Both engines play the same random bids; for the
random prize order OpenSpiel's chance node is given the prize the C engine
revealed. Returns are compared for every returns_type and 2..4 players.

OpenSpiel plays the last round by itself (every hand holds one card); the C
engine takes it as an ordinary step with one legal move per player.
"""
from __future__ import annotations

import numpy as np
import pytest

from sandbox.native import Game

pyspiel = pytest.importorskip("pyspiel")

RETURNS_TYPES = ["win_loss", "point_difference", "total_points"]


def play_both(num_cards, players, order, returns_type, seed):
    params = {"num_cards": num_cards, "players": players, "points_order": order,
              "returns_type": returns_type}
    ours = Game("goofspiel", params, seed=seed)
    theirs = pyspiel.load_game("goofspiel", dict(params)).new_initial_state()
    rng = np.random.default_rng(seed)
    while not ours.is_terminal:
        prize = int(ours.export()[6])
        if theirs.is_chance_node():
            theirs.apply_action(prize - 1)
        joint = [int(rng.choice(ours.legal_moves(a))) for a in range(players)]
        if not theirs.is_terminal():
            for a in range(players):
                assert theirs.legal_actions(a) == ours.legal_moves(a)
            theirs.apply_actions(joint)
        ours.step(joint)
    assert theirs.is_terminal()
    return list(ours.evaluate()), list(theirs.returns())


@pytest.mark.parametrize("returns_type", RETURNS_TYPES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_returns_match_openspiel(returns_type, players):
    for seed in range(40):
        order = ["descending", "ascending", "random"][seed % 3]
        num_cards = [1, 2, 3, 4, 5, 8, 13][seed % 7]
        ours, theirs = play_both(num_cards, players, order, returns_type, seed)
        assert ours == pytest.approx(theirs), (seed, order, num_cards)
