"""A signal while the sandbox waits on a bot ends the command at once:
Ctrl-C exits 130 and SIGTERM 143 within a second or two, with no
traceback, the replay closed with the turns played, and the bot not
blamed for the turn the user cut short (real processes, real signals)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.replay import read_replay
from test_failures import _gone

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "data" / "bots"
PROMPT_S = 2.5          # "within a second or two", with slack for a loaded machine


def wait_for(path: Path, proc: subprocess.Popen, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if proc.poll() is not None:
            raise AssertionError(f"ended early ({proc.returncode}): {proc.stderr.read()}")
        assert time.monotonic() < deadline, "the bot never got its turn"
        time.sleep(0.02)


def signal_and_wait(proc: subprocess.Popen, sig: int) -> tuple[int, float, str]:
    """(exit status, seconds from the signal to the exit, stderr)."""
    proc.send_signal(sig)
    t0 = time.monotonic()
    try:
        rc = proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(f"still running 15 s after {signal.Signals(sig).name}")
    return rc, time.monotonic() - t0, proc.stderr.read()


def play_with_a_hanging_bot(tmp_path, hang_at: int, second_player: str):
    """`python -m sandbox play` of goofspiel against a bot (hangs.py) that
    stops answering at turn `hang_at`; (the process, its mark file, written
    when the bot gets that turn)."""
    mark = tmp_path / "waiting"
    (tmp_path / "s.toml").write_text(f"""
game = "goofspiel"
[game_params]
num_cards = 13
[[players]]
name = "Hang"
controller = "process"
command = ["{sys.executable}", "{BOTS / 'hangs.py'}"]
env = {{ MARK_FILE = "{mark}", HANG_AT = "{hang_at}" }}
timeout_ms = 3000
first_turn_ms = 5000
[[players]]
{second_player}
""")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "play", str(tmp_path / "s.toml"),
                             "--replay-dir", str(tmp_path / "r")], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return proc, mark


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_while_a_bot_is_waited_on_ends_play_at_once(tmp_path, sig, status):
    proc, mark = play_with_a_hanging_bot(tmp_path, 2, 'controller = "random"')
    try:
        wait_for(mark, proc)
        time.sleep(0.2)                  # the sandbox is inside its wait for turn 2
        rc, seconds, err = signal_and_wait(proc, sig)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert rc == status, err
    assert seconds < PROMPT_S, seconds
    assert "Traceback" not in err, err
    (path,) = (tmp_path / "r").glob("*.jsonl")
    with read_replay(path) as rp:
        # the two turns played, whole; none for the turn cut short, and no
        # failure put on the bot for it
        assert [t.turn for t in rp.turns] == [0, 1]
        assert all(t.players[0].bot.failures == [] for t in rp.turns)
        assert rp.result is None and not rp.dropped
    assert _gone(int(mark.read_text()))


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_second_signal_during_the_exit_is_no_traceback(tmp_path, sig, status):
    """An impatient user presses Ctrl-C again while the bots are being
    killed: the exit goes on, quietly, and kills them all the same."""
    proc, mark = play_with_a_hanging_bot(tmp_path, 1, f"""controller = "process"
command = ["{sys.executable}", "{BOTS / 'fork_sleeper.py'}"]
env = {{ PID_FILE = "{tmp_path / 'pids'}" }}
timeout_ms = 3000
first_turn_ms = 5000""")
    try:
        wait_for(mark, proc)
        time.sleep(0.2)
        proc.send_signal(sig)
        for _ in range(20):                  # again and again, while it exits
            time.sleep(0.01)
            if proc.poll() is not None:
                break
            proc.send_signal(sig)
        rc = proc.wait(timeout=15)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert rc == status, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    pids = [int(mark.read_text())] + [int(x) for x in (tmp_path / "pids").read_text().split()]
    deadline = time.monotonic() + 3
    while not all(_gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert all(_gone(p) for p in pids), pids
