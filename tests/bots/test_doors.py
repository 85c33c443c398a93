"""The doors of the process players, tried with hostile input: a game's
own protocol with a setup it cannot speak (refused when the scenario
loads), a bot whose pipes are file descriptors past 1024 (select() cannot
wait on them; poll can), bots that print non-UTF-8, close their stdout but
keep running, send a huge or too deeply nested debug object, or fork and
exit, and an absurd program name. Each ends in a recorded failure or a
one-line refusal, never a hang or a crash, and no bot outlives its match."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.config import scenario_from_dict
from sandbox.names import ScenarioError
from sandbox.replay import verify

from bot_support import EXAMPLES, bot_scenario, play_recorded
from test_failures import _gone

ROOT = Path(__file__).resolve().parents[2]


def csb(game_params: dict, agents: list[int]) -> dict:
    return {"game": "pods", "game_params": game_params, "players": [
        {"controller": "process", "command": [sys.executable, str(EXAMPLES / "csb_bot.py")],
         "protocol": "codingame-csb", "agents": agents},
        {"name": "Search"}]}


@pytest.mark.parametrize("params, agents, words", [
    ({"players": 3}, [0, 1], "2 players x 2 pods; this race has 3 player(s) x 2 pod(s)"),
    ({"pods_per_player": 1}, [0], "this race has 2 player(s) x 1 pod(s)"),
    ({}, [1, 2], "one team's two pods (agents [0, 1] or [2, 3]), not [1, 2]"),
])
def test_a_setup_the_protocol_cannot_speak_is_refused_when_the_scenario_loads(
        params, agents, words, tmp_path):
    with pytest.raises(ScenarioError) as e:
        scenario_from_dict(csb(params, agents))
    assert "players.0.protocol: codingame-csb: " in str(e.value) and words in str(e.value)
    # from the command line: one line, and no match started (no replay written)
    lines = ["game = \"pods\"", "[game_params]"]
    lines += [f"{k} = {v}" for k, v in params.items()]
    lines += ["[[players]]", "controller = \"process\"",
              f"command = [\"{sys.executable}\", \"{EXAMPLES / 'csb_bot.py'}\"]",
              "protocol = \"codingame-csb\"", f"agents = {agents}", "[[players]]",
              "name = \"Search\""]
    (tmp_path / "s.toml").write_text("\n".join(lines) + "\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "sandbox", "play", str(tmp_path / "s.toml"),
                          "--replay-dir", str(tmp_path / "r")], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode != 0 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr
    assert not (tmp_path / "r").exists()


def _fds_past_1024():
    """Opens /dev/null until the next descriptor is past 1100 (raising the
    soft limit first); returns them, or skips when the system will not."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 1300
    if soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            pytest.skip(f"RLIMIT_NOFILE hard limit {hard} < {want}")
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError) as exc:
            pytest.skip(f"cannot raise RLIMIT_NOFILE: {exc}")
    fds = []
    while not fds or fds[-1] < 1100:
        fds.append(os.open(os.devnull, os.O_RDONLY))
    return fds, soft, hard


def test_a_bot_on_file_descriptors_past_1024(tmp_path):
    fds, soft, hard = _fds_past_1024()
    try:
        sc = bot_scenario("by_name", timeout_ms=2000, first_turn_ms=10_000)
        seen = []
        _, replay, _ = play_recorded(sc, tmp_path,
                                     on_turn=lambda m, r: seen.append(m.controllers[0].bot._out))
        assert min(seen) >= 1024            # select() would raise "filedescriptor out of range"
        for line in replay.turns:
            bot = line.players[0].bot
            assert bot.failures == [] and bot.latency_ms is not None, (line.turn, bot)
    finally:
        for fd in fds:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def bot_turns(replay):
    return [(t.turn, [f.kind for f in t.players[0].bot.failures]) for t in replay.turns]


def test_a_bot_that_prints_bytes_that_are_not_utf8(tmp_path):
    _, replay, _ = play_recorded(bot_scenario("non_utf8", timeout_ms=2000,
                                              first_turn_ms=10_000), tmp_path)
    assert bot_turns(replay) == [(0, []), (1, ["garbage"]), (2, []), (3, []), (4, [])]
    assert "\ufffd" in replay.turns[1].players[0].bot.failures[0].detail
    # its message's control characters (NUL, ESC) blanked
    msg = replay.turns[0].players[0].bot.debug["message"]
    assert msg.startswith("caf\u00e9 ") and "\x00" not in msg and "\x1b" not in msg
    assert verify(replay).ok


def test_a_bot_that_closes_stdout_but_keeps_running(tmp_path, monkeypatch):
    monkeypatch.setenv("PID_FILE", str(tmp_path / "pid"))
    _, replay, seconds = play_recorded(bot_scenario("closes_stdout", timeout_ms=2000,
                                                    first_turn_ms=10_000), tmp_path)
    # end of file is an exit at once, not a wait for the turn's 2 s
    assert bot_turns(replay) == [(0, [])] + [(t, ["exit"]) for t in range(1, 5)]
    assert "closed its stdout" in replay.turns[1].players[0].bot.failures[0].detail
    assert max(seconds[1:]) < 1.5
    assert _gone(int((tmp_path / "pid").read_text()))      # killed, not left running


def test_a_huge_or_too_deeply_nested_debug_object(tmp_path):
    _, replay, _ = play_recorded(bot_scenario("huge_debug", timeout_ms=2000,
                                              first_turn_ms=10_000), tmp_path)
    # a message of a million characters is cut to 300; a reply nested deeper
    # than a JSON parser goes is not JSON to us: garbage, the match goes on
    assert bot_turns(replay) == [(0, []), (1, ["garbage"]), (2, ["garbage"]), (3, []),
                                 (4, ["garbage"])]
    assert replay.turns[0].players[0].bot.debug["message"] == "x" * 300
    assert os.path.getsize(replay.path) < 200_000
    assert verify(replay).ok


def test_a_bot_that_forks_and_exits(tmp_path, monkeypatch):
    monkeypatch.setenv("PID_FILE", str(tmp_path / "pid"))
    _, replay, _ = play_recorded(bot_scenario("fork_exit", timeout_ms=2000,
                                              first_turn_ms=10_000), tmp_path)
    # its child answers in its place, and dies with the match (the group)
    assert all(kinds == [] for _, kinds in bot_turns(replay))
    pid = int((tmp_path / "pid").read_text())
    deadline = time.monotonic() + 5
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _gone(pid)


def test_an_absurd_program_name_is_one_short_line():
    with pytest.raises(ScenarioError) as e:
        scenario_from_dict({"game": "goofspiel", "players": [
            {"controller": "process", "command": ["./" + "x" * 5000]},
            {"controller": "random"}]})
    msg = str(e.value)
    assert "\n" not in msg and len(msg) < 300 and "(5002 characters)" in msg
