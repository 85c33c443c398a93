"""Net: a value-and-policy network loaded into the C core (sbx.h section 7).

The file format is documented in sbx.h and docs/learning.md; a Net reads it
in C (every size checked, a damaged file refused in one line) and runs the
forward pass there, a batch of states per call."""
from __future__ import annotations

import os
import threading
import weakref
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ._handle import Handle, int_arg, show
from ._lib import check, ffi, lib, pystr
from .errors import InvalidArgument
from .game import VIEW_CANONICAL, Game

MAX_BATCH = lib.SBX_NET_MAX_BATCH


@dataclass(frozen=True)
class NetInfo:
    kind: str
    players: int
    moves: int
    slots: int            # private states per seat (0: perfect information)
    value_slots: int      # values per player: max(1, slots)
    features: int
    planes: int
    height: int
    width: int
    conv_layers: int
    kernel: int
    channels: int
    dense_layers: int
    hidden: int
    input_size: int       # features + players * slots
    parameters: int


def _floats(name: str, value: Any, shape: tuple[int, ...]) -> np.ndarray:
    """A float32 C-contiguous copy (or the array itself) of exactly `shape`."""
    try:
        arr = np.ascontiguousarray(value, dtype=np.float32)
    except (TypeError, ValueError):
        raise InvalidArgument(f"{name}: expected numbers of shape {shape} (got {show(value)})") \
            from None
    if arr.shape != shape:
        raise InvalidArgument(f"{name}: expected shape {shape}, got {arr.shape}")
    return arr


