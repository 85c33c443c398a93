"""Shared machinery of the fuzz suite: the call counter, the one rule about
exceptions, and hypothesis strategies built from the registries (game
plugins, SearchParams.model_fields), never from a hand-written list.

The rule: a call through the public API either works or raises one of the
project's own errors (sandbox.native.errors). pydantic's ValidationError is
allowed only where a SearchParams is built from user values (the documented
door: SearchParams(...), Search(game, dict), set_params(dict),
update_params(**)). InternalError is a SandboxError but means "a broken
invariant in the core, please report", so the fuzz treats it as a failure.
Any other exception (TypeError, OverflowError, a cffi error ...) fails the
test, and hypothesis prints the falsifying example.

Profiles (SBX_FUZZ_PROFILE):
  default  the normal test run: a few thousand calls, well under 30 s
  ci       the sanitizer stage of .ci/run: >= 100,000 calls, derandomized so
           a failure reproduces; the last test asserts the count
  explore  random seeds and more examples, for bug hunting by hand
"""
from __future__ import annotations

import math
import os
import threading
import typing
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from sandbox.games import plugins
from sandbox.native import Game, InternalError, SandboxError, SearchParams, cores

PROFILE = os.environ.get("SBX_FUZZ_PROFILE", "default")
CI_MIN_CALLS = 100_000

# How many examples each test gets per profile, as a multiple of its own
# base count (tests pick base counts so that the default profile stays
# quick and the ci profile lands comfortably above CI_MIN_CALLS: about
# 170,000 calls at 9; under the sanitizers every extra 100,000 calls costs
# CI about three minutes of its 40).
_SCALE = {"default": 1, "ci": 9, "explore": 60}
SCALE = _SCALE.get(PROFILE, 1)

if PROFILE not in _SCALE:
    raise RuntimeError(f"SBX_FUZZ_PROFILE={PROFILE!r}: expected one of {sorted(_SCALE)}")

# default and ci are derandomized: the normal suite stays deterministic and a
# CI failure reproduces with the same command; `explore` draws fresh seeds.
# No example database: nothing is written into the tree.
_BASE = settings(deadline=None, print_blob=True, database=None,
                 derandomize=PROFILE != "explore",
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.filter_too_much])


def fuzz_settings(base_examples: int, **kw: Any) -> settings:
    """The profile's settings with max_examples = base_examples x the
    profile's scale (tests choose base counts so that the default profile
    stays quick and the ci one lands well above CI_MIN_CALLS)."""
    return settings(_BASE, max_examples=max(1, base_examples * SCALE), **kw)


# ------------------------------------------------------------------ counting
class CallCounter:
    """API calls made by the fuzz suite, from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.total = 0
        self.by_test: dict[str, int] = {}
        self.current = "?"

    def bump(self, n: int = 1) -> None:
        with self._lock:
            self.total += n
            self.by_test[self.current] = self.by_test.get(self.current, 0) + n


CALLS = CallCounter()
# fuzz tests deselected in this run (-k ...): the call-count check then skips
DESELECTED: list[str] = []

PROJECT = (SandboxError,)
PARAMS_DOOR = (SandboxError, ValidationError)


class UnexpectedError(AssertionError):
    pass


def attempt(fn: Callable[..., Any], *args: Any, allow: tuple = PROJECT,
            **kwargs: Any) -> tuple[Any, BaseException | None]:
    """One counted API call: (result, None), or (None, exc) when it raised an
    allowed error. InternalError and anything not allowed propagate."""
    CALLS.bump()
    try:
        return fn(*args, **kwargs), None
    except InternalError:
        raise
    except allow as exc:
        # every refusal says what was wrong
        assert str(exc).strip(), f"{type(exc).__name__} without a message"
        return None, exc


def must(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """One counted API call that has to succeed."""
    CALLS.bump()
    return fn(*args, **kwargs)


# ------------------------------------------------------------------ games
def _bounds(field) -> tuple[Any, Any, bool, bool]:
    """(lo, hi, lo_open, hi_open) from the field's annotated_types metadata."""
    lo = hi = None
    lo_open = hi_open = False
    for m in field.metadata:
        if getattr(m, "ge", None) is not None:
            lo = m.ge
        if getattr(m, "gt", None) is not None:
            lo, lo_open = m.gt, True
        if getattr(m, "le", None) is not None:
            hi = m.le
        if getattr(m, "lt", None) is not None:
            hi, hi_open = m.lt, True
    return lo, hi, lo_open, hi_open


