"""Fuzzed agent files (sandbox.config.agent) behind a scenario's
`players.N.agent`: any knob set the model accepts comes back exactly through
the file; any other file, of any text, is one ScenarioError line, never
another exception."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from fuzz_support import attempt, fuzz_settings, valid_param_dicts, any_param_dicts
from hypothesis import given
from hypothesis import strategies as st

from sandbox.config import ScenarioError, load_scenario
from sandbox.config.agent import agent_dict, save_agent
from sandbox.native import SearchParams

SCENARIO = """\
game = "snakes"
game_params = { width = 7, height = 7, snakes = 2 }
[[players]]
agent = "agent.toml"
[[players]]
"""


def _toml_value(v) -> str:
    """Any value hypothesis draws, as TOML text (or text TOML refuses, which
    the loader must turn into its own error too)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{}"
    return json.dumps(v)


def _load(agent_text: str):
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "agent.toml").write_text(agent_text, encoding="utf-8", errors="surrogatepass")
        (Path(d) / "s.toml").write_text(SCENARIO)
        return attempt(load_scenario, Path(d) / "s.toml", allow=(ScenarioError,))


@given(valid_param_dicts())
@fuzz_settings(40)
def test_any_valid_knobs_round_trip_through_a_file(knobs):
    params = SearchParams.model_validate(knobs)
    with tempfile.TemporaryDirectory() as d:
        path = save_agent(agent_dict("smitsimax", "F", None, params, None), d)
        path.rename(Path(d) / "agent.toml")
        (Path(d) / "s.toml").write_text(SCENARIO)
        scn, exc = attempt(load_scenario, Path(d) / "s.toml", allow=(ScenarioError,))
    if exc is not None:      # the only refusal of valid knobs: the trees' memory
        assert "memory:" in str(exc), str(exc)
        return
    assert scn.players[0].search == params


@given(any_param_dicts())
@fuzz_settings(40)
def test_broken_search_tables_are_one_line(knobs):
    text = "[search]\n" + "".join(f"{json.dumps(k)} = {_toml_value(v)}\n"
                                  for k, v in knobs.items() if v is not None)
    scn, exc = _load(text)
    if exc is not None:
        assert "\n" not in str(exc)
        assert str(exc).startswith("s.toml: players.0.agent: agent.toml: ") or \
            "memory:" in str(exc), str(exc)


@given(st.text(max_size=200))
@fuzz_settings(40)
def test_any_text_as_an_agent_file_is_a_scenario_or_one_line(text):
    scn, exc = _load(text)
    if exc is not None:
        assert "\n" not in str(exc) and str(exc).startswith("s.toml: players.0.agent: ")


SNAKES_WEIGHTS = ("w_alive", "w_dead", "w_outlived", "w_length", "w_health", "w_food", "w_space")


@given(st.dictionaries(st.sampled_from(SNAKES_WEIGHTS),
                       st.floats(-1000, 1000, allow_nan=False), max_size=7))
@fuzz_settings(40)
def test_any_valid_weights_round_trip_through_a_file(weights):
    with tempfile.TemporaryDirectory() as d:
        path = save_agent(agent_dict("smitsimax", "F", None, SearchParams(), None,
                                     weights=weights), d)
        path.rename(Path(d) / "agent.toml")
        (Path(d) / "s.toml").write_text(SCENARIO)
        scn, exc = attempt(load_scenario, Path(d) / "s.toml", allow=(ScenarioError,))
    assert exc is None, str(exc)
    assert (scn.players[0].weights or {}) == weights


@given(st.dictionaries(st.one_of(st.sampled_from(SNAKES_WEIGHTS + ("width", "c")),
                                 st.text(min_size=1, max_size=8)),
                       st.one_of(st.floats(), st.integers(), st.text(max_size=5),
                                 st.booleans()), max_size=4))
@fuzz_settings(40)
def test_any_weights_table_is_a_scenario_or_one_line(weights):
    text = "[weights]\n" + "".join(f"{json.dumps(k)} = {_toml_value(v)}\n"
                                   for k, v in weights.items())
    scn, exc = _load(text)
    if exc is not None:
        assert "\n" not in str(exc)
        assert str(exc).startswith("s.toml: players.0.agent: agent.toml: ") or \
            str(exc).startswith("s.toml: players.0.weights"), str(exc)
    else:
        assert set(scn.players[0].weights or {}) <= set(SNAKES_WEIGHTS)
