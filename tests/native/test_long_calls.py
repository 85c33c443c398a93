"""Counts a user can type are bounded by what can finish, and a long C loop
still hears Ctrl-C (Game.playouts(2**62, ...) once ran for ever, deaf to it)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.native import Game, InvalidArgument
from sandbox.native.game import MAX_PLAYOUTS, PLAYOUT_CHUNK

ROOT = Path(__file__).resolve().parents[2]


def test_playouts_count_is_bounded():
    g = Game("snakes", {}, seed=1)
    with pytest.raises(InvalidArgument, match="n.*0..10\\^12"):
        g.playouts(2**62, 10, 1)
    with pytest.raises(InvalidArgument):
        g.playouts(MAX_PLAYOUTS + 1, 10, 1)


def test_chunks_add_up_and_the_first_chunk_is_the_plain_call():
    g = Game("goofspiel", {"num_cards": 5}, seed=1)
    # goofspiel-5 always plays 5 turns: the total is exact whatever the seeds
    assert g.playouts(3 * PLAYOUT_CHUNK + 7, 100, 9) == 5 * (3 * PLAYOUT_CHUNK + 7)
    s = Game("snakes", {}, seed=1)
    a = s.playouts(PLAYOUT_CHUNK, 1000, 4)
    assert a == s.playouts(PLAYOUT_CHUNK, 1000, 4)          # deterministic


@pytest.mark.skipif(os.name != "posix", reason="SIGINT delivery")
def test_ctrl_c_stops_a_long_playouts_call():
    code = ("from sandbox.native import Game\n"
            "import sys\n"
            "g = Game('snakes', {}, seed=1)\n"
            "print('go', flush=True)\n"
            "try:\n"
            "    g.playouts(10**12, 10**6, 1)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True); sys.exit(3)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    assert p.stdout.readline().strip() == "go"
    time.sleep(1.0)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        rc = p.wait(timeout=30)
    finally:
        p.kill()
    assert rc == 3 and p.stdout.read().strip() == "interrupted"
    assert time.monotonic() - t0 < 10


def test_profile_frames_is_bounded(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy")
    p = subprocess.run([sys.executable, str(ROOT / "main.py"), "--profile-frames",
                        str(10**23)], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode != 0
    assert p.stderr.strip().splitlines() == [
        f"error: --profile-frames must be in 1..1,000,000 (got {10**23})"], p.stderr