class Net:
    """A loaded network. Read-only once loaded: threads may share one."""

    def __init__(self, path: str | os.PathLike) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise InvalidArgument(f"path: expected a file name (got {show(path)})")
        raw = os.fsencode(path)
        if b"\0" in raw:
            raise InvalidArgument("path: must not contain a NUL character")
        out = ffi.new("sbx_net **")
        check(lib.sbx_net_load(raw, out))
        self._init(out[0])

    @classmethod
    def from_bytes(cls, data: bytes) -> "Net":
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise InvalidArgument(f"data: expected bytes (got {show(data)})")
        data = bytes(data)
        out = ffi.new("sbx_net **")
        check(lib.sbx_net_from_bytes(data, len(data), out))
        net = cls.__new__(cls)
        net._init(out[0])
        return net

    def _init(self, ptr: Any) -> None:
        self._h = Handle(ptr, lib.sbx_net_free, "net")
        info = ffi.new("sbx_net_info *")
        with self._h.lock:
            check(lib.sbx_net_get_info(self._h.get(), info))
            self.meta: str = pystr(lib.sbx_net_meta(self._h.get()))
        fields = {f: int(getattr(info, f)) for f in NetInfo.__dataclass_fields__
                  if f != "kind"}
        self.info = NetInfo(kind=pystr(info.kind), **fields)

    def close(self) -> None:
        self._h.close()

    @property
    def closed(self) -> bool:
        return self._h.closed

    def __enter__(self) -> "Net":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- evaluating -------------------------------------------------------------
    def check_game(self, game: Game) -> None:
        """InvalidArgument, naming the difference, unless the net reads this
        game's features (its kind and parameters' layout)."""
        if not isinstance(game, Game):
            raise InvalidArgument(f"game: expected a Game (got {show(game)})")
        with self._h.lock, game._h.lock:
            check(lib.sbx_net_check_game(self._h.get(), game._ptr()))

    def _outputs(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        i = self.info
        return (np.empty((n, i.players, i.value_slots), dtype=np.float32),
                np.empty((n, i.players, i.moves), dtype=np.float32))

    def forward(self, inputs: Any) -> tuple[np.ndarray, np.ndarray]:
        """inputs [n, input_size] (or one state's [input_size]) ->
        (values [n, players, value_slots], logits [n, players, moves])."""
        arr = np.asarray(inputs, dtype=np.float32) if not isinstance(inputs, np.ndarray) \
            else inputs
        single = arr.ndim == 1
        if single:
            arr = arr[None, :]
        if arr.ndim != 2:
            raise InvalidArgument(f"inputs: expected [n, {self.info.input_size}] numbers "
                                  f"(got shape {arr.shape})")
        n = arr.shape[0]
        int_arg("states", n, 1, MAX_BATCH)
        arr = _floats("inputs", arr, (n, self.info.input_size))
        values, logits = self._outputs(n)
        with self._h.lock:
            check(lib.sbx_net_forward(self._h.get(), ffi.from_buffer("float[]", arr), n,
                                      ffi.from_buffer("float[]", values),
                                      ffi.from_buffer("float[]", logits)))
        return (values[0], logits[0]) if single else (values, logits)

    def evaluate(self, games: Sequence[Game], view: int | None = None,
                 ranges: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """The games' current states, features built in C from `view` (None:
        canonical), with ranges [n, players * slots] (None: zeros) for a
        game with slots; outputs as forward()."""
        games = list(games)
        n = len(games)
        int_arg("states", n, 1, MAX_BATCH)
        for g in games:
            if not isinstance(g, Game):
                raise InvalidArgument(f"games: expected Game objects (got {show(g)})")
        v = VIEW_CANONICAL if view is None else int_arg("view", view, 0, self.info.players - 1)
        nr = self.info.players * self.info.slots
        r = ffi.NULL
        if ranges is not None:
            rarr = _floats("ranges", ranges, (n, nr))
            r = ffi.from_buffer("float[]", rarr) if nr else ffi.NULL
        values, logits = self._outputs(n)
        ptrs = ffi.new("sbx_game *[]", n)
        locks = [g._h.lock for g in games]
        with self._h.lock:
            for lk in locks:
                lk.acquire()
            try:
                for i, g in enumerate(games):
                    ptrs[i] = g._ptr()
                check(lib.sbx_net_evaluate(self._h.get(), ptrs, n, v, r,
                                           ffi.from_buffer("float[]", values),
                                           ffi.from_buffer("float[]", logits)))
            finally:
                for lk in reversed(locks):
                    lk.release()
        return values, logits

    def time_ms(self, inputs: Any, batch: int, repeats: int) -> float:
        """C's own timing (sbx_net_time): `repeats` passes over inputs [n,
        input_size] in calls of `batch` states; milliseconds taken."""
        arr = np.asarray(inputs, dtype=np.float32)
        if arr.ndim != 2:
            raise InvalidArgument(f"inputs: expected [n, {self.info.input_size}] numbers")
        n = int_arg("states", arr.shape[0], 1, MAX_BATCH)
        arr = _floats("inputs", arr, (n, self.info.input_size))
        out = ffi.new("double *")
        with self._h.lock:
            check(lib.sbx_net_time(self._h.get(), ffi.from_buffer("float[]", arr), n,
                                   int_arg("batch", batch, 1, n),
                                   int_arg("repeats", repeats, 1, 2**31 - 1), out))
        return float(out[0])

    def __repr__(self) -> str:
        if self.closed:
            return "<Net closed>"
        i = self.info
        return f"<Net {i.kind} {i.input_size} in, {i.parameters:,} parameters>"


# One Net per file per process, shared by every search that names it (a
# search's `value_net` setting), freed when the last of them lets it go.
_CACHE: "weakref.WeakValueDictionary[tuple[str, int, int], Net]" = weakref.WeakValueDictionary()
_CACHE_LOCK = threading.Lock()


def load_net(path: str | os.PathLike) -> Net:
    """The Net of file `path`, loaded once per process (a file rewritten
    since, as training does, is loaded afresh); InvalidArgument or the
    loader's error, in one line, when it cannot be read."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgument(f"value_net: expected a file name (got {show(path)})")
    real = os.path.realpath(os.fsdecode(path))
    try:
        st = os.stat(real)
    except OSError as exc:
        raise InvalidArgument(f"value_net: cannot read {os.fsdecode(path)!r}: "
                              f"{exc.strerror}") from None
    key = (real, st.st_mtime_ns, st.st_size)
    with _CACHE_LOCK:
        net = _CACHE.get(key)
        if net is None or net.closed:
            net = Net(real)
            _CACHE[key] = net
        return net
