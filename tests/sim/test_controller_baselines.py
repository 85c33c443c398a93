"""SearchController and the baselines: SUCT's lead -1 becomes the seat the
controller plays for, and settings C would refuse for the game are refused
at the door (the caller's thread), not on the worker."""
from __future__ import annotations

import pytest

from sandbox.native import Game, InvalidArgument
from sandbox.sim.controller import SearchController


@pytest.mark.parametrize("seat", [0, 1])
def test_suct_lead_minus_one_is_the_seat(seat):
    with Game("matrix", "preset=rps", seed=1) as g:
        ctl = SearchController(seat, [seat], g, {"algorithm": "suct"}, seed=1)
        try:
            assert ctl.search.c_params().lead == seat      # C serialises the seat first
            assert ctl.settings.lead == -1 and ctl.c_confirmed.lead == -1
            ctl.update_settings({"lead": 1 - seat})         # an explicit lead is kept
            assert ctl.search.c_params().lead == 1 - seat == ctl.c_confirmed.lead
            ctl.update_settings({"lead": -1, "algorithm": "smitsimax"})
            assert ctl.search.c_params().lead == -1         # only SUCT reads it
        finally:
            ctl.close()


@pytest.mark.parametrize("seat", [0, 1])
def test_uct_lead_minus_one_is_the_seat_so_it_moves_first_in_its_tree(seat):
    """The textbook's own player first: C gets the seat as lead, and the
    root's children are that seat's moves."""
    with Game("matrix", "preset=rps", seed=1) as g:
        ctl = SearchController(seat, [seat], g, {"algorithm": "uct"}, seed=1)
        try:
            assert ctl.search.c_params().lead == seat
            assert ctl.search.c_params().c == 2.0
            assert ctl.settings.lead == -1 and ctl.c_confirmed.lead == -1
            ctl.search.run(iterations=50)
            snap = ctl.search.snapshot(seat, 20)
            assert set(snap.mover[snap.depth == 1]) == {seat}
        finally:
            ctl.close()


def test_settings_c_refuses_for_the_game_are_refused_by_update_settings():
    with Game("snakes", "width=25 height=9 snakes=8", seed=1) as g:
        ctl = SearchController(0, [0], g, None, seed=1)
        try:
            with pytest.raises(InvalidArgument, match="joint action"):
                ctl.update_settings({"algorithm": "joint"})
            assert ctl.settings.algorithm == "smitsimax"
            ctl.update_settings({"algorithm": "suct"})
            assert ctl.search.c_params().algorithm == "suct"
        finally:
            ctl.close()
