"""Ownership of C objects: close, context managers, use after close, memory
returned on close and on garbage collection, closing under a running search."""
from __future__ import annotations

import gc
import resource
import threading
import time
import weakref

import pytest

from sandbox.native import ClosedError, Game, Search, SearchParams

SMALL = {"width": 7, "height": 7, "snakes": 2}
START_4P = {"width": 11, "height": 11, "snakes": 4}


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


# every public method, called with valid arguments
GAME_CALLS = {
    "clone": lambda g, other: g.clone(),
    "copy_from": lambda g, other: g.copy_from(other),
    "copy_into": lambda g, other: other.copy_from(g),
    "turn": lambda g, other: g.turn,
    "legal_moves": lambda g, other: g.legal_moves(0),
    "step": lambda g, other: g.step([0, 0]),
    "is_terminal": lambda g, other: g.is_terminal,
    "is_alive": lambda g, other: g.is_alive(0),
    "alive": lambda g, other: g.alive,
    "evaluate": lambda g, other: g.evaluate(),
    "features": lambda g, other: g.features(0),
    "ranking": lambda g, other: g.ranking(),
    "state_hash": lambda g, other: g.state_hash(),
    "export": lambda g, other: g.export(),
    "import_state": lambda g, other: g.import_state(other.export()),
    "move_name": lambda g, other: g.move_name(0, 0),
    "reseed": lambda g, other: g.reseed(5),
    "playout": lambda g, other: g.playout(10, 1),
    "playouts": lambda g, other: g.playouts(2, 10, 1),
    "new_search": lambda g, other: Search(g),
}

SEARCH_CALLS = {
    "set_params": lambda s, g: s.set_params(SearchParams(c=1.0)),
    "update_params": lambda s, g: s.update_params(c=1.0),
    "c_params": lambda s, g: s.c_params(),
    "run": lambda s, g: s.run(iterations=10),
    "step_traced": lambda s, g: s.step_traced(),
    "advance": lambda s, g: s.advance([0, 0]),
    "advance_to": lambda s, g: s.advance([0, 0], new_root=g),
    "reset": lambda s, g: s.reset(g),
    "set_game": lambda s, g: s.set_game(g),
    "root_game": lambda s, g: s.root_game(),
    "best_moves": lambda s, g: s.best_moves(),
    "root_stats": lambda s, g: s.root_stats(0),
    "summary": lambda s, g: s.summary(),
    "stats": lambda s, g: s.stats(),
    "snapshot": lambda s, g: s.snapshot(0, 10),
}


@pytest.mark.parametrize("name", sorted(GAME_CALLS))
def test_game_method_after_close_raises_closed_error(name):
    call = GAME_CALLS[name]
    with Game("snakes", SMALL, seed=1) as other:
        g = Game("snakes", SMALL, seed=1)
        result = call(g, other)          # works while open
        if hasattr(result, "close"):
            result.close()
        g.close()
        assert g.closed
        with pytest.raises(ClosedError, match="closed"):
            call(g, other)
        assert "closed" in repr(g)


@pytest.mark.parametrize("name", sorted(SEARCH_CALLS))
def test_search_method_after_close_raises_closed_error(name):
    call = SEARCH_CALLS[name]
    with Game("snakes", SMALL, seed=1) as g:
        s = Search(g, SearchParams(max_depth=3), seed=1)
        s.run(iterations=20)
        result = call(s, g)
        if hasattr(result, "close"):
            result.close()
        s.close()
        assert s.closed
        with pytest.raises(ClosedError, match="closed"):
            call(s, g)
        s.stop()   # asking a closed search to stop is harmless (close does it)


def test_close_twice_and_context_managers():
    g = Game("snakes", SMALL, seed=1)
    s = Search(g, seed=1)
    s.close()
    s.close()
    g.close()
    g.close()
    assert g.closed and s.closed

    with Game("snakes", SMALL, seed=1) as g2:
        with Search(g2, seed=1) as s2:
            s2.run(iterations=50)
        assert s2.closed and not g2.closed
        # the search owns a copy of the state: the game lives on without it
        g2.step([0, 0])
    assert g2.closed


def test_search_survives_its_game_being_closed():
    g = Game("snakes", SMALL, seed=1)
    s = Search(g, SearchParams(max_depth=4), seed=1)
    g.close()
    assert s.run(iterations=300).iterations == 300
    with s.root_game() as root:
        assert root.turn == 0 and root.num_agents == 2
    s.close()


def test_context_manager_closes_on_error():
    with pytest.raises(RuntimeError):
        with Game("snakes", SMALL, seed=1) as g, Search(g, seed=1) as s:
            raise RuntimeError("boom")
    assert g.closed and s.closed


