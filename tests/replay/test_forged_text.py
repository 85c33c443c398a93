"""Text from a file reaching a terminal: a replay header's names once
printed a screen-clear escape and a forged `result: winner=1` line through
`replay stats`, and `verify` said ok. Control and bidirectional characters
are refused where such text is read (sandbox.safetext)."""
from __future__ import annotations

import json

import pytest

from sandbox.cli import main
from sandbox.config.scenario import ScenarioError, load_scenario, setting_value
from sandbox.safetext import check_strings, unsafe_char

FORGED = ["\x1b[2J", "Red\nresult: winner=1(Blue) ranking=1>0", "\u202eeulB", "a\u2028b",
          "x\x9by"]


@pytest.mark.parametrize("text", FORGED)
def test_unsafe_characters_are_named(text):
    assert unsafe_char(text) is not None
    assert unsafe_char("Red 2 \u00e9\u4e2d") is None           # plain Unicode is fine
    assert unsafe_char("two\nlines\tok", newlines=True) is None


@pytest.mark.parametrize("text", FORGED)
@pytest.mark.parametrize("action", ["stats", "verify"])
def test_forged_player_names_in_a_replay_are_refused(recorded, tmp_path, capsys, text, action):
    path = recorded.copy_to(tmp_path)
    lines = path.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    header["names"][0] = text
    lines[0] = json.dumps(header).encode()
    path.write_bytes(b"\n".join(lines))
    assert main(["replay", action, str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    err_lines = err.strip().splitlines()
    assert len(err_lines) == 1 and "names[0]: has a" in err_lines[0], err
    assert "\x1b" not in err and "result:" not in err.split("names[0]")[0]


def test_forged_result_names_are_dropped_not_printed(recorded, tmp_path, capsys):
    path = recorded.copy_to(tmp_path)
    lines = path.read_bytes().rstrip(b"\n").split(b"\n")
    result = json.loads(lines[-1])
    assert result["type"] == "result"
    result["names"][0] = "\x1b]0;owned\x07"
    lines[-1] = json.dumps(result).encode()
    path.write_bytes(b"\n".join(lines) + b"\n")
    main(["replay", "stats", str(path)])
    out, err = capsys.readouterr()
    assert "\x1b" not in out and "\x1b" not in err
    assert "result line" in err or "invalid result line" in err


def test_scenario_names_and_set_values_refuse_bidi(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('name = "evil\u202e"\ngame = "matrix"\n[[players]]\nname = "a"\n'
                 '[[players]]\nname = "b"\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match="U\\+202E"):
        load_scenario(str(p))
    with pytest.raises(ValueError, match="U\\+202E"):
        setting_value("\u202e1.0")


def test_nested_strings_are_walked():
    with pytest.raises(ValueError, match=r"scenario.players\[1\].name: has a control"):
        check_strings({"scenario": {"players": [{"name": "a"}, {"name": "b\x1b"}]}})
    check_strings({"scenario": {"description": "two\nlines"}})   # descriptions may wrap
