"""Fuzzed doors of the tournament tools: sweep --param specs, results logs of any
content, env steps with any actions, and the Bradley–Terry fit on any table
(its optimum checked by the likelihood's own score equations)."""
from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
from fuzz_support import attempt, fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from sandbox.native import SandboxError, SearchParams, kinds
from sandbox.tournament.log import LogError, ResultLog
from sandbox.tournament.ratings import fit_bradley_terry
from sandbox.tournament.sweep import parse_param

FIELDS = sorted(SearchParams.model_fields) + ["depth", "budget.iterations", "budget.ms", "x"]
token = st.one_of(st.integers(-5, 100).map(str), st.floats(allow_nan=True).map(str),
                  st.sampled_from(["ucb1", "exp3", "true", "", "a:b", "1:2:3", "0:1:0",
                                   "nan", "inf", ",", ":"]),
                  st.text(max_size=6))


@given(st.sampled_from(FIELDS), st.lists(token, max_size=4), st.sampled_from([",", ":"]))
@fuzz_settings(60)
def test_param_specs_are_values_or_one_line(name, parts, sep):
    p, exc = attempt(parse_param, f"{name}={sep.join(parts)}")
    if exc is not None:
        assert "\n" not in str(exc)
        return
    for v in p.values:        # every accepted value passes the settings' model
        if p.path[0] == "search":
            SearchParams.model_validate({p.path[1]: v})


@given(st.binary(max_size=300))
@fuzz_settings(40)
def test_any_log_content_opens_or_is_one_line(raw):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "results.jsonl"
        path.write_bytes(raw)
        log, exc = attempt(ResultLog, path, "tournament", {"a": 1}, allow=(LogError,))
        if exc is None:
            log.append({"key": "k", "scores": [1.0, 0.0]})
            log.close()
            assert path.read_bytes().endswith(b"\n")
        else:
            assert "\n" not in str(exc)


action = st.one_of(st.integers(-3, 20), st.none(), st.floats(allow_nan=True),
                   st.sampled_from(["1", "x", [], b"\x01", 2**70]))


@given(st.sampled_from(kinds()), st.integers(0, 2**32),
       st.lists(st.dictionaries(st.sampled_from(["agent_0", "agent_1", "agent_3", "nobody", 0]),
                                action, max_size=4), max_size=8))
@fuzz_settings(40)
def test_env_steps_with_any_actions(kind, seed, steps):
    from sandbox.envs import parallel_env
    env = parallel_env(kind, max_cycles=20)
    env.reset(seed=seed)
    for acts in steps:
        out, exc = attempt(env.step, acts)
        if exc is None:
            obs = out[0]
            for a, o in obs.items():
                assert o["action_mask"].dtype == np.int8
        if not env.agents:
            break
    env.close()


@given(st.integers(2, 5).flatmap(lambda n: st.tuples(st.just(n), st.lists(
    st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from([0.0, 0.5, 1.0])),
    max_size=40))))
@fuzz_settings(60)
def test_bradley_terry_solves_its_score_equations(case):
    n, table = case
    games = [(i, j, s) for i, j, s in table if i != j]
    r = fit_bradley_terry([str(k) for k in range(n)], games)
    assert np.all(np.isfinite(r.theta)) and abs(r.theta.sum()) < 1e-9
    # at the optimum each agent's expected score equals its observed one
    # (virtual draws included): sum_j [s_ij - c_ij p_ij] = 0
    count = np.zeros((n, n))
    score = np.zeros((n, n))
    for i, j, s in games:
        count[i, j] += 1
        count[j, i] += 1
        score[i, j] += s
        score[j, i] += 1 - s
    met = count > 0
    count += met
    score += 0.5 * met
    p = 1 / (1 + np.exp(-(r.theta[:, None] - r.theta[None, :])))
    assert np.abs((score - count * p).sum(axis=1)).max() < 1e-7
    for k in range(n):
        lo, hi = r.interval(k)
        assert (math.isnan(lo) and not met[k].any()) or lo <= r.elo(k) <= hi


strength_word = st.one_of(st.sampled_from(["goofspiel13-descending", "maze-duel", "random",
                                           "suct", "bot", "uct", "mcgs", "x.toml", "",
                                           "snakes_standard_4p", "goofspiel_4_exploit"]),
                          st.text(max_size=8))


@given(st.lists(strength_word, max_size=3), st.lists(strength_word, max_size=3),
       st.lists(strength_word, max_size=2), st.integers(-3, 300),
       st.one_of(st.none(), st.integers(-2, 2_000)), st.one_of(st.none(), st.floats()),
       st.booleans())
@fuzz_settings(40)
def test_strength_flags_make_cells_or_one_line(only, opponents, agents, games, its, ms,
                                               no_default):
    """`strength`'s flags: the cells are made (checked, no game played) or
    one line says what is wrong."""
    import argparse

    from sandbox.tournament.strength import add_strength_args, make_cells
    parser = argparse.ArgumentParser()
    add_strength_args(parser)
    args = parser.parse_args([])      # every flag's default: a new flag cannot go missing here
    vars(args).update(quick=True, games=games, only=only or None, agent=agents,
                      opponents=",".join(opponents) if opponents else "random",
                      iterations=its, ms=ms, workers=0, no_default=no_default)
    cells, exc = attempt(make_cells, args)
    if exc is not None:
        assert "\n" not in str(exc).strip()
        return
    assert cells and all(c.games == games and len(c.jobs()) == games for c in cells[:2])
