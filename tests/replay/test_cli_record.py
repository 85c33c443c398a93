"""Recording from the CLI: on by default, --replay-dir, --no-record, the
scenario's [record] table, and the `replay:` line before the `result:` line."""
from __future__ import annotations

import tomllib
from pathlib import Path

from sandbox.cli import main
from sandbox.config.scenario import SCENARIO_DIR
from sandbox.replay import read_replay, verify

PLAY = ["play", "--iterations", "100", "--turns", "8", "--seed", "2"]


def _scenario_file(tmp_path: Path, record: str) -> Path:
    text = (SCENARIO_DIR / "snakes_standard_4p.toml").read_text()
    path = tmp_path / "custom_rec.toml"
    path.write_text(text + "\n[record]\n" + record + "\n")
    tomllib.loads(path.read_text())
    return path


def test_records_by_default(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SBX_REPLAY_DIR")   # the user's default, not the suite's
    assert main(PLAY) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("result: ") and lines[-2].startswith("replay: replays/")
    files = list((tmp_path / "replays").glob("*.jsonl"))
    assert len(files) == 1 and files[0].name.endswith("_snakes-standard-4p_s2.jsonl")
    replay = read_replay(files[0])
    assert len(replay.turns) == 8 and replay.result is not None and verify(replay).ok
    assert lines[-1].endswith(f"turns=8 final_hash={replay.result.final_hash}")


def test_replay_dir_and_quiet(tmp_path, capsys):
    out_dir = tmp_path / "deep" / "er"
    assert main(PLAY + ["--quiet", "--replay-dir", str(out_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0] == f"replay: {next(out_dir.glob('*.jsonl'))}"


def test_no_record(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(PLAY + ["--no-record", "--replay-dir", str(tmp_path / "r")]) == 0
    assert not any(tmp_path.iterdir())
    assert "replay:" not in capsys.readouterr().out


def test_scenario_record_table(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    off = _scenario_file(tmp_path, "enabled = false")
    assert main(["play", str(off)] + PLAY[1:]) == 0
    assert not (tmp_path / "replays").exists()
    trees = _scenario_file(tmp_path, 'dir = "mine"\nrecord_trees = true\ntree_nodes = 12')
    assert main(["play", str(trees)] + PLAY[1:]) == 0
    [path] = (tmp_path / "mine").glob("*_custom-rec_s2.jsonl")
    replay = read_replay(path)
    assert replay.header.record_trees == 12
    assert all(0 < len(a.tree.parent) <= 12 for t in replay.turns for p in t.players
               for a in p.agents if t.alive[a.agent] or a.tree is not None)


def test_unwritable_replay_dir_stops_before_playing(tmp_path, capsys):
    # it used to warn and play on, exit 0, with the replay lost
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(PLAY + ["--quiet", "--replay-dir", str(blocker)]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    err = cap.err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: replay folder {blocker}: is not a folder")


def test_main_py_headless_records(tmp_path, capsys):
    from sandbox.cli import app_main
    assert app_main(["--headless", "--iterations", "50", "--turns", "3", "--quiet",
                     "--replay-dir", str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("*.jsonl"))) == 1


def test_recorder_for_args(tmp_path, monkeypatch):
    import argparse

    from sandbox.config import load_scenario
    from sandbox.replay import recorder_for
    sc = load_scenario()
    args = argparse.Namespace(scenario=None, no_record=False, replay_dir=str(tmp_path))
    rec = recorder_for(sc, args)
    assert rec.directory == tmp_path and rec.name_hint == "snakes_standard_4p"
    assert rec.status.state == "waiting" and rec.status.label() == "REC ready"
    assert recorder_for(sc, argparse.Namespace(scenario=None, no_record=True)) is None
    monkeypatch.setenv("SBX_REPLAY_DIR", str(tmp_path / "env"))
    assert recorder_for(sc).directory == tmp_path / "env"
    monkeypatch.delenv("SBX_REPLAY_DIR")
    assert recorder_for(sc).directory == Path("replays")
    assert recorder_for(sc.with_overrides(record={"enabled": False})) is None
    assert recorder_for(sc, args, enabled=False) is None


def test_a_short_unfinished_match_is_not_kept_but_a_finished_one_is(tmp_path):
    """The app's recorders drop an unfinished match of fewer than
    APP_KEEP_TURNS turns (every launch left a "4 turns · unfinished" replay);
    a finished match is kept however short, and the CLI keeps everything."""
    from sandbox.app import APP_KEEP_TURNS
    from sandbox.config import Budget, load_scenario
    from sandbox.replay import Recorder
    from sandbox.sim.match import Match

    def play(scenario: str, turns: int, keep: int) -> Recorder:
        rec = Recorder(tmp_path / f"{scenario}-{turns}-{keep}")
        rec.keep_min_turns = keep
        with Match(load_scenario(scenario), seed=1, budget=Budget(iterations=20, ms=0),
                   recorder=rec) as m:
            while not m.over and m.turn < turns:
                m.play_turn()
        rec.close()
        return rec

    short = play("snakes_standard_4p", 4, APP_KEEP_TURNS)
    assert short.path is None and not list(short.directory.glob("*.jsonl"))
    long = play("snakes_standard_4p", APP_KEEP_TURNS, APP_KEEP_TURNS)
    assert long.path is not None and long.path.exists()
    done = play("goofspiel_4_exploit", 99, APP_KEEP_TURNS)      # 4 turns, finished
    assert done.path is not None and done.path.exists()
    cli = play("snakes_standard_4p", 4, 0)
    assert cli.path is not None and cli.path.exists()


def test_the_window_does_not_keep_a_look_around(tmp_path):
    from sandbox.cli import app_main
    out = tmp_path / "shot.png"
    assert app_main(["--screenshot", str(out), "--turns", "4", "--iterations", "20", "--record",
                     "--replay-dir", str(tmp_path / "r")]) == 0
    assert out.exists() and not list((tmp_path / "r").glob("*.jsonl"))
    # the same window kept to 12 turns keeps its replay
    assert app_main(["--screenshot", str(out), "--turns", "12", "--iterations", "20",
                     "--record", "--replay-dir", str(tmp_path / "r")]) == 0
    assert len(list((tmp_path / "r").glob("*.jsonl"))) == 1
