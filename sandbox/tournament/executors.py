"""Where games run: any concurrent.futures.Executor. A local process pool by
default; `--dask ADDRESS` takes an existing Dask cluster's executor
(distributed.Client(ADDRESS).get_executor(), the optional `[cluster]`
extra); workers=0 plays in this process (tests, debugging)."""
from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..native import InvalidArgument, SandboxError

MAX_WORKERS = 256
CONNECT_TIMEOUT = "10s"     # to reach a Dask scheduler


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
    on their queue for ever)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

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
    ex = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init,
                             initargs=(os.getpid(),),
                             mp_context=multiprocessing.get_context("forkserver"))
    try:
        yield ex
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def executor_label(workers: int | None, dask: str | None) -> str:
    if dask is not None:
        return f"dask {dask}"
    w = default_workers() if workers is None else workers
    return "this process" if w == 0 else f"{w} local worker{'s' if w != 1 else ''}"
