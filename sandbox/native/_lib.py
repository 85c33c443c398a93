"""The only module that imports the compiled cffi extension.

Everything else in sandbox.native goes through `ffi`, `lib` and `check` from
here; nothing outside sandbox.native touches cffi at all.
"""
from __future__ import annotations

from .errors import error_for

try:
    from ._sbx import ffi, lib  # built by native/build_ffi.py via setup.py
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(
        "the sandbox's C core is not built; run `pip install -e .` in the "
        "project root (after C changes: `pip install --no-build-isolation -e .`)"
    ) from exc


def last_error() -> str:
    return ffi.string(lib.sbx_last_error()).decode("utf-8", "replace")


def check(rc: int) -> None:
    """Raise the matching SandboxError if a C call failed."""
    if rc != 0:
        raise error_for(rc, last_error())


def pystr(ptr) -> str:
    return ffi.string(ptr).decode("utf-8", "replace") if ptr != ffi.NULL else ""
