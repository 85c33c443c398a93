"""Every replay door on files that are not replays at all: FIFOs, devices
that never end, and a gigabyte of garbage. Each is refused with one line and
a non-zero exit, in bounded time and memory (they once hung: `verify` on
/dev/zero reached 9.3 GB in 20 s)."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sandbox.replay import ReplayError, read_replay
from sandbox.replay.library import summarize

ROOT = Path(__file__).resolve().parents[2]
GUARD_S = 120


def doors(path: str, out: Path) -> list[list[str]]:
    return [["-m", "sandbox", "replay", "verify", path],
            ["-m", "sandbox", "replay", "stats", path],
            ["-m", "sandbox", "replay", "export", "--csv", str(out / "x.csv"), path],
            ["-m", "sandbox", "replay", "plot", "--png", str(out / "x.png"), path],
            ["-m", "sandbox", "replay", "research", "--turn", "1", "--agent", "0", path],
            [str(ROOT / "main.py"), "--headless", "--replay", path]]


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=GUARD_S, stdin=subprocess.DEVNULL)


def one_line(p: subprocess.CompletedProcess) -> str:
    assert p.returncode != 0, p.stdout
    err = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(err) == 1 and "Traceback" not in p.stderr, p.stderr
    return err[0]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_at_every_door(device, tmp_path):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    for args in doors(device, tmp_path):
        assert "a device, not a regular file" in one_line(run(args, tmp_path)), args


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "match.jsonl"
    os.mkfifo(fifo)
    for args in doors(str(fifo), tmp_path):
        assert "a FIFO, not a regular file" in one_line(run(args, tmp_path)), args
    # the library lists it as a damaged row instead of blocking the menu
    done: list = []
    t = threading.Thread(target=lambda: done.append(summarize(fifo)), daemon=True)
    t.start()
    t.join(10)
    assert done and done[0].damaged


def test_reader_refuses_a_fifo_in_process(tmp_path):
    fifo = tmp_path / "r.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(ReplayError, match="a FIFO"):
        read_replay(fifo)


def _peak_rss_mb_of(args: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess, float]:
    """The command's result and its peak resident memory (a fresh child
    measured alone: ru_maxrss of the children waited for, in KB on Linux)."""
    probe = ("import resource, subprocess, sys;"
             "p = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
             "sys.stdout.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) + '\\n');"
             "sys.stderr.write(p.stderr); sys.exit(p.returncode)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", probe, sys.executable, *args], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=GUARD_S)
    return p, int(p.stdout.strip().splitlines()[-1]) / 1024


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss units and sparse files")
@pytest.mark.parametrize("with_header", [False, True])
def test_a_gigabyte_of_garbage_is_rejected_in_bounded_memory(with_header, recorded, tmp_path):
    """A sparse 1 GB file of zero bytes (no newline anywhere), bare or after
    a real replay's header line: refused, or read with the garbage dropped,
    in under 200 MB (it took 2.9 GB to reject before)."""
    path = tmp_path / "big.jsonl"
    with open(path, "wb") as f:
        if with_header:
            f.write(recorded.path.read_bytes().split(b"\n", 1)[0] + b"\n")
        f.truncate(1 << 30)
    p, peak_mb = _peak_rss_mb_of(["-m", "sandbox", "replay", "verify", str(path)], tmp_path)
    assert p.returncode != 0
    assert "Traceback" not in p.stderr
    assert ("over 16 MB" in p.stderr) or ("not a replay file" in p.stderr), p.stderr
    if with_header:   # the header replays (no turns), the garbage makes it fail
        assert "damaged line dropped" in p.stderr, p.stderr
    assert peak_mb < 200, peak_mb
