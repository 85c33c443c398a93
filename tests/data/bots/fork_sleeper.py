#!/usr/bin/env python3
"""Starts a child that sleeps for ever, then answers every turn: the match end must kill both."""
import json, sys, time
def turns():
    """Each turn message, with the moves a well-behaved bot of ours gives:
    the last legal move of each agent (never the default, the first)."""
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "turn":
            yield msg, [e["moves"][-1]["index"] for e in msg["legal"]]
        elif msg["type"] == "end":
            return
def say(obj):
    sys.stdout.write(obj if isinstance(obj, str) else json.dumps(obj) + "\n")
    sys.stdout.flush()

import os, subprocess
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
open(os.environ["PID_FILE"], "w").write(f"{os.getpid()} {child.pid}")
for msg, moves in turns():
    say({"moves": moves})
