"""The Coders Strike Back text protocol (sandbox/bots/codingame.py):
its lines for a known state written out by hand, its reply parsing, its
refusals, and two unmodified contest bots (examples/bots/csb_bot.py and
csb_bot.c) racing three laps of a custom map through it, recorded and
verified from the record.

The race runs the bots with a small subprocess loop of this test's own (the
process-agent controller lives in sandbox.bots, built alongside; it will
carry the protocol once both are in the tree)."""
from __future__ import annotations

import math
import os
import select
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from sandbox.config import Budget, scenario_from_dict
from sandbox.games import plugin
from sandbox.bots.codingame import BotStart, BotTurn, CodinGameCSB, ReplyError
from sandbox.games.pods.view import decode_pods, encode_pods
from sandbox.native import FreeMove, Game, InvalidArgument
from sandbox.replay import Recorder, read_replay, verify
from sandbox.sim.match import Match
from sandbox.sim.controller import Controller

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "examples" / "bots"
PODS = plugin("pods")
MAP = [[2500, 4500], [7000, 1500], [13500, 2200], [12500, 7000], [6500, 7200]]


def start(view, agents=(0, 1)) -> BotStart:
    return BotStart(kind="pods", params={}, player=agents[0] // 2, agents=tuple(agents),
                    num_agents=view.num_pods, move_names=(), seed=0, view=view,
                    timeout_ms=75.0, first_turn_ms=1000.0)


def turn(view, agents=(0, 1)) -> BotTurn:
    return BotTurn(turn=view.turn, view=view, legal={a: tuple(range(11)) for a in agents},
                   time_ms=75.0, agents=tuple(agents))


def known_state():
    """A 2 x 2 race on a three-checkpoint map with every pod set by hand."""
    g = Game("pods", PODS.c_params({"checkpoints": [[1000, 2000], [9000, 3000],
                                                    [5000, 8000]], "laps": 2}))
    v = decode_pods(g.export())
    v = replace(v, turn=7)
    v = v.with_pod(0, x=4000, y=2500, vx=312, vy=-41, angle=12.4, next_cp=1, passed=0)
    v = v.with_pod(1, x=3100, y=2900, vx=-5, vy=0, angle=359.5, next_cp=2, passed=1)
    v = v.with_pod(2, x=8800, y=3100, vx=0, vy=-601, angle=270.49, next_cp=0, passed=2)
    v = v.with_pod(3, x=15000, y=100, vx=7, vy=8, angle=180.5, next_cp=1, passed=3)
    g.import_state(encode_pods(v))
    return g, decode_pods(g.export())


def test_start_and_turn_lines_of_a_known_state():
    g, v = known_state()
    p = CodinGameCSB()
    assert p.start_lines(start(v)) == ["2", "3", "1000 2000", "9000 3000", "5000 8000"]
    # own pods first, then the opponent's; the angle rounded half up
    # (359.5 -> 360, 270.49 -> 270, 180.5 -> 181)
    assert p.turn_lines(turn(v)) == ["4000 2500 312 -41 12 1", "3100 2900 -5 0 360 2",
                                     "8800 3100 0 -601 270 0", "15000 100 7 8 181 1"]
    # seen from the other team: its pods first
    q = CodinGameCSB()
    q.start_lines(start(v, (2, 3)))
    assert q.turn_lines(turn(v, (2, 3))) == ["8800 3100 0 -601 270 0", "15000 100 7 8 181 1",
                                             "4000 2500 312 -41 12 1", "3100 2900 -5 0 360 2"]
    assert q.reply_line_count(turn(v, (2, 3))) == 2 and q.end_lines((0, 0, 2, 2), ()) == []
    g.close()


def test_the_first_turn_sends_angle_minus_one():
    with Game("pods", PODS.c_params({"checkpoints": MAP}), seed=0) as g:
        v = decode_pods(g.export())
        p = CodinGameCSB()
        p.start_lines(start(v))
        lines = p.turn_lines(turn(v))
        assert [int(line.split()[4]) for line in lines] == [-1, -1, -1, -1]
        # start positions, still, heading for checkpoint 1
        assert [tuple(map(int, line.split()))[:4] for line in lines] == \
            [(q.x, q.y, 0, 0) for q in v.pods]
        assert {int(line.split()[5]) for line in lines} == {1}


def test_reply_parsing():
    g, v = known_state()
    p = CodinGameCSB()
    p.start_lines(start(v))
    t = turn(v)
    r = p.parse_reply(["9000 3000 200", "-50 8000 BOOST  hello there"], t)
    assert r.moves == {0: FreeMove(9000, 3000, 200), 1: FreeMove.boost(-50, 8000)}
    assert r.debug["message"] == "hello there"
    r = p.parse_reply(["1 2 SHIELD", "3 4 0"], t)
    assert r.moves == {0: FreeMove.shield(1, 2), 1: FreeMove(3, 4, 0)} and r.debug is None
    bad = {"garbage": [["9000 3000", "1 1 1"], ["9000.5 3000 100", "1 1 1"],
                       ["a b c", "1 1 1"], ["1 1 boost", "1 1 1"], ["1 1 100", ""],
                       ["99999999999 1 100", "1 1 1"]],
           "illegal": [["1 1 201", "1 1 1"], ["1 1 -1", "1 1 1"]],
           "missing": [["1 1 1"]], "extra": [["1 1 1"] * 3]}
    for kind, cases in bad.items():
        for lines in cases:
            with pytest.raises(ReplyError) as e:
                p.parse_reply(lines, t)
            assert e.value.kind == kind, (lines, e.value)
    g.close()


