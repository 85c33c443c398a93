"""Where replays go: a folder that cannot take them stops `play` before the
first turn (it once played on and exited 0 with the replay lost); a disk
that fills mid-match ends the command with one line and a non-zero exit,
and the file keeps whole lines up to the failure."""
from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.replay import read_replay
from sandbox.replay import recorder as recorder_mod

PLAY = ["play", "snakes_duel_trees", "--turns", "30", "--iterations", "50", "--quiet"]


def test_a_file_as_the_folder_stops_before_the_first_turn(tmp_path, capsys):
    f = tmp_path / "afile"
    f.write_text("x")
    assert main(PLAY + ["--replay-dir", str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == [
        f"error: replay folder {f}: is not a folder (--no-record plays without a replay)"]


@pytest.mark.skipif(not os.path.isdir("/proc/1"), reason="no /proc")
def test_a_folder_nothing_can_be_created_in(capsys):
    assert main(PLAY + ["--replay-dir", "/proc/1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: replay folder /proc/1: cannot write there")


def test_a_disk_that_fills_mid_match(tmp_path, capsys, monkeypatch):
    """os.write fails with ENOSPC from the 6th write on (header + 4 turns
    land): exit 1, one error line naming what was kept, and the file reads
    back as those whole lines."""
    real = os.write
    calls = {"n": 0}

    def full_after_five(fd, data):
        calls["n"] += 1
        if calls["n"] > 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(recorder_mod.os, "write", full_after_five)
    assert main(PLAY + ["--replay-dir", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "No space left on device" in lines[0] and "keeps 4 turns" in lines[0]
    (path,) = tmp_path.glob("*.jsonl")
    monkeypatch.undo()
    with read_replay(path) as r:
        assert len(r.turns) == 4 and r.dropped_lines == 0 and r.result is None


def test_a_real_full_filesystem(small_tmpfs, tmp_path):
    mnt = small_tmpfs(64)
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    p = subprocess.run([sys.executable, "-m", "sandbox", *PLAY[:-1], "--turns", "200",
                        "--replay-dir", str(mnt)], capture_output=True, text=True,
                       env=env, timeout=300, cwd=tmp_path)
    assert p.returncode == 1, p.stderr
    errs = [ln for ln in p.stderr.splitlines() if ln.startswith("error:")]
    assert len(errs) == 1 and "No space left on device" in errs[0]
    (path,) = mnt.glob("*.jsonl")
    with read_replay(path) as r:
        assert r.turns and r.dropped_lines == 0
