"""sandbox.native — the Python face of the C search core.

This package is the only importer of the cffi extension: everything above it
sees Game, Search, SearchParams, TreeSnapshot and the exceptions below.
"""
from .errors import (ClosedError, InternalError, InvalidArgument, InvalidState, OutOfMemory,
                     SandboxError)
from .free import FreeMove
from .game import FeaturesLayout, Game, has_bot, has_free_moves, kinds, params_doc
from .net import Net, NetInfo
from .params import SearchParams, c_default_params, c_param_table
from .search import (LeafRefine, MoveStat, PublicBelief, PublicNode, RootMatrix, RootValues,
                     RunResult, Search, SearchStats, SearchSummary, Trace, UpdatePhase)
from .snapshot import SNAPSHOT_DTYPE, TreeSnapshot


def cores() -> int:
    """The most `threads` a search accepts on this machine (online
    processors, capped at 64): the C core's own count."""
    from ._lib import lib
    return int(lib.sbx_cores())


def line_transfer_ns(round_trips: int = 200_000) -> float:
    """The one-way latency of a cache line moving between two cores, in ns
    (C's ping-pong, sbx_line_transfer_ns): what a shared-tree parallel
    search pays for each node the other thread has written. InvalidArgument
    for a count outside 1..10^8 (or not an int), InvalidState with fewer
    than two cores to run on."""
    from ._handle import int_arg
    from ._lib import check, ffi, lib
    round_trips = int_arg("round_trips", round_trips, 1, 100_000_000)
    out = ffi.new("double *")
    check(lib.sbx_line_transfer_ns(round_trips, out))
    return float(out[0])


def simd_paths() -> str:
    """The vector paths this process runs ("snakes territory: avx2; net
    dense: avx2", or "scalar" and why), each decided once, when first
    needed; SBX_NO_AVX2=1 in the environment before that forces the scalar
    ones."""
    from ._lib import lib, pystr
    return f"{pystr(lib.sbx_simd_paths())}; net {pystr(lib.sbx_net_simd_path())}"


def core_version() -> str:
    from ._lib import lib, pystr
    return pystr(lib.sbx_version())


__all__ = [
    "ClosedError", "FeaturesLayout", "FreeMove", "Game", "InternalError", "InvalidArgument", "InvalidState",
    "LeafRefine", "MoveStat", "Net", "NetInfo", "OutOfMemory", "PublicBelief", "PublicNode", "RootMatrix",
    "RootValues", "RunResult", "SNAPSHOT_DTYPE", "SandboxError",
    "Search", "SearchParams", "SearchStats", "SearchSummary", "Trace", "TreeSnapshot", "UpdatePhase",
    "c_default_params", "c_param_table", "core_version", "cores", "has_bot", "has_free_moves",
    "kinds", "line_transfer_ns", "params_doc", "simd_paths",
]
