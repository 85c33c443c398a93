"""The reader keeps every complete valid line of a damaged file and says what
it dropped; what it cannot read is one ReplayError line."""
from __future__ import annotations

import json

import pytest

from sandbox.games import decode
from sandbox.native import Game
from sandbox.replay import ReplayError, read_replay, verify


def _lines(path):
    return path.read_bytes().split(b"\n")[:-1]


def _write(path, lines, tail=b"\n"):
    path.write_bytes(b"\n".join(lines) + tail)


def _error(path) -> str:
    with pytest.raises(ReplayError) as info:
        read_replay(path)
    msg = str(info.value)
    assert "\n" not in msg and str(path) in msg
    return msg


def test_torn_result_line(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:-25])          # cut inside the result line
    replay = read_replay(path)
    n = len(recorded.history)
    assert replay.result is None and len(replay.turns) == n
    assert [tuple(d) for d in replay.dropped] == [(n + 2, "torn last line (no newline)")]
    assert verify(replay).ok


def test_torn_turn_line(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    _write(path, lines[:-2] + [lines[-2][:100]], tail=b"")   # half of the last turn line
    replay = read_replay(path)
    assert len(replay.turns) == len(recorded.history) - 1 and replay.result is None
    assert len(replay.dropped) == 1 and "torn" in replay.dropped[0].reason
    assert verify(replay).ok


def test_complete_last_line_without_newline_is_kept(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    replay = read_replay(path)
    assert replay.result is not None and replay.dropped == []


def test_garbage_line_in_the_middle(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    lines.insert(11, b"garbage {{{ not json")
    lines.insert(20, b"\xff\xfe\x00 binary")
    lines.insert(30, b"[1, 2, 3]")
    _write(path, lines)
    replay = read_replay(path)
    assert [tuple(d) for d in replay.dropped] == [
        (12, "not JSON"), (21, "not UTF-8 text"), (31, "not a JSON object")]
    assert len(replay.turns) == len(recorded.history) and replay.result is not None
    assert verify(replay).ok
    assert "dropped 3 lines (line 12: not JSON" in replay.dropped_summary()


def test_damaged_turn_line_leaves_a_gap(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    lines[11] = lines[11][:-40] + b"#" * 40          # turn 10 becomes garbage
    _write(path, lines)
    replay = read_replay(path)
    assert [d.line for d in replay.dropped] == [12]
    assert len(replay.turns) == len(recorded.history) - 1   # the turns after it are kept
    assert replay.missing_turns == [10] and replay.end_turn == 10 and not replay.complete
    report = verify(replay)
    assert not report.ok and report.problem == "missing" and report.first_divergence == 10
    assert report.turns_checked == 10
    with pytest.raises(ReplayError, match="turn 10 is missing"):
        replay.state_at(12)


def test_invalid_turn_line_is_dropped(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    obj = json.loads(lines[5])
    obj["hash"] = "not a hash"
    lines[5] = json.dumps(obj).encode()
    _write(path, lines)
    replay = read_replay(path)
    assert len(replay.dropped) == 1 and replay.dropped[0].line == 6
    assert replay.dropped[0].reason.startswith("invalid turn line: hash")


def test_repeated_and_out_of_order_turns(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    lines.insert(8, lines[7])       # turn 6 twice
    lines.insert(15, lines[3])      # turn 2 again, later
    _write(path, lines)
    replay = read_replay(path)
    assert [(d.line, d.reason) for d in replay.dropped] == [
        (9, "turn 6 out of order or repeated (expected 7)"),
        (16, "turn 2 out of order or repeated (expected 13)")]
    assert verify(replay).ok


def test_lines_after_the_result(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    _write(path, lines + [lines[3], lines[0]])
    replay = read_replay(path)
    assert [d.reason for d in replay.dropped] == ["turn line after the result line",
                                                  "header line after the result line"]


def test_wrong_version(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    header = json.loads(lines[0])
    header["version"] = 99
    lines[0] = json.dumps(header).encode()
    _write(path, lines)
    msg = _error(path)
    assert "version 99 is not supported" in msg and "reads version 1" in msg


def test_wrong_format_name(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    header = json.loads(lines[0])
    header["format"] = "someone-else"
    lines[0] = json.dumps(header).encode()
    _write(path, lines)
    assert "not a sandbox-replay file (format 'someone-else')" in _error(path)


def test_invalid_header(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    header = json.loads(lines[0])
    del header["game"]
    lines[0] = json.dumps(header).encode()
    _write(path, lines)
    assert "line 1: invalid header: game" in _error(path)


def test_header_lost(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    _write(path, _lines(path)[1:])
    assert "no valid replay header" in _error(path)


@pytest.mark.parametrize("content, words", [
    (b"", "empty file"),
    (b"\n\n  \n", "empty file"),
    (b"hello world\nthis is not a replay\n", "not a replay file (line 1: not JSON)"),
    (b'{"name": "x"}\n', "not a replay file (line 1 is not a sandbox-replay header)"),
    (bytes(range(256)) * 4, "not a replay file"),
])
def test_not_a_replay(tmp_path, content, words):
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    assert words in _error(path)


def test_missing_file_and_directory(tmp_path):
    assert "no such file" in _error(tmp_path / "nope.jsonl")
    assert "is a directory" in _error(tmp_path)


def _fresh_exports(recorded) -> dict[int, list[int]]:
    """Exports by a fresh re-simulation of the recorded joints, per turn."""
    h = read_replay(recorded.path).header
    out = {}
    with Game(h.game, h.game_params, seed=h.seed) as g:
        out[0] = g.export().tolist()
        for rec in recorded.history:
            g.step(rec.joint)
            out[g.turn] = g.export().tolist()
    return out


def test_state_at_matches_a_fresh_simulation(recorded):
    fresh = _fresh_exports(recorded)
    end = len(recorded.history)
    with read_replay(recorded.path) as replay:
        assert replay.end_turn == end
        # forward, backward, across checkpoints, and back again
        for k in [0, 1, 2, 24, 25, 26, 60, 59, end, 3, 51, 50, 49, end - 1, 0, end]:
            g = replay.state_at(k)
            assert g.turn == k and g.export().tolist() == fresh[k], k
            assert f"{g.state_hash():016x}" == replay.hash_at(k)
            g.close()
        view = replay.view_at(30)
        assert view == decode("snakes", fresh[30]) and view.turn == 30
        with pytest.raises(ReplayError, match="outside the playable range"):
            replay.state_at(end + 1)
        with pytest.raises(ReplayError):
            replay.state_at(-1)


def test_state_at_returns_independent_games(recorded):
    with read_replay(recorded.path) as replay:
        a = replay.state_at(10)
        a.step(recorded.history[10].joint)      # mutating it changes nothing cached
        b = replay.state_at(10)
        assert b.turn == 10 and f"{b.state_hash():016x}" == replay.hash_at(10)
        a.close()
        b.close()


@pytest.mark.parametrize("depth", [2_000, 200_000])
def test_deeply_nested_json_line_is_dropped(recorded, tmp_path, depth):
    """json.loads recurses per level; a line nested thousands deep is a
    dropped line with its reason, like any other damaged line."""
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    lines.insert(5, b'{"type": "turn", "x": ' + b"[" * depth + b"]" * depth + b"}")
    _write(path, lines)
    replay = read_replay(path)
    assert [tuple(d) for d in replay.dropped] == [(6, "JSON nested too deeply to read")]
    assert len(replay.turns) == len(recorded.history) and verify(replay).ok


def test_deeply_nested_header_is_one_line(recorded, tmp_path):
    path = recorded.copy_to(tmp_path)
    lines = _lines(path)
    lines[0] = lines[0][:-1] + b', "x": ' + b"{\"a\": " * 5000 + b"1" + b"}" * 5000 + b"}"
    _write(path, lines)
    assert "no valid replay header (line 1: JSON nested too deeply to read" in _error(path)
