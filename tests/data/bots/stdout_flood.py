#!/usr/bin/env python3
"""Answers turn 0, then writes short lines to stdout without end: no turn
may be held by reading them."""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    sys.stdout.write(json.dumps({"moves": [e["moves"][-1]["index"] for e in msg["legal"]]}) + "\n")
    sys.stdout.flush()
    while True:
        sys.stdout.write("flood\n" * 1000)
        sys.stdout.flush()
