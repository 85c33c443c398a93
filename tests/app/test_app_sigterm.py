"""SIGTERM to the app in a real window (Xvfb) while a bot plays: the app
exits cleanly (status 143) and the bot's process group dies with it, the
bot's own child included. Skipped without Xvfb (test_real_window.py)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from test_real_window import MAIN, ROOT, pytestmark, xvfb_display  # noqa: F401

BOTS = ROOT / "tests" / "data" / "bots"


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] == "Z"
    except FileNotFoundError:
        return True


def test_sigterm_to_the_app_kills_the_bots_process_group(xvfb_display, tmp_path):  # noqa: F811
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
timeout_ms = 2000
first_turn_ms = 20000
[[players]]
name = "search"
""")
    env = {**os.environ, "DISPLAY": xvfb_display, "PYTHONPATH": str(ROOT)}
    env.pop("SDL_VIDEODRIVER", None)
    proc = subprocess.Popen([sys.executable, str(MAIN), str(tmp_path / "s.toml"), "--no-record"],
                            env=env, cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and len(pid_file.read_text().split()) == 2):
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
            time.sleep(0.05)
        time.sleep(0.5)
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 143
    finally:
        if proc.poll() is None:
            proc.kill()
    pids = [int(x) for x in pid_file.read_text().split()]
    deadline = time.monotonic() + 5
    while not all(_gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert all(_gone(p) for p in pids), pids
