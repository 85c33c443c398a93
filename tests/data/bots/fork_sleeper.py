#!/usr/bin/env python3
"""Starts a child that sleeps for ever, then answers every turn: the match end must kill both."""
import sys, time
from _turns import say, turns

import os, subprocess
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
open(os.environ["PID_FILE"], "w").write(f"{os.getpid()} {child.pid}")
for msg, moves in turns():
    say({"moves": moves})
