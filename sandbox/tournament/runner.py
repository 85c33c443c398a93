"""Runs jobs on an Executor and logs each result as it arrives.

Jobs are submitted a few at a time (twice the workers, at least 4), not all at
once: an early stop (SPRT) or Ctrl-C then leaves little queued (dropped when
the executor shuts down), and a Dask cluster sees a steady stream rather than
ten thousand tasks."""
from __future__ import annotations

import time
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, wait
from typing import Any, Callable, Iterable

from ..native import SandboxError
from ..signals import deferred_signals
from .jobs import GameJob, play_job
from .log import ResultLog


class GameFailed(SandboxError):
    """A game raised in its worker: the message names the game."""


def run_jobs(jobs: Iterable[GameJob], executor: Executor, log: ResultLog,
             on_result: Callable[[dict[str, Any]], None] | None = None,
             should_stop: Callable[[], bool] | None = None, in_flight: int = 4,
             play: Callable[[GameJob], dict[str, Any]] = play_job) -> int:
    """Plays every job whose key the log lacks; returns how many were played.
    A game's error stops the run (after logging the games already done) and
    is raised as one line naming the game."""
    todo = [j for j in jobs if j.key not in log.games]
    pending: dict[Future, GameJob] = {}
    played = 0
    it = iter(todo)
    try:
        while True:
            stop = should_stop is not None and should_stop()
            while not stop and len(pending) < max(1, in_flight):
                job = next(it, None)
                if job is None:
                    break
                with deferred_signals():    # a worker may be starting: never cut it in half
                    pending[executor.submit(play, job)] = job
            if not pending:
                return played
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for f in done:
                job = pending.pop(f)
                try:
                    result = f.result()
                except SandboxError as exc:
                    raise GameFailed(f"game {job.key} (seed {job.seed}): {exc}") from None
                except BrokenExecutor as exc:
                    # a worker killed from outside (the OOM killer, a kill),
                    # or by the signal that is ending this command: let that
                    # signal's own exit (130, 143) come first if it is one
                    time.sleep(0.2)
                    raise GameFailed(f"game {job.key} (seed {job.seed}): a worker process "
                                     f"ended before the game did ({exc})") from None
                log.append(result)
                played += 1
                if on_result is not None:
                    on_result(result)
    finally:
        # the games still queued are the executor's to drop when it is shut
        # down (make_executor does): a local pool cancels its own in its
        # manager thread, and a future cancelled from here while that
        # thread marks a broken pool's futures failed raises in it
        # (CPython 3.11: InvalidStateError, a traceback on the console)
        pending.clear()
