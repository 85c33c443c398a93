"""SearchParams (pydantic) mirrors the C parameter table of params.c: the same
fields, defaults and ranges, and a lossless round trip through the C struct."""
from __future__ import annotations

import typing

import pytest
from pydantic import ValidationError

from sandbox.native import Game, InvalidArgument, Search, SearchParams, c_default_params, cores, \
    c_param_table
from sandbox.native.params import CHOICES, PYTHON_ONLY

FIELDS = SearchParams.model_fields


def bounds(name: str) -> tuple[float | None, float | None]:
    lo = hi = None
    for m in FIELDS[name].metadata:
        lo = getattr(m, "ge", lo)
        hi = getattr(m, "le", hi)
    return lo, hi


def test_every_field_is_declared_on_both_sides():
    from sandbox.native._lib import ffi
    c_names = [row["name"] for row in c_param_table()]
    assert len(c_names) == len(set(c_names))
    assert set(c_names) == set(FIELDS) - set(PYTHON_ONLY)
    struct_names = {name for name, _ in ffi.typeof("sbx_search_params").fields}
    assert struct_names == set(FIELDS) - set(PYTHON_ONLY)
    assert all(row["doc"] for row in c_param_table())


@pytest.mark.parametrize("row", c_param_table(), ids=lambda r: r["name"])
def test_python_default_and_range_equal_the_c_table(row):
    name, field = row["name"], FIELDS[row["name"]]
    default = field.default
    kind = row["type"]
    if kind == "float":
        assert field.annotation is float
        assert default == pytest.approx(row["default"], abs=0)
        assert bounds(name) == (row["min"], row["max"])
    elif kind == "int":
        assert field.annotation is int
        assert default == row["default"]
        assert bounds(name) == (row["min"], row["max"])
    elif kind == "bool":
        assert field.annotation is bool
        assert int(default) == row["default"]
        assert (row["min"], row["max"]) == (0, 1)
    else:
        assert kind == "choice" and name in CHOICES
        names = CHOICES[name][0]
        choices = typing.get_args(field.annotation)
        assert set(choices) == set(names)
        assert sorted(names.values()) == list(range(int(row["min"]), int(row["max"]) + 1))
        assert names[default] == row["default"]


def test_python_defaults_equal_c_defaults():
    assert c_default_params() == SearchParams()


@pytest.mark.parametrize("row", c_param_table(), ids=lambda r: r["name"])
def test_range_ends_are_accepted_and_just_outside_rejected(row):
    name = row["name"]
    if row["type"] in ("bool", "choice"):
        return
    lo, hi = row["min"], row["max"]
    cast = float if row["type"] == "float" else int
    with Game("snakes", {"width": 7, "height": 7, "snakes": 2}, seed=0) as g:
        for ok in (lo, hi):
            p = SearchParams(**{name: cast(ok)})
            if name == "threads" and ok > cores():     # the model's 64; C: this machine's
                with pytest.raises(InvalidArgument, match="threads: .* cores"):
                    Search(g, p)
                continue
            if name == "info_seat" and ok >= 2:       # the model's 7; C: the game's agents
                with pytest.raises(InvalidArgument, match="info_seat: .* past the game's agents"):
                    Search(g, p)
                continue
            if name != "node_cap" or ok <= 1 << 16:     # do not reserve 2 GB for the check
                with Search(g, p) as s:
                    assert getattr(s.c_params(), name) == cast(ok)
        step = 1e-9 * max(1.0, abs(hi)) if cast is float else 1
        for bad in (lo - step, hi + step):
            with pytest.raises(ValidationError) as exc:
                SearchParams(**{name: cast(bad)})
            assert name in str(exc.value)


@pytest.mark.parametrize("bad", [
    {"c": -1}, {"max_depth": 0}, {"max_depth": 65}, {"gamma": 1.5}, {"gamma": 0},
    {"elimination": "x"}, {"extra_key": 1}, {"node_cap": 100}, {"random_threshold": -1},
    {"c": float("nan")}, {"max_depth": 2.5}, {"c": "lots"},
])
def test_bad_values_raise_validation_error(bad):
    with pytest.raises(ValidationError) as exc:
        SearchParams(**bad)
    assert next(iter(bad)) in str(exc.value)
    with pytest.raises(ValidationError):
        SearchParams().replace(**bad)


