"""The menu's replay library: every replay listed with its
summary, scrolling to the last of many, the scenario filter, delete with a
confirming second click, damaged files as rows; and the recording defaults
(main.py --headless / --screenshot write nothing unless asked)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pygame
import pytest

from sandbox.app.menu import MenuScene
from sandbox.app.replay_scene import ReplayScene
from sandbox.app.shell import App
from sandbox.cli import app_main, main
from sandbox.config import Budget, load_scenario
from sandbox.replay import Recorder, read_replay
from sandbox.replay.library import human_size, summarize
from sandbox.sim.match import Match


def _frames(app: App, n: int = 2) -> None:
    app.run(max_frames=app.frame + n)


def _click(pos) -> None:
    for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(t, pos=pos, button=1))


def _fake(folder: Path, i: int, scenario: str, winner: int | None = 0,
          turns: int = 10) -> Path:
    """A minimal replay: the header fields the library reads and a result
    line (the library never re-simulates, so nothing else is needed)."""
    p = folder / f"r{i:03d}_{scenario}.jsonl"
    header = {"type": "header", "format": "sandbox-replay", "version": 1,
              "created": f"2026-01-{1 + i % 28:02d}T10:{i % 60:02d}:00+00:00",
              "scenario": {"name": scenario.title()}, "scenario_source": scenario}
    result = {"type": "result", "turns": turns, "ranking": [0, 1] if winner == 0 else [1, 0],
              "winner": winner, "final_hash": "0" * 16, "terminal": True,
              "names": ["Red", "Blue"]}
    p.write_text(json.dumps(header) + "\n" + json.dumps(result) + "\n")
    os.utime(p, (1_700_000_000 + i, 1_700_000_000 + i))   # r000 oldest, listed last
    return p


def _menu(app: App, folder: Path) -> MenuScene:
    app.replay_dir = str(folder)
    menu = MenuScene(app)
    app.push(menu)
    _frames(app)
    return menu


def _row_ids(menu: MenuScene) -> list[str]:
    return [w.id for w in menu.widgets.widgets if w.id.startswith("replay:")]


# ------------------------------------------------------------------ summary
def test_summary_of_a_real_replay_agrees_with_the_reader(tmp_path):
    rec = Recorder(tmp_path, name_hint="goofspiel_13_duel")
    with Match(load_scenario("goofspiel_13_duel"), seed=3, budget=Budget(iterations=40, ms=0),
               recorder=rec) as m:
        while not m.over:
            m.play_turn()
    rec.close()
    row = summarize(rec.path)
    full = read_replay(rec.path)          # the independent, full reader
    assert not row.damaged
    assert row.scenario == "goofspiel_13_duel" and row.turns == full.result.turns == 13
    assert row.winner == full.result.names[full.result.winner]
    assert row.size == rec.path.stat().st_size
    assert row.date == full.header.created[:10] + " " + full.header.created[11:16]


def test_summary_fields_hand_checked(tmp_path):
    p = _fake(tmp_path, 7, "maze_4p", winner=1, turns=42)
    row = summarize(p)
    assert (row.scenario, row.turns, row.winner, row.date) == ("maze_4p", 42, "Blue",
                                                               "2026-01-08 10:07")
    assert human_size(512) == "512 B" and human_size(2048) == "2.0 KB"
    assert human_size(3 * 1024 * 1024) == "3.0 MB"
    lines = p.read_text().splitlines()
    for ranking, names, said in (([0, 0], ["Red", "Blue"], "draw"),
                                 ([0, 1, 0], ["Red", "Blue", "Red"], "shared: Red"),
                                 ([1, 0, 0], ["A", "B", "C"], "shared: B, C")):
        result = {**json.loads(lines[1]), "winner": None, "ranking": ranking, "names": names}
        p.write_text(lines[0] + "\n" + json.dumps(result) + "\n")
        assert summarize(p).winner == said


def test_damaged_files_are_rows_not_crashes(app, tmp_path):
    (tmp_path / "garbage.jsonl").write_bytes(b"\xff\xfe not json\n")
    (tmp_path / "empty.jsonl").write_bytes(b"")
    good = _fake(tmp_path, 1, "maze_4p")
    torn = tmp_path / "torn.jsonl"           # a header, one turn, and half a line
    torn.write_text(good.read_text().splitlines()[0] + "\n"
                    + json.dumps({"type": "turn", "turn": 4}) + '\n{"type":"tu')
    assert summarize(tmp_path / "garbage.jsonl").damaged == "no valid replay header"
    assert summarize(tmp_path / "empty.jsonl").damaged == "empty file"
    t = summarize(torn)
    assert not t.damaged and t.winner == "unfinished" and t.turns == 5
    menu = _menu(app, tmp_path)
    assert menu.state()["library"]["total"] == 4
    by_name = {w.row.path.name: w for w in menu.widgets.widgets if w.id.startswith("replay:")}
    assert by_name["garbage.jsonl"].row.damaged
    app.screen.fill((0, 0, 0))
    menu.draw(app.screen)                    # damaged rows draw
    _click(by_name["garbage.jsonl"].rect.center)
    _frames(app)
    assert app.scene is menu and "garbage.jsonl" in menu.message


# ---------------------------------------------------------------- scrolling
def test_scrolling_reaches_the_last_of_60_replays(app, tmp_path):
    for i in range(60):
        _fake(tmp_path, i, "maze_4p")
    menu = _menu(app, tmp_path)
    lib = menu.library
    assert lib.state()["total"] == 60 and lib.visible_rows < 60
    assert "replay:59" not in _row_ids(menu)
    first = menu.widgets.get("replay:0")
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=first.rect.center, rel=(0, 0),
                                         buttons=(0, 0, 0)))
    for _ in range(40):                      # wheel down, more than enough
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False,
                                             precise_x=0.0, precise_y=-1.0))
    _frames(app)
    assert "replay:59" in _row_ids(menu)
    assert lib.scroll == 60 - lib.visible_rows
    last = menu.widgets.get("replay:59")
    assert last.row.path.name == "r000_maze_4p.jsonl"     # the oldest is last
    _click(last.rect.center)                 # and it is a working row
    _frames(app)
    assert app.scene is menu and "r000_maze_4p.jsonl" in menu.message  # fake: cannot open
    menu.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0, unicode=""))
    assert lib.scroll == 0 and "replay:0" in _row_ids(menu)
    menu.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode=""))
    assert "replay:59" in _row_ids(menu)


# ------------------------------------------------------------------- filter
def test_filter_by_scenario(app, tmp_path):
    for i in range(12):
        _fake(tmp_path, i, "maze_4p" if i % 3 else "snakes_duel_trees")
    menu = _menu(app, tmp_path)
    picker = menu.widgets.get("replay_filter")
    assert [v for v, _ in picker.options] == [None, "maze_4p", "snakes_duel_trees"]
    _click(picker.box.center)                # open, then pick the third option
    _frames(app)
    _click(menu.widgets.get("replay_filter").option_rect(2).center)
    _frames(app, 3)
    assert menu.library.filter == "snakes_duel_trees"
    rows = [w.row for w in menu.widgets.widgets if w.id.startswith("replay:")]
    assert len(rows) == 4 and {r.scenario for r in rows} == {"snakes_duel_trees"}
    assert {r.path.name for r in rows} == {f"r{i:03d}_snakes_duel_trees.jsonl" for i in (0, 3, 6, 9)}


# ------------------------------------------------------------------- delete
def test_delete_asks_then_deletes(app, tmp_path):
    files = [_fake(tmp_path, i, "maze_4p") for i in range(3)]
    menu = _menu(app, tmp_path)
    target = menu.widgets.get("replay:0").row.path
    assert target == files[2]
    _click(menu.widgets.get("delete:0").rect.center)
    _frames(app)
    assert target.exists() and menu.widgets.get("delete:0").label == "confirm?"
    # Esc cancels the question (and does not quit the app)
    menu.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))
    assert app.running and menu.library.pending_delete is None and target.exists()
    _click(menu.widgets.get("delete:0").rect.center)
    _frames(app)
    _click(menu.widgets.get("delete:0").rect.center)   # the second click deletes
    _frames(app)
    assert not target.exists() and files[0].exists() and files[1].exists()
    assert menu.library.state()["total"] == 2 and str(target) not in menu.state()["replays"]
    assert "deleted" in menu.message
    # asking about one row and clicking another's delete asks again, deletes nothing
    _click(menu.widgets.get("delete:0").rect.center)
    _frames(app)
    _click(menu.widgets.get("delete:1").rect.center)
    _frames(app)
    assert files[0].exists() and files[1].exists()


def test_a_real_replay_opens_from_the_library(app, tmp_path):
    main(["play", "--iterations", "30", "--turns", "3", "--quiet", "--replay-dir",
          str(tmp_path)])
    menu = _menu(app, tmp_path)
    _click(menu.widgets.get("replay:0").rect.center)
    _frames(app)
    assert isinstance(app.scene, ReplayScene)


# --------------------------------------------------------- recording defaults
@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    """A user's setup: cwd with its replays/ default, and SBX_REPLAY_DIR unset."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SBX_REPLAY_DIR")
    return tmp_path


