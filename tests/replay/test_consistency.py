"""Replays whose lines disagree about the agents: a header inconsistent in
itself is refused (one `error:` line on every CLI path, never a traceback);
turn and result lines that disagree with the header are dropped like any
other damaged line."""
from __future__ import annotations

import json

import pytest

from sandbox.cli import app_main, main
from sandbox.replay import ReplayError, compute_stats, read_replay, to_csv, verify


def _lines(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def _write(path, objs: list[dict]) -> None:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))


def _edit_header(recorded, tmp_path, edit):
    path = recorded.copy_to(tmp_path)
    objs = _lines(path)
    edit(objs[0])
    _write(path, objs)
    return path


def _more_agents(h: dict) -> None:
    h["num_agents"] = 9                                  # only 4 names


def _short_names(h: dict) -> None:
    h["names"] = h["names"][:2]


def _agent_out_of_range(h: dict) -> None:
    h["players"][1]["agents"] = [5]


def _agent_twice(h: dict) -> None:
    h["players"][1]["agents"] = [0]                      # player 0's, and 1 has no owner


def _unowned_agent(h: dict) -> None:
    h["players"][3]["agents"] = []


def _short_alive(h: dict) -> None:
    h["initial_alive"] = h["initial_alive"][:3]


def _same_player_twice(h: dict) -> None:
    h["players"][2]["player"] = 1


BAD_HEADERS = [
    (_more_agents, "names: 4 entries, but num_agents is 9"),
    (_short_names, "names: 2 entries, but num_agents is 4"),
    (_agent_out_of_range, "players: player 1 has agent 5, outside 0..3"),
    (_agent_twice, "players: agent 0 belongs to player 0 and to player 1"),
    (_unowned_agent, "players: agent 3 belongs to no player"),
    (_short_alive, "initial_alive: 3 entries, but num_agents is 4"),
    (_same_player_twice, "players: player 1 is listed twice"),
]


@pytest.mark.parametrize("edit, words", BAD_HEADERS, ids=[f.__name__ for f, _ in BAD_HEADERS])
def test_inconsistent_header_is_refused(recorded, tmp_path, edit, words):
    path = _edit_header(recorded, tmp_path, edit)
    with pytest.raises(ReplayError) as info:
        read_replay(path)
    msg = str(info.value)
    assert "\n" not in msg and str(path) in msg
    assert "line 1: invalid header: " + words in msg


@pytest.mark.parametrize("edit", [_more_agents, _short_names, _agent_out_of_range],
                         ids=["num_agents", "names", "agents"])
def test_every_cli_path_prints_one_error_line(recorded, tmp_path, capsys, edit):
    path = _edit_header(recorded, tmp_path, edit)
    for argv in (["replay", "verify", str(path)], ["replay", "stats", str(path)],
                 ["replay", "stats", str(path), "--json"],
                 ["replay", "export", str(path), "--csv", str(tmp_path / "x.csv")],
                 ["replay", "plot", str(path), "--png", str(tmp_path / "x.png")]):
        assert main(argv) == 1, argv
        cap = capsys.readouterr()
        err = cap.err.splitlines()
        assert len(err) == 1 and err[0].startswith("error: ") and "invalid header" in err[0], \
            (argv, cap.err)
        assert cap.out == "", argv
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "x.png").exists()
    # the app reads the file before it opens a window
    assert app_main(["--replay", str(path), "--screenshot", str(tmp_path / "s.png")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "invalid header" in err[0]


def _edit_turn(obj: dict, what: str) -> None:
    if what == "alive":
        obj["alive"] = obj["alive"][:3]
    elif what == "scores":
        obj["scores"] = obj["scores"] + [0.0]
    elif what == "eliminated":
        obj["eliminated"] = [7]
    elif what == "stranger":                 # a player deciding for another's agent
        obj["players"][1]["agents"][0]["agent"] = 0
    elif what == "unknown player":
        obj["players"][1]["player"] = 12


TURN_DAMAGE = [
    ("alive", "turn 7: alive: 3 entries for 4 agents"),
    ("scores", "turn 7: scores: 5 entries for 4 agents"),
    ("eliminated", "turn 7: eliminated: agent 7 outside 0..3"),
    ("stranger", "turn 7: players: player 1 decides for agents [0]; the header gives it [1]"),
    ("unknown player", "turn 7: players: player 12 is not in the header"),
]


@pytest.mark.parametrize("what, reason", TURN_DAMAGE, ids=[w for w, _ in TURN_DAMAGE])
def test_turn_line_disagreeing_with_the_header_is_dropped(recorded, tmp_path, capsys,
                                                          what, reason):
    path = recorded.copy_to(tmp_path)
    objs = _lines(path)
    assert objs[8]["turn"] == 7
    _edit_turn(objs[8], what)
    _write(path, objs)
    with read_replay(path) as replay:
        assert [(d.line, d.reason) for d in replay.dropped] == [(9, reason)]
        assert replay.missing_turns == [7] and replay.end_turn == 7   # a gap, as for garbage
        st = compute_stats(replay)                                  # and no traceback
        assert st.turns_recorded == len(recorded.history) - 1
        assert to_csv(replay, tmp_path / "x.csv", st) == 4 * (len(recorded.history) - 1)
        report = verify(replay)
        assert not report.ok and report.problem == "missing" and report.turns_checked == 7
    assert main(["replay", "stats", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: ") and reason in err


def test_result_line_disagreeing_with_the_header_is_dropped(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    objs = _lines(path)
    objs[-1]["ranking"] = objs[-1]["ranking"][:2]
    _write(path, objs)
    with read_replay(path) as replay:
        assert [(d.line, d.reason) for d in replay.dropped] == [
            (len(objs), "result line: ranking: 2 entries for 4 agents")]
        assert replay.result is None and len(replay.turns) == len(recorded.history)
        assert not compute_stats(replay).finished and verify(replay).ok


def test_header_agent_count_other_than_the_games(recorded, tmp_path):
    """A header consistent in itself whose game has another number of agents:
    every turn line is dropped and rebuilding the game says why."""
    def five(h: dict) -> None:
        h["num_agents"] = 5
        h["names"].append("Extra")
        h["initial_alive"].append(True)
        h["players"][3]["agents"] = [3, 4]
    path = _edit_header(recorded, tmp_path, five)
    with read_replay(path) as replay:
        assert replay.turns == [] and len(replay.dropped) == len(recorded.history) + 1
        report = verify(replay)
        assert not report.ok and report.problem == "initial"
        assert report.message == ("cannot rebuild the game: it has 4 agents, the header's "
                                  "num_agents says 5")
        with pytest.raises(ReplayError, match="it has 4 agents"):
            replay.state_at(0)


def test_verify_error_names_the_file_once(recorded, tmp_path, capsys):
    def bad_params(h: dict) -> None:
        h["game_params"] += ";bogus=1"
    path = _edit_header(recorded, tmp_path, bad_params)
    assert main(["replay", "verify", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {path}: cannot rebuild the game: ")
    assert err[0].count(path.name) == 1
