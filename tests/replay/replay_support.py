"""Helpers shared by the replay tests."""
from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from sandbox.config import Budget, load_scenario, scenario_from_dict
from sandbox.replay import Recorder
from sandbox.sim.match import Match
from sandbox.sim.records import MatchResult, TurnRecord

CHANGE_TURN = 5


def mixed_scenario():
    """Three Smitsimax players and a random one (no search data)."""
    base = load_scenario().model_dump()
    base["players"][3] = {"name": "Rand", "controller": "random", "color": [200, 200, 200]}
    return scenario_from_dict(base)


@dataclass
class Recorded:
    path: Path
    history: list[TurnRecord]
    result: MatchResult
    seed: int

    def copy_to(self, directory: Path) -> Path:
        out = directory / "match.jsonl"
        shutil.copyfile(self.path, out)
        return out


def play_recorded(directory: Path, seed: int = 5, iterations: int = 200, max_turns: int = 0,
                  record_trees: int = 0, change: bool = True) -> Recorded:
    rec = Recorder(directory, name_hint="mixed", record_trees=record_trees)
    with Match(mixed_scenario(), seed=seed, budget=Budget(iterations=iterations, ms=0),
               max_turns=max_turns, recorder=rec) as m:
        while not m.over:
            if change and m.turn == CHANGE_TURN:
                m.controllers[0].update_settings({"c": 1.3, "max_depth": 8}, turn=m.turn)
            m.play_turn()
        result = m.result()
        history = list(m.history)
    rec.close()
    return Recorded(rec.path, history, result, seed)
