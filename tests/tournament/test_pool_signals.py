"""Tournaments and sweeps on a local worker pool end cleanly on every
signal, at any moment: Ctrl-C (to the runner, or to the whole process
group as a terminal sends it) exits 130 and SIGTERM 143 within a second or
two, with no traceback from the runner or a worker, the results log whole,
and no worker, keeper or bot left running. Signals at random moments
(seeded), real processes; `python tools/signal_soak.py` runs the same for
as long as you like."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STEADY = ROOT / "tests" / "data" / "bots" / "steady.py"
TRIALS = 8
PROMPT_S = 2.5


def marked(mark: str) -> list[int]:
    """Processes whose environment carries `mark` (the runner, its fork
    server and workers, the bots' keepers and the bots all inherit it)."""
    found = []
    needle = mark.encode()
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                env = f.read()
            with open(f"/proc/{d}/stat", "rb") as f:
                zombie = f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
        except OSError:
            continue
        if needle in env and not zombie:
            found.append(int(d))
    return found


def command(kind: str, out: Path, agent: Path) -> list[str]:
    if kind == "tournament":
        what = ["tournament", "goofspiel_13_duel", "--agents", str(agent), "smitsimax"]
    else:
        what = ["sweep", "goofspiel_13_duel", "--param", "c=0.3,0.7,1.0", "--vs", str(agent)]
    return [sys.executable, "-m", "sandbox", *what, "--games", "200", "--ms", "40",
            "--workers", "2", "--out", str(out), "--quiet"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_signals_at_random_moments_end_pools_cleanly(tmp_path):
    rng = random.Random(44)
    agent = tmp_path / "steady.toml"
    agent.write_text(f"""
format = 1
name = "steady"
controller = "process"
command = ["{sys.executable}", "{STEADY}"]
env = {{ SLEEP_MS = "10" }}
timeout_ms = 2000
first_turn_ms = 10000
""")
    mark = f"SBX_SIGNAL_TEST={tmp_path}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SBX_SIGNAL_TEST": str(tmp_path)}
    problems = []
    for k in range(TRIALS):
        kind = rng.choice(["tournament", "sweep"])
        sig = rng.choice([signal.SIGINT, signal.SIGTERM])
        group = rng.random() < 0.5
        delay = rng.uniform(0.2, 2.0)
        out = tmp_path / kind
        proc = subprocess.Popen(command(kind, out, agent), cwd=tmp_path, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        what = (f"trial {k}: {kind}, {signal.Signals(sig).name} to the "
                f"{'group' if group else 'runner'} after {delay:.2f} s")
        try:
            time.sleep(delay)
            if group:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
            t0 = time.monotonic()
            try:
                rc = proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                problems.append(f"{what}: still running 20 s later")
                continue
            seconds = time.monotonic() - t0
            err = proc.stderr.read()
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        want = 130 if sig == signal.SIGINT else 143
        if rc != want:
            problems.append(f"{what}: exit {rc}, not {want}: {err[-300:]}")
        if seconds > PROMPT_S:
            problems.append(f"{what}: {seconds:.2f} s to exit")
        if "Traceback" in err or "Exception ignored" in err:
            problems.append(f"{what}: {err[-1500:]}")
        deadline = time.monotonic() + 2.0
        while marked(mark) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = marked(mark)
        if left:
            problems.append(f"{what}: left running: {left}")
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        log = out / "results.jsonl"
        if log.exists():
            for n, line in enumerate(log.read_text().splitlines(), 1):
                try:
                    json.loads(line)
                except ValueError:
                    problems.append(f"{what}: {log} line {n} is torn")
    assert not problems, "\n".join(problems)


def test_the_runner_keeps_its_own_ctrl_c(tmp_path):
    """Only the workers ignore Ctrl-C: the process that runs the pool keeps
    its handler, so the user's interrupt still reaches it."""
    from sandbox.tournament.executors import make_executor
    before = signal.getsignal(signal.SIGINT)
    with make_executor(1) as ex:
        assert ex.submit(os.getpid).result(timeout=60) != os.getpid()
    assert signal.getsignal(signal.SIGINT) is before
