"""Ownership of C objects: a pointer freed by the garbage collector or, sooner,
by close(); any use after close raises ClosedError instead of touching freed
memory.

Two locks: `lock` serialises ordinary calls (a search run can hold it for a
whole slice); `guard` is held only for the instant of the few calls that C
allows from any thread (search set_params / stop). close() takes both, so it
never frees memory under a call in progress."""
from __future__ import annotations

import math
import numbers
import operator
import threading
from typing import Any, Callable

import numpy as np

from ._lib import ffi
from .errors import ClosedError, InvalidArgument


def show(value: Any, limit: int = 60) -> str:
    """What was passed, for a message: its type and repr(), cut short (a
    wrong argument can be huge)."""
    r = repr(value)
    r = r if len(r) <= limit else r[: limit - 3] + "..."
    return r if value is None else f"{type(value).__name__} {r}"


def int_arg(name: str, value: Any, lo: int, hi: int, span: str | None = None) -> int:
    """An integer argument checked against the C type's range, so nonsense
    becomes InvalidArgument instead of cffi's OverflowError or TypeError.

    Only integers pass (numpy's included): a float is refused even when it is
    whole (run(iterations=1.9) must not quietly run 1, and a rule with no
    exceptions is easier to trust than "2.0 is fine"), and so is a bool,
    which Python counts as an int but which is a mistake wherever a count,
    a seed, an agent or a move is meant."""
    if type(value) is not int:          # the common case stays one check
        if isinstance(value, (bool, np.bool_)):
            raise InvalidArgument(f"{name}: expected an integer, not a bool (got {value!r})")
        try:
            value = operator.index(value)
        except TypeError:
            raise InvalidArgument(f"{name}: expected an integer (got {show(value)})") from None
    if not lo <= value <= hi:
        raise InvalidArgument(f"{name} {value} out of range (must be in {span or f'{lo}..{hi}'})")
    return value


def seed_arg(name: str, value: Any) -> int:
    """A seed: an integer in 0..2^64-1 (C's uint64_t), never wrapped."""
    return int_arg(name, value, 0, 2**64 - 1, span="0..2^64-1")


def real_arg(name: str, value: Any) -> float:
    """A finite real number (ints welcome; bools, strings, NaN and infinities
    are not)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidArgument(f"{name}: expected a number (got {show(value)})")
    v = float(value)
    if not math.isfinite(v):
        raise InvalidArgument(f"{name}: expected a finite number (got {v})")
    return v


def text_arg(name: str, value: Any) -> bytes:
    """A string for C: UTF-8 without NUL (C would stop reading at a NUL, so
    "snakes\\0anything" would be taken for "snakes")."""
    if not isinstance(value, str):
        raise InvalidArgument(f"{name}: expected a string (got {show(value)})")
    if "\0" in value:
        raise InvalidArgument(f"{name}: must not contain a NUL character (got {value!r:.60})")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidArgument(f"{name}: not encodable as UTF-8 (got {value!r:.60})") from None


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
