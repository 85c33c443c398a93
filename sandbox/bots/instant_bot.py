"""An instant-reply JSON-lines bot for the overhead benchmark
(sandbox/bots/bench.py): the first legal move of each agent, and in its
debug message the monotonic clock when it had read the turn's line and when
it wrote its answer, so the benchmark can take the bot's own time out.
Run as a script: it imports nothing of the sandbox."""
import json
import sys
import time


def main() -> None:
    read = sys.stdin.readline
    write = sys.stdout.write
    flush = sys.stdout.flush
    while True:
        line = read()
        t_in = time.monotonic()
        if not line:
            return
        msg = json.loads(line)
        if msg["type"] == "end":
            return
        if msg["type"] != "turn":
            continue
        moves = [e["moves"][0]["index"] for e in msg["legal"]]
        t_out = time.monotonic()
        write(json.dumps({"moves": moves, "debug": {"message": f"{t_in!r} {t_out!r}"}}) + "\n")
        flush()


if __name__ == "__main__":
    main()
