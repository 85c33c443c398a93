"""Game: a C game state (any registered kind) owned by Python."""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Sequence

import numpy as np

from ._handle import I32, I64, Handle, int_arg, seed_arg, show, text_arg
from ._lib import check, ffi, lib, pystr
from .errors import InvalidArgument
from .free import C_KIND, FreeMove

EXPORT_MAX = lib.SBX_EXPORT_MAX
MOVE_NONE = lib.SBX_MOVE_NONE
VIEW_CANONICAL = lib.SBX_VIEW_CANONICAL


class FeaturesLayout(NamedTuple):
    """A game's features (sbx.h section 1): `size` floats, the first
    planes x height x width of them board planes, then `scalars` numbers;
    `slots` private states per seat (0: perfect information)."""
    size: int
    planes: int
    height: int
    width: int
    scalars: int
    players: int
    moves: int
    slots: int


def kinds() -> list[str]:
    """Names of the registered game kinds."""
    names, i = [], 0
    while (p := lib.sbx_game_kind_name(i)) != ffi.NULL:
        names.append(pystr(p))
        i += 1
    return names


def params_doc(kind: str) -> str:
    p = lib.sbx_game_kind_params_doc(text_arg("kind", kind))
    if p == ffi.NULL:
        raise InvalidArgument(f"unknown game kind '{kind}'")
    return pystr(p)


def has_bot(kind: str) -> bool:
    """Whether games of this kind have their own heuristic bot (a scenario
    player's controller = "bot")."""
    return bool(lib.sbx_game_has_bot(text_arg("kind", kind)))


def has_free_moves(kind: str) -> bool:
    """Whether games of this kind take free moves (FreeMove) besides their
    move table."""
    return bool(lib.sbx_game_has_free_moves(text_arg("kind", kind)))


_SEPARATORS = set(" ,;\t\n\r=")


def _pairs_token(key: str, value: Sequence[Any]) -> str:
    """A list of [x, y] points as one token, x:y/x:y/... (how C reads a
    list, e.g. pods' custom checkpoints); anything else is refused."""
    out = []
    for i, p in enumerate(value):
        if (not isinstance(p, (list, tuple)) or len(p) != 2
                or any(isinstance(c, bool) or not isinstance(c, int) for c in p)):
            raise InvalidArgument(f"{key}: a game parameter must be a number or a word, or a "
                                  f"list of [x, y] pairs of whole numbers (item {i} is "
                                  f"{show(p)})")
        out.append(f"{p[0]}:{p[1]}")
    if not out:
        raise InvalidArgument(f"{key}: a game parameter must be a number or a word, or a "
                              "list of [x, y] pairs (got an empty list)")
    return "/".join(out)


def format_params(params: Mapping[str, Any] | str | None) -> str:
    """{"width": 11, "initial_food": False} -> "width=11 initial_food=0".

    Keys and values must be single tokens: a value holding a separator or
    '=' (e.g. "standard width=7") would smuggle further parameters into the
    C string, so it is refused."""
    if params is None:
        return ""
    if isinstance(params, str):
        text_arg("params", params)   # no NUL: C would read only up to it
        return params
    if not isinstance(params, Mapping):
        raise InvalidArgument(f"params: expected a mapping of parameter names to values or a "
                              f"'key=value ...' string (got {show(params)})")
    parts = []
    for key, value in params.items():
        if not isinstance(key, str):
            raise InvalidArgument(f"params: parameter names are strings (got {show(key)})")
        if isinstance(value, bool):
            value = int(value)
        elif isinstance(value, float):
            value = repr(value)          # nan/inf spell as words C refuses by name
        elif isinstance(value, (list, tuple)):
            value = _pairs_token(key, value)
        elif not isinstance(value, (int, str)):
            raise InvalidArgument(f"{key}: a game parameter must be a number or a word "
                                  f"(got {type(value).__name__})")
        for what, token in (("name", str(key)), ("value", str(value))):
            if not token or _SEPARATORS & set(token):
                raise InvalidArgument(f"{key}: parameter {what} {token!r} must be one word "
                                      "(no spaces, commas, semicolons or '=')")
        parts.append(f"{key}={value}")
    return " ".join(parts)


