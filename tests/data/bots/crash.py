#!/usr/bin/env python3
"""Answers turn 0, then exits with status 3 at turn 1."""
import sys
from _turns import say, turns

for msg, moves in turns():
    if msg["turn"] == 1:
        sys.exit(3)
    say({"moves": moves})
