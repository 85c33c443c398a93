"""Signals at random moments, for as long as you like: tournaments and
sweeps on a local pool of two workers (one entrant a process bot), each sent
SIGINT or SIGTERM, to the runner or to its whole process group (as a
terminal's Ctrl-C), after a random delay. Each run must end with 130 / 143
within 2.5 s, print no traceback, leave its results log whole and leave
nothing running (processes found by a marker in their environment). The test suite runs 8 of these
(tests/tournament/test_pool_signals.py); this runs many more.

    python tools/signal_soak.py [--runs 100] [--seed 1] [--max-delay 3.0]

Prints a line per run and a summary; exits 1 if any run failed."""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STEADY = ROOT / "tests" / "data" / "bots" / "steady.py"
PROMPT_S = 2.5
EARLY_S = 0.15              # a signal this soon after the start may beat Python's start-up


def marked(mark: bytes) -> list[int]:
    found = []
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
        if mark in env and not zombie:
            found.append(int(d))
    return found


def _torn_lines(log: Path) -> list[int]:
    if not log.exists():
        return []
    bad = []
    for n, line in enumerate(log.read_text(encoding="utf-8").splitlines(), 1):
        try:
            json.loads(line)
        except ValueError:
            bad.append(n)
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-delay", type=float, default=3.0, metavar="S")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="sbx-signal-soak-"))
    agent = work / "steady.toml"
    agent.write_text(f'format = 1\nname = "steady"\ncontroller = "process"\n'
                     f'command = ["{sys.executable}", "{STEADY}"]\n'
                     f'env = {{ SLEEP_MS = "10" }}\ntimeout_ms = 2000\nfirst_turn_ms = 10000\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SBX_SIGNAL_SOAK": str(work)}
    mark = f"SBX_SIGNAL_SOAK={work}".encode()
    failed = earlies = 0
    for k in range(args.runs):
        kind = rng.choice(["tournament", "sweep"])
        sig = rng.choice([signal.SIGINT, signal.SIGTERM])
        group = rng.random() < 0.5
        delay = rng.uniform(0.05, args.max_delay)
        what = (["tournament", "goofspiel_13_duel", "--agents", str(agent), "smitsimax"]
                if kind == "tournament" else
                ["sweep", "goofspiel_13_duel", "--param", "c=0.3,0.7,1.0", "--vs", str(agent)])
        argv = [sys.executable, "-m", "sandbox", *what, "--games", "400", "--ms", "40",
                "--workers", "2", "--out", str(work / kind), "--quiet"]
        proc = subprocess.Popen(argv, cwd=work, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        time.sleep(delay)
        if group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        t0 = time.monotonic()
        try:
            rc = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            rc = "hang"
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        seconds = time.monotonic() - t0
        err = proc.stderr.read()
        deadline = time.monotonic() + 2.0
        while marked(mark) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = marked(mark)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        torn = _torn_lines(work / kind / "results.jsonl")
        want = 130 if sig == signal.SIGINT else 143
        # a signal before the interpreter has run the sandbox's first lines
        # (its own start-up, ~0.1 s) meets Python's defaults: killed, or a
        # KeyboardInterrupt traceback from its start-up imports; nothing of
        # the sandbox has run, nothing is left. Counted apart, not failed.
        # (the module that installs the handlers may itself be mid-import:
        # a traceback in its module-level lines is still before any handler)
        before_handlers = "sandbox/signals.py" not in err or re.search(
            r'sandbox/signals\.py", line \d+, in <module>', err) is not None
        early = rc == -sig and delay < EARLY_S and before_handlers \
            and "sandbox/cli.py" not in err
        bad = []
        if rc != want and not early:
            bad.append(f"exit {rc}")
        if seconds > PROMPT_S:
            bad.append(f"{seconds:.2f} s to exit")
        if ("Traceback" in err or "Exception ignored" in err) and not early:
            bad.append("a traceback")
        earlies += early
        if left:
            bad.append(f"left running: {left}")
        if torn:
            bad.append(f"results.jsonl lines {torn} are not JSON")
        failed += bool(bad)
        print(f"{k:4d} {kind:<10} {signal.Signals(sig).name:<7} to the "
              f"{'group ' if group else 'runner'} after {delay:4.2f} s: exit {rc} in "
              f"{seconds:.2f} s  {'FAILED: ' + ', '.join(bad) if bad else 'early' if early else 'ok'}",
              flush=True)
        if bad:     # what the run said, so a rare failure can be read, not only counted
            print(err[-2000:] if "a traceback" in bad else
                  "\n".join("       | " + line for line in err.strip().splitlines()[-6:]))
    print(f"{args.runs - failed} of {args.runs} runs clean"
          + (f" ({earlies} before the interpreter had started the sandbox)" if earlies else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
