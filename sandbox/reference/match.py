"""The reference search's benchmark: a short self-play match of the pure-
Python Smitsimax, played as `bench` plays the C one, for the speed ratio the
bench reports (what the C core buys)."""
from __future__ import annotations

from typing import Any, Callable

from sandbox.native.params import SearchParams

from .smitsimax import Smitsimax

def reference_match(make_game: Callable[[int], Any], params: SearchParams,
                    iterations: int, turns: int, seed: int = 1) -> dict[str, Any]:
    """A short match of one reference search against itself, as
    sandbox/bench/figures.py plays it with the C search: search, play the best joint
    move on a copy of the root, re-root (tree reuse), repeat. `make_game(seed)`
    builds the reference game (GamePlugin.reference_game). Returns totals;
    the iterations, simulated turns and nodes equal those of the C match."""
    game = make_game(seed)
    search = Smitsimax(game, params, seed=seed)
    total: dict[str, Any] = {"iterations": 0, "sim_turns": 0, "ms": 0.0, "nodes_added": 0,
                             "turns": 0}
    for _ in range(turns):
        r = search.run(iterations)
        total["iterations"] += r.iterations
        total["sim_turns"] += r.sim_turns
        total["ms"] += r.elapsed_ms
        total["nodes_added"] += r.nodes_added
        total["turns"] += 1
        joint = search.best_moves()
        root = search.root_game()
        if root.is_terminal:
            break
        root.step(joint)
        search.advance(joint, new_root=root)
        if root.is_terminal:
            break
    return total


def bench_reference(make_game: Callable[[int], Any], params: SearchParams,
                    iterations: int, turns: int, seed: int = 1) -> float:
    """Simulated turns per second of the reference over reference_match()."""
    total = reference_match(make_game, params, iterations, turns, seed)
    return total["sim_turns"] / max(total["ms"] / 1000.0, 1e-9)
