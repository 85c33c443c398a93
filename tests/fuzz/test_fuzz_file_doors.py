"""The file doors, fuzzed: every reader of a file a user names (scenario,
agent file, maze file, SnakeByte map, replay, network file, replay buffer)
on arbitrary bytes — byte-order
marks, other encodings, control and bidirectional characters, NULs, long
lines, truncated UTF-8 — and on files that are not files (a FIFO, a device).
Each either reads the file or raises the project's own one-line error, in
bounded time; never another exception, never a hang."""
from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path

from fuzz_support import attempt, fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from sandbox.config import load_scenario
from sandbox.games.maze import load_maze_file
from sandbox.games.snakes.mapfile import load_map_file
from sandbox.learn.buffer import Dims, ReplayBuffer
from sandbox.native import Net
from sandbox.replay import read_replay

PREFIXES = [b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\x00", b"\x1b[2J", "\u202e".encode()]
PIECES = [b"name = \"x\"\n", b"game = \"snakes\"\n", b"[game_params]\n", b"maze 1\n",
          b"size 7 7\n", b"rows\n", b"snakebyte 1\n", b"[[players]]\n", b"\n", b"\r\n",
          b"{\"type\": \"header\", \"format\": \"sandbox-replay\", \"version\": 1}\n",
          b"\xc3", b"\xe2\x80\xae", b"\x00\x01\x7f", "²３٣".encode(), b"#" * 300,
          b"[search]\nc = nan\n", b"c = \"0.7\"\n", b"agent = \"/dev/zero\"\n",
          b"SBXNET01", b"\x01\x00\x00\x00\x02\x00\x00\x00", b"SBXBUF01\x02\x00\x00\x00{}"]


def _content():
    return st.builds(lambda pre, parts, tail: pre + b"".join(parts) + tail,
                     st.sampled_from(PREFIXES), st.lists(st.sampled_from(PIECES), max_size=12),
                     st.binary(max_size=64))


READERS = {
    "scenario.toml": lambda p: load_scenario(str(p)),
    "agent.toml": lambda p: load_scenario(str(p.parent / "uses_agent.toml")),
    "my.maze": load_maze_file,
    "my.map": load_map_file,
    "match.jsonl": read_replay,
    "net.sbxnet": Net,
    "buffer.sbxbuf": lambda p: ReplayBuffer(p, {"game": "x"}, Dims(3, 2, 0, 2)),
}
USES_AGENT = ('game = "snakes"\ngame_params = { width = 7, height = 7, snakes = 2 }\n'
              '[[players]]\nagent = "agent.toml"\n[[players]]\n')


def _bounded(fn, *args):
    """attempt(), on a thread with a time limit: a reader that blocks (a
    FIFO) or never ends (a device) fails the test instead of hanging it."""
    box: list = []
    t = threading.Thread(target=lambda: box.append(attempt(fn, *args)), daemon=True)
    t.start()
    t.join(20)
    assert box, f"{fn} did not return within 20 s"
    return box[0]


@given(st.sampled_from(sorted(READERS)), _content())
@fuzz_settings(60)
def test_any_bytes_are_read_or_refused_in_one_line(name, data):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / name
        p.write_bytes(data)
        (Path(d) / "uses_agent.toml").write_text(USES_AGENT)
        _, exc = _bounded(READERS[name], p)
        if exc is not None:
            assert "\n" not in str(exc).strip(), str(exc)


def test_special_files_are_refused_at_every_door():
    with tempfile.TemporaryDirectory() as d:
        fifo = Path(d) / "fifo"
        os.mkfifo(fifo)
        specials = [fifo] + [Path(x) for x in ("/dev/zero", "/dev/urandom") if os.path.exists(x)]
        for special in specials:
            for name, read in READERS.items():
                if name == "agent.toml":
                    (Path(d) / "uses_agent.toml").write_text(
                        USES_AGENT.replace("agent.toml", str(special)))
                    _, exc = _bounded(read, Path(d) / "agent.toml")
                else:
                    _, exc = _bounded(read, special)
                assert exc is not None, (name, special)
