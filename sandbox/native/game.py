"""Game: a C game state (any registered kind) owned by Python."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ._handle import I32, I64, Handle, int_arg, seed_arg
from ._lib import check, cstr, ffi, lib, pystr
from .errors import InvalidArgument

EXPORT_MAX = lib.SBX_EXPORT_MAX
MOVE_NONE = lib.SBX_MOVE_NONE


def kinds() -> list[str]:
    """Names of the registered game kinds."""
    names, i = [], 0
    while (p := lib.sbx_game_kind_name(i)) != ffi.NULL:
        names.append(pystr(p))
        i += 1
    return names


def params_doc(kind: str) -> str:
    p = lib.sbx_game_kind_params_doc(cstr(kind, "game kind"))
    if p == ffi.NULL:
        raise InvalidArgument(f"unknown game kind '{kind}'")
    return pystr(p)


_SEPARATORS = set(" ,;\t\n\r=")


def format_params(params: Mapping[str, Any] | str | None) -> str:
    """{"width": 11, "initial_food": False} -> "width=11 initial_food=0".

    Keys and values must be single tokens: a value holding a separator or
    '=' (e.g. "standard width=7") would smuggle further parameters into the
    C string, so it is refused."""
    if params is None:
        return ""
    if isinstance(params, str):
        return params
    parts = []
    for key, value in params.items():
        if isinstance(value, bool):
            value = int(value)
        elif isinstance(value, float):
            value = repr(value)
        elif not isinstance(value, (int, str)):
            raise InvalidArgument(f"{key}: a game parameter must be a number or a word "
                                  f"(got {type(value).__name__})")
        for what, token in (("name", str(key)), ("value", str(value))):
            if not token or _SEPARATORS & set(token):
                raise InvalidArgument(f"{key}: parameter {what} {token!r} must be one word "
                                      "(no spaces, commas, semicolons or '=')")
        parts.append(f"{key}={value}")
    return " ".join(parts)


class Game:
    """One game state. Not shared between threads while one of them steps it
    (calls are serialised, but the state is a single value)."""

    def __init__(self, kind: str, params: Mapping[str, Any] | str | None = None,
                 seed: int = 0) -> None:
        seed = seed_arg(seed)
        out = ffi.new("sbx_game **")
        check(lib.sbx_game_new(cstr(kind, "game kind"),
                               cstr(format_params(params), "game parameters"), seed, out))
        self._h = Handle(out[0], lib.sbx_game_free, "game")
        self._init_meta()

    @classmethod
    def _wrap(cls, ptr) -> "Game":
        g = cls.__new__(cls)
        g._h = Handle(ptr, lib.sbx_game_free, "game")
        g._init_meta()
        return g

    def _init_meta(self) -> None:
        with self._h.lock:
            p = self._h.get()
            self.kind: str = pystr(lib.sbx_game_kind(p))
            self.params: str = pystr(lib.sbx_game_params(p))
            self.num_agents: int = lib.sbx_game_num_agents(p)
        self._joint = ffi.new("int32_t[]", max(self.num_agents, 1))
        self._rewards = ffi.new("double[]", max(self.num_agents, 1))

    # -- lifetime -------------------------------------------------------------
    def close(self) -> None:
        self._h.close()

    @property
    def closed(self) -> bool:
        return self._h.closed

    def __enter__(self) -> "Game":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def clone(self) -> "Game":
        out = ffi.new("sbx_game **")
        with self._h.lock:
            check(lib.sbx_game_clone(self._h.get(), out))
        return Game._wrap(out[0])

    def copy_from(self, other: "Game") -> None:
        with self._h.lock, other._h.lock:
            check(lib.sbx_game_copy_state(self._h.get(), other._h.get()))

    def _ptr(self):
        """For sandbox.native only: the pointer, caller holds self._h.lock."""
        return self._h.get()

    # -- rules ----------------------------------------------------------------
    def _agent(self, agent: int) -> int:
        agent = int_arg("agent", agent, *I32)   # 1.0 or "x": not a TypeError from cffi
        if not 0 <= agent < self.num_agents:
            raise InvalidArgument(f"agent {agent} out of range 0..{self.num_agents - 1}")
        return agent

    @property
    def turn(self) -> int:
        with self._h.lock:
            return lib.sbx_game_turn(self._h.get())

    def legal_moves(self, agent: int) -> list[int]:
        buf = ffi.new("int32_t[]", lib.SBX_MAX_MOVES)
        n = ffi.new("int *")
        with self._h.lock:
            check(lib.sbx_game_legal_moves(self._h.get(), self._agent(agent), buf,
                                           lib.SBX_MAX_MOVES, n))
        return list(buf[0:n[0]])

    def step(self, joint: Sequence[int]) -> np.ndarray:
        """One simultaneous turn; returns the per-agent rewards of the step."""
        if len(joint) != self.num_agents:
            raise InvalidArgument(f"joint action needs {self.num_agents} moves, got {len(joint)}")
        with self._h.lock:
            p = self._h.get()
            for i, m in enumerate(joint):
                if m is None:
                    if lib.sbx_game_is_alive(p, i):
                        raise InvalidArgument(f"agent {i}: no move given, but it is alive")
                    m = MOVE_NONE
                self._joint[i] = int_arg(f"agent {i}: move", m, *I32)
            check(lib.sbx_game_step(self._h.get(), self._joint, self._rewards))
            return np.frombuffer(ffi.buffer(self._rewards, 8 * self.num_agents),
                                 dtype=np.float64).copy()

    @property
    def is_terminal(self) -> bool:
        with self._h.lock:
            return bool(lib.sbx_game_is_terminal(self._h.get()))

    def is_alive(self, agent: int) -> bool:
        with self._h.lock:
            return bool(lib.sbx_game_is_alive(self._h.get(), self._agent(agent)))

    @property
    def alive(self) -> list[bool]:
        return [self.is_alive(a) for a in range(self.num_agents)]

    def evaluate(self) -> np.ndarray:
        out = np.zeros(self.num_agents, dtype=np.float64)
        with self._h.lock:
            check(lib.sbx_game_evaluate(self._h.get(), ffi.from_buffer("double[]", out)))
        return out

    def ranking(self) -> list[int]:
        out = ffi.new("int32_t[]", self.num_agents)
        with self._h.lock:
            check(lib.sbx_game_ranking(self._h.get(), out))
        return list(out)

    def state_hash(self) -> int:
        with self._h.lock:
            return int(lib.sbx_game_hash(self._h.get()))

    def export(self) -> np.ndarray:
        """The flat int32 state (layout in sbx.h, decoded by sandbox.games)."""
        buf = np.zeros(EXPORT_MAX, dtype=np.int32)
        n = ffi.new("int *")
        with self._h.lock:
            check(lib.sbx_game_export(self._h.get(), ffi.from_buffer("int32_t[]", buf),
                                      EXPORT_MAX, n))
        return buf[: n[0]].copy()

    def import_state(self, words: Sequence[int] | np.ndarray) -> None:
        try:
            arr = np.ascontiguousarray(np.asarray(words, dtype=np.int64))
        except (OverflowError, TypeError, ValueError):
            # numpy's own complaint about a word past 64 bits, a NaN or a
            # non-number: the caller handed a bad state, say so as such
            raise InvalidArgument("state must be a flat list of 32-bit integers") from None
        if arr.ndim != 1:
            raise InvalidArgument("state must be a flat list of integers")
        if arr.size and (arr.min() < -2**31 or arr.max() >= 2**31):
            raise InvalidArgument("state words must fit in 32 bits")
        arr32 = arr.astype(np.int32)
        with self._h.lock:
            check(lib.sbx_game_import(self._h.get(), ffi.from_buffer("int32_t[]", arr32),
                                      int(arr32.size)))

    def move_name(self, agent: int, move: int) -> str:
        with self._h.lock:
            return pystr(lib.sbx_game_move_name(self._h.get(), int_arg("agent", agent, *I32),
                                                int_arg("move", move, *I32)))

    def reseed(self, seed: int) -> None:
        with self._h.lock:
            check(lib.sbx_game_reseed(self._h.get(), seed_arg(seed, wrap=True)))

    def playout(self, max_steps: int, seed: int) -> int:
        """Random legal moves until terminal or max_steps; returns turns played."""
        out = ffi.new("int64_t *")
        max_steps = int_arg("max_steps", max_steps, *I64)  # not cffi's OverflowError
        with self._h.lock:
            check(lib.sbx_game_playout(self._h.get(), max_steps, seed_arg(seed, wrap=True), out))
        return int(out[0])

    def playouts(self, n: int, max_steps: int, seed: int) -> int:
        """n random playouts from this state (left unchanged), in one C loop;
        returns the total turns played."""
        out = ffi.new("int64_t *")
        n = int_arg("n", n, *I64)
        max_steps = int_arg("max_steps", max_steps, *I64)
        with self._h.lock:
            check(lib.sbx_game_playouts(self._h.get(), n, max_steps, seed_arg(seed, wrap=True),
                                        out))
        return int(out[0])

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"turn {self.turn}"
        return f"<Game {self.kind} {state}>"
