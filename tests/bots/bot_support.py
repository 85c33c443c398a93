"""Helpers for the process-player tests: a small goofspiel match (5 bids,
so every turn of a bot's misbehaviour is visible) with a bot of
tests/data/bots/ as player 0 against uniform random."""
from __future__ import annotations

import sys
from pathlib import Path



from sandbox.config import scenario_from_dict
from sandbox.replay import Recorder, read_replay
from sandbox.sim.match import Match

BOTS = Path(__file__).resolve().parents[1] / "data" / "bots"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "bots"


def bot_scenario(bot: str, game: str = "goofspiel", game_params: dict | None = None,
                 **process) -> "Scenario":
    player = {"name": "Bot", "controller": "process",
              "command": [sys.executable, str(BOTS / f"{bot}.py")], **process}
    return scenario_from_dict({
        "game": game, "game_params": {"num_cards": 5} if game_params is None else game_params,
        "seed": 3, "players": [player, {"name": "Rand", "controller": "random"}]})


def play_recorded(scenario, tmp_path: Path, on_turn=None):
    """Plays the match turn by turn, timing each turn; returns (match
    result, replay, per-turn seconds)."""
    import time
    rec = Recorder(path=tmp_path / "m.jsonl")
    seconds = []
    with Match(scenario, recorder=rec) as m:
        while not m.over:
            t0 = time.monotonic()
            r = m.play_turn()
            seconds.append(time.monotonic() - t0)
            if on_turn:
                on_turn(m, r)
        result = m.result()
    return result, read_replay(tmp_path / "m.jsonl"), seconds


