"""What a new user hit trying the app for the first time, one test or more per finding."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from sandbox.app.shell import App
from sandbox.config import Budget, load_scenario
from sandbox.imagefile import ScreenshotError
from sandbox.replay import Recorder
from sandbox.sim.match import Match

ROOT = Path(__file__).resolve().parents[2]


def _main(*args: str, cwd: Path, env_drop: tuple[str, ...] = (),
          env_set: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT), **(env_set or {})}
    for k in env_drop:
        env.pop(k, None)
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _one_error(p: subprocess.CompletedProcess) -> str:
    assert p.returncode != 0
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:"), p.stderr
    assert "Traceback" not in p.stderr + p.stdout
    return err[0]


@pytest.fixture(scope="module")
def short_replay(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("shots")
    rec = Recorder(folder, name_hint="shots")
    with Match(load_scenario(), seed=4, budget=Budget(iterations=60, ms=0), max_turns=20,
               recorder=rec) as m:
        m.play()
    rec.close()
    return rec.path


# ------------------------------------------------------------- --screenshot
@pytest.mark.parametrize("name, words", [
    ("afile/shot.png", "afile is not a folder"),
    ("shot", "not an image file name"),
    ("shot.txt", "not an image file name"),
    ("adir", "not an image file name"),
    ("adir.png", "is a folder"),
    ("/proc/shot.png", "cannot write it"),   # access() says yes to root: a probe file says no
])
def test_a_screenshot_that_cannot_be_written_is_one_error_line(tmp_path, name, words):
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    (tmp_path / "adir.png").mkdir()
    p = _main("--screenshot", str(tmp_path / name), "--turns", "1", "--no-record", cwd=tmp_path)
    line = _one_error(p)
    assert words in line and "--screenshot" in line
    assert not (tmp_path / "shot").exists()


def test_a_screenshot_of_a_scenario_with_a_human_stops_at_their_turn(tmp_path):
    """Nobody is at the keyboard: the picture is the board waiting for the
    human's move (it used to wait for a key through 100,000 frames)."""
    out = tmp_path / "h.png"
    p = _main("--screenshot", str(out), "goofspiel_you", "--turns", "3", "--no-record",
              cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert out.exists() and "(turn 0, waiting for the human player's move)" in p.stdout


def test_sigterm_stops_a_screenshot_run(tmp_path):
    """SDL turns SIGTERM into a QUIT event; the screenshot loop, which calls
    the app a frame at a time, used to start the next frame regardless and
    ran on until its turns were played."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "--screenshot",
                             str(tmp_path / "s.png"), "pods_race_2v2", "--ms", "100",
                             "--turns", "5000", "--no-record"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # A pods race lasts well over a hundred turns of at least 0.1 s each, so
        # it is still playing when the signal comes (four snakes can all be
        # dead by turn 11, and the run then ended before the signal).
        time.sleep(4.0)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 143, (out, err)          # ended by SIGTERM, cleanly
    assert "screenshot not taken" in err and err.count("\n") == 1, err
    assert not (tmp_path / "s.png").exists()


def test_a_write_that_fails_after_the_check_is_one_line_too(tmp_path):
    app = App()
    try:
        with pytest.raises(ScreenshotError, match="cannot write it"):
            app.screenshot("/proc/no-such-dir-here/x.png")   # /proc refuses new folders
        out = app.screenshot(tmp_path / "ok.jpg")
        assert out.exists() and out.stat().st_size > 0
    finally:
        app.close()
        pygame.event.clear()


def test_replay_screenshot_past_the_end_says_which_turn_it_shows(short_replay, tmp_path):
    out = tmp_path / "r.png"
    p = _main("--replay", str(short_replay), "--screenshot", str(out), "--turns", "99",
              cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "replay turn 20" in p.stdout
    assert "note: turn 99 asked for, turn 20 shown: the file ends at turn 20" in p.stderr
    assert out.exists()


def test_replay_screenshot_of_a_damaged_file_says_what_was_dropped(short_replay, tmp_path):
    lines = short_replay.read_text().splitlines(keepends=True)
    lines[8] = "garbage\n"                  # turn 7's line: the board stops at turn 7
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines))
    out = tmp_path / "bad.png"
    p = _main("--replay", str(bad), "--screenshot", str(out), "--turns", "15", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "replay turn 7" in p.stdout
    assert ("note: turn 15 asked for, turn 7 shown: turn 7 is missing from the file, so the "
            "board cannot be rebuilt past it") in p.stderr
    assert "dropped 1 line (line 9: not JSON)" in p.stderr
    # a turn it can show: no note about the turn, the dropped line still said
    p = _main("--replay", str(bad), "--screenshot", str(out), "--turns", "5", cwd=tmp_path)
    assert "replay turn 5" in p.stdout and "asked for" not in p.stderr
    assert "dropped 1 line" in p.stderr


# ------------------------------------------------------------------ top bar
class _FakeRecorder:
    """Just what the top bar reads of a recorder."""

    def __init__(self, name: str, failed: bool = False) -> None:
        self.path = Path("replays") / name
        self.failed = failed

    def close(self) -> None:
        pass


def _arena(app, scenario: str = "snakes_standard_4p"):
    from sandbox.app.arena import ArenaScene
    scene = ArenaScene(app, load_scenario(scenario), seed=1, budget=Budget(ms=0, iterations=50),
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    return scene


@pytest.mark.parametrize("failed", [False, True])
def test_the_top_bar_never_overlaps_from_the_minimum_size_up(app, failed):
    from sandbox.app.shell import MIN_SIZE
    arena = _arena(app)
    long = "20261125-164755_a-scenario-with-a-rather-long-file-name-indeed_s123456789.jsonl"
    arena.match.recorder = _FakeRecorder(long, failed)
    seen_full = seen_elided = False
    for w in (MIN_SIZE[0], 1150, 1200, 1280, 1366, 1440, 1600, 1920, 2400):
        arena.resize((w, MIN_SIZE[1]))
        top = arena.layout["top"]
        items = arena.top_bar()
        rects = [(wd.id if hasattr(wd, "id") else repr(wd), wd.rect)
                 for wd in arena.widgets.widgets if wd.rect.colliderect(top)]
        rects += [(k, rect) for k, (rect, _) in items.items()]
        for name, rect in rects:
            assert top.contains(rect), (w, name, rect)
        for i, (n1, r1) in enumerate(rects):
            for n2, r2 in rects[i + 1:]:
                assert not r1.colliderect(r2), (w, n1, r1, n2, r2)
        assert "rec" in items, w       # there is always room for the indicator here
        label = items["rec"][1]
        if failed:
            assert label == "REC failed"
        elif label.endswith("…"):
            seen_elided = True
            assert label.startswith("REC 2026")
        else:
            seen_full = True
            assert label == f"REC {long}"
        arena.draw(app.screen)
    assert failed or (seen_full and seen_elided)


# ---------------------------------------------------------- scenario picker
def _pick(app, arena, stem: str) -> None:
    """Choose `stem` in the scenario picker as a click does (the picker's
    value changes, then the change event reaches the scene)."""
    arena.widgets.get("scenario").set(stem, notify=True)
    app.run(max_frames=app.frame + 1)


@pytest.mark.parametrize("where", ["load", "match"])
def test_a_scenario_that_fails_leaves_the_picker_on_the_running_match(app, monkeypatch, where):
    import sandbox.app.arena.scene as arena_module   # the scene loads a picked scenario
    import sandbox.sim.live as live_module
    from sandbox.native import InvalidArgument
    from sandbox.config.scenario import ScenarioError
    arena = _arena(app)
    running = arena.match
    assert arena.widgets.get("scenario").value == "snakes_standard_4p"
    if where == "load":
        def refuse(stem, *a, **k):
            raise ScenarioError(f"{stem}.toml: line 3: bad value")
        monkeypatch.setattr(arena_module, "load_scenario", refuse)
    else:
        def refuse(*a, **k):
            raise InvalidArgument("game parameters: refused by C")
        monkeypatch.setattr(live_module, "Match", refuse)
    _pick(app, arena, "maze_4p")
    assert arena.widgets.get("scenario").value == "snakes_standard_4p"
    assert arena.scenario_stem == "snakes_standard_4p"
    assert arena.match is running and not running._closed
    assert arena.live.scenario.game == "snakes"
    assert "maze_4p" in arena.message
    # the running match still plays
    arena.live.step()
    for _ in range(2000):
        app.run(max_frames=app.frame + 1)
        if running.turn >= 1:
            break
    assert running.turn >= 1
    monkeypatch.undo()
    _pick(app, arena, "maze_4p")          # and a good pick still switches
    assert arena.live.scenario.game == "maze" and running._closed
    assert arena.widgets.get("scenario").value == "maze_4p"


# ----------------------------------------------------------------------- V
def test_v_starts_from_the_chosen_player_and_skips_players_without_trees(app):
    from sandbox.app.arena import ArenaScene
    from sandbox.config import scenario_from_dict
    base = load_scenario("snakes_standard_4p").model_dump()
    base["players"][1] = {"name": "Rand", "controller": "random"}
    base["players"][2]["search"]["algorithm"] = "greedy"      # keeps no tree
    arena = ArenaScene(app, scenario_from_dict(base), seed=1,
                       budget=Budget(ms=0, iterations=50), recorder_factory=lambda: None,
                       paused=True)
    app.push(arena)

    def press_v():
        arena.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, unicode="v",
                                              mod=0))
        return arena.tree_source

    arena._select_player(3)
    assert [press_v() for _ in range(3)] == [3, 0, None]
    arena._select_player(0)
    assert [press_v() for _ in range(3)] == [0, 3, None]
    arena._select_player(2)                       # greedy: nothing to show, the next one
    assert press_v() == 3
    picker = arena.widgets.get("tree_source")
    assert [v for v, _ in picker.options] == [None, 0, 3]


# --------------------------------------------------------------- no display
@pytest.mark.parametrize("scenario", ["snakes_you_vs_three", "goofspiel_you"])
def test_without_a_display_a_human_scenario_says_once_that_it_needs_one(tmp_path, scenario):
    p = _main(scenario, "--turns", "2", cwd=tmp_path,
              env_drop=("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))
    line = _one_error(p)
    assert "no display available" in line and "human player" in line and scenario in line
    assert "headless" not in p.stderr and p.stdout == ""
