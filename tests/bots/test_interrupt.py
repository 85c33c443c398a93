"""Ctrl-C or SIGTERM in the middle of `python -m sandbox play` (and of a
tournament) ends the bot and every process it started (its process group),
not only the sandbox. SIGTERM ends Python without its exit hooks unless
the entry point turns it into a clean exit (status 143)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_failures import _gone

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "data" / "bots"


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_kills_the_bots_process_group(tmp_path, sig, status):
    pid_file = tmp_path / "pids"
    (tmp_path / "s.toml").write_text(f"""
game = "goofspiel"
[game_params]
num_cards = 13
[budget]
ms = 300
iterations = 0
[[players]]
controller = "process"
command = ["{sys.executable}", "{BOTS / 'fork_sleeper.py'}"]
env = {{ PID_FILE = "{pid_file}" }}
[[players]]
name = "search"
""")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "play", str(tmp_path / "s.toml"),
                             "--replay-dir", str(tmp_path)], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not (pid_file.exists() and len(pid_file.read_text().split()) == 2):
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
            time.sleep(0.02)
        time.sleep(0.3)                        # a turn or so into the match
        assert proc.poll() is None, "the match ended before the interrupt"
        proc.send_signal(sig)
        assert proc.wait(timeout=20) == status
    finally:
        if proc.poll() is None:
            proc.kill()
    pids = [int(x) for x in pid_file.read_text().split()]
    deadline = time.monotonic() + 5
    while not all(_gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert all(_gone(p) for p in pids), pids


def test_sigterm_to_a_tournament_kills_every_bots_process_group(tmp_path):
    """Two local workers each run bots; SIGTERM to the tournament ends
    them all, the bots' own children included."""
    pid_file = tmp_path / "pids"
    (tmp_path / "agent.toml").write_text(f"""
format = 1
name = "sleeper"
controller = "process"
command = ["{sys.executable}", "{BOTS / 'fork_sleeper_log.py'}"]
env = {{ PID_FILE = "{pid_file}" }}
timeout_ms = 2000
first_turn_ms = 10000
""")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "tournament", "goofspiel_13_duel",
                             "--agents", str(tmp_path / "agent.toml"), "random", "--games",
                             "400", "--ms", "300", "--workers", "2", "--out",
                             str(tmp_path / "out")], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and len(pid_file.read_text().split()) >= 4):
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
            time.sleep(0.02)
        time.sleep(0.3)
        assert proc.poll() is None, "the tournament ended before the signal"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    pids = [int(x) for x in pid_file.read_text().split()]
    deadline = time.monotonic() + 5
    while not all(_gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert all(_gone(p) for p in pids), [p for p in pids if not _gone(p)]
