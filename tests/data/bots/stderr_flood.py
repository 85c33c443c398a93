#!/usr/bin/env python3
"""Writes 3 MiB to stderr at once, then without end (from a thread) while answering every turn."""
import sys
from _turns import say, turns

import threading
def flood():
    while True:
        sys.stderr.write("noise " * 1000 + "\n")
sys.stderr.write("x" * (3 << 20) + "\n")     # 3 MiB before anything else: over the log's cap
threading.Thread(target=flood, daemon=True).start()
for msg, moves in turns():
    say({"moves": moves})
