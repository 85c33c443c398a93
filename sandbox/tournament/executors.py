"""Where games run: any concurrent.futures.Executor. A local process pool by
default; `--dask ADDRESS` takes an existing Dask cluster's executor
(distributed.Client(ADDRESS).get_executor(), the optional `[cluster]`
extra); workers=0 plays in this process (tests, debugging)."""
from __future__ import annotations

import multiprocessing
import multiprocessing.forkserver
import multiprocessing.resource_tracker
import os
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..native import InvalidArgument, SandboxError
from ..signals import blocked_signals, ignore_stop_signals

MAX_WORKERS = 256
CONNECT_TIMEOUT = "10s"     # to reach a Dask scheduler
STOP_GRACE_S = 1.0          # a stopped worker's clean exit, before SIGKILL
POOL_WORKER = "sandbox.tournament.pool_worker"   # the fork server's preload


class ClusterError(SandboxError):
    """A Dask cluster that cannot be reached or used."""


class InlineExecutor(Executor):
    """Runs each job at submit, in this process (same results, no pool)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        f: Future = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as exc:   # noqa: BLE001 - the future carries it
            f.set_exception(exc)
        return f


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def _worker_init(runner_pid: int) -> None:
    """A worker ends when the runner that started it is gone (killed with
    SIGKILL, it cannot shut its pool down: the workers would otherwise wait
    on their queue for ever). Its signals are set by pool_worker, the fork
    server's preload, and again here for a pool started without it."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from . import pool_worker         # in the worker only: it sets signals on import
    pool_worker.install()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(runner_pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:      # the pid was reused by someone else's process
                os._exit(1)

    threading.Thread(target=watch, name="runner-watch", daemon=True).start()


def stop_pool(ex: ProcessPoolExecutor, grace_s: float = STOP_GRACE_S) -> None:
    """Stops a local pool now, whatever its workers are doing: nothing more
    is started, each worker gets SIGTERM (its bots killed; the game is
    played again on resume) and SIGKILL after `grace_s`. Without
    this, the pool's shutdown waits for the games in flight, and at exit
    Python waits for the pool's thread, which may wait for a worker that
    waits for work."""
    procs = list((getattr(ex, "_processes", None) or {}).values())
    manager = getattr(ex, "_executor_manager_thread", None)
    ex.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        try:
            p.terminate()
        except (OSError, AttributeError, ValueError):
            pass
    deadline = time.monotonic() + grace_s
    for p in procs:
        try:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.exitcode is None:
                p.kill()
                p.join(1.0)
        except (OSError, AttributeError, ValueError, AssertionError):
            pass
    # the pool's manager thread sees its workers gone and closes its pipes:
    # let it finish now, not while the interpreter exits (Python's exit
    # hook for pools would write to a pipe it is closing: a traceback)
    if manager is not None:
        manager.join(STOP_GRACE_S)


@contextmanager
def make_executor(workers: int | None = None, dask: str | None = None) -> Iterator[Executor]:
    """The executor the jobs run on, shut down on exit (pending jobs
    cancelled: an interrupted tournament resumes from its log)."""
    if dask is not None:
        if workers is not None:
            raise InvalidArgument("--workers is for the local pool; a Dask cluster has its own")
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError("--dask needs the optional extra: pip install "
                               "'simsearch-sandbox[cluster]'") from None
        try:
            client = Client(dask, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(f"--dask {dask}: cannot connect: {exc}") from None
        try:
            ex = client.get_executor()
            yield ex
        finally:
            client.close()
        return
    if workers is None:
        workers = default_workers()
    if not isinstance(workers, int) or isinstance(workers, bool) or not 0 <= workers <= MAX_WORKERS:
        raise InvalidArgument(f"--workers must be in 0..{MAX_WORKERS} (0: in this process), "
                              f"got {workers!r}")
    if workers == 0:
        yield InlineExecutor()
        return
    # forkserver, not fork: a worker must not inherit this process's open
    # files (the results log's lock would outlive a killed runner) nor
    # threads' locks (the app runs tournaments beside its own threads)
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([POOL_WORKER])
    # the resource tracker first: its start unblocks these signals again
    multiprocessing.resource_tracker.ensure_running()
    with blocked_signals():        # the fork server inherits them held until its preload
        multiprocessing.forkserver.ensure_running()
    ex = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init,
                             initargs=(os.getpid(),), mp_context=ctx)
    try:
        yield ex
    except BaseException as exc:
        # Ctrl-C, SIGTERM, a game's error: stop now, not after the games in
        # flight (their results would be thrown away anyway)
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            ignore_stop_signals()          # on the way out: a second one must not cut this
        stop_pool(ex)
        raise
    ex.shutdown(wait=True, cancel_futures=True)


def executor_label(workers: int | None, dask: str | None) -> str:
    if dask is not None:
        return f"dask {dask}"
    w = default_workers() if workers is None else workers
    return "this process" if w == 0 else f"{w} local worker{'s' if w != 1 else ''}"