def test_params_are_frozen():
    p = SearchParams()
    with pytest.raises(ValidationError):
        p.c = 2.0  # type: ignore[misc]
    q = p.replace(c=2.0)
    assert q.c == 2.0 and p.c == 0.7


PARAM_SETS = [
    SearchParams(),
    SearchParams(c=0.0, gamma=0.01, death_penalty_value=0.0, max_depth=1, random_threshold=0,
                 depth_normalize=True, elimination="freeze", death_penalty=True,
                 death_min_visits=1, rollout=True, tree_reuse=False, node_cap=1024,
                 time_check_interval=1),
    SearchParams(c=10.0, gamma=1.0, death_penalty_value=100.0, max_depth=64,
                 random_threshold=1_000_000, death_min_visits=1_000_000,
                 node_cap=1 << 26, time_check_interval=1 << 20),
    SearchParams(c=0.123456789012345, gamma=0.987654321, death_penalty_value=3.3),
]


@pytest.mark.parametrize("params", PARAM_SETS)
def test_to_c_from_c_round_trip(params):
    c = params.to_c()
    assert c.elimination == CHOICES["elimination"][0][params.elimination]
    assert c.bounds == CHOICES["bounds"][0][params.bounds]
    assert c.max_depth == params.max_depth and c.c == params.c
    assert SearchParams.from_c(c) == params


@pytest.mark.parametrize("params", PARAM_SETS[:2] + PARAM_SETS[3:])
def test_search_holds_exactly_the_params_given(params):
    with Game("snakes", {"width": 7, "height": 7, "snakes": 2}, seed=0) as g, \
            Search(g, params) as s:
        assert s.params == params
        assert s.c_params() == params
        changed = params.replace(c=1.25, max_depth=7, elimination="pass")
        s.set_params(changed)
        assert s.c_params() == changed and s.params == changed
        assert s.update_params(gamma=0.5).gamma == 0.5
        assert s.c_params().gamma == 0.5


def test_search_accepts_dicts_and_rejects_bad_ones():
    """SearchParams itself raises pydantic's ValidationError (scenarios nest
    it); Search turns one into the native layer's one-line InvalidArgument."""
    with Game("snakes", {"width": 7, "height": 7, "snakes": 2}, seed=0) as g:
        with Search(g, {"c": 1.5, "elimination": "freeze"}) as s:
            assert s.c_params().c == 1.5 and s.c_params().elimination == "freeze"
            with pytest.raises(InvalidArgument, match=r"^params: gamma: .*\(got 2\)$"):
                s.set_params({"gamma": 2})
            with pytest.raises(InvalidArgument, match="^params: nonsense: "):
                s.update_params(nonsense=1)
            assert s.c_params().c == 1.5        # unchanged after a rejected update
        with pytest.raises(InvalidArgument, match="^params: max_depth: "):
            Search(g, {"max_depth": 0})


def test_c_validates_even_without_pydantic():
    """The C core checks ranges itself (a bad struct never reaches a search)."""
    from sandbox.native._lib import check, ffi, lib
    with Game("snakes", {"width": 7, "height": 7, "snakes": 2}, seed=0) as g, Search(g) as s:
        p = SearchParams().to_c()
        p.max_depth = 0
        with pytest.raises(InvalidArgument, match="max_depth"):
            with s._h.guard:
                check(lib.sbx_search_set_params(s._h.get(), p))
        p = SearchParams().to_c()
        p.gamma = float("nan")
        assert lib.sbx_search_params_validate(p) == lib.SBX_ERR_ARGUMENT
        assert "gamma" in ffi.string(lib.sbx_last_error()).decode()
        assert lib.sbx_search_params_validate(SearchParams().to_c()) == 0
        assert s.c_params() == SearchParams()
