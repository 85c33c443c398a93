"""The bundled contest-bot scenario (scenarios/pods_csb_bot_vs_smitsimax.toml)
in the arena: examples/bots/csb_bot.py (and csb_bot.c, compiled here)
through the CodinGame protocol races a Smitsimax team to the end of the
three laps, the arena draws the bot's
panel, the match is recorded and the record verifies."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.app.arena import ArenaScene
from sandbox.app.arena.bot_panel import latency_text
from sandbox.config import load_scenario
from sandbox.replay import Recorder, read_replay, verify

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bots"))
from test_csb_vs_smitsimax import SCENARIO, bot_answered_every_turn, race_finished  # noqa: E402
from test_every_game import not_blank  # noqa: E402


ROOT = Path(__file__).resolve().parents[2]


def c_bot(tmp_path: Path) -> list[str]:
    """examples/bots/csb_bot.c compiled here (skipped without a compiler)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    exe = tmp_path / "csb_bot"
    out = subprocess.run([cc, "-O2", "-o", str(exe), str(ROOT / "examples/bots/csb_bot.c"),
                          "-lm"], capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip(f"the C compiler failed: {out.stderr.strip()[:200]}")
    return [str(exe)]


@pytest.mark.parametrize("bot", ["python", "c"])
def test_the_contest_bot_races_smitsimax_to_the_end_in_the_arena(app, tmp_path, bot):
    recs = []

    def recorder():
        recs.append(Recorder(tmp_path, name_hint="csb_arena"))
        return recs[-1]

    sc = load_scenario(SCENARIO)
    # generous times: a loaded test machine must not turn this into a timeout
    # test (the contest's 75 ms are the scenario's; on a busy machine a turn
    # may miss them and its pods then play their default move)
    more = {"command": c_bot(tmp_path), "cwd": str(tmp_path)} if bot == "c" else {}
    p0 = sc.players[0].model_copy(update={"timeout_ms": 2000, "first_turn_ms": 10_000, **more})
    sc = sc.model_copy(update={"players": [p0, sc.players[1]]})
    arena = ArenaScene(app, sc, recorder_factory=recorder)
    app.push(arena)
    deadline = time.monotonic() + 240
    while not arena.live.over:
        assert time.monotonic() < deadline, f"the race is stuck at turn {arena.match.turn}"
        app.run(max_frames=app.frame + 1)
        arena.update(16.0)
        # as the app's clock would: frames back to back hold the GIL against
        # the bot's pipe thread (tests/battlesnake/test_arena.py says more)
        time.sleep(0.002)
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
