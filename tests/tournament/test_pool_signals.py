"""Tournaments and sweeps on a local worker pool end cleanly on every
signal, at any moment: Ctrl-C (to the runner, or to the whole process
group as a terminal sends it) exits 130 and SIGTERM 143 within a second or
two, with no traceback from the runner or a worker, the results log whole,
and no worker, keeper or bot left running. Eight runs of
tools/signal_soak.py (signals at seeded random moments, real processes);
the tool runs as many more as you like."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the soak reads /proc")
def test_signals_at_random_moments_end_pools_cleanly():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "signal_soak.py"), "--runs", "8",
                        "--seed", "44", "--max-delay", "2.0"], env=env, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "8 of 8 runs clean" in p.stdout.splitlines()[-1], p.stdout


def test_the_runner_keeps_its_own_ctrl_c(tmp_path):
    """Only the workers ignore Ctrl-C: the process that runs the pool keeps
    its handler, so the user's interrupt still reaches it."""
    from sandbox.tournament.executors import make_executor
    before = signal.getsignal(signal.SIGINT)
    with make_executor(1) as ex:
        assert ex.submit(os.getpid).result(timeout=60) != os.getpid()
    assert signal.getsignal(signal.SIGINT) is before
