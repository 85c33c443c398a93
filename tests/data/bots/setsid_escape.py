#!/usr/bin/env python3
"""Tries to outlive its match: starts a child in a session of its own, and
a grandchild that leaves by a double fork and setsid() (a daemon: its
parent exits at once), each sleeping for ever; writes their pids and its
own to PID_FILE, then answers every turn."""
import os
import subprocess
import sys
import time

from _turns import say, turns

SLEEP = "import time; time.sleep(600)"
child = subprocess.Popen([sys.executable, "-c", SLEEP], start_new_session=True)
r, w = os.pipe()
mid = os.fork()
if mid == 0:                                  # the middle process
    os.close(r)
    if os.fork() == 0:                        # the grandchild: a daemon
        os.setsid()
        os.write(w, str(os.getpid()).encode())
        os.close(w)
        for fd in (0, 1, 2):                  # it lets go of the bot's pipes
            os.dup2(os.open(os.devnull, os.O_RDWR), fd)
        time.sleep(600)
        os._exit(0)
    os._exit(0)
os.close(w)
grandchild = int(os.read(r, 32))
os.waitpid(mid, 0)
with open(os.environ["PID_FILE"], "w") as f:
    f.write(f"{os.getpid()} {child.pid} {grandchild}")
for msg, moves in turns():
    say({"moves": moves})
