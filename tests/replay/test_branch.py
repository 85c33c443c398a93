"""Branch a match: play on from a recorded turn (sandbox.replay.branch).

Oracles: the source replay itself (its recorded hash and state at turn K,
rebuilt by re-simulation), the settings and budget changes the test made at
known turns, and `replay verify` re-simulating the branched file from its
header."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.config import Budget, load_scenario, scenario_from_dict
from sandbox.replay import Recorder, ReplayError, read_replay, verify
from sandbox.replay.branch import branch_point, in_force
from sandbox.sim.match import Match

ROOT = Path(__file__).resolve().parents[2]
SEED, ITERATIONS, TURNS = 4, 60, 14
CHANGE_TURN, K = 4, 7


def _scenario():
    base = load_scenario("snakes_standard_4p").model_dump()
    base["players"][3] = {"name": "Rand", "controller": "random"}
    return scenario_from_dict(base)


def _record(folder: Path) -> Path:
    rec = Recorder(folder, name_hint="source")
    with Match(_scenario(), seed=SEED, budget=Budget(iterations=ITERATIONS, ms=0),
               max_turns=TURNS, recorder=rec) as m:
        while not m.over:
            if m.turn == CHANGE_TURN:
                m.controllers[1].update_settings({"c": 1.7, "max_depth": 6}, turn=m.turn)
                m.set_player_budget(2, Budget(iterations=90, ms=0))
            m.play_turn()
    rec.close()
    return rec.path


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return _record(tmp_path_factory.mktemp("branch_source"))


def _play_branch(bp, folder: Path, turns: int = 4) -> Path:
    rec = Recorder(folder, name_hint=bp.name_hint)
    with Match(bp.scenario, seed=bp.seed, player_budgets=bp.player_budgets,
               max_turns=bp.turn + turns, recorder=rec, start=bp.start) as m:
        assert m.turn == bp.turn
        m.play()
    rec.close()
    return rec.path


def test_branch_point_takes_the_settings_and_budgets_in_force_at_the_turn(source):
    with read_replay(source) as r:
        before = branch_point(r, CHANGE_TURN - 1)
        after = branch_point(r, K)
        # the change was made before turn CHANGE_TURN's search (iteration 0)
        at = branch_point(r, CHANGE_TURN)
    p1 = [p.search for p in before.scenario.players][1]
    assert (p1.c, p1.max_depth) != (1.7, 6)
    for bp in (at, after):
        s1 = bp.scenario.players[1].search
        assert (s1.c, s1.max_depth) == (1.7, 6)
        assert bp.scenario.players[0].search.c == _scenario().players[0].search.c
        assert bp.scenario.players[3].controller == "random"
    # a budget set during turn CHANGE_TURN is used from the next turn's thinking
    assert before.player_budgets[2].iterations == ITERATIONS
    assert at.player_budgets[2].iterations == ITERATIONS
    assert after.player_budgets[2].iterations == 90
    assert after.player_budgets[1].iterations == ITERATIONS
    assert after.seed == SEED and after.turn == K


def test_branched_replay_header_first_state_and_verify(source, tmp_path):
    with read_replay(source) as r:
        bp = branch_point(r, K)
        want_hash = r.hash_at(K)                   # the recorded hash after turn K - 1
        with r.state_at(K) as g:
            want_words = [int(w) for w in g.export()]
    out = _play_branch(bp, tmp_path)
    h = json.loads(out.read_text().splitlines()[0])
    assert h["branched_from"] == {"file": str(source), "turn": K, "hash": want_hash}
    assert h["start_turn"] == K
    assert h["initial_hash"] == want_hash
    assert h["initial_state"] == want_words
    b = read_replay(out)
    assert [t.turn for t in b.turns] == list(range(K, K + 4))
    with b.state_at(K) as g:                      # the branch's first state is the source's K
        assert [int(w) for w in g.export()] == want_words
    rep = verify(b)
    assert rep.ok, rep.message
    assert rep.turns_checked == 4


def test_verify_starts_from_the_recorded_start_state(source, tmp_path):
    """A branched file whose stored start state was altered fails at the
    initial check: verify takes the state from the header, not from the
    scenario's first state."""
    with read_replay(source) as r:
        bp = branch_point(r, K)
    out = _play_branch(bp, tmp_path, turns=2)
    lines = out.read_text().splitlines()
    h = json.loads(lines[0])
    with read_replay(source) as r, r.state_at(K - 1) as g:
        h["initial_state"] = [int(w) for w in g.export()]     # another turn's state
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([json.dumps(h)] + lines[1:]) + "\n")
    rep = verify(read_replay(bad))
    assert not rep.ok and rep.problem == "initial"


