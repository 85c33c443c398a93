"""Where games run: any concurrent.futures.Executor. A local process pool by
default; `--dask ADDRESS` takes an existing Dask cluster's executor
(distributed.Client(ADDRESS).get_executor(), the optional `[cluster]`
extra); workers=0 plays in this process (tests, debugging)."""
from __future__ import annotations

import os
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


def _worker_init() -> None:
    # A worker plays one game at a time on one core; a search's own C threads
    # (parallel search) are the scenario's business, nothing to set here.
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


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
    ex = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
    try:
        yield ex
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def executor_label(workers: int | None, dask: str | None) -> str:
    if dask is not None:
        return f"dask {dask}"
    w = default_workers() if workers is None else workers
    return "this process" if w == 0 else f"{w} local worker{'s' if w != 1 else ''}"