def game_arg(name: str, value: Any) -> "Game":
    if not isinstance(value, Game):
        raise InvalidArgument(f"{name}: expected a Game (got {show(value)})")
    return value


def joint_arg(joint: Any, n: int) -> None:
    """A joint action is a sequence (list, tuple, numpy array) of n moves; the
    moves themselves are checked as they are copied for C."""
    if isinstance(joint, (str, bytes, Mapping)) or not hasattr(joint, "__len__") \
            or not hasattr(joint, "__getitem__"):
        raise InvalidArgument(f"joint: expected a sequence of {n} moves (got {show(joint)})")
    if len(joint) != n:
        raise InvalidArgument(f"joint action needs {n} moves, got {len(joint)}")


def state_words(words: Any) -> np.ndarray:
    """An exported state handed back: a flat sequence of integers that fit in
    32 bits, as a contiguous int32 array. Floats, bools, strings and nested
    lists are refused rather than converted (numpy would turn 1.5 into 1 and
    True into 1 without a word)."""
    if isinstance(words, np.ndarray):
        if words.ndim != 1:
            raise InvalidArgument("state must be a flat list of integers")
        if words.size and words.dtype.kind not in "iu":
            raise InvalidArgument(f"state: expected integers (got an array of {words.dtype})")
        if words.size and (int(words.min()) < -2**31 or int(words.max()) >= 2**31):
            raise InvalidArgument("state words must fit in 32 bits")
        return np.ascontiguousarray(words, dtype=np.int32)
    if isinstance(words, (str, bytes, Mapping)) or not hasattr(words, "__len__"):
        raise InvalidArgument(f"state: expected a flat sequence of integers (got {show(words)})")
    items = list(words)
    for i, w in enumerate(items):
        if type(w) is not int:          # the usual case costs one check per word
            if isinstance(w, (list, tuple, np.ndarray)):
                raise InvalidArgument("state must be a flat list of integers")
            items[i] = int_arg(f"state word {i}", w, -2**63, 2**63 - 1)
    if items and (min(items) < -2**31 or max(items) >= 2**31):
        raise InvalidArgument("state words must fit in 32 bits")
    return np.ascontiguousarray(np.asarray(items, dtype=np.int64), dtype=np.int32)


# Playouts per C call (a few ms on any game): a signal is seen between calls.
PLAYOUT_CHUNK = 4096
# What a call may ask for: a million chunks, hours on the slowest game, and
# interruptible throughout (2^62 playouts once ran for ever, deaf to Ctrl-C).
MAX_PLAYOUTS = 10**12


