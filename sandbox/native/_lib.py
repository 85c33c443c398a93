"""The only module that imports the compiled cffi extension.

Everything else in sandbox.native goes through `ffi`, `lib` and `check` from
here; nothing outside sandbox.native touches cffi at all.
"""
from __future__ import annotations

import os
import sys

from .errors import error_for

# SBX_NATIVE_LIB=/path/to/_sbx*.so loads that build of the extension instead
# of the one next to this file: tools/sanitize.py points it at the
# ASan+UBSan build in build/sanitize/, so the sanitizer run never replaces
# (or is confused with) the normal in-place .so. Subprocesses that tests
# start inherit the variable and load the same build.
_OVERRIDE = os.environ.get("SBX_NATIVE_LIB", "")

# The README's set-up section names this command for (re)building the core;
# tests/test_core_missing.py checks that the two agree.
REBUILD_COMMAND = "pip install -e ."


class CoreNotBuilt(ImportError):
    """The compiled extension is missing. The entry points (main.py,
    `python -m sandbox`) print it as one `error:` line."""


def _load_extension(path: str):
    import importlib.machinery
    import importlib.util

    if not os.path.isfile(path):
        raise ImportError(f"SBX_NATIVE_LIB={path}: no such file (build it with "
                          "`python tools/sanitize.py --build-only`)")
    name = __package__ + "._sbx"
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


if _OVERRIDE:
    _mod = _load_extension(_OVERRIDE)
    ffi, lib = _mod.ffi, _mod.lib
else:
    try:
        from ._sbx import ffi, lib  # built by native/build_ffi.py via setup.py
    except ImportError as exc:
        raise CoreNotBuilt(
            f"the sandbox's C core is not built (no {__package__}._sbx extension: {exc}); "
            f"build it with `{REBUILD_COMMAND}` in the project root (README, Set-up)"
        ) from exc

# Whether this extension was built with SBX_SANITIZE=1 (ASan + UBSan).
SANITIZED = bool(getattr(lib, "SBX_BUILD_SANITIZED", 0))
CORE_PATH = _OVERRIDE or getattr(sys.modules.get(__package__ + "._sbx"), "__file__", "")


def last_error() -> str:
    return ffi.string(lib.sbx_last_error()).decode("utf-8", "replace")


def check(rc: int) -> None:
    """Raise the matching SandboxError if a C call failed."""
    if rc != 0:
        raise error_for(rc, last_error())


def pystr(ptr) -> str:
    return ffi.string(ptr).decode("utf-8", "replace") if ptr != ffi.NULL else ""
