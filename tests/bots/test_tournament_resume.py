"""A tournament with a process agent (an agent file running
examples/bots/maze_bot.py) killed mid-way with SIGKILL and run again: no
finished game lost, none played twice; and the killed run's bots, out of
the process group the kill reaches, end all the same (their keeper sees the
sandbox go; without one, their stdin closes with it)."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from sandbox.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAMES = 40


def game_lines(path: Path) -> list[str]:
    return [x for x in path.read_text().splitlines()[1:] if x]


def bots_running(marker: str) -> list[int]:
    """Processes whose command line holds `marker` (this test's own folder)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                state = (d / "stat").read_text().split(") ", 1)[1][0]
            except OSError:
                continue
            if marker in cmd and state != "Z":
                out.append(int(d.name))
    return out


def _described(pid: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    except OSError:
        return f"{pid} (gone)"
    return f"{pid} state {stat[0]} ppid {stat[1]}: {cmd[:120]}"


def test_killed_tournament_with_a_process_agent_resumes(tmp_path, capsys):
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(ROOT / "examples" / "bots" / "maze_bot.py", bots / "maze_bot.py")
    shutil.copy(ROOT / "examples" / "bots" / "maze_bot_agent.toml", bots / "agent.toml")
    args = ["tournament", "maze_tiny_mcgs_selfplay", "--agents", str(bots / "agent.toml"),
            "greedy", "--games", str(GAMES), "--iterations", "200", "--workers", "1"]
    out = tmp_path / "t"
    log = out / "results.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", *args, "--json", "--out",
                             str(out)], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if log.exists() and len(game_lines(log)) >= 5:
                break
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)     # the runner and its worker
    finally:
        proc.wait(timeout=30)
    before = game_lines(log)
    assert 5 <= len(before) < GAMES, "killed too late to test a resume"

    # the bot of the game that was playing ends (its keeper sweeps it, or
    # it reads end-of-file); a bot being started when the kill came may
    # appear after it (its fork had not run the program yet): nothing may
    # be left once none has been seen for half a second
    deadline = time.monotonic() + 10
    quiet_since = time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - quiet_since < 0.5:
        if bots_running(str(bots)):
            quiet_since = time.monotonic()
        time.sleep(0.05)
    left = bots_running(str(bots))
    assert left == [], [_described(p) for p in left]

    assert main([*args, "--workers", "0", "--json", "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    after = game_lines(log)
    assert after[:len(before)] == before                    # nothing finished was lost
    keys = [json.loads(x)["key"] for x in after]
    assert len(keys) == len(set(keys)) == GAMES             # none twice, none missing
    assert data["games"] == GAMES and data["played_now"] == GAMES - len(before)
    assert bots_running(str(bots)) == []
