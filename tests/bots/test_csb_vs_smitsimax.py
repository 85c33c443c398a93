"""The headline of bringing your own bot: an unmodified Coders Strike Back
contest bot (examples/bots/csb_bot.py, and the C one compiled here) races
the bundled scenario scenarios/pods_csb_bot_vs_smitsimax.toml to its end
against a Smitsimax team: a pod completes the three laps (the race is won,
not cut at the turn cap), the record has every answer of the bot, and
`replay verify` re-simulates it. The arena's run of the same scenario is in
tests/app/test_arena_csb.py."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.config import load_scenario
from sandbox.replay import Recorder, read_replay, verify
from sandbox.sim.match import Match

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "pods_csb_bot_vs_smitsimax.toml"


def race_finished(replay) -> None:
    """The race ended because a pod passed every checkpoint of every lap."""
    assert replay.result is not None and replay.result.terminal
    v = replay.view_at(replay.end_turn)
    assert replay.end_turn < v.max_turns                  # not the turn cap
    assert v.laps == 3 and len(v.checkpoints) == 5
    assert v.winner in (0, 1)
    winners = [p for a, p in enumerate(v.pods) if a // v.per_player == v.winner]
    assert max(p.passed for p in winners) == v.laps * len(v.checkpoints)
    # the loser's pods are short of it (checkpoint 0 ends the race)
    assert all(p.passed < v.laps * len(v.checkpoints) for a, p in enumerate(v.pods)
               if a // v.per_player != v.winner)


def bot_answered_every_turn(replay, player: int = 0, late_ok: float = 0.0) -> None:
    """Every turn's moves are the bot's free moves; with late_ok > 0 that
    share of the turns may be a timeout (the contest's 75 ms on a loaded
    test machine), nothing else."""
    late = [t.turn for t in replay.turns if t.players[player].bot is not None
            and t.players[player].bot.failures
            and all(f.kind == "timeout" for f in t.players[player].bot.failures)]
    assert len(late) <= late_ok * len(replay.turns), late
    for line in replay.turns:
        if line.turn in late:
            continue
        bot = line.players[player].bot
        assert bot is not None and bot.failures == [] and bot.latency_ms is not None, \
            (line.turn, bot)
        assert line.free is not None
        assert all(line.free.moves[a] is not None for a in (0, 1))


def test_the_bundled_scenario_plays_to_the_end_and_verifies(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "sandbox", "play", str(SCENARIO),
                          "--replay-dir", str(tmp_path)], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    [path] = tmp_path.glob("*.jsonl")
    replay = read_replay(path)
    race_finished(replay)
    bot_answered_every_turn(replay, late_ok=0.1)      # the scenario's own 75 ms turns
    assert replay.header.scenario["players"][0]["protocol"] == "codingame-csb"
    rep = verify(replay)
    assert rep.ok, rep.message
    # and the CLI's own check says the same
    v = subprocess.run([sys.executable, "-m", "sandbox", "replay", "verify", str(path)],
                       env=env, capture_output=True, text=True, timeout=300)
    assert v.returncode == 0 and v.stdout.startswith("ok:"), v.stdout + v.stderr


def test_the_c_contest_bot_races_the_same_scenario(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    exe = tmp_path / "csb_bot"
    build = subprocess.run([cc, "-O2", "-o", str(exe), str(ROOT / "examples/bots/csb_bot.c"),
                            "-lm"], capture_output=True, text=True)
    if build.returncode != 0:
        pytest.skip(f"the C compiler failed: {build.stderr.strip()[:200]}")
    sc = load_scenario(SCENARIO)
    p0 = sc.players[0].model_copy(update={"command": [str(exe)], "cwd": str(tmp_path),
                                          "timeout_ms": 2000, "first_turn_ms": 10_000})
    sc = sc.model_copy(update={"players": [p0, sc.players[1]]})
    rec = Recorder(tmp_path, name_hint="c_bot")
    with Match(sc, recorder=rec) as m:
        m.play()
    rec.close()
    replay = read_replay(rec.path)
    race_finished(replay)
    bot_answered_every_turn(replay)
    assert replay.header.scenario["players"][0]["command"] == [str(exe)]
    rep = verify(replay)
    assert rep.ok, rep.message
