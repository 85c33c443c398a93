#!/usr/bin/env python3
"""Answers turns before HANG_AT (default 2), then never answers again;
writes its pid to MARK_FILE when the turn it hangs on arrives (so a test
knows the sandbox is waiting on it)."""
import os
from _turns import say, turns

hang_at = int(os.environ.get("HANG_AT", "2"))
for msg, moves in turns():
    if msg["turn"] < hang_at:
        say({"moves": moves})
        continue
    if msg["turn"] == hang_at and os.environ.get("MARK_FILE"):
        with open(os.environ["MARK_FILE"] + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(os.environ["MARK_FILE"] + ".tmp", os.environ["MARK_FILE"])
