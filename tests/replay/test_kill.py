"""A match killed with SIGKILL mid-run leaves a replay whose complete turns
load and verify."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.replay import read_replay, verify

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_mid_match(tmp_path):
    cmd = [sys.executable, "main.py", "--headless", "--iterations", "20000",
           "--replay-dir", str(tmp_path), "--seed", "3"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        path = None
        while time.monotonic() < deadline:
            files = list(tmp_path.glob("*.jsonl"))
            if files:
                path = files[0]
                if path.read_bytes().count(b'{"type":"turn"') >= 5:
                    break
            if proc.poll() is not None:
                pytest.fail(f"the match ended before it was killed: {proc.stderr.read()!r}")
            time.sleep(0.02)
        else:
            pytest.fail("no replay with 5 turns within 60 s")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    replay = read_replay(path)
    assert replay.result is None
    assert len(replay.turns) >= 5
    assert len(replay.dropped) <= 1 and all("torn" in d.reason for d in replay.dropped)
    assert replay.header.seed == 3 and replay.header.budget["iterations"] == 20000
    report = verify(replay)
    assert report.ok, report.message
    assert report.turns_checked == len(replay.turns)
