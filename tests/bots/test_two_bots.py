"""Two process players in one headless match think at the same time: a
turn takes about one bot's thinking, not the sum (Match.complete_turn runs
the last external player on its own thread and hands the others to their
workers)."""
from __future__ import annotations

import sys
import time

from sandbox.config import scenario_from_dict
from sandbox.sim.match import Match

from bot_support import BOTS


def test_two_bots_think_at_once():
    bot = {"controller": "process", "command": [sys.executable, str(BOTS / "steady.py")],
           "env": {"SLEEP_MS": "300"}, "timeout_ms": 3000, "first_turn_ms": 20_000}
    sc = scenario_from_dict({"game": "goofspiel", "game_params": {"num_cards": 5}, "seed": 1,
                             "players": [{"name": "A", **bot}, {"name": "B", **bot}]})
    with Match(sc) as m:
        m.play_turn()                      # start-up
        t0 = time.monotonic()
        for _ in range(3):
            m.play_turn()
        per_turn = (time.monotonic() - t0) / 3
        assert all(c.stats.failures == 0 for c in m.controllers)
    # one bot's 0.3 s and some slack for a loaded machine; two in a row is 0.6 s
    assert per_turn < 0.5, per_turn
