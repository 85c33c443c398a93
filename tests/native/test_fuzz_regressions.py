"""Bugs the fuzz suite (tests/fuzz) found in the Python wrapper, pinned one by
one: each call used to end in a foreign exception (OverflowError,
ValueError, UnicodeEncodeError) or, worse, silently accepted garbage."""
from __future__ import annotations

import pytest

from sandbox.native import Game, InvalidArgument, Search, params_doc

SMALL = {"width": 7, "height": 7, "snakes": 2}


@pytest.mark.parametrize("kind, params", [
    ("snakes\0x", None),                   # was: a snakes game (C read up to the NUL)
    ("snakes", "width=7\0 height=banana"),  # was: width=7, the rest never checked
    ("snakes", "\0"),
    ("snakes", "width=\udcff"),            # was: UnicodeEncodeError
    ("sn\udcffakes", None),
])
def test_strings_c_would_cut_short_or_cannot_encode_are_refused(kind, params):
    with pytest.raises(InvalidArgument, match="NUL|UTF-8"):
        Game(kind, params)


def test_params_doc_refuses_a_nul_in_the_kind():
    with pytest.raises(InvalidArgument, match="NUL"):
        params_doc("snakes\0")


@pytest.mark.parametrize("words", [
    [1, 2**70],                # was: OverflowError from numpy
    [1.5, float("nan")],       # was: ValueError (NaN to integer)
    ["x", 3],                  # was: ValueError (invalid literal)
    [None],                    # was: TypeError
])
def test_import_of_words_that_are_not_integers_is_invalid_argument(words):
    with Game("snakes", SMALL, seed=1) as g:
        before = g.export()
        with pytest.raises(InvalidArgument, match=r"state words? .*(32 bits|expected an integer)"):
            g.import_state(words)
        assert (g.export() == before).all()


@pytest.mark.parametrize("call", [
    lambda g: g.playout(2**64, 1),         # was: OverflowError from cffi
    lambda g: g.playout(-1, 1),
    lambda g: g.playouts(2**64, 10, 1),
    lambda g: g.playouts(2, 2**63, 1),
    lambda g: g.playouts(-3, 10, 1),
])
def test_playout_counts_past_int64_are_invalid_argument(call):
    with Game("snakes", SMALL, seed=1) as g:
        with pytest.raises(InvalidArgument, match="out of range"):
            call(g)
        assert g.turn == 0


@pytest.mark.parametrize("joint, words", [
    (["x", 0], "expected an integer"),      # was: TypeError from `'x' < 0`
    ([0, [1]], "expected an integer"),
    ([-2**40, 0], "out of range"),          # was: taken as "no move"
    ([0, float("inf")], "expected an integer"),   # was: OverflowError, in step too
    ([float("nan"), 0], "expected an integer"),
])
def test_advance_checks_moves_like_step(joint, words):
    with Game("snakes", SMALL, seed=1) as g, Search(g, seed=1) as s:
        with pytest.raises(InvalidArgument, match=words):
            s.advance(joint)
        with pytest.raises(InvalidArgument, match=words):
            g.step(joint)
        # -1 and None still mean "no move" (refused here: both snakes are alive)
        for none in (-1, None):
            with pytest.raises(InvalidArgument, match="move 255 is not legal"):
                s.advance([none, 0])
        s.advance([0, 0])                   # and the refusals left the search usable
        assert s.run(iterations=10).iterations == 10


def test_advance_to_a_root_the_joint_does_not_lead_to_keeps_no_illegal_moves():
    """sbx_search_advance(joint, new_root) takes new_root as the state after
    `joint`, but nothing checks that it is. Here the joint says both players
    bid card 1 while new_root is the state after both bid card 4: the reused
    subtree (after card 1) still offers card 4, which is no longer in hand.
    The search then recommends it and its iterations step the game with it
    on the unchecked hot path. Either refusing such a root or dropping the
    subtree whose children differ from the new root's legal moves fixes it."""
    with Game("goofspiel", "num_cards=4", seed=1) as g, \
            Search(g, {"max_depth": 8}, seed=1) as s, g.clone() as after:
        s.run(iterations=500)
        after.step([3, 3])                 # both bid card 4 (move id 3)
        s.advance([0, 0], new_root=after)  # but the joint says card 1
        s.run(iterations=500)
        with s.root_game() as root:
            for a in range(2):
                legal = root.legal_moves(a)
                assert {m.move for m in s.root_stats(a)} <= set(legal)
                assert s.best_moves()[a] in legal


@pytest.mark.parametrize("call, words", [
    # was: TypeError from cffi; floats are refused even when whole (ints only)
    (lambda g, s: g.legal_moves(1.0), "expected an integer"),
    (lambda g, s: g.is_alive(0.5), "expected an integer"),
    (lambda g, s: g.legal_moves("x"), "expected an integer"),
    (lambda g, s: g.is_alive(float("inf")), "expected an integer"),
    (lambda g, s: s.run(ms="soon"), "expected a number"),   # was: TypeError from `<`
    (lambda g, s: s.run(iterations="many"), "expected an integer"),
    (lambda g, s: s.run(iterations=2**63), "out of range"),
    (lambda g, s: s.run(iterations=-1), ">= 0"),
])
def test_agents_and_budgets_that_are_not_integers(call, words):
    with Game("snakes", SMALL, seed=1) as g, Search(g, seed=1) as s:
        if words is None:       # a whole float is that agent, as elsewhere in the API
            call(g, s)
        else:
            with pytest.raises(InvalidArgument, match=words):
                call(g, s)


@pytest.mark.parametrize("call", [
    lambda g: Game("snakes", SMALL, seed="x"),        # was: ValueError from int()
    lambda g: Game("snakes", SMALL, seed=float("nan")),
    lambda g: Search(g, seed=float("inf")),           # was: OverflowError
    lambda g: g.reseed(None),                         # was: TypeError
    lambda g: g.playout(5, "x"),
    lambda g: g.playouts(2, 5, []),
])
def test_seeds_that_are_not_integers_are_invalid_argument(call):
    with Game("snakes", SMALL, seed=1) as g:
        with pytest.raises(InvalidArgument, match="seed: expected an integer"):
            call(g)
