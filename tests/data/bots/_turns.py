"""What the misbehaving test bots beside this file share: reading turns and
answering. Each bot is a program the tests start by its path, so Python
puts this folder first on its import path and `from _turns import ...`
finds this module."""
import json
import sys


def turns():
    """Each turn message, with the moves a well-behaved bot of ours gives:
    the last legal move of each agent (never the default, the first)."""
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "turn":
            yield msg, [e["moves"][-1]["index"] for e in msg["legal"]]
        elif msg["type"] == "end":
            return


def say(obj):
    """One answer line (an object as JSON, a string as it is), flushed."""
    sys.stdout.write(obj if isinstance(obj, str) else json.dumps(obj) + "\n")
    sys.stdout.flush()
