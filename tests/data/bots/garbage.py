#!/usr/bin/env python3
"""Answers turn 1 with a line that is not JSON."""
from _turns import say, turns

for msg, moves in turns():
    say("this is not json\n" if msg["turn"] == 1 else {"moves": moves})
