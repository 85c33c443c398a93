"""Replays of a pods race in the pymunk world (physics = "pymunk"): every
turn line stores the state after the step; verify() and playback import it
(pymunk is not re-simulated) and check it against the turn's hash; a csb
replay still re-simulates."""
from __future__ import annotations

import json

import pytest

from sandbox.config import Budget, load_scenario
from sandbox.games.pods.view import decode_pods
from sandbox.replay import Recorder, ReplayError, read_replay, verify
from sandbox.sim.match import Match

TURNS = 14


@pytest.fixture(scope="module")
def pymunk_replay(tmp_path_factory):
    d = tmp_path_factory.mktemp("pymunk")
    rec = Recorder(d, name_hint="pymunk")
    with Match(load_scenario("pods_race_2v2_pymunk"), budget=Budget(ms=0, iterations=60),
               max_turns=TURNS, recorder=rec) as m:
        m.play()
        history = list(m.history)
    rec.close()
    return rec.path, history


def _edit(path, tmp_path, line_no, edit):
    lines = path.read_bytes().split(b"\n")
    obj = json.loads(lines[line_no])
    edit(obj)
    lines[line_no] = json.dumps(obj).encode()
    out = tmp_path / "edited.jsonl"
    out.write_bytes(b"\n".join(lines))
    return out


def test_a_pymunk_replay_stores_states_and_verifies(pymunk_replay):
    path, history = pymunk_replay
    r = read_replay(path)
    assert r.stored_states and r.header.scenario["physics"] == "pymunk"
    assert [t.state for t in r.turns] == [list(h.state) for h in history]
    assert [t.divergence for t in r.turns] == [[round(x, 3) for x in h.divergence]
                                               for h in history]
    report = verify(r)
    assert report.ok and report.turns_checked == TURNS, report.message


def test_a_pymunk_replay_is_not_re_simulated(pymunk_replay, tmp_path):
    """Contacts make pymunk's states differ from the C model's: re-simulating
    the joints alone would not reach the recorded hashes (which is why the
    states are stored) unless the race had no contact at all."""
    path, history = pymunk_replay
    if not any(max(h.divergence) > 0 for h in history):
        pytest.skip("no contact in this race")
    # the same file told it is a csb race: re-simulation fails at the first
    # turn whose world differed from the C model
    first = next(i for i, h in enumerate(history) if max(h.divergence) > 0)
    out = _edit(path, tmp_path, 0, lambda o: o["scenario"].update(physics="csb"))
    report = verify(read_replay(out))
    assert not report.ok and report.problem == "hash" and report.first_divergence == first


def test_a_tampered_stored_state_fails_at_its_turn(pymunk_replay, tmp_path):
    path, _ = pymunk_replay
    turn = 6

    def edit(obj):
        obj["state"][-12] += 3   # the last pod's x (POD_WORDS = 12 words a pod)
    out = _edit(path, tmp_path, turn + 1, edit)
    report = verify(read_replay(out))
    assert not report.ok and report.first_divergence == turn and report.problem == "hash"
    with read_replay(out) as r, pytest.raises(ReplayError, match=f"turn {turn}: state hash"):
        r.state_at(turn + 1)


def test_a_missing_or_refused_stored_state(pymunk_replay, tmp_path):
    path, _ = pymunk_replay
    out = _edit(path, tmp_path, 4, lambda o: o.pop("state"))
    report = verify(read_replay(out))
    assert not report.ok and report.problem == "state" and report.first_divergence == 3
    assert "no stored state" in report.message
    out = _edit(path, tmp_path, 4, lambda o: o["state"].__setitem__(0, 99))
    report = verify(read_replay(out))
    assert not report.ok and report.problem == "state" and "refused" in report.message
    # a stored state of another turn (turn is word 5 of a pods export)
    out = _edit(path, tmp_path, 4, lambda o: o["state"].__setitem__(5, 7))
    report = verify(read_replay(out))
    assert not report.ok and report.problem == "state" and "turn 7, not 4" in report.message


def test_playback_shows_the_stored_states(pymunk_replay):
    path, history = pymunk_replay
    with read_replay(path) as r:
        for t in (1, 5, TURNS):
            assert r.view_at(t) == decode_pods(history[t - 1].state)


def test_research_replays_the_stored_states(pymunk_replay):
    """`replay research` rebuilds a player's search over the stored states:
    from the kept tree it reproduces the recorded search exactly (on states
    re-simulated by C it would not be the same tree)."""
    from sandbox.replay.research import research
    path, history = pymunk_replay
    turn = 9
    r = research(read_replay(path), turn, 2, keep_tree=True)
    assert r.identical
    root = {s.move: s.visits for s in history[turn].players[1].root_stats[2]}
    assert {x.move: x.visits for x in r.rows} == {m: v for m, v in root.items() if m >= 0}