def test_branch_from_a_branch_and_from_the_first_turn(source, tmp_path):
    with read_replay(source) as r:
        bp0 = branch_point(r, 0)
    first = _play_branch(bp0, tmp_path / "a", turns=3)
    assert verify(read_replay(first)).ok
    with read_replay(source) as r:
        bp = branch_point(r, K)
    b1 = _play_branch(bp, tmp_path / "b", turns=4)
    with read_replay(b1) as r1:
        bp2 = branch_point(r1, K + 2)
        want = r1.hash_at(K + 2)
    b2 = _play_branch(bp2, tmp_path / "c", turns=2)
    rb2 = read_replay(b2)
    assert rb2.header.branched_from.hash == want
    assert rb2.header.branched_from.file == str(b1)
    assert verify(rb2).ok


def test_branch_point_refuses_turns_it_cannot_start_from(source):
    with read_replay(source) as r:
        for bad in (-1, TURNS + 1):
            with pytest.raises(ReplayError, match="can be played on from"):
                branch_point(r, bad)
        with pytest.raises(ReplayError, match="stops at turn"):
            branch_point(r, TURNS)                   # max_turns reached: nothing to play
        with pytest.raises(ReplayError, match="expected a turn number"):
            branch_point(r, "3")


def test_in_force_ignores_a_change_made_after_the_turns_search(source):
    with read_replay(source) as r:
        search, budget = in_force(r, 1, CHANGE_TURN - 1)
        assert search["c"] != 1.7 and budget["iterations"] == ITERATIONS


def _main(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy")
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


def test_cli_branch_at_plays_on_headless_and_the_replay_verifies(source, tmp_path):
    p = _main("--replay", str(source), "--branch-at", str(K), "--headless", "--record",
              "--replay-dir", str(tmp_path), "--turns", "3", "--quiet")
    assert p.returncode == 0, p.stderr
    files = sorted(tmp_path.glob("*branch-t7*.jsonl"))
    assert len(files) == 1, list(tmp_path.iterdir())
    r = read_replay(files[0])
    assert r.header.branched_from.turn == K and r.header.start_turn == K
    assert len(r.turns) == 3 and r.result is not None and r.result.turns == K + 3
    assert verify(r).ok


@pytest.mark.parametrize("args, msg", [
    (["--branch-at", "3"], "give --replay FILE"),
    (["--branch-at", "99"], "can be played on from"),
    (["--branch-at", "-2"], "--branch-at must be >= 0"),
    (["--branch-at", "3", "--seed", "9"], "keeps the recorded seed"),
])
def test_cli_branch_at_bad_input_is_one_line(source, args, msg):
    if args[0] != "--branch-at" or "give" not in msg:
        args = ["--replay", str(source), *args]
    p = _main(*args, "--headless")
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and msg in lines[0], p.stderr


def test_cli_branch_at_in_the_app_screenshot(source, tmp_path):
    out = tmp_path / "branch.png"
    p = _main("--replay", str(source), "--branch-at", str(K), "--screenshot", str(out),
              "--turns", "2")
    assert p.returncode == 0, p.stderr
    assert out.stat().st_size > 0
    assert f"(turn {K + 2})" in p.stdout


def test_a_pymunk_pods_race_branches_and_verifies(tmp_path):
    """Stored states (a pymunk world): the branch's world restarts its
    physics from the imported state, and verify replays the new file."""
    rec = Recorder(tmp_path / "src", name_hint="pods")
    with Match(load_scenario("pods_race_2v2_pymunk"), seed=2,
               budget=Budget(iterations=30, ms=0), max_turns=8, recorder=rec) as m:
        m.play()
    rec.close()
    with read_replay(rec.path) as r:
        bp = branch_point(r, 5)
        want = r.hash_at(5)
    out = _play_branch(bp, tmp_path / "b", turns=3)
    b = read_replay(out)
    assert b.header.branched_from.hash == want and b.turns[0].state is not None
    assert verify(b).ok
