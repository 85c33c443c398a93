#!/usr/bin/env python3
"""A Coders Strike Back bot that gets its replies wrong from the second
turn on, as MODE says: one_line (one line for its two pods), three_lines
(a line more than its pods, written at once), fullwidth or arabic (numbers
in other scripts' digits). Its first turn is right."""
import os
import sys

mode = os.environ["MODE"]
laps = input()
for _ in range(int(input())):
    input()
turn = 0
FULL = str.maketrans("0123456789", "０１２３４５６７８９")
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
while True:
    try:
        pods = [input() for _ in range(4)]
    except EOFError:
        break
    lines = ["8000 4500 100", "8000 4500 100"]
    if turn >= 1:
        if mode == "one_line":
            lines = lines[:1]
        elif mode == "three_lines":
            lines = lines + ["8000 4500 100"]
        elif mode == "fullwidth":
            lines = [line.translate(FULL) for line in lines]
        elif mode == "arabic":
            lines = [line.translate(ARABIC) for line in lines]
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()
    turn += 1