@dataclass(frozen=True)
class GameCase:
    """A registered game with one parameter set (a plugin example, or an
    edge of its parameter model), as the C parameter string."""
    kind: str
    example: int | str
    params: str

    def new(self, seed: int = 1) -> Game:
        return Game(self.kind, self.params, seed=seed)

    def __repr__(self) -> str:  # short in falsifying examples
        return f"GameCase({self.kind}#{self.example})"


def _literal_choices(ann) -> tuple:
    """The values of a Literal annotation, also inside Optional[...]."""
    if typing.get_origin(ann) is typing.Literal:
        return typing.get_args(ann)
    for arg in typing.get_args(ann):
        if typing.get_origin(arg) is typing.Literal:
            return typing.get_args(arg)
    return ()


def edge_params(plugin) -> list[tuple[str, dict[str, Any]]]:
    """Parameter sets at the edges of a plugin's model: every bounded
    number at its minimum and at its maximum (one at a time, then all
    together), every choice of every Literal."""
    lows: dict[str, Any] = {}
    highs: dict[str, Any] = {}
    out: list[tuple[str, dict[str, Any]]] = []
    for name, field in plugin.Params.model_fields.items():
        for choice in _literal_choices(field.annotation):
            out.append((f"{name}={choice}", {name: choice}))
        if field.annotation not in (int, float):
            continue
        lo, hi, lo_open, hi_open = _bounds(field)
        if lo is not None and not lo_open:
            lows[name] = lo
            out.append((f"{name}={lo}", {name: lo}))
        if hi is not None and not hi_open:
            highs[name] = hi
            out.append((f"{name}={hi}", {name: hi}))
    out += [("all-min", lows), ("all-max", highs)]
    return out


def game_cases() -> list[GameCase]:
    out = []
    for p in plugins():
        for i, ex in enumerate(p.examples):
            out.append(GameCase(p.kind, i, p.c_params(ex)))
    return out


def edge_cases() -> list[GameCase]:
    """The edge parameter sets both the plugin's model and C accept (a few
    combinations, e.g. 8 snakes on a 5x5 board, are refused by C alone)."""
    out = []
    for p in plugins():
        for label, params in edge_params(p):
            try:
                text = p.c_params(params)
                Game(p.kind, text, seed=1).close()
            except (SandboxError, ValidationError):
                continue
            out.append(GameCase(p.kind, label, text))
    return out


GAME_CASES = game_cases()
# plugin examples and the edges of every game's parameter model
ALL_CASES = GAME_CASES + edge_cases()
KINDS = sorted({c.kind for c in GAME_CASES})


def c_keys(kind: str) -> list[str]:
    """Every parameter key the C side of a kind knows, read from the effective
    parameter strings of the plugin's examples (C writes back every key), plus
    the plugin model's fields."""
    keys: set[str] = set()
    for case in GAME_CASES:
        if case.kind == kind:
            with case.new() as g:
                keys.update(tok.split("=", 1)[0] for tok in g.params.split() if "=" in tok)
    keys.update(next(p for p in plugins() if p.kind == kind).Params.model_fields)
    return sorted(keys)


def c_values(kind: str) -> list[str]:
    vals: set[str] = set()
    for case in GAME_CASES:
        if case.kind == kind:
            with case.new() as g:
                vals.update(tok.split("=", 1)[1] for tok in g.params.split() if "=" in tok)
    return sorted(vals)


SEPARATORS = [" ", ",", ";", "\t", "\n", "\r", "=", "==", "", "  ", ",;"]

