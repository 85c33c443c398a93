"""Without a replay (tournaments and series without --keep-replays, play
--no-record) a bot's stderr log goes to the temporary folder's
sandbox-bots/, which keeps only the newest logs; a log the bot wrote
nothing to is not kept at all."""
from __future__ import annotations

import tempfile

from sandbox.bots import controller
from sandbox.sim.match import Match

from bot_support import bot_scenario


def play_unrecorded(sc) -> None:
    with Match(sc) as m:
        m.play()


def test_logs_without_a_replay_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(controller, "TEMP_LOGS_KEPT", 3, raising=False)
    folder = tmp_path / "sandbox-bots"
    for seed in range(6):
        play_unrecorded(bot_scenario("notes", timeout_ms=2000, first_turn_ms=10_000)
                        .with_overrides(seed=seed))
    logs = sorted(folder.glob("*.stderr.log"))
    assert len(logs) == 3
    assert all("turn 4: thinking" in p.read_text() for p in logs)


def test_an_empty_log_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("QUIET", "1")
    play_unrecorded(bot_scenario("notes", timeout_ms=2000, first_turn_ms=10_000))
    assert list((tmp_path / "sandbox-bots").glob("*")) == []
