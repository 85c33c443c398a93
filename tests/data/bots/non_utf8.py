#!/usr/bin/env python3
"""Answers every turn with a line of bytes that are not UTF-8 (then a good answer on the next turns)."""
import json, sys
n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        n += 1
        if n == 2:
            sys.stdout.buffer.write(b'{"moves": [\xff\xfe\x80]}\n')
        else:
            sys.stdout.buffer.write(json.dumps(
                {"moves": [msg["legal"][0]["moves"][-1]["index"]],
                 "debug": {"message": "caf\xe9 \x00\x1b[31m"}}).encode("latin-1") + b"\n")
        sys.stdout.flush()
    elif msg["type"] == "end":
        break
