"""One-line messages for pydantic validation errors (the implementation
lives in sandbox.native.errors, which the native layer uses too), and TOML
read with every failure as one ScenarioError line."""
from __future__ import annotations

import tomllib
from typing import Any

from ..names import ScenarioError
from ..native.errors import field_name, one_line

__all__ = ["field_name", "one_line", "parse_toml"]


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """tomllib.loads with every failure as one ScenarioError line. tomllib
    recurses once per nesting level, so a few hundred levels of arrays or
    inline tables raise RecursionError (a 3,000-line traceback unhandled)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: TOML syntax error: {exc}") from None
    except RecursionError:
        raise ScenarioError(f"{source}: TOML nested too deeply to read (arrays or tables "
                            "inside each other hundreds of levels down)") from None
    except MemoryError:
        raise ScenarioError(f"{source}: TOML too large to read") from None