any_seed = st.one_of(st.integers(0, 2**64 - 1), st.integers(-2**70, 2**70),
                     st.sampled_from([0, 1, 2**63, 2**64 - 1, 2**64, -1, 1.5, "7", "x",
                                      math.nan, math.inf, None]))

ints_wild = st.one_of(st.integers(-3, 20), st.integers(-2**31, 2**31 - 1),
                      st.sampled_from([-2**31, 2**31 - 1, 2**31, -2**31 - 1, 2**63, -2**63,
                                       2**64, 255, 256, -255]),
                      st.integers(-2**80, 2**80))


@st.composite
def param_tokens(draw, kind: str) -> str:
    """A C parameter string for `kind`: real keys and values, garbage, and
    every separator, glued together at random."""
    keys = c_keys(kind)
    vals = c_values(kind)
    key = st.one_of(st.sampled_from(keys), st.text(min_size=0, max_size=12),
                    st.sampled_from(["", "=", "a" * 70, "ruleset", "preset", "rows"]))
    value = st.one_of(
        st.sampled_from(vals),
        st.integers(-2**40, 2**40).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.sampled_from(["", "nan", "inf", "-inf", "1e999", "0x10", "1/2/3", "/", "//",
                         "-0", "+5", "5 ", "1e-320", "x" * 600, "/".join(["1"] * 17),
                         "/".join(["9e307"] * 16)]),
        st.text(max_size=20))
    parts = []
    for _ in range(draw(st.integers(0, 8))):
        parts.append(draw(key) + draw(st.sampled_from(["=", "=", "=", "", "=="])) + draw(value))
        parts.append(draw(st.sampled_from(SEPARATORS)))
    return "".join(parts)


@st.composite
def param_dicts(draw, kind: str) -> dict[str, Any]:
    """A parameter mapping for Game(kind, dict): real keys with wild values
    (numbers out of range, NaN, words holding separators, wrong types)."""
    keys = c_keys(kind)
    value = st.one_of(
        st.sampled_from(c_values(kind)), ints_wild, st.booleans(),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=12), st.sampled_from(["a b", "x=1", "1,2", "", "7;width=3"]),
        st.none(), st.lists(st.integers(), max_size=3))
    key = st.one_of(st.sampled_from(keys), st.text(max_size=8))
    return draw(st.dictionaries(key, value, max_size=6))


# ------------------------------------------------------------- SearchParams
# Fields whose valid range is cut down for speed (a search's arena is
# node_cap nodes per agent; big ones cost time, not coverage). Out-of-range
# values still come from the full range.
_FAST_HI = {"node_cap": 1 << 15}


def valid_field(name: str, field) -> st.SearchStrategy:
    ann = field.annotation
    if typing.get_origin(ann) is typing.Literal:
        return st.sampled_from(typing.get_args(ann))
    if ann is bool:
        return st.booleans()
    lo, hi, lo_open, hi_open = _bounds(field)
    if ann is int:
        lo = int(lo) + lo_open if lo is not None else -2**31
        hi = int(hi) - hi_open if hi is not None else 2**31 - 1
        fast = min(hi, _FAST_HI.get(name, hi))
        return st.one_of(st.integers(lo, fast), st.sampled_from([lo, fast]),
                         st.integers(lo, hi) if name not in _FAST_HI else st.just(lo))
    if ann is float:
        lo = float(lo) if lo is not None else -1e9
        hi = float(hi) if hi is not None else 1e9
        ends = [v for v, is_open in ((lo, lo_open), (hi, hi_open)) if not is_open]
        inner = st.floats(lo, hi, exclude_min=lo_open, exclude_max=hi_open, allow_nan=False)
        return st.one_of(inner, st.sampled_from(ends)) if ends else inner
    # a kind of field this suite does not know yet: its default is valid
    return st.just(field.default)


