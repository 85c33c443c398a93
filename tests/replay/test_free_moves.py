"""Free moves through the sim layer and the replay: a Match whose person
overrides a pod with FreeMove values, recorded (TurnLine.free), read back,
verified by re-simulation, summarised by stats and titled in the replay
scene; and the stats/CSV of such a file."""
from __future__ import annotations

import csv

import pygame

from sandbox.app.replay_scene import ReplayScene
from sandbox.app.shell import App
from sandbox.config import Budget, scenario_from_dict
from sandbox.native import FreeMove
from sandbox.replay import Recorder, compute_stats, read_replay, to_csv, verify
from sandbox.sim.match import Match


def record(tmp_path):
    sc = scenario_from_dict({
        "name": "free", "game": "pods", "seed": 2, "max_turns": 6,
        "game_params": {"map": "oval"},
        "players": [{"name": "Red", "agents": [0, 1]},
                    {"name": "Blue", "agents": [2, 3], "controller": "bot"}]}, source="t")
    rec = Recorder(tmp_path, name_hint="free")
    played = []
    with Match(sc, budget=Budget(iterations=200, ms=0), recorder=rec) as m:
        while not m.over:
            m.start_turn()
            free = {0: FreeMove(8000, 1800, 120) if m.turn != 2 else FreeMove.boost(8000, 1800)}
            played.append(m.complete_turn(overrides=free).joint)
    rec.close()
    return rec.path, played


def test_a_match_with_free_moves_records_verifies_and_shows_them(tmp_path):
    path, played = record(tmp_path)
    assert all(isinstance(j[0], FreeMove) and isinstance(j[1], int) for j in played)
    replay = read_replay(path)
    assert [line.played() for line in replay.turns] == [list(j) for j in played]
    assert all(line.joint[0] is None and line.free.version == 1 for line in replay.turns)
    assert replay.turns[2].free.moves[0].kind == "boost"
    report = verify(replay)
    assert report.ok and report.turns_checked == 6, report
    stats = compute_stats(replay)
    assert stats.agents[0].moves_by == {"person": 6}
    out = tmp_path / "x.csv"
    to_csv(replay, out, stats)
    rows = [r for r in csv.DictReader(out.open()) if r["agent"] == "0"]
    assert [(r["move"], r["move_name"]) for r in rows[1:3]] == [("", "8000 1800 120"),
                                                                ("", "8000 1800 BOOST")]
    app = App()
    try:
        scene = ReplayScene(app, replay)
        app.push(scene)
        assert scene.decision_title(0, 0).endswith("→ 8000 1800 120")
        assert scene.decision_title(0, 2).endswith("→ 8000 1800 BOOST")
        scene.draw(app.screen)
    finally:
        app.close()
        pygame.event.clear()


def test_a_tampered_free_move_fails_verification(tmp_path):
    path, _ = record(tmp_path)
    text = path.read_text().replace('"thrust":120', '"thrust":119', 1)
    path.write_text(text)
    report = verify(read_replay(path))
    assert not report.ok and report.problem == "hash" and report.first_divergence == 0
