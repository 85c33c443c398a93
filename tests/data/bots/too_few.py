#!/usr/bin/env python3
"""Answers turn 1 with no moves at all."""
from _turns import say, turns

for msg, moves in turns():
    say({"moves": []} if msg["turn"] == 1 else {"moves": moves})