def invalid_field(name: str, field) -> st.SearchStrategy:
    ann = field.annotation
    junk = st.sampled_from([None, "", "abc", [], {}, "1e999", object.__name__])
    if typing.get_origin(ann) is typing.Literal:
        return st.one_of(st.text(max_size=8), junk, st.integers())
    if ann is bool:
        return st.one_of(st.sampled_from([2, -1, "maybe", 0.5, "yes please"]), junk)
    lo, hi, _, _ = _bounds(field)
    out = [junk, st.sampled_from([math.nan, math.inf, -math.inf])]
    if lo is not None:
        out.append(st.sampled_from([lo - 1, lo - 1e-9 if ann is float else lo - 1, -2**63]))
    if hi is not None:
        out.append(st.sampled_from([hi + 1, hi * 2 + 1, 2**63, 2**64]))
    if ann is int:
        out.append(st.sampled_from([2.5, "7x", 1e30]))
    return st.one_of(*out)


FIELDS = dict(SearchParams.model_fields)


@st.composite
def valid_param_dicts(draw) -> dict[str, Any]:
    """A dict that SearchParams accepts: a random subset of every knob with
    valid values (node_cap may still be too small for max_depth: C refuses
    that with InvalidArgument)."""
    names = draw(st.lists(st.sampled_from(sorted(FIELDS)), unique=True, max_size=len(FIELDS)))
    d = {n: draw(valid_field(n, FIELDS[n])) for n in names}
    mode = d.get("parallel", "serial")
    if d.get("algorithm") == "mcgs" and mode in ("root", "leaf"):
        mode = d["parallel"] = "tree"   # MCGS runs serial, wu_uct or tree only
    if mode != "serial":  # the parallel modes' cross-field rules
        if mode == "leaf":
            d["rollout"] = True
        if d.get("policy", "ucb1") not in (("ucb1", "ucb1_tuned") if mode == "root" else ("ucb1",)):
            d["policy"] = "ucb1"
        if mode != "root":
            d["backup"] = "mean"
    if d.get("backup") == "power" and d.get("policy", "ucb1") != "ucb1":
        d["backup"] = "mean"  # the cross-field rule: power is a ucb1 backup
    if (d.get("algorithm") == "suct" and d.get("priors", "uniform") != "uniform"
            and d.get("policy") == "ucb1_tuned"):
        d["policy"] = "ucb1"   # SUCT's prior takes UCB1-Tuned's bytes
    if d.get("algorithm", "smitsimax") == "smitsimax" and d.get("priors", "uniform") != "uniform":
        # Smitsimax's priors make UCB1 a PUCT: policy ucb1, serial or root
        if mode in ("serial", "root"):
            d["policy"] = "ucb1"
        else:
            d["priors"] = "uniform"
    if d.get("threads", 1) > cores():
        d["threads"] = cores()  # C's rule: at most this machine's cores
    return d


@st.composite
def any_param_dicts(draw) -> dict[str, Any]:
    """Valid knobs with some values (or keys) broken."""
    d = draw(valid_param_dicts())
    for n in draw(st.lists(st.sampled_from(sorted(FIELDS)), max_size=3)):
        d[n] = draw(invalid_field(n, FIELDS[n]))
    if draw(st.integers(0, 9)) == 0:
        d[draw(st.text(min_size=1, max_size=10))] = draw(st.integers())
    return d


def search_params(valid_only: bool = False) -> st.SearchStrategy:
    """What a caller hands Search(...)/set_params(...): None, a SearchParams,
    or a dict (valid or not)."""
    valid = valid_param_dicts().map(SearchParams.model_validate)
    if valid_only:
        return st.one_of(st.none(), valid, valid_param_dicts())
    return st.one_of(st.none(), valid, valid_param_dicts(), any_param_dicts())


# every algorithm the params model offers (smitsimax and the baselines)
ALGORITHMS: tuple[str, ...] = typing.get_args(FIELDS["algorithm"].annotation)


