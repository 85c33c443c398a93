#!/usr/bin/env python3
"""Answers with a debug object as large as a line may be (just under 1 MiB) or nested deeper than a JSON parser recurses."""
import json, sys
n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        move = msg["legal"][0]["moves"][-1]["index"]
        if n % 3 == 0:
            dbg = '{"message": "' + "x" * 1_000_000 + '", "visits": [[' + ",".join(["1"] * 5000) + ']]}'
        elif n % 3 == 1:
            dbg = "[" * 200_000 + "]" * 200_000
        else:
            dbg = '{"visits": {"0": ' + "[" * 100_000 + "]" * 100_000 + "}}"
        sys.stdout.write('{"moves": [%d], "debug": %s}\n' % (move, dbg))
        sys.stdout.flush()
        n += 1
    elif msg["type"] == "end":
        break
