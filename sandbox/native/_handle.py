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
from .errors import ClosedError


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

    def close(self) -> None:
        self.closing = True
        with self._guard, self._lock:
            ptr, self._ptr = self._ptr, None
            if ptr is not None:
                ffi.release(ptr)  # runs the destructor now, exactly once
