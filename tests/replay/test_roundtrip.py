"""Record a headless match, read it back, verify it, and check that the file
says exactly what the match's TurnRecords said."""
from __future__ import annotations

import json
import math

import pytest

from sandbox import __version__
from sandbox.config import Budget
from sandbox.native import Game, core_version
from sandbox.replay import (FORMAT_VERSION, Recorder, ReplayError, compute_stats, read_replay,
                            verify)
from sandbox.replay import recorder as recorder_mod
from sandbox.sim.match import Match

from replay_support import CHANGE_TURN, mixed_scenario, play_recorded


def test_file_reads_back_whole(recorded):
    replay = read_replay(recorded.path)
    assert replay.dropped == []
    assert len(replay.turns) == len(recorded.history) == recorded.result.turns
    assert replay.result is not None and replay.complete
    lines = recorded.path.read_text().splitlines()
    assert [json.loads(x)["type"] for x in (lines[0], lines[1], lines[-1])] == \
        ["header", "turn", "result"]
    assert recorded.path.name.endswith(f"_mixed_s{recorded.seed}.jsonl")


def test_verify_passes(recorded):
    report = verify(read_replay(recorded.path))
    assert report.ok, report.message
    assert report.turns_checked == len(recorded.history)
    assert report.first_divergence is None


def test_turn_lines_match_the_records(recorded):
    replay = read_replay(recorded.path)
    for rec, line in zip(recorded.history, replay.turns):
        assert line.turn == rec.turn
        assert tuple(line.joint) == rec.joint
        assert line.hash == f"{rec.state_hash:016x}"
        assert line.alive == list(rec.alive)
        assert line.eliminated == list(rec.eliminated)
        assert line.scores == pytest.approx(rec.scores, abs=1e-6)
        for p, pl in zip(rec.players, line.players):
            assert (pl.player, pl.controller, pl.iterations, pl.sim_turns, pl.stop_reason) == \
                (p.player, p.controller, p.iterations, p.sim_turns, p.stop_reason)
            for at in pl.agents:
                assert at.move == p.moves[at.agent]
                stats = p.root_stats.get(at.agent, ())
                assert [(m.move, m.visits) for m in at.root] == [(s.move, s.visits) for s in stats]
                assert [m.mean for m in at.root] == pytest.approx([s.mean for s in stats],
                                                                  abs=1e-6)


def test_result_line_matches(recorded):
    r = read_replay(recorded.path).result
    res = recorded.result
    assert (r.turns, tuple(r.ranking), r.winner, r.terminal, tuple(r.names)) == \
        (res.turns, res.ranking, res.winner, res.terminal, res.names)
    assert r.final_hash == f"{res.final_hash:016x}"


def test_header(recorded):
    h = read_replay(recorded.path).header
    sc = mixed_scenario()
    assert (h.format, h.version, h.app_version, h.core_version) == \
        ("sandbox-replay", FORMAT_VERSION, __version__, core_version())
    assert h.scenario == sc.model_dump(mode="json")
    assert h.seed == recorded.seed and h.game == "snakes" and h.num_agents == 4
    with Game(h.game, h.game_params, seed=h.seed) as g:
        assert h.initial_hash == f"{g.state_hash():016x}"
        assert h.initial_state == g.export().tolist()
    assert [p.controller for p in h.players] == ["smitsimax"] * 3 + ["random"]
    assert h.players[0].search["c"] == sc.players[0].search.c
    assert h.players[3].search is None
    assert all(p.budget["iterations"] == 200 for p in h.players)
    assert [p.seed for p in h.players] == [sc.player_seed(i, recorded.seed) for i in range(4)]
    assert h.players[0].color == (230, 80, 70)


def test_settings_change_recorded(recorded):
    replay = read_replay(recorded.path)
    line = replay.by_turn[CHANGE_TURN]
    ch = line.players[0].changes
    assert len(ch) == 1 and ch[0].turn == CHANGE_TURN
    assert ch[0].changes == {"c": (0.7, 1.3), "max_depth": (10, 8)}
    assert all(not p.changes for t in replay.turns if t.turn != CHANGE_TURN for p in t.players)


