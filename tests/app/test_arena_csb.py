"""The bundled contest-bot scenario (scenarios/pods_csb_bot_vs_smitsimax.toml)
in the arena: examples/bots/csb_bot.py through the CodinGame protocol races
a Smitsimax team to the end of the three laps, the arena draws the bot's
panel, the match is recorded and the record verifies."""
from __future__ import annotations

import sys
import time
from pathlib import Path

from sandbox.app.arena import ArenaScene
from sandbox.app.arena.bot_panel import latency_text
from sandbox.config import load_scenario
from sandbox.replay import Recorder, read_replay, verify

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bots"))
from test_csb_vs_smitsimax import SCENARIO, bot_answered_every_turn, race_finished  # noqa: E402
from test_every_game import not_blank  # noqa: E402


def test_the_contest_bot_races_smitsimax_to_the_end_in_the_arena(app, tmp_path):
    recs = []

    def recorder():
        recs.append(Recorder(tmp_path, name_hint="csb_arena"))
        return recs[-1]

    sc = load_scenario(SCENARIO)
    # generous times: a loaded test machine must not turn this into a timeout
    # test (the contest's 75 ms are the scenario's; on a busy machine a turn
    # may miss them and its pods then play their default move)
    p0 = sc.players[0].model_copy(update={"timeout_ms": 2000, "first_turn_ms": 10_000})
    sc = sc.model_copy(update={"players": [p0, sc.players[1]]})
    arena = ArenaScene(app, sc, recorder_factory=recorder)
    app.push(arena)
    deadline = time.monotonic() + 240
    while not arena.live.over:
        assert time.monotonic() < deadline, f"the race is stuck at turn {arena.match.turn}"
        app.run(max_frames=app.frame + 1)
        arena.update(16.0)
    app.run(max_frames=app.frame + 2)
    ctl = arena.match.controllers[0]
    assert ctl.kind == "process" and ctl.stats.failures == 0
    assert latency_text(ctl).startswith("latency ")
    assert not_blank(app.screen, arena.layout["board"]) >= 4
    bot = ctl.bot
    app.pop()
    arena.match.close()
    assert bot.returncode is not None            # the bot is gone with the match
    replay = read_replay(recs[0].path)
    race_finished(replay)
    bot_answered_every_turn(replay)
    rep = verify(replay)
    assert rep.ok, rep.message
