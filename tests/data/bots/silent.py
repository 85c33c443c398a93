#!/usr/bin/env python3
"""Reads every message and never answers (silence: a timeout each turn)."""
from _turns import say, turns

for msg, moves in turns():
    pass