def test_stats_equal_what_was_played(recorded):
    st = compute_stats(read_replay(recorded.path))
    res = recorded.result
    assert st.turns == res.turns == len(recorded.history) and st.finished
    assert st.turns_recorded == len(recorded.history)
    assert st.winner == res.winner and st.placement == res.placement()
    alive = [True] * 4
    per_agent: dict[int, list[int]] = {a: [] for a in range(4)}
    for rec in recorded.history:
        for p in rec.players:
            for a in p.moves:
                if alive[a]:
                    per_agent[a].append(p.iterations)
        alive = list(rec.alive)
    for a, ag in enumerate(st.agents):
        its = per_agent[a]
        assert ag.turns_alive == len(its)
        assert (ag.iterations_min, ag.iterations_max) == (min(its), max(its))
        assert ag.iterations_mean == pytest.approx(sum(its) / len(its))
    # the game's own death turn (the turn after the fatal step), as the arena
    # shows it; the record whose step killed the agent is one turn earlier
    with read_replay(recorded.path) as rp:
        final = rp.view_at(rp.end_turn)
    elim = {a: s.death_turn for a, s in enumerate(final.snakes) if not s.alive}
    assert elim == {a: rec.turn + 1 for rec in recorded.history for a in rec.eliminated}
    assert {ag.agent: ag.eliminated_turn for ag in st.agents} == \
        {a: elim.get(a) for a in range(4)}
    # search players have values; the random player has none
    assert all(math.isfinite(st.agents[a].mean_root_value) for a in range(3))
    assert math.isnan(st.agents[3].mean_root_value)
    assert [c.turn for c in st.agents[0].changes] == [CHANGE_TURN]
    assert {(m.turn, m.kind) for m in st.markers} == \
        {(CHANGE_TURN, "settings")} | {(t, "elimination") for t in elim.values()}
    rows = [r for r in st.rows if r.turn == 0]
    assert [r.move for r in rows] == list(recorded.history[0].joint)


def test_record_trees(tmp_path):
    rec = play_recorded(tmp_path, max_turns=6, record_trees=30, change=False)
    replay = read_replay(rec.path)
    assert replay.header.record_trees == 30
    assert verify(replay).ok
    for line, hist in zip(replay.turns, rec.history):
        for pl, p in zip(line.players, hist.players):
            for at in pl.agents:
                if pl.controller != "smitsimax":
                    assert at.tree is None
                    continue
                t = at.tree
                assert t is not None and 1 < len(t.parent) <= 30
                assert t.parent[0] == -1 and t.tree_nodes == p.tree_nodes[at.agent]
                snap = t.to_snapshot(at.agent)
                assert snap.rows["visits"].tolist() == p.trees[at.agent].visits.tolist()
                assert snap.depth.tolist() == p.trees[at.agent].depth.tolist()


def test_no_trees_by_default(recorded):
    replay = read_replay(recorded.path)
    assert all(a.tree is None for t in replay.turns for p in t.players for a in p.agents)


def test_unique_names(tmp_path, monkeypatch):
    monkeypatch.setattr(recorder_mod, "replay_name", lambda stem, seed, when=None: "same.jsonl")
    paths = []
    for _ in range(3):
        rec = Recorder(tmp_path)
        with Match(mixed_scenario(), budget=Budget(iterations=50, ms=0), max_turns=2,
                   recorder=rec) as m:
            m.play()
        paths.append(rec.path.name)
    assert paths == ["same.jsonl", "same-2.jsonl", "same-3.jsonl"]
    assert all(verify(read_replay(tmp_path / p)).ok for p in paths)


