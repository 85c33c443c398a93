"""Ownership of C objects: a pointer freed by the garbage collector or, sooner,
by close(); any use after close raises ClosedError instead of touching freed
memory.

Two locks: `lock` serialises ordinary calls (a search run can hold it for a
whole slice); `guard` is held only for the instant of the few calls that C
allows from any thread (search set_params / stop). close() takes both, so it
never frees memory under a call in progress."""
from __future__ import annotations

import threading
from typing import Any, Callable

from ._lib import ffi
from .errors import ClosedError, InvalidArgument


def int_arg(name: str, value: Any, lo: int, hi: int) -> int:
    """An integer argument checked against the C type's range, so nonsense
    becomes InvalidArgument instead of cffi's OverflowError."""
    try:
        v = int(value)
    except (TypeError, ValueError, OverflowError):   # OverflowError: int(inf)
        raise InvalidArgument(f"{name}: expected an integer (got {value!r})") from None
    if not lo <= v <= hi:
        raise InvalidArgument(f"{name} {v} out of range (must be in {lo}..{hi})")
    return v


def seed_arg(value: Any, wrap: bool = False) -> int:
    """A 64-bit seed: refused outside 0..2^64-1, or with `wrap` taken
    modulo 2^64 (a stream's reseed); anything int() does not take is
    InvalidArgument."""
    try:
        v = int(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidArgument(f"seed: expected an integer (got {value!r})") from None
    if wrap:
        return v % 2**64
    if not 0 <= v < 2**64:
        raise InvalidArgument(f"seed: must be in 0..2^64-1 (got {value})")
    return v


I32 = (-2**31, 2**31 - 1)
I64 = (0, 2**63 - 1)


class Handle:
    __slots__ = ("_ptr", "_lock", "_guard", "_what", "closing")

    def __init__(self, ptr: Any, destructor: Callable[[Any], None], what: str) -> None:
        self._ptr = ffi.gc(ptr, destructor)
        self._lock = threading.RLock()
        self._guard = threading.Lock()
        self._what = what
        self.closing = False  # set before close() waits: calls queued behind it give up

    @property
    def closed(self) -> bool:
        return self._ptr is None

    def get(self) -> Any:
        """The live pointer; call only while holding `lock`."""
        ptr = self._ptr
        if ptr is None:
            raise ClosedError(f"{self._what} is closed")
        return ptr

    def get_unless_closing(self) -> Any:
        """Like get(), but also refuses once close() has begun: a long call
        that was queued behind the lock must not start then."""
        ptr = self.get()
        if self.closing:
            raise ClosedError(f"{self._what} is being closed")
        return ptr

    @property
    def lock(self) -> threading.RLock:
        return self._lock

    @property
    def guard(self) -> threading.Lock:
        return self._guard

    def close(self, stop: Callable[[Any], None] | None = None) -> None:
        """Free now. `stop(ptr)`, if given, is called until the call in
        progress lets go of the lock (a run started in the instant between
        one stop and the lock would otherwise run its whole budget)."""
        self.closing = True
        if stop is not None:
            while not self._lock.acquire(timeout=0.01):
                with self._guard:
                    if self._ptr is not None:
                        stop(self._ptr)
            self._lock.release()
        with self._guard, self._lock:
            ptr, self._ptr = self._ptr, None
            if ptr is not None:
                ffi.release(ptr)  # runs the destructor now, exactly once
