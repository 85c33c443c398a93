"""Stats definitions, CSV export and `replay stats` / `replay export`."""
from __future__ import annotations

import csv
import json
import math
import os

import pytest

from sandbox.cli import main
from sandbox.replay import compute_stats, read_replay, to_csv
from sandbox.replay.format import RootMove
from sandbox.replay.stats import (CSV_COLUMNS, best_visits_share, root_value,
                                  visit_entropy)


def _root(*pairs):
    return [RootMove(move=m, visits=v, mean=x, prob=0.0) for m, v, x in pairs]


def test_definitions():
    uniform = _root((0, 10, 1.0), (1, 10, 0.0), (2, 10, 0.5), (3, 10, -1.0))
    assert visit_entropy(uniform) == pytest.approx(2.0)          # bits
    assert root_value(uniform) == pytest.approx(0.125)
    assert best_visits_share(uniform) == pytest.approx(0.25)
    one = _root((2, 50, 0.3), (1, 0, 0.0))
    assert visit_entropy(one) == 0.0 and root_value(one) == pytest.approx(0.3)
    assert best_visits_share(one) == 1.0
    # a pass child (-1) is left out
    with_pass = _root((0, 30, 1.0), (1, 10, 0.0), (-1, 500, -5.0))
    assert root_value(with_pass) == pytest.approx(0.75)
    assert visit_entropy(with_pass) == pytest.approx(-(0.75 * math.log2(0.75)
                                                       + 0.25 * math.log2(0.25)))
    for f in (root_value, visit_entropy, best_visits_share):
        assert math.isnan(f([])) and math.isnan(f(_root((0, 0, 0.0))))


def test_per_turn_rows(recorded):
    st = compute_stats(read_replay(recorded.path))
    assert len(st.rows) == 4 * len(recorded.history)
    for rec in recorded.history[:20]:
        rows = [r for r in st.rows if r.turn == rec.turn]
        for r in rows:
            p = rec.players[r.player]
            assert r.iterations == p.iterations and r.move == rec.joint[r.agent]
            stats = p.root_stats.get(r.agent, ())
            total = sum(s.visits for s in stats if s.move >= 0)
            if total:
                want = sum(s.visits * s.mean for s in stats if s.move >= 0) / total
                assert r.root_value == pytest.approx(want, abs=1e-5)
            else:
                assert math.isnan(r.root_value)
    assert set(st.root_value) == set(st.entropy) == set(st.iterations) == {"Red", "Green", "Blue"}
    assert all(len(v) == len(recorded.history) for v in st.entropy.values())


def test_csv(recorded, tmp_path):
    out = tmp_path / "turns.csv"
    n = to_csv(read_replay(recorded.path), out)
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert n == len(rows) == 4 * len(recorded.history)
    assert tuple(rows[0]) == CSV_COLUMNS
    first = rows[:4]
    assert [int(r["move"]) for r in first] == list(recorded.history[0].joint)
    # and by name, as the game names them (snakes: up/down/left/right)
    assert all(r["move_name"] in ("up", "down", "left", "right") for r in first), first
    assert [int(r["agent"]) for r in first] == [0, 1, 2, 3]
    assert first[3]["root_value"] == "" and first[0]["root_value"] != ""   # random player
    assert int(first[0]["iterations"]) == recorded.history[0].players[0].iterations
    assert rows[-1]["hash"] == f"{recorded.result.final_hash:016x}"


def test_cli_stats_json(recorded, capsys):
    assert main(["replay", "stats", str(recorded.path), "--json"]) == 0
    out = capsys.readouterr().out
    d = json.loads(out)
    assert d["turns"] == len(recorded.history) and d["winner"] == recorded.result.winner
    assert d["finished"] is True and len(d["agents"]) == 4
    assert d["agents"][3]["mean_root_value"] is None
    assert d["agents"][0]["changes"][0]["changes"] == {"c": [0.7, 1.3], "max_depth": [10, 8]}