class _FullDisk:
    """Stands in for the os module inside the recorder: the Nth write and
    every later one write half the line, then fail with ENOSPC."""

    def __init__(self, real, fail_from: int) -> None:
        self._real, self._left = real, fail_from

    def __getattr__(self, name):
        return getattr(self._real, name)

    def write(self, fd, data):
        self._left -= 1
        if self._left > 0:
            return self._real.write(fd, data)
        if self._left == 0:
            return self._real.write(fd, bytes(data[: len(data) // 2]))
        raise OSError(28, "No space left on device")


def test_disk_full_raises_once_then_stops(tmp_path, monkeypatch):
    import os
    monkeypatch.setattr(recorder_mod, "os", _FullDisk(os, fail_from=4))
    rec = Recorder(tmp_path)
    with Match(mixed_scenario(), budget=Budget(iterations=50, ms=0), max_turns=10,
               recorder=rec) as m:
        m.play_turn()
        m.play_turn()
        with pytest.raises(ReplayError) as info:
            m.play_turn()
        msg = str(info.value)
        assert "\n" not in msg and "No space left" in msg and "recording stopped" in msg
        m.play()  # the match goes on; the recorder stays quiet
    assert rec.failed and rec.status.state == "failed" and rec.turns_written == 2
    replay = read_replay(rec.path)  # the half line was taken back
    assert replay.dropped == [] and len(replay.turns) == 2 and replay.result is None
    assert verify(replay).ok


def test_on_error_instead_of_raising(tmp_path, monkeypatch):
    import os
    monkeypatch.setattr(recorder_mod, "os", _FullDisk(os, fail_from=2))
    errors = []
    rec = Recorder(tmp_path, on_error=errors.append)
    with Match(mixed_scenario(), budget=Budget(iterations=50, ms=0), max_turns=5,
               recorder=rec) as m:
        result = m.play()
    assert result.turns == 5 and len(errors) == 1 and isinstance(errors[0], ReplayError)
    assert rec.status.label().startswith("REC failed")


def test_unwritable_directory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    errors = []
    rec = Recorder(blocker / "sub", on_error=errors.append)
    with Match(mixed_scenario(), budget=Budget(iterations=50, ms=0), max_turns=3,
               recorder=rec) as m:
        assert m.play().turns == 3
    assert rec.path is None and len(errors) == 1 and "cannot create" in str(errors[0])


def test_fsync_every(tmp_path):
    rec = Recorder(tmp_path, fsync_every=2)
    with Match(mixed_scenario(), budget=Budget(iterations=50, ms=0), max_turns=5,
               recorder=rec) as m:
        m.play()
    assert rec.status.state == "finished"
    assert verify(read_replay(rec.path)).ok


def test_closed_early_has_no_result(tmp_path):
    rec = Recorder(tmp_path)
    with rec, Match(mixed_scenario(), budget=Budget(iterations=50, ms=0), max_turns=20,
                    recorder=rec) as m:
        for _ in range(4):
            m.play_turn()
    assert rec.status.state == "closed"
    replay = read_replay(rec.path)
    assert replay.result is None and len(replay.turns) == 4 and verify(replay).ok


def test_record_trees_of_every_algorithm_keep_movers_joint_actions_and_policies(tmp_path):
    """What the arena showed is what the replay shows: a Sequential-UCT tree
    keeps each row's mover, a joint-action tree its joint actions, and an
    Exp3/RM root its average strategy (not only the visit shares)."""
    from sandbox.config import load_scenario
    sc = load_scenario("snakes_duel_trees").with_settings([
        "players.0.search.algorithm=suct", "players.1.search.algorithm=joint"])
    rec = Recorder(tmp_path, name_hint="algos", record_trees=40)
    with Match(sc, seed=3, budget=Budget(iterations=400, ms=0), max_turns=3, recorder=rec) as m:
        while not m.over:
            m.play_turn()
            live = {a: m.controllers[m.owner[a]].latest for a in range(2)}
        history = list(m.history)
    rec.close()
    replay = read_replay(rec.path)
    assert verify(replay).ok
    last = replay.turns[-1]
    hist = history[-1]
    suct = last.players[0].agents[0].tree.to_snapshot(0)
    joint = last.players[1].agents[0].tree.to_snapshot(1)
    assert suct.mover[0] == -1 and set(suct.mover[1:].tolist()) == {0, 1}
    assert suct.mover.tolist() == hist.players[0].trees[0].mover.tolist()
    assert (joint.joint[1:, :2] != 255).all() and (joint.joint[:, 2:] == 255).all()
    assert joint.joint.tolist() == hist.players[1].trees[1].joint.tolist()
    assert live  # both players searched

    sc = load_scenario("matrix_rps_duel").with_settings([
        "players.0.search.policy=rm", "game_params.repeats=2"])
    rec = Recorder(tmp_path, name_hint="rm")
    with Match(sc, seed=1, budget=Budget(iterations=500, ms=0), recorder=rec) as m:
        while not m.over:
            m.play_turn()
        first = m.history[0]
    rec.close()
    root = read_replay(rec.path).turns[0].players[0].agents[0].root
    assert [r.policy for r in root] == pytest.approx(
        [s.policy for s in first.players[0].root_stats[0]], abs=1e-6)
    assert any(abs(r.policy - r.prob) > 1e-3 for r in root)   # not the visit shares


def test_a_damaged_tree_column_drops_the_line_not_the_viewer(tmp_path):
    rec = play_recorded(tmp_path, max_turns=3, record_trees=20, change=False)
    lines = rec.path.read_text().splitlines()
    doc = json.loads(lines[2])
    tree = doc["players"][0]["agents"][0]["tree"]
    tree["visits"] = tree["visits"][:-1]          # one value short
    lines[2] = json.dumps(doc)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    replay = read_replay(bad)
    assert any("visits has" in d.reason for d in replay.dropped), replay.dropped
    for t in replay.turns:
        for p in t.players:
            for a in p.agents:
                if a.tree is not None:
                    a.tree.to_snapshot(a.agent)
