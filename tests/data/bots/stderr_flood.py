#!/usr/bin/env python3
"""Writes 3 MiB to stderr at once, then without end (from a thread) while answering every turn."""
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

import threading
def flood():
    while True:
        sys.stderr.write("noise " * 1000 + "\n")
sys.stderr.write("x" * (3 << 20) + "\n")     # 3 MiB before anything else: over the log's cap
threading.Thread(target=flood, daemon=True).start()
for msg, moves in turns():
    say({"moves": moves})
