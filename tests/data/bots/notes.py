#!/usr/bin/env python3
"""Writes a line of notes to stderr every turn (unless QUIET is set) and
answers every turn."""
import os
import sys

from _turns import say, turns

for msg, moves in turns():
    if not os.environ.get("QUIET"):
        sys.stderr.write(f"turn {msg['turn']}: thinking\n")
        sys.stderr.flush()
    say({"moves": moves})
