"""How a command ends on a signal: Ctrl-C raises KeyboardInterrupt (the
entry points print "interrupted" and exit 130), SIGTERM raises
SystemExit(143) once `terminate_cleanly` is installed, so that either one
unwinds every `finally` and exit hook (replays and result logs closed with
what was played, bots and worker processes killed) instead of ending
Python on the spot. Installed first thing by `sandbox.entry.run_entry`, before the
slow imports, so a signal in the first second is handled as any other:
neither is raised inside an import or a finalizer (it comes back 50 ms
later), and a
SIGTERM whose exit has not ended within TERM_GRACE_S is forced.

Below everything (standard library only): the bots, the worker pools and
the app register here."""
from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# no `typing` here (it is slow to import): this module is imported first,
# and a signal that comes before it has set the handlers meets Python's
# default (a traceback)

EXIT_INTERRUPTED = 130          # 128 + SIGINT, what a shell reports for Ctrl-C
TERM_GRACE_S = 2.0              # SIGTERM's clean exit; past it the exit is forced
_RETRY_S = 0.05                 # a signal held back during an import comes again
_TERM_HOOKS: list[Callable[[], None]] = []
_FORCED_EXIT_HOOKS: list[Callable[[], None]] = []
_TERM_SIGNAL: int | None = None
_INTERRUPTED = False            # a Ctrl-C arrived (its KeyboardInterrupt may be held back)
_forced_exit_armed = False


def _unsafe(frame: object) -> bool:
    """Whether the main thread is where an exception raised by a signal
    handler goes wrong: inside an import (CPython's constant folding clears
    every error but KeyboardInterrupt while it compiles a module, and one
    raised in the import system's lock bookkeeping ends in a KeyError
    traceback) or inside a finalizer (__del__: the exception is printed as
    "ignored" and lost)."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _again_soon(signum: int) -> None:
    t = threading.Timer(_RETRY_S, os.kill, (os.getpid(), signum))
    t.daemon = True
    t.start()


def _arm_forced_exit(status: int) -> None:
    """The clean exit of a SIGTERM ends within TERM_GRACE_S, or is forced:
    the exception it raised may be lost (raised in a __del__, cleared by
    the interpreter), and waiting for ever is what a signal must never
    cause. Forced, the hooks (the bots killed) run, then os._exit: the
    files the program writes are whole up to their last line anyway."""
    global _forced_exit_armed
    if _forced_exit_armed:
        return
    _forced_exit_armed = True

    def force() -> None:
        time.sleep(TERM_GRACE_S)
        for hook in list(_FORCED_EXIT_HOOKS):
            try:
                hook()
            except Exception:
                pass
        os._exit(status)
    threading.Thread(target=force, daemon=True, name="terminate-deadline").start()


def on_forced_exit(hook: Callable[[], None]) -> None:
    """Run `hook` (briefly) before a forced exit (_arm_forced_exit)."""
    _FORCED_EXIT_HOOKS.append(hook)


def _on_sigterm(signum: int, frame: object) -> None:
    global _TERM_SIGNAL
    _TERM_SIGNAL = signum
    for hook in reversed(_TERM_HOOKS):
        try:
            hook()          # e.g. the app: a QUIT event, closed like a window
            return
        except Exception:
            break
    _arm_forced_exit(128 + signum)
    if _unsafe(frame):
        _again_soon(signum)
        return
    raise SystemExit(128 + signum)


def _on_sigint(signum: int, frame: object) -> None:
    global _INTERRUPTED
    _INTERRUPTED = True
    if _unsafe(frame):
        _again_soon(signum)
        return
    raise KeyboardInterrupt


def on_terminate(hook: Callable[[], None]) -> Callable[[], None]:
    """Run `hook` on SIGTERM instead of exiting at once (it must lead to an
    orderly exit soon; `terminate_status` then gives the status). Returns
    the function that removes it. A hook that raises falls back to the exit."""
    _TERM_HOOKS.append(hook)
    return lambda: _TERM_HOOKS.remove(hook) if hook in _TERM_HOOKS else None


def terminate_status(rc: int) -> int:
    """`rc`, or 128 + the signal when SIGTERM ended the run through a hook."""
    return 128 + _TERM_SIGNAL if _TERM_SIGNAL is not None else rc


def interrupted() -> bool:
    """Whether Ctrl-C has arrived, even one held back during an import: an
    error that follows it (a worker of the same process group killed by the
    same Ctrl-C) is the user's interrupt, not the program's failure."""
    return _INTERRUPTED


def terminated() -> bool:
    """Whether SIGTERM has arrived (the exit it raises may be under way)."""
    return _TERM_SIGNAL is not None


def terminate_cleanly() -> None:
    """SIGTERM ends the program as an exit does (status 143), so the exit
    hooks kill every bot. Only from the main thread, and only where nobody
    chose another disposition for it (a parent that ignores SIGTERM for us
    keeps it ignored)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _on_sigterm)
    # Ctrl-C stays KeyboardInterrupt, but never raised inside an import
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)


def ignore_stop_signals() -> None:
    """SIGINT and SIGTERM ignored from here on (main thread only): for a
    program already on its way out, and for a pool worker, whose runner
    decides when it stops."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(sig, signal.SIG_IGN)
        except (OSError, ValueError):
            pass


@contextmanager
def deferred_signals() -> Iterator[None]:
    """SIGINT and SIGTERM that arrive inside the block take effect at its
    end, as they would have (KeyboardInterrupt, the terminate exit): for a
    short step that must not be cut in half, such as handing a job to a
    worker process being started (cut, the half-started worker prints a
    traceback of its own). Main thread only; elsewhere a plain block."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s, h in old.items():
        if h not in (signal.SIG_IGN, None):
            signal.signal(s, lambda signum, frame: got.append(signum))
    try:
        yield
    finally:
        for s, h in old.items():
            if h is not None:
                signal.signal(s, h)
        if got:
            h = old[got[0]]
            if callable(h):
                h(got[0], None)
            elif h == signal.SIG_DFL:
                signal.raise_signal(got[0])


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def blocked_signals() -> Iterator[None]:
    """SIGINT and SIGTERM held back by this thread's signal mask inside the
    block (delivered at its end). A process started inside inherits the
    mask: it starts with them held until it sets its own handling, as
    Python's resource tracker is started."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
