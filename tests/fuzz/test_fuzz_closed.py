"""Use after close, for every registered game: after close() (once or twice),
every public method of Game and Search, called with arguments that worked
while the object was open, raises ClosedError, in a random order and
interleaved with calls on the objects still open. The tables are checked
against the classes, so a new public method has to join them."""
from __future__ import annotations

import numpy as np
from fuzz_support import (ALGORITHMS, ALL_CASES, attempt, fuzz_settings, must,
                          random_legal_joint, search_any_algorithm)
from hypothesis import given
from hypothesis import strategies as st

from sandbox.native import SNAPSHOT_DTYPE, ClosedError, Game, PublicBelief, Search, SearchParams

# name -> call(obj, ctx) with arguments valid for the open object
GAME_CALLS = {
    "alive": lambda g, c: g.alive,
    "bot_move": lambda g, c: g.bot_move(0),
    "fatal_moves": lambda g, c: g.fatal_moves(0),
    "clone": lambda g, c: g.clone(),
    "copy_from": lambda g, c: g.copy_from(c["twin"]),
    "copy_into": lambda g, c: c["twin"].copy_from(g),
    "evaluate": lambda g, c: g.evaluate(),
    "features": lambda g, c: g.features(0),
    "features_layout": lambda g, c: g.features_layout(),
    "private_slot": lambda g, c: g.private_slot(7),
    "private_state": lambda g, c: g.private_state(0),
    "determinize": lambda g, c: g.determinize(0, 7),
    "hidden_info": lambda g, c: g.hidden_info,
    "export": lambda g, c: g.export(),
    "import_state": lambda g, c: g.import_state(c["words"]),
    "is_alive": lambda g, c: g.is_alive(0),
    "is_terminal": lambda g, c: g.is_terminal,
    "legal_moves": lambda g, c: g.legal_moves(0),
    "move_name": lambda g, c: g.move_name(0, 0),
    "playout": lambda g, c: g.playout(3, 1),
    "playouts": lambda g, c: g.playouts(2, 3, 1),
    "playouts_none": lambda g, c: g.playouts(0, 3, 1),     # no chunk: still checked
    "ranking": lambda g, c: g.ranking(),
    "reseed": lambda g, c: g.reseed(5),
    "state_hash": lambda g, c: g.state_hash(),
    "step": lambda g, c: g.step(c["joint"]),
    "turn": lambda g, c: g.turn,
    "new_search": lambda g, c: Search(g, c["params"], 1),
}
SEARCH_CALLS = {
    "advance": lambda s, c: s.advance(c["joint"]),
    "advance_to": lambda s, c: s.advance(c["joint"], new_root=c["after"]),
    "best_moves": lambda s, c: s.best_moves(),
    "c_params": lambda s, c: s.c_params(),
    "check_params": lambda s, c: s.check_params(c["params"]),
    "reset": lambda s, c: s.reset(c["twin"]),
    "set_game": lambda s, c: s.set_game(c["twin"]),
    "root_game": lambda s, c: s.root_game(),
    "root_stats": lambda s, c: s.root_stats(0),
    "run": lambda s, c: s.run(iterations=5),
    "run_ms": lambda s, c: s.run(ms=0.5),
    "set_params": lambda s, c: s.set_params(c["params"]),
    "update_params": lambda s, c: s.update_params(c=1.0),
    "snapshot": lambda s, c: s.snapshot(0, 10),
    "snapshot_out": lambda s, c: s.snapshot(0, 10, out=np.zeros(10, SNAPSHOT_DTYPE)),
    "snapshot_top": lambda s, c: s.snapshot(0, 10, top=0),
    "find_path": lambda s, c: s.find_path(0, []),
    "stats": lambda s, c: s.stats(),
    "step_traced": lambda s, c: s.step_traced(),
    "summary": lambda s, c: s.summary(),
    "root_matrix": lambda s, c: s.root_matrix(),
    "ranges": lambda s, c: s.ranges(0),
    "public_nodes": lambda s, c: s.public_nodes(),
    "node_ranges": lambda s, c: s.node_ranges(0, 0),
    "public_state": lambda s, c: s.public_state(0),
    "node_belief": lambda s, c: s.node_belief(0),
    "set_beliefs": lambda s, c: s.set_beliefs(c["belief"]),
    "root_values": lambda s, c: s.root_values(0),
}
# Public names that are not C calls, each for its stated reason:
NOT_CALLS = {
    "close": "closing twice is allowed (tested below)",
    "closed": "the flag itself",
    "stop": "documented harmless on a closed search (close() itself calls it)",
    "params": "the Python-side copy of the last parameters set",
    "net": "the Python-side Net last attached (its own handle, not the search's)",
    "takes_free_moves": "a fact about the game kind (read from the C registry), not the handle",
}


def _public(cls) -> set[str]:
    return {n for n in dir(cls) if not n.startswith("_")}


def test_the_tables_cover_every_public_method():
    covered = set(GAME_CALLS) | set(SEARCH_CALLS) | set(NOT_CALLS)
    assert _public(Game) - covered == set()
    assert _public(Search) - covered == set()


def _context(case, seed, algorithm="smitsimax"):
    g = case.new(seed)
    twin = must(g.clone)
    joint = random_legal_joint(g, np.random.default_rng(seed))
    after = must(g.clone)
    must(after.step, joint)
    one = (np.array([1], np.uint32), np.array([1], np.uint32))
    belief = PublicBelief(ids=one, weights=(np.ones(1), np.ones(1)),
                          pairs=np.zeros((1, 2), np.uint32))
    return g, {"twin": twin, "joint": joint, "after": after, "words": must(twin.export),
               "belief": belief,
               "params": SearchParams(max_depth=4, node_cap=4096, algorithm=algorithm)}


@fuzz_settings(20)
@given(case=st.sampled_from(ALL_CASES), seed=st.integers(0, 2**32),
       order=st.permutations(sorted(GAME_CALLS) + sorted(SEARCH_CALLS)),
       twice=st.booleans(), close_first=st.sampled_from(["game", "search", "both"]),
       algorithm=st.sampled_from(ALGORITHMS))
def test_every_method_after_close_raises_closed_error(case, seed, order, twice, close_first,
                                                      algorithm):
    g, ctx = _context(case, seed, algorithm)
    s = search_any_algorithm(g, ctx["params"], seed)
    must(s.run, iterations=20)
    try:
        if close_first in ("game", "both"):
            must(g.close)
        if close_first in ("search", "both"):
            must(s.close)
        if twice:
            must(g.close)
            must(s.close)
        for name in order:
            if name in GAME_CALLS:
                obj, call = g, GAME_CALLS[name]
            else:
                obj, call = s, SEARCH_CALLS[name]
            out, exc = attempt(call, obj, ctx)
            if obj.closed:
                assert isinstance(exc, ClosedError), f"{name} on a closed object: {exc!r}"
                assert "closed" in str(exc)
            elif hasattr(out, "close"):
                out.close()
        # a closed game does not take an open search down with it, and the
        # other way round
        if not s.closed:
            must(s.run, iterations=5)
            with must(s.root_game) as r:
                assert r.num_agents == s.num_agents
        if not g.closed:
            must(g.export)
        must(s.stop)
        assert "closed" in repr(g) or not g.closed
    finally:
        s.close()
        g.close()
        for x in (ctx["twin"], ctx["after"]):
            x.close()
