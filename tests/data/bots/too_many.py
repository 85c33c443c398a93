#!/usr/bin/env python3
"""Answers turn 1 with one move more than it has agents."""
from _turns import say, turns

for msg, moves in turns():
    say({"moves": moves + moves[:1]} if msg["turn"] == 1 else {"moves": moves})