def test_other_setups_are_refused_in_one_line():
    for params, agents in (({"players": 1, "pods_per_player": 2}, (0, 1)),
                           ({"players": 2, "pods_per_player": 1}, (0,)),
                           ({"players": 4}, (0, 1))):
        with Game("pods", params) as g:
            with pytest.raises(InvalidArgument, match="2 players x 2 pods") as e:
                CodinGameCSB().start_lines(start(decode_pods(g.export()), agents))
            assert "\n" not in str(e.value)
    with Game("pods", {}) as g:
        with pytest.raises(InvalidArgument, match=r"one team's two pods"):
            CodinGameCSB().start_lines(start(decode_pods(g.export()), (1, 2)))


# ------------------------------------------------------------------ the race
class CsbProcess(Controller):
    """A contest bot in a subprocess, spoken to through CodinGameCSB: the
    test's stand-in for the process-agent controller."""

    kind = "process"

    def __init__(self, player, agents, argv, name):
        super().__init__(player, agents, name)
        self.proto = CodinGameCSB()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.started = False
        self.messages = 0
        self.pending = b""

    def _send(self, lines):
        self.proc.stdin.write("".join(line + "\n" for line in lines).encode())

    def _read_line(self, deadline):
        # raw reads: a buffered reader would hide a second line from select
        while b"\n" not in self.pending:
            ready, _, _ = select.select([self.proc.stdout], [], [],
                                        max(0.0, deadline - time.time()))
            assert ready, f"{self.name}: no reply in time"
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            assert chunk, f"{self.name}: the bot exited"
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode()

    def _decide(self, turn_no, game):
        view = PODS.decode(game.export())
        if not self.started:
            self._send(self.proto.start_lines(start(view, self.agents)))
            self.started = True
        t = BotTurn(turn=turn_no, view=view,
                    legal={a: tuple(game.legal_moves(a)) for a in self.agents
                           if game.is_alive(a)}, time_ms=75.0, agents=self.agents)
        self._send(self.proto.turn_lines(t))
        deadline = time.time() + 10.0      # generous: a loaded test machine
        reply = self.proto.parse_reply([self._read_line(deadline)
                                        for _ in range(self.proto.reply_line_count(t))], t)
        self.messages += reply.debug is not None
        return {a: reply.moves.get(a) for a in self.agents}

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            f.close()


def c_bot(tmp_path: Path) -> list[str]:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc) to build examples/bots/csb_bot.c")
    exe = tmp_path / "csb_bot"
    subprocess.run([cc, "-O2", "-o", str(exe), str(BOTS / "csb_bot.c"), "-lm"], check=True,
                   capture_output=True)
    return [str(exe)]


def test_two_contest_bots_race_three_laps_and_the_record_verifies(tmp_path):
    sc = scenario_from_dict({
        "name": "csb bots", "game": "pods", "seed": 1, "max_turns": 0,
        "game_params": {"checkpoints": MAP, "laps": 3},
        "players": [{"name": "py", "agents": [0, 1], "controller": "bot"},
                    {"name": "c", "agents": [2, 3], "controller": "bot"}]}, source="test")
    rec = Recorder(tmp_path, name_hint="csb")
    with Match(sc, budget=Budget(iterations=1, ms=0)) as m:
        for c in m.controllers:
            c.close()
        m.controllers[:] = [
            CsbProcess(0, (0, 1), [sys.executable, str(BOTS / "csb_bot.py")], "py"),
            CsbProcess(1, (2, 3), c_bot(tmp_path), "c")]
        m.recorder = rec
        rec.begin(m)
        result = m.play()
        py_messages = m.controllers[0].messages
    rec.close()
    # three laps of five checkpoints, won by a team that passed them all
    assert result.terminal
    replay = read_replay(rec.path)
    v = decode_pods(_final_words(replay))
    winner = v.winner
    assert winner in (0, 1)
    assert max(q.passed for q in v.pods[2 * winner: 2 * winner + 2]) == 15
    # every turn was played by free moves, recorded as such
    assert all(line.free is not None and line.joint == [None] * 4 for line in replay.turns)
    kinds = {f.kind for line in replay.turns for f in line.free.moves if f is not None}
    assert "thrust" in kinds and "boost" in kinds
    assert py_messages == len(replay.turns)            # the Python bot's messages came back
    report = verify(replay)
    assert report.ok and report.turns_checked == len(replay.turns) == result.turns, report
    assert 60 < result.turns < 500
    print(f"race: {result.turns} turns, {result.line()}, kinds {sorted(kinds)}")


def _final_words(replay):
    g = replay.new_game()
    for line in replay.turns:
        replay.play_line(g, line)
    words = g.export()
    g.close()
    return words
