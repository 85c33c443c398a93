"""A replay whose header predates a search setting: a re-search or a
branch runs that setting at today's default, and says so (the recording
cannot say how the match was searched there)."""
from __future__ import annotations

import json
from pathlib import Path

from sandbox.config import Budget, scenario_from_dict
from sandbox.replay import Recorder, read_replay
from sandbox.replay.branch import branch_point, unrecorded_settings
from sandbox.replay.research import research
from sandbox.sim.match import Match

RM = {"policy": "rm", "max_depth": 1, "random_threshold": 10, "tree_reuse": False}


def _record(folder: Path) -> Path:
    scn = scenario_from_dict({
        "name": "rm_rps", "game": "matrix", "game_params": {"preset": "rps", "repeats": 6},
        "players": [{"name": "A", "search": RM}, {"name": "B", "search": RM}]})
    rec = Recorder(folder, name_hint="rm")
    with Match(scn, seed=3, budget=Budget(iterations=100, ms=0), max_turns=4, recorder=rec) as m:
        while not m.over:
            m.play_turn()
    rec.close()
    return rec.path


def _without(path: Path, key: str, out: Path) -> Path:
    """The same replay with `key` missing from every player's recorded
    settings, as a build from before the key existed wrote it."""
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    for p in head["players"]:
        if p.get("search"):
            p["search"].pop(key)
    for p in head["scenario"]["players"]:
        if p.get("search"):
            p["search"].pop(key, None)
    out.write_text("\n".join([json.dumps(head, separators=(",", ":")), *lines[1:]]) + "\n")
    return out


def test_research_and_branch_name_a_setting_the_recording_lacks(tmp_path):
    path = _record(tmp_path)
    with read_replay(path) as r:
        assert all(unrecorded_settings(ph.search) == [] for ph in r.header.players)
        assert not any("predates" in n for n in research(r, 1, 0).notes)
        assert branch_point(r, 1).notes == ()
    old = _without(path, "counterfactual", tmp_path / "old.jsonl")
    with read_replay(old) as r:
        assert unrecorded_settings(r.header.players[0].search) == ["counterfactual"]
        notes = research(r, 1, 0).notes
        assert any("predates counterfactual" in n and "counterfactual=terminal" in n
                   for n in notes), notes
        bp = branch_point(r, 1)
        assert len(bp.notes) == 2 and all("predates counterfactual" in n for n in bp.notes)
