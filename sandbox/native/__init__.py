"""sandbox.native — the Python face of the C search core.

This package is the only importer of the cffi extension: everything above it
sees Game, Search, SearchParams, TreeSnapshot and the exceptions below.
"""
from .errors import (ClosedError, InternalError, InvalidArgument, InvalidState, OutOfMemory,
                     SandboxError)
from .game import Game, has_bot, kinds, params_doc
from .params import SearchParams, c_default_params, c_param_table
from .search import MoveStat, RootMatrix, RunResult, Search, SearchStats, SearchSummary, Trace
from .snapshot import SNAPSHOT_DTYPE, TreeSnapshot


def cores() -> int:
    """The most `threads` a search accepts on this machine (online
    processors, capped at 64): the C core's own count."""
    from ._lib import lib
    return int(lib.sbx_cores())


def core_version() -> str:
    from ._lib import lib, pystr
    return pystr(lib.sbx_version())


__all__ = [
    "ClosedError", "Game", "InternalError", "InvalidArgument", "InvalidState", "MoveStat",
    "OutOfMemory", "RootMatrix", "RunResult", "SNAPSHOT_DTYPE", "SandboxError", "Search", "SearchParams",
    "SearchStats", "SearchSummary", "Trace", "TreeSnapshot", "c_default_params", "c_param_table",
    "core_version", "cores", "has_bot", "kinds", "params_doc",
]
