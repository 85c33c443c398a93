"""One-line messages for pydantic validation errors."""
from __future__ import annotations

from pydantic import ValidationError


def _loc(loc: tuple) -> str:
    return ".".join(str(p) for p in loc) or "(file)"


def one_line(exc: ValidationError, limit: int = 3, prefix: str = "") -> str:
    """'players.0.search.c: Input should be less than or equal to 10 (got 50)'
    — the first few errors, joined by '; '. `prefix` goes before each field
    path (a nested model validated on its own, e.g. "game_params.")."""
    parts = []
    for err in exc.errors()[:limit]:
        msg = err.get("msg", "invalid")
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        loc = err.get("loc", ())
        text = f"{prefix}{_loc(loc)}: {msg}" if loc else (f"{prefix.rstrip('.')}: {msg}"
                                                           if prefix else msg)
        if "input" in err and err.get("type") not in ("missing",) and not isinstance(
                err["input"], (dict, list)):
            text += f" (got {err['input']!r})"
        parts.append(text)
    more = len(exc.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)
