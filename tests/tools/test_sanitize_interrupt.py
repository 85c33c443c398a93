"""tools/sanitize.py's pytest runner: interrupting it leaves nothing running.

CI's sanitizer stage runs its tests in two pytest-xdist workers. A stage that
is interrupted (Ctrl-C, or a runner's SIGTERM sent to the script alone) must
stop pytest, both workers and the processes the tests started, not leave them
running on a core. The runner is driven here with a small stand-in suite whose
tests record their process ids and then wait, so no sanitizer build is needed.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("xdist", reason="pytest-xdist is in the test extra; the runner's "
                                    "workers are xdist's")

_SUITE = """
import os, subprocess, sys, time
from pathlib import Path

def test_waits():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    out = Path(os.environ["PIDS"])
    part = out / f".{os.getpid()}"
    part.write_text(f"{os.getpid()} {child.pid} {os.getpgid(0)} {os.getppid()}")
    os.replace(part, out / f"{os.getpid()}")        # whole, or not there yet
    time.sleep(300)
"""

_DRIVER = """
import signal, sys
# Ctrl-C raises here even where this test's own process was started with
# SIGINT ignored (a background job of a script inherits that)
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, {tools!r})
import sanitize
rc, _ = sanitize.run_pytest({cmd!r}, cwd={cwd!r})
sys.exit(rc)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"   # a zombie has ended
    except FileNotFoundError:
        return False


def _records(pid_dir: Path) -> list[list[int]]:
    """Per test: its worker's pid, the child it started, their process
    group and the worker's parent (pytest itself)."""
    return [[int(p) for p in f.read_text().split()] for f in pid_dir.iterdir()
            if not f.name.startswith(".")]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_stops_pytest_its_workers_and_their_children(tmp_path, sig):
    suite = tmp_path / "suite"
    suite.mkdir()
    for name in ("test_a.py", "test_b.py"):      # one file per worker (loadfile)
        (suite / name).write_text(_SUITE)
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           "-n", "2", "--dist", "loadfile", str(suite)]
    driver = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(_DRIVER).format(
            tools=str(ROOT / "tools"), cmd=cmd, cwd=str(tmp_path))],
        env=dict(os.environ, PIDS=str(pid_dir)),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(_records(pid_dir)) < 2:
            assert driver.poll() is None, "the runner ended before its tests started"
            assert time.monotonic() < deadline, "the two workers never started their tests"
            time.sleep(0.1)
        records = _records(pid_dir)
        pids = sorted({p for r in records for p in (r[0], r[1], r[3])})   # + pytest
        assert len(pids) == 5 and all(_alive(p) for p in pids)
        assert len({r[2] for r in records}) == 1   # one group: pytest's
        driver.send_signal(sig)            # to the runner alone, as a runner's stop is
        rc = driver.wait(timeout=60)
        assert rc != 0
        deadline = time.monotonic() + 20
        while any(_alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in pids if _alive(p)]
        assert not left, f"still running after the interrupt: {left}"
    finally:
        if driver.poll() is None:
            driver.kill()
        for group in {r[2] for r in _records(pid_dir)}:
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_exit_status_and_output_pass_through(tmp_path, capfd):
    (tmp_path / "test_x.py").write_text(
        "def test_ok():\n    pass\n\ndef test_bad():\n    print('runtime' + ' error: x')\n"
        "    assert False\n")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import sanitize
    finally:
        sys.path.remove(str(ROOT / "tools"))
    rc, markers = sanitize.run_pytest(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
         str(tmp_path)], cwd=tmp_path)
    assert rc == 1                         # pytest's: a test failed
    assert markers == 1                    # the UBSan-style line, once (the source
                                           # line in the traceback does not match)
    assert "1 failed, 1 passed" in capfd.readouterr().out
