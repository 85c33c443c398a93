#!/usr/bin/env python3
"""Answers turn 0, then takes 0.4 s over turn 1 (late: the next turns must skip its late answers)."""
import time
from _turns import say, turns

for msg, moves in turns():
    if msg["turn"] == 1:
        time.sleep(0.4)
    say({"moves": moves})
