#!/usr/bin/env python3
"""Answers turn 0, then tries to take 2 GiB at turn 1 (refused under a
memory_mb limit: it dies of the MemoryError)."""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    if msg["turn"] == 1:
        hog = bytearray(2 << 30)
    sys.stdout.write(json.dumps({"moves": [e["moves"][-1]["index"] for e in msg["legal"]]}) + "\n")
    sys.stdout.flush()
