"""`replay research`: re-search a recorded turn.

The oracle is the recording itself: the root visits each search published
when it decided in the real match. Re-searching with the recorded settings
and iteration count must give exactly those visits when the match had tree
reuse off (the search's generator state is rebuilt from the recorded seed,
iterations and settings changes), and only from the kept tree when it had
reuse on."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.config import Budget, load_scenario, scenario_from_dict
from sandbox.replay import Recorder, ReplayError, read_replay
from sandbox.replay.research import parse_assignments, research
from sandbox.sim.match import Match
from sandbox.sim.live import LiveMatch

ROOT = Path(__file__).resolve().parents[2]
ITERATIONS, TURNS, CHANGE_TURN = 200, 12, 4


def _scenario(reuse: bool, random_last: bool = False):
    base = load_scenario("snakes_standard_4p").model_dump()
    for p in base["players"]:
        p["search"]["tree_reuse"] = reuse
    if random_last:
        base["players"][3] = {"name": "Rand", "controller": "random"}
    return scenario_from_dict(base)


def _record(folder: Path, reuse: bool) -> Path:
    rec = Recorder(folder, name_hint=f"reuse{int(reuse)}")
    with Match(_scenario(reuse, random_last=True), seed=7,
               budget=Budget(iterations=ITERATIONS, ms=0), max_turns=TURNS, recorder=rec) as m:
        while not m.over:
            if m.turn == CHANGE_TURN:   # a live change: the re-search must replay it
                m.controllers[1].update_settings({"c": 1.4, "max_depth": 7}, turn=m.turn)
            m.play_turn()
    rec.close()
    return rec.path


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("research")
    return {"off": _record(folder, False), "on": _record(folder, True)}


def cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "sandbox", "replay", "research", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def _recorded_visits(path: Path, turn: int, agent: int) -> dict[int, int]:
    for raw in path.read_text().splitlines():
        obj = json.loads(raw)
        if obj["type"] == "turn" and obj["turn"] == turn:
            for p in obj["players"]:
                for a in p["agents"]:
                    if a["agent"] == agent:
                        return {m["move"]: m["visits"] for m in a["root"]}
    raise AssertionError("no such turn")


def test_reuse_off_reproduces_the_recorded_root_visits_exactly(files):
    path = files["off"]
    p = cli(str(path), "--turn", "6", "--agent", "1", "--json")
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)
    want = _recorded_visits(path, 6, 1)
    assert sum(want.values()) == ITERATIONS
    assert {r["move"]: r["visits"] for r in rep["rows"]} == want
    assert {r["move"]: r["recorded_visits"] for r in rep["rows"]} == want
    assert rep["identical"] and not rep["move_changed"] and rep["changes"] == {}
    assert rep["settings"]["c"] == 1.4 and rep["settings"]["max_depth"] == 7  # the live change
    assert rep["replayed_iterations"] == 6 * ITERATIONS
    assert not any("kept tree" in n for n in rep["notes"])
    # every turn and every search player, through the Python API
    replay = read_replay(path)
    for turn in range(TURNS):
        for agent in (0, 1, 2):
            if replay.by_turn[turn].joint[agent] is None:
                continue
            r = research(replay, turn, agent)
            assert r.identical, (turn, agent)
            assert {x.move: x.visits for x in r.rows} == _recorded_visits(path, turn, agent)


def test_reuse_on_says_the_recorded_search_began_from_a_kept_tree(files):
    path = files["on"]
    p = cli(str(path), "--turn", "6", "--agent", "1")
    assert p.returncode == 0, p.stderr
    assert "note: the recorded search began from a kept tree (tree reuse on)" in p.stdout
    assert "start: a fresh tree on the recorded state" in p.stdout
    want = _recorded_visits(path, 6, 1)
    assert sum(want.values()) > ITERATIONS            # the kept subtree's visits are in it
    # from the kept tree, the recorded search is reproduced exactly
    p = cli(str(path), "--turn", "6", "--agent", "1", "--keep-tree", "--json")
    rep = json.loads(p.stdout)
    assert rep["from_kept_tree"] and rep["identical"]
    assert {r["move"]: r["visits"] for r in rep["rows"]} == want


def test_a_changed_setting_is_run_and_the_differences_are_printed(files):
    path = files["off"]
    p = cli(str(path), "--turn", "2", "--agent", "0", "--set", "c=3.0", "--set",
            "policy=exp3", "--iterations", "500", "--json")
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)
    assert rep["changes"] == {"c": [0.7, 3.0], "policy": ["ucb1", "exp3"]}
    assert rep["settings"]["policy"] == "exp3" and rep["iterations"] == 500
    assert sum(r["visits"] for r in rep["rows"]) == 500
    assert {r["move"]: r["recorded_visits"] for r in rep["rows"]} == \
        _recorded_visits(path, 2, 0)
    for r in rep["rows"]:   # shares and their differences, recomputed
        assert r["share"] == pytest.approx(r["visits"] / 500)
        assert r["share_change"] == pytest.approx(r["share"] - r["recorded_share"])
    assert rep["move_changed"] == (rep["move"] != rep["recorded_move"])
    text = cli(str(path), "--turn", "2", "--agent", "0", "--set", "c=3.0").stdout
    assert "settings: c 0.7→3" in text and "Δshare" in text and "value: recorded" in text
    assert ("move: CHANGED" in text) or ("as recorded" in text)


@pytest.mark.parametrize("args, words", [
    (["--turn", "2", "--agent", "0", "--set", "cc=1"], "not a search setting"),
    (["--turn", "2", "--agent", "0", "--set", "c=abc"], "c"),
    (["--turn", "2", "--agent", "0", "--set", "c=99"], "c"),
    (["--turn", "2", "--agent", "0", "--set", "c"], "FIELD=VALUE"),
    (["--turn", "2", "--agent", "0", "--set", "policy=nope"], "policy"),
    (["--turn", "99", "--agent", "0"], "no decision recorded"),
    (["--turn", "2", "--agent", "9"], "agents 0..3"),
    (["--turn", "2", "--agent", "3"], "random player"),
    (["--turn", "2", "--agent", "0", "--iterations", "0"], "--iterations"),
    (["--turn", "x", "--agent", "0"], "invalid int"),
    (["--agent", "0"], "--turn"),
])
def test_bad_input_is_one_error_line(files, args, words):
    p = cli(str(files["off"]), *args)
    assert p.returncode != 0
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and words in err[0], p.stderr
    assert "Traceback" not in p.stderr


def test_assignments_are_read_as_toml_values():
    assert parse_assignments(["c=1.2", "policy=exp3", "tree_reuse=false", "search.gamma=0.9"]) \
        == {"c": 1.2, "policy": "exp3", "tree_reuse": False, "gamma": 0.9}
    with pytest.raises(ReplayError):
        parse_assignments(["=1"])
    # what follows a newline is not read as more settings (TOML would)
    with pytest.raises(ReplayError, match="control character"):
        parse_assignments(["c=1.5\n[x]\ny=2"])


def test_a_change_made_after_the_turn_was_decided_lands_after_its_search(tmp_path):
    """In the app, the next turn's search runs as soon as a turn is played:
    a slider moved while paused changes settings after that search. The
    recording says so (the change's iteration is the turn's whole count),
    and the re-search of that turn and the next still reproduces them."""
    recs = []

    def factory():
        recs.append(Recorder(tmp_path, name_hint="live"))
        return recs[-1]

    live = LiveMatch(_scenario(False), seed=2, budget=Budget(ms=0, iterations=150),
                     recorder_factory=factory, paused=True)
    try:
        for k in range(4):
            deadline = time.monotonic() + 60
            while not live.match.turn_ready():
                assert time.monotonic() < deadline
                time.sleep(0.001)
            if k == 2:
                live.update_settings(0, c=2.5)      # turn 2 is decided already
            turn = live.match.turn
            live.step()
            while live.match.turn == turn:
                assert time.monotonic() < deadline
                live.update(1000.0)
                time.sleep(0.001)
    finally:
        live.close()
    replay = read_replay(recs[-1].path)
    change = replay.by_turn[2].players[0].changes[0]
    assert change.iteration == 150 and change.changes["c"] == (0.7, 2.5)
    for turn in (1, 2, 3):
        r = research(replay, turn, 0)
        assert r.identical, turn
        assert r.settings["c"] == (0.7 if turn <= 2 else 2.5)


@pytest.mark.parametrize("kwargs", [
    {"turn": "2"}, {"turn": 2.0}, {"turn": True}, {"agent": None}, {"agent": 1.5},
    {"iterations": "10"}, {"iterations": 0}, {"ms": "5"}, {"ms": float("nan")}, {"ms": -1.0},
    {"changes": ["c=1"]}, {"changes": {"c": "x"}}, {"changes": {"nope": 1}},
])
def test_wrong_python_arguments_are_the_projects_error(files, kwargs):
    replay = read_replay(files["off"])
    args = {"turn": 2, "agent": 0, **kwargs}
    with pytest.raises(ReplayError):
        research(replay, **args)
    replay.close()


def test_a_time_budget_match_is_reproduced_by_its_recorded_iteration_counts(tmp_path):
    base = load_scenario("snakes_duel_trees").model_dump()
    for p in base["players"]:
        if p.get("search"):
            p["search"]["tree_reuse"] = False
    rec = Recorder(tmp_path, name_hint="ms")
    with Match(scenario_from_dict(base), seed=3, budget=Budget(ms=15), max_turns=4,
               recorder=rec) as m:
        m.play()
    rec.close()
    replay = read_replay(rec.path)
    for turn in range(4):
        r = research(replay, turn, 0)
        assert r.iterations == r.recorded_iterations > 0
        assert r.identical, turn
        assert any("time budget" in n for n in r.notes)


def test_a_parallel_re_search_says_it_is_not_bit_reproducible(files):
    """threads > 1 (a parallel mode): the report says the statistics cannot
    repeat exactly; one thread (the recording's) says nothing of the kind."""
    from sandbox.native import cores
    path = files["off"]
    plain = research(read_replay(path), turn=2, agent=0, iterations=300)
    assert not any("bit-reproducible" in n for n in plain.notes)
    if cores() < 2:
        pytest.skip("needs two cores")
    rep = research(read_replay(path), turn=2, agent=0, iterations=300,
                   changes={"parallel": "wu_uct", "threads": 2})
    assert any("not bit-reproducible" in n for n in rep.notes)
    assert sum(r.visits or 0 for r in rep.rows) == 300


def test_a_setting_the_policy_does_not_read_is_named(files, tmp_path):
    """--set c on an Exp3 player: C is UCB's, Exp3 never reads it; the report
    names the search in force and says the change has no effect (it said
    nothing and a difference looked like C's doing)."""
    base = load_scenario("goofspiel_13_duel").model_dump()
    for p in base["players"]:
        p["search"]["policy"] = "exp3"
    rec = Recorder(tmp_path, name_hint="exp3")
    with Match(scenario_from_dict(base), seed=3, budget=Budget(iterations=100, ms=0),
               max_turns=3, recorder=rec) as m:
        m.play()
    rec.close()
    rep = research(read_replay(rec.path), 1, 0, {"c": 2.5})
    assert rep.search == "smitsimax / exp3"
    assert any(n.startswith("c: not read by smitsimax / exp3") for n in rep.notes), rep.notes
    assert "search: smitsimax / exp3" in rep.text()
    read = research(read_replay(rec.path), 1, 0, {"exploration": 0.2})
    assert not any("not read by" in n for n in read.notes)


def test_a_fresh_tree_against_a_kept_one_is_not_a_change(files):
    """Without --set, on a match with tree reuse: a different move comes from
    starting afresh, not from any setting; the report says so instead of
    "move CHANGED"."""
    from dataclasses import replace
    rep = research(read_replay(files["on"]), 5, 0)
    assert rep.recorded_kept_tree and not rep.from_kept_tree and not rep.changes
    forced = replace(rep, move_changed=True, identical=False,
                     move=rep.recorded_move + 1 if rep.recorded_move < 3 else 0)
    assert "move differs" in forced.difference() and "CHANGED" not in forced.difference()
    assert "move: differs" in forced.text() and "CHANGED" not in forced.text()
    kept = research(read_replay(files["on"]), 5, 0, keep_tree=True)
    assert not kept.fresh_vs_kept


def test_a_hidden_information_seat_is_re_searched_from_its_own_view(tmp_path):
    """On a game that hides information a determinized search samples what
    its own seat cannot see (info_seat -1: the seat it plays for). The
    re-search gives C the seat as the live controller did, so the second
    seat's recorded root visits come back exactly (the first seat plays at
    random, so the two hands differ and seat 0's view would sample the
    second seat's own hand)."""
    scn = scenario_from_dict({
        "game": "goofspiel", "game_params": {"num_cards": 5, "imp_info": 1},
        "players": [{"name": "A", "controller": "random"},
                    {"name": "B", "search": {"tree_reuse": False}}]})
    rec = Recorder(tmp_path, name_hint="hidden")
    with Match(scn, seed=3, budget=Budget(iterations=300, ms=0), max_turns=3,
               recorder=rec) as m:
        while not m.over:
            m.play_turn()
    rec.close()
    want = _recorded_visits(rec.path, 2, 1)
    with read_replay(rec.path) as replay:
        rep = research(replay, 2, 1)
    assert {r.move: r.visits for r in rep.rows if r.visits} == want
    assert rep.identical