def test_thousands_of_create_free_cycles_do_not_grow_memory():
    # each cycle fills its four 1024-node trees (128 KB), so leaking them
    # would cost hundreds of MB
    params = SearchParams(node_cap=1024, max_depth=10)

    def cycle(i: int) -> None:
        with Game("snakes", START_4P, seed=i) as g, Search(g, params, seed=i) as s:
            assert s.run(iterations=5000).stop_reason == "node_cap"
            s.snapshot(0, 50)

    # Under ASan (tools/sanitize.py) freed memory waits in a quarantine before
    # it is reused: the tool's 32 MB quarantine fills during this warm-up, so
    # the allowance below means the same there (ASan's default 256 MB would
    # only fill during the measured cycles and read as a 137 MB leak).
    for i in range(300):          # warm up allocator pools and caches
        cycle(i)
    gc.collect()
    before = rss_bytes()
    for i in range(3000):
        cycle(i)
    gc.collect()
    grown = rss_bytes() - before
    assert grown < 4 * 2**20, f"RSS grew by {grown / 2**20:.1f} MB over 3000 cycles"


def test_garbage_collection_frees_without_close():
    """Dropped objects are freed by their ffi.gc destructor. Each search here
    touches a couple of MB of tree, so 80 leaked ones would show plainly."""
    params = SearchParams(node_cap=1 << 17, max_depth=10)

    def make():
        g = Game("snakes", START_4P, seed=1)
        s = Search(g, params, seed=1)
        s.run(iterations=8000)
        return weakref.ref(g), weakref.ref(s), sum(s.stats().nodes)

    for _ in range(5):
        make()
    gc.collect()
    before = rss_bytes()
    refs = []
    for _ in range(80):
        rg, rs, nodes = make()
        refs.append((rg, rs))
    assert nodes * 32 > 2**20           # each search really held > 1 MB of nodes
    gc.collect()
    assert all(rg() is None and rs() is None for rg, rs in refs)
    grown = rss_bytes() - before
    assert grown < 16 * 2**20, f"RSS grew by {grown / 2**20:.1f} MB"


def test_close_from_another_thread_stops_a_long_run():
    """close() asks a run in progress to stop and waits for it; the run
    returns 'requested' and the search is then closed. The budget would take
    seconds; the delays below only order the threads."""
    with Game("snakes", START_4P, seed=1) as g:
        s = Search(g, SearchParams(max_depth=1), seed=1)
        calibrate = s.run(iterations=100_000)
        budget = 100_000 * max(1, int(3000 / max(calibrate.elapsed_ms, 1e-3)))  # ~3 s of work
        started = threading.Event()
        out: dict = {}

        def work():
            started.set()
            try:
                out["r"] = s.run(iterations=budget)
            except Exception as exc:   # pragma: no cover - reported below
                out["exc"] = exc

        t = threading.Thread(target=work, daemon=True)
        t.start()
        assert started.wait(30)
        time.sleep(0.2)
        closer = threading.Thread(target=s.close, daemon=True)
        closer.start()
        closer.join(120)
        t.join(120)
        assert not closer.is_alive() and not t.is_alive(), "close or run hung"
        assert "exc" not in out, out.get("exc")
        r = out["r"]
        assert r.stop_reason in ("requested", "iterations")
        if r.stop_reason == "requested":
            assert 0 < r.iterations < budget
        assert s.closed
        with pytest.raises(ClosedError):
            s.run(iterations=1)


def test_close_stops_a_run_that_was_waiting_to_start():
    """Two threads run the same search: one runs, the other's run() waits for
    it. close() from a third thread must stop the first and must not let the
    queued one then work through its whole budget (the C core forgets a stop
    requested before a run starts): it is refused or stops at once."""
    with Game("snakes", START_4P, seed=1) as g:
        for attempt in range(3):
            s = Search(g, SearchParams(max_depth=1), seed=1)
            # ~2 s of work: the fastest of three calibration runs (a run the
            # scheduler stalled would make the budget too small to still be
            # running when close() comes), and never under 5 M iterations
            fastest = min(s.run(iterations=100_000).elapsed_ms for _ in range(3))
            budget = max(5_000_000, 100_000 * max(1, int(2000 / max(fastest, 1e-3))))
            out: dict = {}

            def work(key: str) -> None:
                try:
                    out[key] = s.run(iterations=budget)
                except ClosedError:
                    out[key] = None

            first = threading.Thread(target=work, args=("first",), daemon=True)
            first.start()
            time.sleep(0.1)                      # ordering only: first is running
            queued = threading.Thread(target=work, args=("queued",), daemon=True)
            queued.start()
            time.sleep(0.1)                      # queued waits for the lock
            closer = threading.Thread(target=s.close, daemon=True)
            closer.start()
            for t in (closer, first, queued):
                t.join(120)
                assert not t.is_alive(), "hang"
            assert s.closed
            assert out["first"].stop_reason == "requested", f"attempt {attempt}: {out}"
            q = out["queued"]
            assert q is None or q.stop_reason == "requested", f"attempt {attempt}: {out}"
