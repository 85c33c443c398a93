"""One-line messages for pydantic validation errors (the implementation
lives in sandbox.native.errors, which the native layer uses too)."""
from __future__ import annotations

from ..native.errors import field_name, one_line

__all__ = ["field_name", "one_line"]
