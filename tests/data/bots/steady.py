#!/usr/bin/env python3
"""Thinks SLEEP_MS milliseconds (default 250) every turn, then answers the last legal move."""
import json, os, sys, time
pause = float(os.environ.get("SLEEP_MS", "250")) / 1000.0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        time.sleep(pause)
        sys.stdout.write(json.dumps({"moves": [e["moves"][-1]["index"] for e in msg["legal"]]}) + "\n")
        sys.stdout.flush()
    elif msg["type"] == "end":
        break
