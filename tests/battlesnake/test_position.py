"""A real position (a /move body) as the start of a match, headless and in
the arena, and of an analysis: the match's replay is re-searched like any
recorded turn. Bad files and bad `serve` flags: one line, non-zero exit."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sandbox.cli import app_main, main
from sandbox.replay import read_replay
from sandbox.replay.research import research
from sandbox.replay.verify import verify

from .helpers import duel, snake, state

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples/positions/two_snakes_turn12.json"


def test_a_match_starts_from_the_position_and_is_re_searchable(tmp_path, capsys):
    rc = main(["play", "snakes_duel_trees", "--start-position", str(EXAMPLE), "--turns", "3",
               "--iterations", "300", "--replay-dir", str(tmp_path), "--quiet"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "'you' (A) is agent 0" in out.err
    [f] = tmp_path.glob("*.jsonl")
    with read_replay(f) as rp:
        assert rp.start_turn == 12 and rp.end_turn == 15
        assert rp.header.branched_from.file == str(EXAMPLE)
        v = rp.view_at(12)            # the file's position, as written in it
        assert v.snakes[0].body == ((3, 4), (3, 3), (2, 3), (1, 3))
        assert v.snakes[1].body == ((7, 6), (8, 6), (8, 7))
        assert v.food == ((5, 5), (0, 10)) or set(v.food) == {(5, 5), (0, 10)}
        assert (v.snakes[0].health, v.snakes[1].health) == (88, 93)
        assert verify(rp).ok
        # re-searched with the recorded settings: the same root, visit for visit
        same = research(rp, 12, 0)
        assert same.identical and same.iterations == 300
        other = research(rp, 12, 0, {"c": 0.1})
        assert other.settings["c"] == 0.1


def test_the_arena_starts_from_the_position(tmp_path, capsys):
    shot = tmp_path / "p.png"
    rc = app_main(["snakes_duel_trees", "--start-position", str(EXAMPLE), "--screenshot",
                   str(shot), "--turns", "1", "--iterations", "100"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "(turn 13)" in out.out and shot.stat().st_size > 0


@pytest.mark.parametrize("content, words", [
    ("{", "not JSON"),
    (json.dumps({"turn": 1}), "game: missing"),
    (json.dumps(duel(ruleset="speedsnake")), "ruleset 'speedsnake' is not modelled"),
    (json.dumps(duel(hazards=((1, 1),))), "which never place any"),
    ("\ufeff" + "x" * 10, "not JSON"),
])
def test_bad_position_files_are_one_line(tmp_path, capsys, content, words):
    f = tmp_path / "pos.json"
    f.write_text(content, encoding="utf-8")
    rc = main(["play", "snakes_duel_trees", "--start-position", str(f), "--no-record"])
    err = capsys.readouterr().err.strip()
    assert rc != 0
    assert err.count("\n") == 0 and words in err and str(f) in err


def test_a_position_the_scenario_cannot_seat(tmp_path, capsys):
    three = [snake(f"s{i}", [(2 * i, 0), (2 * i, 1), (2 * i, 2)]) for i in range(3)]
    f = tmp_path / "three.json"
    f.write_text(json.dumps(state(three)), encoding="utf-8")
    rc = main(["play", "snakes_duel_trees", "--start-position", str(f), "--no-record"])
    err = capsys.readouterr().err.strip()
    assert rc != 0 and err.count("\n") == 0 and "cannot play it" in err


def test_missing_file_and_a_game_without_positions(capsys):
    assert main(["play", "snakes_duel_trees", "--start-position", "/nonexistent.json"]) != 0
    assert "cannot read" in capsys.readouterr().err
    assert main(["play", "goofspiel_13_duel", "--start-position", str(EXAMPLE)]) != 0
    assert "reads no start positions" in capsys.readouterr().err


@pytest.mark.parametrize("argv, words", [
    (["serve", "nothing"], "unknown server 'nothing'"),
    (["serve", "battlesnake", "nosuch"], "not a built-in agent"),
    (["serve", "battlesnake", "bot", "--port", "0"], "cannot be served"),
    (["serve", "battlesnake", "--port", "70000"], "--port"),
    (["serve", "battlesnake", "--port", "x"], "invalid int"),
    (["serve", "battlesnake", "--margin-ms", "-5", "--port", "0"], "--margin-ms"),
    (["serve", "battlesnake", "snakes_duel_trees:5", "--port", "0"], "players 0..1"),
])
def test_serve_refuses_bad_flags_in_one_line(capsys, argv, words):
    assert main(argv) != 0
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err


def test_serve_refuses_a_port_in_use(capsys):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "battlesnake", "--port", str(port)]) != 0
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "cannot listen" in err
