"""Wrong Python types at the native boundary: every public method of Game and
Search refuses them with InvalidArgument and a one-line message naming the
argument — never AttributeError, TypeError, OverflowError, a pydantic
ValidationError, or a silent conversion (1.9 iterations run as 1, a float
move truncated, a seed wrapped modulo 2^64).

The rules (sandbox/native/_handle.py): integers are ints or numpy integers,
never floats (even whole ones) and never bools; seeds are 0..2^64-1; counts
are >= 0; strings for C hold no NUL; a joint or a state is a flat sequence.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.native import ClosedError, Game, InvalidArgument, Search, SearchParams

SMALL = {"width": 7, "height": 7, "snakes": 2}
BIG = 2**70


class Obj:
    """Something that is none of the types asked for."""

    def __repr__(self) -> str:
        return "<Obj>"


# (id, call(g, s, other), words the message must hold)
# g: a 2-snake game, s: a search on it (50 iterations run), other: a goofspiel game
CASES = [
    # -- Game(kind, params, seed)
    ("game-kind-none", lambda g, s, o: Game(None), ["kind", "string", "None"]),
    ("game-kind-int", lambda g, s, o: Game(3), ["kind", "string", "int 3"]),
    ("game-kind-bytes", lambda g, s, o: Game(b"snakes"), ["kind", "string"]),
    ("game-kind-list", lambda g, s, o: Game(["snakes"]), ["kind", "string"]),
    ("game-kind-nul", lambda g, s, o: Game("snakes\0chess"), ["kind", "NUL"]),
    ("game-kind-surrogate", lambda g, s, o: Game("snakes\ud800"), ["kind", "UTF-8"]),
    ("game-params-int", lambda g, s, o: Game("snakes", 3), ["params", "mapping", "int 3"]),
    ("game-params-list", lambda g, s, o: Game("snakes", ["width=7"]), ["params", "mapping"]),
    ("game-params-bytes", lambda g, s, o: Game("snakes", b"width=7"), ["params", "mapping"]),
    ("game-params-nul", lambda g, s, o: Game("snakes", "width=7\0 width=99"), ["params", "NUL"]),
    ("game-params-key-int", lambda g, s, o: Game("snakes", {1: 2}), ["params", "names"]),
    ("game-params-value-none", lambda g, s, o: Game("snakes", {"width": None}),
     ["width", "number or a word"]),
    ("game-params-value-list", lambda g, s, o: Game("snakes", {"width": [7]}),
     ["width", "number or a word"]),
    ("game-params-smuggle", lambda g, s, o: Game("snakes", {"ruleset": "standard width=7"}),
     ["ruleset", "one word"]),
    ("game-params-nan", lambda g, s, o: Game("snakes", {"w_alive": math.nan}), ["w_alive"]),
    ("game-seed-negative", lambda g, s, o: Game("snakes", SMALL, seed=-1),
     ["seed", "0..2^64-1"]),
    ("game-seed-2^64", lambda g, s, o: Game("snakes", SMALL, seed=2**64), ["seed", "0..2^64-1"]),
    ("game-seed-float", lambda g, s, o: Game("snakes", SMALL, seed=1.5), ["seed", "integer"]),
    ("game-seed-whole-float", lambda g, s, o: Game("snakes", SMALL, seed=2.0),
     ["seed", "integer"]),
    ("game-seed-nan", lambda g, s, o: Game("snakes", SMALL, seed=math.nan), ["seed", "integer"]),
    ("game-seed-str", lambda g, s, o: Game("snakes", SMALL, seed="3"), ["seed", "str '3'"]),
    ("game-seed-none", lambda g, s, o: Game("snakes", SMALL, seed=None), ["seed", "None"]),
    ("game-seed-bool", lambda g, s, o: Game("snakes", SMALL, seed=True), ["seed", "bool"]),
    # -- Game methods
    ("copy_from-str", lambda g, s, o: g.copy_from("x"), ["other", "Game"]),
    ("legal_moves-str", lambda g, s, o: g.legal_moves("0"), ["agent", "integer"]),
    ("legal_moves-float", lambda g, s, o: g.legal_moves(0.0), ["agent", "integer"]),
    ("legal_moves-none", lambda g, s, o: g.legal_moves(None), ["agent", "integer"]),
    ("legal_moves-huge", lambda g, s, o: g.legal_moves(BIG), ["agent", "out of range"]),
    ("is_alive-bool", lambda g, s, o: g.is_alive(False), ["agent", "bool"]),
    ("is_alive-obj", lambda g, s, o: g.is_alive(Obj()), ["agent", "<Obj>"]),
    ("step-none", lambda g, s, o: g.step(None), ["joint", "sequence"]),
    ("step-int", lambda g, s, o: g.step(5), ["joint", "sequence"]),
    ("step-str", lambda g, s, o: g.step("01"), ["joint", "sequence"]),
    ("step-dict", lambda g, s, o: g.step({0: 0, 1: 0}), ["joint", "sequence"]),
    ("step-generator", lambda g, s, o: g.step(m for m in (0, 0)), ["joint", "sequence"]),
    ("step-float-move", lambda g, s, o: g.step([1.5, 0]), ["agent 0", "move", "integer"]),
    ("step-whole-float-move", lambda g, s, o: g.step([0, 1.0]), ["agent 1", "move", "integer"]),
    ("step-str-move", lambda g, s, o: g.step(["up", 0]), ["agent 0", "move", "str 'up'"]),
    ("step-bool-move", lambda g, s, o: g.step([True, 0]), ["agent 0", "bool"]),
    ("step-none-alive", lambda g, s, o: g.step([None, 0]), ["agent 0", "alive"]),
    ("step-huge-move", lambda g, s, o: g.step([0, BIG]), ["agent 1", "out of range"]),
    ("step-short", lambda g, s, o: g.step([0]), ["needs 2 moves", "got 1"]),
    ("import-str", lambda g, s, o: g.import_state("1 2 3"), ["state", "sequence"]),
    ("import-none", lambda g, s, o: g.import_state(None), ["state", "sequence"]),
    ("import-int", lambda g, s, o: g.import_state(7), ["state", "sequence"]),
    ("import-floats", lambda g, s, o: g.import_state([float(w) for w in g.export()]),
     ["state word 0", "integer", "float"]),
    ("import-float-array", lambda g, s, o: g.import_state(g.export().astype(np.float64)),
     ["state", "float64"]),
    ("import-bools", lambda g, s, o: g.import_state([True] + list(g.export()[1:])),
     ["state word 0", "bool"]),
    ("import-str-word", lambda g, s, o: g.import_state(list(g.export()[:3]) + ["x"]),
     ["state word 3", "str 'x'"]),
    ("import-none-word", lambda g, s, o: g.import_state([1, None]), ["state word 1", "None"]),
    ("import-nested", lambda g, s, o: g.import_state([[1, 2], [3]]), ["flat"]),
    ("import-2d-array", lambda g, s, o: g.import_state(np.zeros((2, 2), dtype=np.int32)),
     ["flat"]),
    ("import-huge", lambda g, s, o: g.import_state([BIG, 1]), ["32 bits"]),
    ("determinize-float", lambda g, s, o: g.determinize(1.5, 1), ["seat", "integer"]),
    ("determinize-seed", lambda g, s, o: g.determinize(0, -1), ["seed", "0..2^64-1"]),
    ("determinize-none", lambda g, s, o: g.determinize(None, 1), ["seat", "None"]),
    ("bot_move-float", lambda g, s, o: g.bot_move(1.0), ["agent", "integer"]),
    ("bot_move-bool", lambda g, s, o: g.bot_move(True), ["agent", "bool"]),
    ("bot_move-huge", lambda g, s, o: g.bot_move(BIG), ["agent", "out of range"]),
    ("fatal_moves-float", lambda g, s, o: g.fatal_moves(1.0), ["agent", "integer"]),
    ("fatal_moves-huge", lambda g, s, o: g.fatal_moves(BIG), ["agent", "out of range"]),
    ("fatal_moves-past", lambda g, s, o: g.fatal_moves(2), ["agent", "out of range"]),
    ("move_name-float", lambda g, s, o: g.move_name(0, 1.0), ["move", "integer"]),
    ("move_name-bool", lambda g, s, o: g.move_name(True, 0), ["agent", "bool"]),
    ("move_name-huge", lambda g, s, o: g.move_name(0, BIG), ["move", "out of range"]),
    ("reseed-negative", lambda g, s, o: g.reseed(-1), ["seed", "0..2^64-1"]),
    ("reseed-huge", lambda g, s, o: g.reseed(2**64), ["seed", "0..2^64-1"]),
    ("reseed-float", lambda g, s, o: g.reseed(1.5), ["seed", "integer"]),
    ("reseed-none", lambda g, s, o: g.reseed(None), ["seed", "None"]),
    ("playout-negative", lambda g, s, o: g.playout(-1, 1), ["max_steps", "out of range"]),
    ("playout-float", lambda g, s, o: g.playout(1.5, 1), ["max_steps", "integer"]),
    ("playout-str", lambda g, s, o: g.playout("3", 1), ["max_steps", "integer"]),
    ("playout-huge", lambda g, s, o: g.playout(BIG, 1), ["max_steps", "out of range"]),
    ("playout-bool", lambda g, s, o: g.playout(True, 1), ["max_steps", "bool"]),
    ("playout-seed-negative", lambda g, s, o: g.playout(5, -1), ["seed", "0..2^64-1"]),
    ("playout-seed-float", lambda g, s, o: g.playout(5, 0.5), ["seed", "integer"]),
    ("playouts-negative", lambda g, s, o: g.playouts(-1, 5, 1), ["n", "out of range"]),
    ("playouts-float", lambda g, s, o: g.playouts(2.5, 5, 1), ["n", "integer"]),
    ("playouts-huge", lambda g, s, o: g.playouts(BIG, 5, 1), ["n", "out of range"]),
    ("playouts-steps-negative", lambda g, s, o: g.playouts(2, -5, 1),
     ["max_steps", "out of range"]),
    ("playouts-seed-none", lambda g, s, o: g.playouts(2, 5, None), ["seed", "None"]),
    # -- Search(game, params, seed)
    ("search-game-none", lambda g, s, o: Search(None), ["game", "Game"]),
    ("search-game-str", lambda g, s, o: Search("snakes"), ["game", "Game"]),
    ("search-params-int", lambda g, s, o: Search(g, 5), ["params", "SearchParams"]),
    ("search-params-str", lambda g, s, o: Search(g, "c=1"), ["params", "SearchParams"]),
    ("search-params-bad-value", lambda g, s, o: Search(g, {"c": "lots"}), ["params", "c:"]),
    ("search-params-unknown", lambda g, s, o: Search(g, {"cc": 1}), ["params", "cc:"]),
    ("search-params-node-cap-float", lambda g, s, o: Search(g, {"node_cap": 2048.5}),
     ["params", "node_cap"]),
    ("search-seed-negative", lambda g, s, o: Search(g, seed=-1), ["seed", "0..2^64-1"]),
    ("search-seed-2^64", lambda g, s, o: Search(g, seed=2**64), ["seed", "0..2^64-1"]),
    ("search-seed-float", lambda g, s, o: Search(g, seed=1.5), ["seed", "integer"]),
    ("search-seed-str", lambda g, s, o: Search(g, seed="1"), ["seed", "integer"]),
    ("search-seed-none", lambda g, s, o: Search(g, seed=None), ["seed", "None"]),
    ("search-seed-bool", lambda g, s, o: Search(g, seed=False), ["seed", "bool"]),
    # -- Search methods
    ("search-value-net-missing", lambda g, s, o: s.update_params(value_net="/no/such.sbxnet"),
     ["value_net", "cannot read"]),
    ("search-value-net-nul", lambda g, s, o: s.update_params(value_net="a\0b"),
     ["value_net", "NUL"]),
    ("set_params-int", lambda g, s, o: s.set_params(5), ["params", "SearchParams"]),
    ("set_params-bad", lambda g, s, o: s.set_params({"gamma": 2}), ["params", "gamma"]),
    ("check_params-int", lambda g, s, o: s.check_params(5), ["params", "SearchParams"]),
    ("check_params-bad", lambda g, s, o: s.check_params({"gamma": 2}), ["params", "gamma"]),
    ("check_params-lead", lambda g, s, o: s.check_params({"algorithm": "suct", "lead": 7}),
     ["lead", "agent 7"]),
    ("check_params-uct-lead", lambda g, s, o: s.check_params({"algorithm": "uct", "lead": 7}),
     ["lead", "agent 7", "UCT"]),
    ("search-gtcfr-three-players", lambda g, s, o: Search(Game("goofspiel", "players=3"),
                                                          {"algorithm": "gtcfr"}),
     ["gtcfr", "two-player", "3 agents"]),
    ("check_params-gtcfr-heuristic",
     lambda g, s, o: Search(Game("goofspiel", "num_cards=4"),
                            {"algorithm": "gtcfr", "priors": "heuristic"}),
     ["priors", "move scores", "goofspiel"]),
    ("update_params-bad", lambda g, s, o: s.update_params(max_depth=0.5), ["params", "max_depth"]),
    ("update_params-unknown", lambda g, s, o: s.update_params(speed=9), ["params", "speed"]),
    ("run-iterations-1.9", lambda g, s, o: s.run(iterations=1.9), ["iterations", "float 1.9"]),
    ("run-iterations-whole-float", lambda g, s, o: s.run(iterations=10.0),
     ["iterations", "integer"]),
    ("run-iterations-str", lambda g, s, o: s.run(iterations="5"), ["iterations", "integer"]),
    ("run-iterations-bool", lambda g, s, o: s.run(iterations=True), ["iterations", "bool"]),
    ("run-iterations-negative", lambda g, s, o: s.run(iterations=-1), ["iterations", ">= 0"]),
    ("run-iterations-huge", lambda g, s, o: s.run(iterations=BIG), ["iterations", "0..2^63-1"]),
    # -- features and private states
    ("features-view-float", lambda g, s, o: g.features(1.0), ["view", "integer"]),
    ("features-view-big", lambda g, s, o: g.features(5), ["view 5", "out of range"]),
    ("features-view-bool", lambda g, s, o: g.features(True), ["view", "bool"]),
    ("features-out-list", lambda g, s, o: g.features(0, out=[0.0] * 400), ["out", "float32"]),
    ("private_slot-str", lambda g, s, o: o.private_slot("3"), ["id", "str '3'"]),
    ("private_slot-negative", lambda g, s, o: o.private_slot(-1), ["id -1", "out of range"]),
    ("private_state-float", lambda g, s, o: o.private_state(0.5), ["seat", "integer"]),
    ("run-ms-str", lambda g, s, o: s.run(ms="x"), ["ms", "number", "str 'x'"]),
    ("run-ms-bool", lambda g, s, o: s.run(ms=True), ["ms", "bool"]),
    ("run-ms-nan", lambda g, s, o: s.run(ms=math.nan), ["ms", "finite", "budget"]),
    ("run-ms-inf", lambda g, s, o: s.run(ms=math.inf), ["ms", "finite", "budget"]),
    ("run-ms-minus-inf", lambda g, s, o: s.run(ms=-math.inf), ["ms", "finite"]),
    ("run-ms-negative", lambda g, s, o: s.run(ms=-1.0), ["ms -1", ">= 0"]),
    ("run-ms-list", lambda g, s, o: s.run(ms=[5]), ["ms", "number"]),
    ("run-nothing", lambda g, s, o: s.run(), ["iterations=", "ms="]),
    ("advance-none", lambda g, s, o: s.advance(None), ["joint", "sequence"]),
    ("advance-int", lambda g, s, o: s.advance(0), ["joint", "sequence"]),
    ("advance-short", lambda g, s, o: s.advance([0]), ["needs 2 moves", "got 1"]),
    ("advance-long", lambda g, s, o: s.advance([0, 0, 0]), ["needs 2 moves", "got 3"]),
    ("advance-float-move", lambda g, s, o: s.advance([1.5, 0]), ["agent 0", "move", "integer"]),
    ("advance-str-move", lambda g, s, o: s.advance(["a", 0]), ["agent 0", "move", "str 'a'"]),
    ("advance-bool-move", lambda g, s, o: s.advance([0, False]), ["agent 1", "bool"]),
    ("advance-huge-move", lambda g, s, o: s.advance([0, BIG]), ["agent 1", "out of range"]),
    ("advance-root-str", lambda g, s, o: s.advance([0, 0], "game"), ["new_root", "Game"]),
    ("advance-root-other-kind", lambda g, s, o: s.advance([0, 0], o),
     ["new_root", "different game", "goofspiel", "snakes"]),
    ("advance-root-other-params",
     lambda g, s, o: s.advance([0, 0], Game("snakes", {**SMALL, "width": 9})),
     ["new_root", "different game", "other parameters"]),
    ("reset-str", lambda g, s, o: s.reset("game"), ["root", "Game"]),
    ("set_game-str", lambda g, s, o: s.set_game("game"), ["like", "Game"]),
    ("set_game-other-kind", lambda g, s, o: s.set_game(o),
     ["like", "different game", "goofspiel", "snakes"]),
    ("set_game-other-layout", lambda g, s, o: s.set_game(Game("snakes", {**SMALL, "width": 9})),
     ["like", "state layout"]),
    ("reset-other-kind", lambda g, s, o: s.reset(o), ["root", "different game", "goofspiel"]),
    ("root_stats-str", lambda g, s, o: s.root_stats("0"), ["agent", "integer"]),
    ("root_stats-float", lambda g, s, o: s.root_stats(0.0), ["agent", "integer"]),
    ("root_stats-out", lambda g, s, o: s.root_stats(2), ["agent 2", "0..1"]),
    ("ranges-str", lambda g, s, o: s.ranges("0"), ["seat", "integer"]),
    ("ranges-float", lambda g, s, o: s.ranges(0.5), ["seat", "integer"]),
    ("ranges-out", lambda g, s, o: s.ranges(2), ["seat 2", "0..1"]),
    ("node_ranges-str", lambda g, s, o: s.node_ranges("0", 0), ["node", "integer"]),
    ("node_ranges-negative", lambda g, s, o: s.node_ranges(-1, 0), ["node", "out of range"]),
    ("node_ranges-seat", lambda g, s, o: s.node_ranges(0, 2), ["seat 2", "0..1"]),
    ("node_ranges-belief", lambda g, s, o: s.node_ranges(0, 0, belief="yes"),
     ["belief", "True or False"]),
    ("public_state-float", lambda g, s, o: s.public_state(0.5), ["node", "integer"]),
    ("node_belief-str", lambda g, s, o: s.node_belief("0"), ["node", "integer"]),
    ("node_belief-negative", lambda g, s, o: s.node_belief(-1), ["node", "out of range"]),
    ("node_belief-current", lambda g, s, o: s.node_belief(0, current="yes"), ["current", "bool"]),
    ("set_beliefs-str", lambda g, s, o: s.set_beliefs("ranges"), ["belief", "PublicBelief"]),
    ("root_values-str", lambda g, s, o: s.root_values("0"), ["seat", "integer"]),
    ("root_values-seat", lambda g, s, o: s.root_values(2), ["seat 2", "0..1"]),
    ("snapshot-agent-float", lambda g, s, o: s.snapshot(1.0), ["agent", "integer"]),
    ("snapshot-agent-bool", lambda g, s, o: s.snapshot(True), ["agent", "bool"]),
    ("snapshot-agent-out", lambda g, s, o: s.snapshot(2), ["agent 2", "0..1"]),
    ("snapshot-max-nodes-zero", lambda g, s, o: s.snapshot(0, 0), ["max_nodes", "out of range"]),
    ("snapshot-max-nodes-float", lambda g, s, o: s.snapshot(0, 10.5), ["max_nodes", "integer"]),
    ("snapshot-max-nodes-str", lambda g, s, o: s.snapshot(0, "10"), ["max_nodes", "integer"]),
    ("snapshot-max-nodes-huge", lambda g, s, o: s.snapshot(0, BIG), ["max_nodes", "out of range"]),
    ("snapshot-min-visits-negative", lambda g, s, o: s.snapshot(0, 10, -1),
     ["min_visits", "out of range"]),
    ("snapshot-min-visits-none", lambda g, s, o: s.snapshot(0, 10, None), ["min_visits", "None"]),
    ("snapshot-out-list", lambda g, s, o: s.snapshot(0, 10, out=[0] * 10), ["out", "SNAPSHOT"]),
    ("snapshot-top-float", lambda g, s, o: s.snapshot(0, 10, top=1.0), ["top", "integer"]),
    ("snapshot-top-negative", lambda g, s, o: s.snapshot(0, 10, top=-1), ["top", "out of range"]),
    ("snapshot-top-missing", lambda g, s, o: s.snapshot(0, 10, top=10**6), ["node", "is not in"]),
    ("snapshot-top-path-move", lambda g, s, o: s.snapshot(0, 10, top=[300]), ["path step 1"]),
    ("find_path-agent-float", lambda g, s, o: s.find_path(1.0, []), ["agent", "integer"]),
    ("find_path-path-str", lambda g, s, o: s.find_path(0, "UL"), ["path", "list"]),
    ("find_path-move-bool", lambda g, s, o: s.find_path(0, [True]), ["path step 1", "bool"]),
    ("find_path-nowhere", lambda g, s, o: s.find_path(0, [9, 9]), ["step 1 of 2"]),
]


@pytest.fixture()
def objects():
    with Game("snakes", SMALL, seed=1) as g, Game("goofspiel") as other, \
            Search(g, SearchParams(node_cap=1 << 14), seed=1) as s:
        s.run(iterations=50)
        yield g, s, other


@pytest.mark.parametrize("call, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_wrong_argument_is_invalid_argument(objects, call, words):
    g, s, other = objects
    before = (g.state_hash(), g.turn, s.stats().iterations, s.params)
    with pytest.raises(InvalidArgument) as exc:
        call(g, s, other)
    msg = str(exc.value)
    assert "\n" not in msg and len(msg) < 200, msg
    for w in words:
        assert w in msg, msg
    # a refused call changes nothing, and both objects still work
    assert (g.state_hash(), g.turn, s.stats().iterations, s.params) == before
    assert s.run(iterations=5).iterations == 5
    g.step([0, 0])


def test_the_table_covers_every_public_method():
    """A new public method of Game or Search needs rows above."""
    covered = {c[0].split("-")[0] for c in CASES}
    skip = {  # no arguments, or properties
        "close", "clone", "export", "evaluate", "ranking", "state_hash", "stop", "stats",
        "summary", "root_matrix", "public_nodes", "best_moves", "c_params", "step_traced", "root_game", "params", "turn",
        "is_terminal", "alive", "closed", "num_agents", "kind", "game_params", "takes_free_moves",
        "hidden_info", "features_layout", "net",
    }
    for cls, prefix in ((Game, "game"), (Search, "search")):
        public = {n for n in vars(cls) if not n.startswith("_")} - skip
        missing = {n for n in public if n not in covered and n != "import_state"}
        assert not missing, f"{cls.__name__}: no wrong-argument rows for {sorted(missing)}"
        assert prefix in covered
    assert "import" in covered


@pytest.mark.parametrize("seed", [0, 2**64 - 1, np.uint64(2**64 - 1), np.int32(7)])
def test_integers_of_every_kind_are_accepted(seed):
    """numpy integers are integers; the extremes of a uint64 seed are fine."""
    with Game("snakes", SMALL, seed=seed) as g, Search(g, seed=seed) as s:
        g.reseed(seed)
        assert s.run(iterations=np.int64(3)).iterations == 3
        assert s.run(ms=np.float32(0.5)).iterations >= 0
        assert s.run(ms=1).iterations >= 0              # an int is a number of ms
        s.snapshot(np.int64(0), np.int32(5), np.uint8(0))
        s.root_stats(np.int16(1))
        joint = np.array([0, 0], dtype=np.int32)
        s.advance(joint)
        g.step(joint)
        g.step((np.int64(0), 0))
        g.import_state(g.export())                      # an int32 array
        g.import_state([int(w) for w in g.export()])    # a list of ints
        g.import_state(tuple(g.export()))               # numpy scalars in a tuple
        assert g.playout(np.int64(3), seed) <= 3
        assert g.playouts(np.int8(2), 3, seed) <= 6
        assert g.move_name(np.int64(0), np.int64(0)) != "?"


def test_advance_passes_for_an_agent_that_is_out():
    """None (or a negative move) stays the way to say "this agent had no
    move" to advance; only the types are stricter."""
    with Game("snakes", {**SMALL, "snakes": 2}, seed=1) as g, Search(g) as s:
        s.run(iterations=20)
        g.step([0, 0])
        s.advance([0, 0], new_root=g)


def test_closed_objects_say_closed_even_with_wrong_arguments_elsewhere():
    g = Game("snakes", SMALL, seed=1)
    s = Search(g)
    s.close()
    g.close()
    with pytest.raises(ClosedError):
        s.run(iterations=5)
    with pytest.raises(ClosedError):
        g.step([0, 0])
    with pytest.raises(ClosedError):
        Search(g)


@pytest.mark.parametrize("field", ["c", "gamma", "max_depth", "random_threshold", "node_cap",
                                   "death_min_visits", "time_check_interval"])
def test_search_params_numbers_refuse_true_and_false(field):
    """pydantic's lax mode reads true as 1 (`max_depth = true` searched one
    turn deep); a number field of SearchParams refuses a bool."""
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="expected a number, not true"):
        SearchParams(**{field: True})
    with Game("snakes", SMALL) as g, pytest.raises(InvalidArgument, match=f"params: {field}: "):
        Search(g, {field: False})