def test_headless_main_writes_no_replay_unless_asked(user_dirs, capsys):
    assert app_main(["--headless", "--iterations", "30", "--turns", "2", "--quiet"]) == 0
    assert list(user_dirs.iterdir()) == [] and "replay:" not in capsys.readouterr().out
    assert app_main(["--headless", "--iterations", "30", "--turns", "2", "--quiet",
                     "--record"]) == 0
    assert len(list((user_dirs / "replays").glob("*.jsonl"))) == 1


def test_screenshot_writes_no_replay(user_dirs):
    assert app_main(["--screenshot", "shot.png", "--iterations", "30", "--turns", "2"]) == 0
    assert [p.name for p in user_dirs.iterdir()] == ["shot.png"]


def test_play_still_records_and_record_flags_conflict(user_dirs, capsys):
    assert main(["play", "--iterations", "30", "--turns", "2", "--quiet"]) == 0
    assert len(list((user_dirs / "replays").glob("*.jsonl"))) == 1
    assert app_main(["--headless", "--record", "--no-record"]) == 2
    assert "contradict" in capsys.readouterr().err


def test_the_suite_itself_records_into_a_temporary_folder():
    folder = os.environ.get("SBX_REPLAY_DIR", "")
    assert "sbx-test-replays-" in folder and Path(folder).is_dir()


