#!/usr/bin/env python3
"""Forks and exits at once: its child keeps the pipes and answers every turn (a bot that daemonises itself)."""
import json, os, sys
if os.fork():
    os._exit(0)
open(os.environ["PID_FILE"], "w").write(str(os.getpid()))
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        sys.stdout.write(json.dumps({"moves": [msg["legal"][0]["moves"][-1]["index"]]}) + "\n")
        sys.stdout.flush()
    elif msg["type"] == "end":
        break