def test_cli_stats_text_and_export(recorded, tmp_path, capsys):
    assert main(["replay", "stats", str(recorded.path)]) == 0
    out = capsys.readouterr().out
    res = recorded.result
    assert f"winner: {res.winner} ({res.names[res.winner]})" in out
    assert "settings Red: turn 5" in out
    csv_path = tmp_path / "x.csv"
    assert main(["replay", "export", str(recorded.path), "--csv", str(csv_path)]) == 0
    assert csv_path.exists()
    assert main(["replay", "export", str(recorded.path), "--csv",
                 str(tmp_path / "no" / "dir" / "x.csv")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "cannot write" in err[0]
    # "-" is standard output (it used to write a file named "-"), the same
    # CSV as the file
    monkeypatch_cwd = tmp_path / "cwd"
    monkeypatch_cwd.mkdir()
    old_cwd = os.getcwd()
    os.chdir(monkeypatch_cwd)
    try:
        assert main(["replay", "export", str(recorded.path), "--csv", "-"]) == 0
    finally:
        os.chdir(old_cwd)
    assert capsys.readouterr().out.replace("\r\n", "\n") == csv_path.read_text(encoding="utf-8")
    assert not (monkeypatch_cwd / "-").exists()


def test_death_turns_and_match_length_follow_the_game(recorded, capsys):
    """A snake killed by the step of turn record k is out at turn k+1: the
    game's death_turn, what the board at k+1 shows and the arena says. The
    match lasted as many turns as the result line says."""
    with read_replay(recorded.path) as replay:
        killed = {a: line.turn for line in replay.turns for a in line.eliminated}
        assert killed
        for a, k in killed.items():
            assert replay.view_at(k).snakes[a].alive
            dead = replay.view_at(k + 1).snakes[a]
            assert not dead.alive and dead.death_turn == k + 1
        st = compute_stats(replay)
    assert st.turns == recorded.result.turns
    assert {ag.agent: ag.eliminated_turn for ag in st.agents if ag.eliminated_turn is not None} \
        == {a: k + 1 for a, k in killed.items()}
    assert {(m.turn, m.who) for m in st.markers if m.kind == "elimination"} == \
        {(k + 1, a) for a, k in killed.items()}
    assert main(["replay", "stats", str(recorded.path), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["turns"] == recorded.result.turns
    for ag in d["agents"]:
        assert ag["eliminated_turn"] == (killed[ag["agent"]] + 1 if ag["agent"] in killed
                                         else None)
    assert main(["replay", "stats", str(recorded.path)]) == 0
    out = capsys.readouterr().out
    assert f"| {recorded.result.turns} turns | finished" in out
    rows = {int(x.split()[0]): x.split()[-1] for x in out.splitlines()
            if x[:5].strip().isdigit()}
    assert rows == {a: str(killed[a] + 1) if a in killed else "-" for a in range(4)}


def test_match_length_with_a_dropped_turn_line(recorded, tmp_path, capsys):
    path = recorded.copy_to(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[1 + 10] = b"{garbage\n"
    path.write_bytes(b"".join(lines))
    st = compute_stats(read_replay(path))
    n = recorded.result.turns
    assert (st.turns, st.turns_recorded) == (n, n - 1)
    assert f"| {n} turns ({n - 1} of them recorded) | finished" in st.text()
    assert st.to_dict()["turns"] == n


def test_no_full_tree_in_a_roomy_match(recorded):
    st = compute_stats(read_replay(recorded.path))
    assert all(a.node_cap_turns == () for a in st.agents)
    assert [a.node_cap for a in st.agents] == [1 << 21] * 3 + [None]   # the random player
    assert "tree full (node cap): never" in st.text().splitlines()


def test_a_match_stopped_at_its_turn_limit_is_not_called_finished(tmp_path, capsys):
    """--turns cuts a match with the game not over (the result line says
    terminal false): its 'winner' is only who led, and stats and verify say
    so instead of "finished" / "complete match"."""
    assert main(["play", "goofspiel_13_duel", "--turns", "3", "--iterations", "50",
                 "--replay-dir", str(tmp_path), "--quiet"]) == 0
    path = next(tmp_path.glob("*.jsonl"))
    with read_replay(path) as replay:
        st = compute_stats(replay)
    assert st.finished and st.terminal is False and st.to_dict()["terminal"] is False
    text = st.text()
    assert "stopped at its turn limit" in text and "| finished" not in text
    assert "leader when stopped:" in text and "\nwinner:" not in text
    capsys.readouterr()
    assert main(["replay", "verify", str(path)]) == 0
    assert "stopped at its turn limit" in capsys.readouterr().out
    # the flag is checked against the replayed game, not trusted
    text = path.read_text(encoding="utf-8")
    assert '"terminal":false' in text
    path.write_text(text.replace('"terminal":false', '"terminal":true'), encoding="utf-8")
    assert main(["replay", "verify", str(path)]) != 0
    assert "terminal true; the replayed game is not over" in capsys.readouterr().err


def test_plays_column_follows_an_algorithm_switch(tmp_path, capsys):
    """A player that switched algorithm mid-match: stats says what it ran
    (the controller column once said "smitsimax" throughout)."""
    from sandbox.config import Budget, load_scenario
    from sandbox.replay import Recorder
    from sandbox.sim.match import Match
    rec = Recorder(tmp_path, name_hint="switch")
    with Match(load_scenario("goofspiel_13_duel"), seed=2, budget=Budget(iterations=50, ms=0),
               max_turns=6, recorder=rec) as m:
        while not m.over:
            if m.turn == 2:
                m.controllers[0].update_settings({"algorithm": "mcgs"}, turn=m.turn)
            m.play_turn()
    rec.close()
    st = compute_stats(read_replay(rec.path))
    assert st.agents[0].controller == "smitsimax>mcgs" and st.agents[1].controller == "smitsimax"
    assert main(["replay", "stats", str(rec.path)]) == 0
    assert "smitsimax>mcgs" in capsys.readouterr().out


def test_a_team_sharing_first_place_is_named_the_winner(tmp_path, capsys):
    """A pods team's two agents share rank 0: the match has a winning player,
    not a tie (the result line says so; stats used to print 'none (a tie)')."""
    code = main(["play", "pods_custom_map", "--iterations", "30", "--quiet",
                 "--replay-dir", str(tmp_path)])
    assert code == 0
    path = next(tmp_path.glob("*.jsonl"))
    stats = compute_stats(read_replay(path))
    best = [a for a, r in enumerate(stats.ranking) if r == 0]
    assert len(best) == 2 and stats.winner is None
    text = stats.text()
    assert "none (a tie)" not in text
    assert f"agents {best[0]}, {best[1]}" in text.splitlines()[2]
