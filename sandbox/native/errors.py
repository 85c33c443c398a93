"""The sandbox's exception hierarchy, and the one place C status codes become
exceptions."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pydantic import ValidationError


class SandboxError(Exception):
    """Base of every error the sandbox raises on purpose."""


class InvalidArgument(SandboxError, ValueError):
    """A bad argument or parameter value (C: SBX_ERR_ARGUMENT)."""


class InvalidState(SandboxError, RuntimeError):
    """The call is not valid in the object's current state (C: SBX_ERR_STATE)."""


class ClosedError(InvalidState):
    """The object was closed; its C memory is gone."""


class OutOfMemory(SandboxError, MemoryError):
    """The C core could not allocate (C: SBX_ERR_MEMORY)."""


class InternalError(SandboxError):
    """A broken invariant inside the core: a bug (C: SBX_ERR_INTERNAL)."""


_BY_CODE: dict[int, type[SandboxError]] = {
    -1: InvalidArgument,
    -2: InvalidState,
    -3: OutOfMemory,
    -4: InternalError,
}


def error_for(code: int, message: str) -> SandboxError:
    cls = _BY_CODE.get(code, InternalError)
    return cls(message or f"C core returned status {code}")


# -------------------------------------------------- pydantic errors on one line
# Here rather than in sandbox.config so that the native layer, which validates
# SearchParams handed to Search, can word its errors the same way; it only
# reads ValidationError.errors(), so pydantic is not imported.
def field_name(key: object) -> str:
    """A key as an error message names it: as is when it is a printable
    name, else quoted (a key from a file can hold a newline, which would
    break the one-line error)."""
    s = str(key)
    return s if s.isprintable() and s.strip() == s and s else repr(s)


def _loc(loc: tuple) -> str:
    return ".".join(field_name(p) for p in loc) or "(file)"


def one_line(exc: "ValidationError", limit: int = 3, prefix: str = "") -> str:
    """'players.0.search.c: Input should be less than or equal to 10 (got 50)'
    — the first few errors, joined by '; '. `prefix` goes before each field
    path (a nested model validated on its own, e.g. "game_params.")."""
    parts = []
    for err in exc.errors()[:limit]:
        msg = err.get("msg", "invalid")
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        loc = err.get("loc", ())
        value = err.get("input")
        if isinstance(value, float) and value != value and err.get("type", "").endswith(
                ("less_than_equal", "greater_than_equal", "less_than", "greater_than")):
            # NaN fails every comparison, so pydantic names whichever bound it
            # tried first: say what is wrong with the value instead
            msg = "must be a number, not NaN"
        text = f"{prefix}{_loc(loc)}: {msg}" if loc else (f"{prefix.rstrip('.')}: {msg}"
                                                           if prefix else msg)
        if "input" in err and err.get("type") not in ("missing",) and not isinstance(
                err["input"], (dict, list)):
            got = repr(err["input"])     # cut short: a value can be a whole file
            text += f" (got {got if len(got) <= 80 else got[:77] + '...'})"
        parts.append(text)
    more = len(exc.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)
