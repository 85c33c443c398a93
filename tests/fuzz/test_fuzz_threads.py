"""Hot-swaps while running: one thread runs a search in slices while another
sets valid and invalid parameters, asks it to stop, and sometimes closes it.
The runs end with a result (or ClosedError once closed), nothing hangs, and
afterwards the C core holds exactly the last parameters it accepted."""
from __future__ import annotations

import threading
import time

from fuzz_support import (ALGORITHMS, ALL_CASES, PARAMS_DOOR, any_param_dicts, attempt,
                          fuzz_settings, must, search_any_algorithm, valid_param_dicts)
from hypothesis import given
from hypothesis import strategies as st

from sandbox.native import ClosedError, InvalidArgument, OutOfMemory, Search, SearchParams

# ms per run slice: long enough that swaps land inside runs
SLICE_MS = 15.0

actions = st.tuples(
    st.sampled_from(["set", "set", "update", "stop", "sleep"]),
    st.one_of(valid_param_dicts(), any_param_dicts()),
    st.floats(0, 0.004))


def _small(d: dict) -> dict:
    """Keep valid node caps small enough to be quick (a swap to a new cap
    reallocates every tree: that path is what matters, not the size)."""
    out = dict(d)
    if isinstance(out.get("node_cap"), int) and not isinstance(out["node_cap"], bool):
        out["node_cap"] = min(out["node_cap"], 1 << 14)
    return out


@fuzz_settings(10)
@given(case=st.sampled_from(ALL_CASES), start=valid_param_dicts(),
       plan=st.lists(actions, min_size=1, max_size=10), close_at=st.one_of(
           st.none(), st.integers(0, 9)), seed=st.integers(0, 2**32), slices=st.integers(1, 3))
def test_hot_swaps_while_a_run_is_in_progress(case, start, plan, close_at, seed, slices):
    # (valid_param_dicts draws every algorithm, and the swaps switch between
    # them: a switch waits for a fresh turn, so most land before a run)
    with case.new(seed) as g:
        s, exc = attempt(Search, g, _small(start), seed, allow=PARAMS_DOOR)
        if exc is not None:
            assert isinstance(exc, (InvalidArgument, OutOfMemory)), repr(exc)
            return
        accepted = must(lambda: s.params)
        results: list = []
        failures: list[BaseException] = []
        started = threading.Event()

        def work() -> None:
            started.set()
            for _ in range(slices):
                try:
                    results.append(must(s.run, iterations=200_000, ms=SLICE_MS))
                except ClosedError:
                    results.append("closed")
                    return
                except BaseException as e:  # reported by the main thread
                    failures.append(e)
                    return

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        assert started.wait(30)
        closed = False
        for step, (what, params, delay) in enumerate(plan):
            time.sleep(delay)
            if close_at == step:
                must(s.close)           # stops the run in progress, waits for it
                closed = True
            if what == "sleep":
                continue
            if what == "stop":
                must(s.stop)            # harmless on a closed search too
                continue
            params = _small(params)
            if what == "set":
                _, exc = attempt(s.set_params, params, allow=PARAMS_DOOR)
            else:
                kwargs = {str(k): v for k, v in params.items()}
                _, exc = attempt(lambda kw=kwargs: s.update_params(**kw), allow=PARAMS_DOOR)
            if closed:
                assert exc is not None
            elif exc is None:
                accepted = must(lambda: s.params)
        worker.join(120)
        assert not worker.is_alive(), "a run did not return"
        assert not failures, failures
        for r in results:
            if r == "closed":
                assert closed
                continue
            assert r.stop_reason in ("time", "iterations", "requested", "node_cap", "terminal")
        if closed:
            _, exc = attempt(s.c_params)
            assert isinstance(exc, ClosedError)
            return
        with s:
            # the last accepted parameters are the ones in force
            assert must(s.c_params) == accepted
            must(s.run, iterations=5)
            st_ = must(s.stats)
            assert all(n <= accepted.node_cap for n in st_.nodes)
            assert must(s.summary).stats.node_cap == accepted.node_cap


@fuzz_settings(5)
@given(case=st.sampled_from(ALL_CASES), seed=st.integers(0, 2**32),
       delay=st.floats(0, 0.01), queued=st.booleans(), algorithm=st.sampled_from(ALGORITHMS))
def test_close_from_another_thread_while_running(case, seed, delay, queued, algorithm):
    """close() stops a run in progress and a run queued behind it; both end
    with a result or ClosedError, and the search is closed (every algorithm:
    random's no-op iterations spin on the budget, the others fill trees)."""
    with case.new(seed) as g:
        s = search_any_algorithm(g, SearchParams(node_cap=1 << 14, max_depth=6,
                                                 algorithm=algorithm), seed)
        outcomes: list = []

        def work() -> None:
            r, exc = attempt(s.run, iterations=10**9, ms=3000.0)
            outcomes.append(exc if exc is not None else r)

        threads = [threading.Thread(target=work, daemon=True) for _ in range(1 + queued)]
        for t in threads:
            t.start()
        time.sleep(delay)
        must(s.close)
        for t in threads:
            t.join(60)
            assert not t.is_alive(), "close did not stop a run"
        assert s.closed and len(outcomes) == len(threads)
        for o in outcomes:
            assert isinstance(o, ClosedError) or o.stop_reason in ("requested", "terminal",
                                                                  "node_cap"), o
