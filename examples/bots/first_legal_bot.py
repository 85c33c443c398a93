#!/usr/bin/env python3
"""The smallest process player: the first legal move of every agent, any
game. A template for your own bot (docs/bots.md): read one JSON object per
line from stdin, answer each "turn" with one line on stdout, flush, and
exit when stdin ends or an "end" message comes."""
import json
import sys


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "turn":
            moves = [entry["moves"][0]["index"] for entry in msg["legal"]]
            sys.stdout.write(json.dumps({"moves": moves}) + "\n")
            sys.stdout.flush()
        elif msg["type"] == "end":
            return


if __name__ == "__main__":
    main()