class Game:
    """One game state. Not shared between threads while one of them steps it
    (calls are serialised, but the state is a single value)."""

    def __init__(self, kind: str, params: Mapping[str, Any] | str | None = None,
                 seed: int = 0) -> None:
        seed = seed_arg("seed", seed)
        ckind = text_arg("kind", kind)
        cparams = format_params(params).encode("utf-8")
        out = ffi.new("sbx_game **")
        check(lib.sbx_game_new(ckind, cparams, seed, out))
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
        game_arg("other", other)
        with self._h.lock, other._h.lock:
            check(lib.sbx_game_copy_state(self._h.get(), other._h.get()))

    def _ptr(self):
        """For sandbox.native only: the pointer, caller holds self._h.lock."""
        return self._h.get()

    # -- rules ----------------------------------------------------------------
    def _agent(self, agent: int) -> int:
        return int_arg("agent", agent, 0, self.num_agents - 1)

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

    def step(self, joint: Sequence["int | FreeMove | None"]) -> np.ndarray:
        """One simultaneous turn; returns the per-agent rewards of the step.
        Per agent a table move (int), None for an agent out of the game, or
        a FreeMove where the game takes them (pods; others refuse it)."""
        joint_arg(joint, self.num_agents)
        if any(isinstance(m, FreeMove) for m in joint):
            return self._step_free(joint)
        with self._h.lock:
            p = self._h.get()
            for i, m in enumerate(joint):
                if m is None:
                    if lib.sbx_game_is_alive(p, i):
                        raise InvalidArgument(f"agent {i}: no move given, but it is alive")
                    m = MOVE_NONE
                elif type(m) is not int or not I32[0] <= m <= I32[1]:
                    m = int_arg(f"agent {i}: move", m, *I32)   # refuses, or a numpy int
                self._joint[i] = m
            check(lib.sbx_game_step(self._h.get(), self._joint, self._rewards))
            return np.frombuffer(ffi.buffer(self._rewards, 8 * self.num_agents),
                                 dtype=np.float64).copy()

    def _step_free(self, joint: Sequence["int | FreeMove | None"]) -> np.ndarray:
        moves = ffi.new("sbx_free_move[]", self.num_agents)
        with self._h.lock:
            p = self._h.get()
            for i, m in enumerate(joint):
                f = moves[i]
                if isinstance(m, FreeMove):
                    f.kind = C_KIND[m.kind]
                    f.x, f.y = m.x, m.y
                    f.thrust = float(m.thrust or 0)
                    continue
                f.kind = 0
                if m is None:
                    if lib.sbx_game_is_alive(p, i):
                        raise InvalidArgument(f"agent {i}: no move given, but it is alive")
                    f.move = MOVE_NONE
                else:
                    f.move = int_arg(f"agent {i}: move", m, *I32)
            check(lib.sbx_game_step_free(p, moves, self._rewards))
            return np.frombuffer(ffi.buffer(self._rewards, 8 * self.num_agents),
                                 dtype=np.float64).copy()

    @property
    def takes_free_moves(self) -> bool:
        """Whether this game takes FreeMove values in step()."""
        return has_free_moves(self.kind)

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
        arr32 = state_words(words)
        with self._h.lock:
            check(lib.sbx_game_import(self._h.get(), ffi.from_buffer("int32_t[]", arr32),
                                      int(arr32.size)))

    def move_name(self, agent: int, move: int) -> str:
        with self._h.lock:
            return pystr(lib.sbx_game_move_name(self._h.get(), int_arg("agent", agent, *I32),
                                                int_arg("move", move, *I32)))

    def bot_move(self, agent: int) -> int | None:
        """The move of the game's own heuristic bot for agent now (None for
        an agent out of the game, or a terminal state); InvalidState if the
        game has no bot."""
        out = ffi.new("int32_t *")
        with self._h.lock:
            check(lib.sbx_game_bot_move(self._h.get(), int_arg("agent", agent, *I32), out))
        return None if out[0] == MOVE_NONE else int(out[0])

    def fatal_moves(self, agent: int) -> int:
        """The moves that lose `agent` the game this turn whatever the others
        play, as a mask (bit m: move m); 0 where the game knows none. What
        the searches' safe_moves setting skips."""
        out = ffi.new("uint32_t *")
        with self._h.lock:
            check(lib.sbx_game_fatal_moves(self._h.get(), int_arg("agent", agent, *I32), out))
        return int(out[0])

    @property
    def hidden_info(self) -> bool:
        """Whether the game keeps information from some seats (goofspiel
        imp_info=1): searches then run determinized or are refused."""
        with self._h.lock:
            return bool(lib.sbx_game_hidden_info(self._h.get()))

    def determinize(self, seat: int, seed: int) -> None:
        """Replace the state by one drawn (with seed) from the states `seat`
        cannot tell apart from it: the determinization the searches use.
        InvalidState on a game that hides nothing."""
        with self._h.lock:
            check(lib.sbx_game_determinize(self._h.get(), int_arg("seat", seat, *I32),
                                           seed_arg("seed", seed)))

    # -- features (a network's input) ---------------------------------------
    def features_layout(self) -> FeaturesLayout:
        """The sizes of this game's features (sbx.h section 1); InvalidState,
        with the reason, for a game that has none."""
        out = ffi.new("sbx_features_layout *")
        with self._h.lock:
            check(lib.sbx_game_features_layout(self._h.get(), out))
        return FeaturesLayout(*(int(getattr(out, f)) for f in FeaturesLayout._fields))

    def features(self, view: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """The state's public features as float32 (layout in sbx.h): view
        None is the canonical player order, an agent puts that agent first.
        `out`: a contiguous float32 array to fill (at least the layout's
        size), else a new one."""
        v = VIEW_CANONICAL if view is None else int_arg("view", view, 0, self.num_agents - 1)
        size = self.features_layout().size
        if out is None:
            out = np.empty(size, dtype=np.float32)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.float32
                  and out.flags.c_contiguous and out.ndim == 1):
            raise InvalidArgument(f"out: expected a contiguous 1-d float32 array (got "
                                  f"{show(out)})")
        with self._h.lock:
            check(lib.sbx_game_features(self._h.get(), v, ffi.from_buffer("float[]", out),
                                        int(out.size)))
        return out[:size]

    def private_slot(self, id: int) -> int:
        """The slot of a private state id (goofspiel: a hand mask) among the
        ranges and per-slot values of a network (sbx.h section 1)."""
        out = ffi.new("int32_t *")
        with self._h.lock:
            check(lib.sbx_game_private_slot(self._h.get(), int_arg("id", id, 0, 2**32 - 1),
                                            out))
        return int(out[0])

    def private_state(self, seat: int) -> int:
        """The private state id `seat` holds (goofspiel: its hand mask), for
        training targets; InvalidState in a game without private states."""
        out = ffi.new("uint32_t *")
        with self._h.lock:
            check(lib.sbx_game_private_state(self._h.get(), int_arg("seat", seat, *I32), out))
        return int(out[0])

    def reseed(self, seed: int) -> None:
        with self._h.lock:
            check(lib.sbx_game_reseed(self._h.get(), seed_arg("seed", seed)))

    def playout(self, max_steps: int, seed: int) -> int:
        """Random legal moves until terminal or max_steps; returns turns played."""
        max_steps = int_arg("max_steps", max_steps, 0, I64[1], span="0..2^63-1")
        seed = seed_arg("seed", seed)
        out = ffi.new("int64_t *")
        with self._h.lock:
            check(lib.sbx_game_playout(self._h.get(), max_steps, seed, out))
        return int(out[0])

    def playouts(self, n: int, max_steps: int, seed: int) -> int:
        """n random playouts from this state (left unchanged), in C loops of
        PLAYOUT_CHUNK playouts; returns the total turns played. Between
        chunks Python runs, so Ctrl-C (KeyboardInterrupt) stops a long call;
        chunk k > 0 is seeded from (seed, k), the first with seed itself."""
        n = int_arg("n", n, 0, MAX_PLAYOUTS, span="0..10^12")
        max_steps = int_arg("max_steps", max_steps, 0, I64[1], span="0..2^63-1")
        seed = seed_arg("seed", seed)
        out = ffi.new("int64_t *")
        if n == 0:          # no chunk calls C: a closed game must still say so
            with self._h.lock:
                self._h.get()
        total, k = 0, 0
        while n > 0:
            m = min(n, PLAYOUT_CHUNK)
            chunk_seed = seed if k == 0 else (seed * 0x9E3779B97F4A7C15 + k) % (1 << 64)
            with self._h.lock:
                check(lib.sbx_game_playouts(self._h.get(), m, max_steps, chunk_seed, out))
            total += int(out[0])
            n -= m
            k += 1
        return total

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"turn {self.turn}"
        return f"<Game {self.kind} {state}>"
