"""A tournament killed mid-way (SIGKILL, the whole process group) and run
again loses no finished game and plays none twice."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sandbox.cli import main

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["tournament", "goofspiel_13_duel", "--agents", "smitsimax", "greedy", "--games", "60",
        "--iterations", "2000", "--workers", "1", "--json"]


def game_lines(path: Path) -> list[str]:
    return [x for x in path.read_text().splitlines()[1:] if x]


def test_killed_tournament_resumes_without_loss_or_repeat(tmp_path, capsys):
    out = tmp_path / "t"
    log = out / "results.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", *ARGS, "--out", str(out)],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if log.exists() and len(game_lines(log)) >= 5:
                break
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)     # the runner and its worker
    finally:
        proc.wait(timeout=30)
    before = game_lines(log)
    assert 5 <= len(before) < 60, "killed too late to test a resume"
    # a line torn by the kill (simulated: the kill itself rarely lands mid-write)
    with open(log, "a") as f:
        f.write('{"type": "game", "key": "0-1/29/1", "entr')

    assert main([*ARGS[:-3], "--workers", "0", "--json", "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    after = game_lines(log)
    assert after[:len(before)] == before                    # nothing finished was lost
    keys = [json.loads(x)["key"] for x in after]
    assert len(keys) == len(set(keys)) == 60               # none twice, none missing
    assert data["games"] == 60 and data["played_now"] == 60 - len(before)


def test_a_second_run_on_the_same_log_is_refused(tmp_path):
    from sandbox.tournament.log import LogError, ResultLog
    import pytest
    first = ResultLog(tmp_path / "results.jsonl", "tournament", {"a": 1})
    try:
        with pytest.raises(LogError, match="another run"):
            ResultLog(tmp_path / "results.jsonl", "tournament", {"a": 1})
    finally:
        first.close()
    ResultLog(tmp_path / "results.jsonl", "tournament", {"a": 1}).close()   # free again
