#!/usr/bin/env python3
"""Answers every turn with its answer and a stray line after it in one
write (a debug print on the wrong stream): the stray lines must not be
taken for the next turns' answers."""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    answer = json.dumps({"moves": [e["moves"][-1]["index"] for e in msg["legal"]]})
    sys.stdout.write(answer + "\ndebug: thinking about the next turn\n")
    sys.stdout.flush()
