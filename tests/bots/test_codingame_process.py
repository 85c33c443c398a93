"""The pods plugin's own protocol (codingame-csb) through the process
machinery end to end: examples/bots/csb_bot.py drives a team as a process
player; its free moves are played, recorded and re-simulated by verify;
the protocol's contest timings are the player's defaults."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sandbox.config import scenario_from_dict
from sandbox.replay import Recorder, read_replay, verify
from sandbox.sim.match import Match

BOT = Path(__file__).resolve().parents[2] / "examples" / "bots" / "csb_bot.py"


def scenario(**process):
    return scenario_from_dict({
        "game": "pods", "seed": 3, "max_turns": 30, "budget": {"iterations": 200, "ms": 0},
        "players": [{"name": "CSB", "agents": [0, 1], "controller": "process",
                     "command": [sys.executable, str(BOT)], "protocol": "codingame-csb",
                     **process},
                    {"name": "Search", "agents": [2, 3]}]})


def test_the_protocols_timings_are_the_default():
    with Match(scenario()) as m:
        c = m.controllers[0]
        assert (c.first_turn_ms, c.timeout_ms) == (1000.0, 75.0)     # the contest's
    with Match(scenario(timeout_ms=40, first_turn_ms=900)) as m:
        c = m.controllers[0]
        assert (c.first_turn_ms, c.timeout_ms) == (900.0, 40.0)      # the player's own


def test_a_contest_bot_races_through_the_process_machinery(tmp_path):
    # generous times: a loaded test machine must not turn this into a timeout test
    rec = Recorder(path=tmp_path / "m.jsonl")
    with Match(scenario(timeout_ms=2000, first_turn_ms=10_000), recorder=rec) as m:
        m.play()
    replay = read_replay(tmp_path / "m.jsonl")
    for line in replay.turns:
        bot = line.players[0].bot
        assert bot is not None and bot.failures == [], (line.turn, bot)
        assert line.free is not None and all(line.free.moves[a] is not None for a in (0, 1))
    rep = verify(replay)
    assert rep.ok, rep.message


MISFIT = Path(__file__).resolve().parents[1] / "data" / "bots" / "csb_misfit.py"


@pytest.mark.parametrize("mode, kind", [("one_line", "missing"), ("three_lines", "extra"),
                                        ("fullwidth", "garbage"), ("arabic", "garbage")])
def test_a_contest_bot_that_gets_its_lines_wrong(tmp_path, monkeypatch, mode, kind):
    """Too few lines by the deadline is `missing`, a line more than its pods
    is `extra` (the documented kinds), and digits of other scripts are not
    numbers to the protocol (the contest reads ASCII)."""
    monkeypatch.setenv("MODE", mode)
    sc = scenario_from_dict({
        "game": "pods", "seed": 3, "max_turns": 3, "budget": {"iterations": 50, "ms": 0},
        "players": [{"name": "CSB", "agents": [0, 1], "controller": "process",
                     "command": [sys.executable, str(MISFIT)], "protocol": "codingame-csb",
                     "timeout_ms": 300, "first_turn_ms": 10_000},
                    {"name": "Search", "agents": [2, 3]}]})
    rec = Recorder(path=tmp_path / "m.jsonl")
    with Match(sc, recorder=rec) as m:
        m.play()
    replay = read_replay(tmp_path / "m.jsonl")
    kinds = [sorted({f.kind for f in line.players[0].bot.failures}) for line in replay.turns]
    assert kinds[0] == [] and kinds[1] == [kind], kinds
    assert verify(replay).ok
