"""`python -m sandbox bench --tournament`: tournament games/s through the
Executor runner with one and two local worker processes and a two-worker
Dask LocalCluster (when the [cluster] extra is installed).

The workload: a fixed list of games (goofspiel_13_duel, Smitsimax against
greedy, 20,000 iterations a turn, seats swapped on paired seeds), the same
on every executor. A game takes about 0.3 s, so the runner's and Dask's
per-game costs are a small share, as in a real tournament. Each executor
first plays one warm-up game per worker (the processes start and load the C
core) and is then timed over the whole list. The results must be the same
game for game on every executor (checked). Each executor's `cpu_share` is
the CPU time its games got over (wall time x workers): on an idle machine
about 1; lower means other work shared the cores and the
speed-up measures the machine's load, not the runner. `games_per_cpu_s`
(games over the CPU seconds the workers used) shows the runner's own cost
apart from the load: equal on every executor means no overhead.
Targets: two local workers >= 1.8x one; the 2-worker Dask cluster
>= 1.6x one local worker."""
from __future__ import annotations

import os
import time
from concurrent.futures import Executor
from typing import Any, Callable

TARGET_LOCAL2 = 1.8
TARGET_DASK2 = 1.6


def _jobs(quick: bool):
    from ..config import load_scenario
    from .agents import builtin_entrant
    from .tournament import make_spec
    from ..config import Budget
    spec = make_spec(load_scenario("goofspiel_13_duel"),
                     [builtin_entrant("smitsimax"), builtin_entrant("greedy")],
                     games=16 if quick else 48, budget=Budget(iterations=20000, ms=0))
    return spec.jobs()


def _load_core() -> bool:
    """Run on every Dask worker before timing (a warm-up job might land twice
    on one worker and leave the other to load the core inside the timing)."""
    from . import jobs  # noqa: F401  (imports sandbox and loads the C core)
    return True


def _timed(ex: Executor, workers: int, jobs) -> tuple[float, list]:
    from .jobs import play_job
    warm = [ex.submit(play_job, j) for j in jobs[:workers]]
    for f in warm:
        f.result()
    t0 = time.perf_counter()
    futures = [ex.submit(play_job, j) for j in jobs]
    rows = [f.result() for f in futures]
    secs = time.perf_counter() - t0
    # the CPU the workers got over the wall time they had: below 1 the
    # machine was busy with something else and the speed-up is not the runner's
    cpu = sum(r["cpu_seconds"] for r in rows)
    return secs, [(r["key"], r["scores"], r["turns"]) for r in rows], cpu


def measure(quick: bool = False, progress: Callable[[str], None] | None = None
            ) -> dict[str, Any]:
    from .executors import make_executor
    jobs = _jobs(quick)
    out: dict[str, Any] = {"games": len(jobs), "workload": "goofspiel_13_duel, smitsimax vs "
                           "greedy, 20,000 iterations a turn", "cpus": os.cpu_count()}
    ref = None
    for label, workers in (("local_1", 1), ("local_2", 2)):
        if progress:
            progress(label)
        with make_executor(workers) as ex:
            secs, rows, cpu = _timed(ex, workers, jobs)
        out[f"{label}_games_per_s"] = round(len(jobs) / secs, 2)
        out[f"{label}_cpu_share"] = round(cpu / (secs * workers), 3)
        out[f"{label}_games_per_cpu_s"] = round(len(jobs) / cpu, 2)
        ref = rows if ref is None else ref
        out[f"{label}_same_results"] = rows == ref
    try:
        import dask
        import distributed
    except ImportError:
        out["dask_2_games_per_s"] = None
        out["dask_note"] = "the [cluster] extra is not installed"
    else:
        if progress:
            progress("dask_2")
        from .. import __file__ as pkg
        root = os.path.dirname(os.path.dirname(pkg))
        # Dask's workers import this same sandbox package
        old = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = root + (os.pathsep + old if old else "")
        try:
            # the workers' statistical profiler samples every thread every
            # 10 ms (about 8% of a CPU-bound worker's CPU, measured): off, as
            # for any CPU-bound cluster; the nannies pass the config on
            with dask.config.set({"distributed.worker.profile.enabled": False}), \
                    distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                          dashboard_address=None, silence_logs=50) as cluster, \
                    distributed.Client(cluster) as client:
                client.run(_load_core)
                secs, rows, cpu = _timed(client.get_executor(), 2, jobs)
        finally:
            if old is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = old
        out["dask_2_games_per_s"] = round(len(jobs) / secs, 2)
        out["dask_2_same_results"] = rows == ref
        out["dask_2_cpu_share"] = round(cpu / (secs * 2), 3)
        out["dask_2_games_per_cpu_s"] = round(len(jobs) / cpu, 2)
    one = out["local_1_games_per_s"]
    out["local_2_speedup"] = round(out["local_2_games_per_s"] / one, 3)
    if out["dask_2_games_per_s"] is not None:
        out["dask_2_speedup"] = round(out["dask_2_games_per_s"] / one, 3)
    return out
