#!/usr/bin/env python3
"""Like fork_sleeper.py, but appends "pid child" to PID_FILE (many bots at once: a tournament)."""
import json, os, subprocess, sys
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(os.environ["PID_FILE"], "a") as f:
    f.write(f"{os.getpid()} {child.pid}\n")
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        sys.stdout.write(json.dumps({"moves": [e["moves"][-1]["index"] for e in msg["legal"]]}) + "\n")
        sys.stdout.flush()
    elif msg["type"] == "end":
        break
