#!/usr/bin/env python3
"""Answers with move names and a debug object (visits and values per legal move)."""
from _turns import say, turns

for msg, moves in turns():
    names = [e["moves"][-1]["name"] for e in msg["legal"]]
    say({"moves": names, "debug": {"message": "turn " + str(msg['turn']),
         "visits": [[1] * len(e["moves"]) for e in msg["legal"]],
         "values": [[0.5] * len(e["moves"]) for e in msg["legal"]]}})
