#!/usr/bin/env python3
"""Answers turn 0, then spins at turn 1 (a cpu_s limit kills it)."""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    if msg["turn"] == 1:
        while True:
            pass
    sys.stdout.write(json.dumps({"moves": [e["moves"][-1]["index"] for e in msg["legal"]]}) + "\n")
    sys.stdout.flush()