def mcgs_refusal(params: SearchParams, message: str) -> bool:
    """MCGS's own refusals: a game without two players, or heuristic priors
    on a game without move scores (game.h's move_scores hook)."""
    return "two-player" in message or (
        params.priors == "heuristic" and "priors: heuristic needs a game with move scores"
        in message)


PUBCFR_REFUSALS = ("pubcfr solves two-player games", "pubcfr needs a game that splits",
                   "public states are split for two", "a public-state search needs a fixed",
                   "than the", "fits seat")


def search_any_algorithm(game: Game, params: SearchParams, seed: int):
    """Search(game, params, seed), counted. Only joint-action MCTS may be
    refused, on a game with too many joint actions per node, and MCGS or
    GT-CFR (the same two refusals), on a
    game without exactly two agents or, with priors=heuristic, without move
    scores, and any search that would see a hidden-information game's
    hidden state (InvalidArgument saying so); pubcfr on a game without
    public states, of more than two players, with chance, with more hands
    than it takes, or (InvalidState) a state whose record no hand fits: the
    same params with Smitsimax then."""
    from sandbox.native import InvalidArgument, InvalidState, Search
    s, exc = attempt(Search, game, params, seed)
    if exc is None:
        return s
    if params.algorithm == "pubcfr" and isinstance(exc, (InvalidArgument, InvalidState)):
        assert any(w in str(exc) for w in PUBCFR_REFUSALS), str(exc)
        return must(Search, game, params.replace(algorithm="smitsimax"), seed)
    assert isinstance(exc, InvalidArgument), repr(exc)
    hidden = must(lambda: game.hidden_info)
    assert (params.algorithm == "joint" and "joint action" in str(exc)) or (
        params.algorithm in ("mcgs", "gtcfr") and mcgs_refusal(params, str(exc))) or (
        hidden and "hidden information" in str(exc)), str(exc)
    return must(Search, game, params.replace(algorithm="smitsimax"), seed)


# ------------------------------------------------------------- imports
MUTATIONS = ("flip", "set", "scale", "insert", "delete", "truncate", "extend", "swap",
             "negate", "offset")


@st.composite
def mutations(draw, max_ops: int = 4) -> list[tuple]:
    """A list of edits to apply to an export (positions as fractions, so one
    list fits any length)."""
    op = st.tuples(st.sampled_from(MUTATIONS), st.floats(0, 1), ints_wild,
                   st.integers(0, 31))
    return draw(st.lists(op, min_size=1, max_size=max_ops))


def mutate(words: np.ndarray, ops: list[tuple]) -> list[int]:
    """Apply edits; the result may hold values past int32 (the wrapper must
    refuse those with InvalidArgument)."""
    w = [int(x) for x in words]
    for name, where, value, bit in ops:
        i = min(int(where * len(w)), len(w) - 1) if w else 0
        if name == "flip" and w:
            w[i] ^= 1 << bit
        elif name == "set" and w:
            w[i] = value
        elif name == "scale" and w:
            w[i] = w[i] * (value % 7 - 3)
        elif name == "insert":
            w.insert(i, value)
        elif name == "delete" and w:
            del w[i]
        elif name == "truncate":
            w = w[:i]
        elif name == "extend":
            w.extend([value] * (bit + 1))
        elif name == "swap" and len(w) > 1:
            j = (i + 1 + bit) % len(w)
            w[i], w[j] = w[j], w[i]
        elif name == "negate" and w:
            w[i] = -w[i]
        elif name == "offset" and w:
            w[i] += (bit - 15)
    return w


def random_legal_joint(game: Game, rng: np.random.Generator) -> list[int | None]:
    joint: list[int | None] = []
    for a in range(game.num_agents):
        legal = must(game.legal_moves, a)
        joint.append(int(legal[rng.integers(len(legal))]) if legal else None)
    return joint


def play_random(game: Game, turns: int, seed: int) -> None:
    """Up to `turns` random legal turns (fewer if the game ends)."""
    rng = np.random.default_rng(seed)
    for _ in range(turns):
        if must(lambda: game.is_terminal):
            return
        must(game.step, random_legal_joint(game, rng))