def test_delete_key_on_a_focused_row_asks_then_deletes(app, tmp_path):
    files = [_fake(tmp_path, i, "maze_4p") for i in range(2)]
    menu = _menu(app, tmp_path)
    ids = [w.id for w in menu.widgets.widgets]
    menu.widgets._set_focus(ids.index("replay:1"))      # as Tab would
    delete = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DELETE, mod=0, unicode="")
    menu.handle_event(delete)
    assert files[0].exists() and menu.library.pending_delete == files[0]
    menu.handle_event(delete)
    assert not files[0].exists() and files[1].exists()
    assert menu.state()["replays"] == [str(files[1])]


def test_the_scenario_buttons_and_the_play_row_fit_the_minimum_window(app):  # noqa: F811
    """Every scenario's button, and the Play row below them, stay inside the
    window and clear of the description line at the bottom (they ran off an
    800-pixel window once there were 20 scenarios)."""
    from sandbox.app.shell import MIN_SIZE
    menu = MenuScene(app)
    assert len(menu.entries) >= 20
    for w, h in (MIN_SIZE, (1280, 800)):
        menu.resize((w, h))
        rects = [wd.rect for wd in menu.widgets.widgets
                 if wd.id.startswith("scen:") or wd.id in ("play", "labs", "tournament", "quit")]
        assert len(rects) == len(menu.entries) + 4
        assert all(r.bottom <= h - 55 and r.right <= w for r in rects), (w, h)
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
