"""Bad input to the native layer raises the right SandboxError subclass with a
message that says what was wrong (and the object stays usable)."""
from __future__ import annotations

import pytest

from sandbox.native import (Game, InvalidArgument, InvalidState, SandboxError, Search,
                            SearchParams, kinds, params_doc)

SMALL = {"width": 7, "height": 7, "snakes": 2}


def test_hierarchy():
    assert issubclass(InvalidArgument, SandboxError) and issubclass(InvalidArgument, ValueError)
    assert issubclass(InvalidState, SandboxError) and issubclass(InvalidState, RuntimeError)


@pytest.mark.parametrize("kind, params, words", [
    ("chess", None, ["chess"]),
    ("", None, ["unknown game kind"]),
    ("snakes", "width=abc", ["width", "abc"]),
    ("snakes", "nosuch=1", ["nosuch"]),
    ("snakes", "width=99", ["width", "5..25", "99"]),
    ("snakes", {"snakes": 9}, ["snakes", "9"]),
    ("snakes", {"food_spawn_chance": 101}, ["food_spawn_chance"]),
    ("snakes", "width", ["width"]),
])
def test_bad_game_kind_or_params(kind, params, words):
    with pytest.raises(InvalidArgument) as exc:
        Game(kind, params)
    msg = str(exc.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg


def test_bad_seed():
    with pytest.raises(InvalidArgument, match="seed"):
        Game("snakes", SMALL, seed=-1)
    with Game("snakes", SMALL) as g:
        with pytest.raises(InvalidArgument, match="seed"):
            Search(g, seed=2**64)


def test_kinds_and_docs():
    assert "snakes" in kinds()
    doc = params_doc("snakes")
    assert "width" in doc and "snakes" in doc
    with pytest.raises(InvalidArgument, match="nosuch"):
        params_doc("nosuch")


@pytest.mark.parametrize("joint, words", [
    ([0, 7], ["agent 1", "7", "not legal"]),
    ([-1, 0], ["agent 0", "-1"]),
    ([0, 2**40], ["agent 1", "out of range"]),
    ([0], ["needs 2 moves", "got 1"]),
    ([0, 0, 0], ["needs 2 moves", "got 3"]),
    ([], ["needs 2 moves", "got 0"]),
])
def test_illegal_joint_move(joint, words):
    with Game("snakes", SMALL, seed=1) as g:
        before = g.state_hash()
        with pytest.raises(InvalidArgument) as exc:
            g.step(joint)
        for w in words:
            assert w in str(exc.value)
        assert g.state_hash() == before and g.turn == 0   # nothing happened
        g.step([0, 0])                                      # and it still plays
        assert g.turn == 1


def test_stepping_a_terminal_game():
    with Game("snakes", SMALL, seed=1) as g:
        g.playout(10_000, seed=3)
        assert g.is_terminal
        with pytest.raises(InvalidState, match="over|terminal"):
            g.step([0, 0])
        with Search(g) as s:
            r = s.run(iterations=100)
            assert r.iterations == 0 and r.stop_reason == "terminal"
            assert s.step_traced().stop_reason == "terminal"
            with pytest.raises(InvalidState, match="terminal"):
                s.advance([0, 0])


def test_bad_agent_index():
    with Game("snakes", SMALL, seed=1) as g, Search(g) as s:
        for bad in (-1, 2, 99):
            with pytest.raises(InvalidArgument, match="agent"):
                g.legal_moves(bad)
            with pytest.raises(InvalidArgument, match=f"agent {bad}"):
                s.snapshot(bad)
            with pytest.raises(InvalidArgument, match=f"agent {bad}"):
                s.root_stats(bad)


@pytest.mark.parametrize("kwargs, words", [
    ({}, ["iterations", "ms"]),
    ({"iterations": 0, "ms": 0}, ["iterations", "ms"]),
    ({"iterations": -1}, [">= 0"]),
    ({"ms": -5.0}, [">= 0"]),
    ({"iterations": -3, "ms": 10}, [">= 0"]),
    ({"ms": float("nan")}, ["budget"]),
    ({"ms": float("inf")}, ["budget"]),
])
def test_run_without_a_valid_budget(kwargs, words):
    with Game("snakes", SMALL, seed=1) as g, Search(g) as s:
        with pytest.raises(InvalidArgument) as exc:
            s.run(**kwargs)
        for w in words:
            assert w in str(exc.value)
        assert s.stats().iterations == 0
        assert s.run(iterations=5).iterations == 5


def test_bad_snapshot_arguments():
    with Game("snakes", SMALL, seed=1) as g, Search(g) as s:
        s.run(iterations=50)
        with pytest.raises(InvalidArgument, match="max_nodes"):
            s.snapshot(0, 0)
        with pytest.raises(InvalidArgument, match="min_visits"):
            s.snapshot(0, 10, min_visits=-1)


def test_advance_and_reset_with_a_different_game():
    with Game("snakes", SMALL, seed=1) as g, Game("snakes", {**SMALL, "width": 9}) as other, \
            Search(g, SearchParams(max_depth=3)) as s:
        with pytest.raises(InvalidArgument, match="different game"):
            s.advance([0, 0], new_root=other)
        with pytest.raises(InvalidArgument, match="different game"):
            s.reset(other)
        with pytest.raises(InvalidArgument, match="not legal"):
            s.advance([0, 9])
        with pytest.raises(InvalidArgument, match="needs 2 moves"):
            s.advance([0])
        with pytest.raises(InvalidArgument):
            g.copy_from(other)
        # nothing moved
        with s.root_game() as root:
            assert root.turn == 0 and root.state_hash() == g.state_hash()


def test_bad_import_leaves_the_state_alone():
    with Game("snakes", SMALL, seed=1) as g:
        words = g.export()
        before = g.state_hash()
        for bad in ([1, 2, 3], list(words[:-1]), [[1, 2], [3, 4]], [2**40] * 8):
            with pytest.raises(InvalidArgument):
                g.import_state(bad)
            assert g.state_hash() == before
        g.import_state(words)
        assert g.state_hash() == before
