"""`main.py SCENARIO --screenshot PNG --turns N` finishes on every bundled scenario, at the
scenario's own budget, and shows turn N (or the board waiting for a human's first move).

The screenshot loop steps the app a frame at a time, without the clock the app's own loop
sleeps in between frames; it once drew frames back to back while the searches thought, so the
main thread held the GIL the search threads need between their C calls (a slice's snapshot),
and time-budgeted duels sat at turn 0-1 for minutes. It now waits for the players' decisions
(sandbox.app.wait_for_decisions). A run that does not finish is stopped by an alarm far above
any machine's time for two turns, so a hang fails here instead of stalling the suite.
"""
from __future__ import annotations

import re
import signal
import threading

import pygame
import pytest

from sandbox.app import wait_for_decisions
from sandbox.cli import app_main
from sandbox.names import list_scenarios

TURNS = 2
HANG_S = 120   # a liveness bound, not a speed figure: two turns take about a second here


class Hung(Exception):
    pass


def _alarm(signum, frame):
    raise Hung(f"no screenshot after {HANG_S} s")


@pytest.mark.parametrize("scenario", [p.stem for p in list_scenarios()])
def test_every_bundled_scenario_takes_its_screenshot(scenario, tmp_path, capsys):
    out = tmp_path / "shot.png"
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_S)
    try:
        rc = app_main([scenario, "--screenshot", str(out), "--turns", str(TURNS), "--no-record",
                       "--quiet"])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        pygame.event.clear()
    printed = capsys.readouterr()
    assert rc == 0, printed.err
    assert out.exists() and out.stat().st_size > 0
    m = re.search(r"\(turn (\d+)(, waiting for the human player's move)?\)", printed.out)
    assert m, printed.out
    turn, human = int(m.group(1)), m.group(2) is not None
    # the turn asked for, or a person's first turn (nobody is at the keyboard)
    assert (turn, human) in ((TURNS, False), (0, True)), printed.out


class _Slow:
    """A controller that decides when told to."""

    def __init__(self) -> None:
        self.decided = threading.Event()
        self.waited = 0

    def wait(self, timeout: float | None = None) -> bool:
        self.waited += 1
        return self.decided.wait(timeout)


class _Match:
    def __init__(self, controllers, thinking=True) -> None:
        self.controllers = controllers
        self.thinking = thinking


def test_waiting_for_decisions_blocks_until_every_player_decided():
    a, b = _Slow(), _Slow()
    a.decided.set()
    threading.Timer(0.05, b.decided.set).start()
    wait_for_decisions(_Match([a, b]), timeout=30.0)
    assert b.decided.is_set() and a.waited == b.waited == 1


def test_waiting_for_decisions_gives_up_at_its_timeout_and_skips_a_decided_turn():
    a, b = _Slow(), _Slow()
    wait_for_decisions(_Match([a, b]), timeout=0.01)   # nobody decides: it returns anyway
    assert a.waited == 1 and b.waited == 0             # the time was used up on the first
    wait_for_decisions(_Match([a, b], thinking=False), timeout=30.0)
    assert a.waited == 1                               # no turn in progress: no wait
