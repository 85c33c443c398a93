"""Who chose each played move: a person who took an agent over is recorded
as the person, not as the search whose decision they overrode; stats, the CSV
export and the replay panel say so, and older files (without the field)
still load, verify and are read the same way."""
from __future__ import annotations

import csv
import json
import time
from pathlib import Path

import pygame
import pytest

from sandbox.app.replay_scene import ReplayScene
from sandbox.app.shell import App
from sandbox.config import Budget, load_scenario
from sandbox.games.snakes.view import MOVE_DELTAS
from sandbox.replay import Recorder, compute_stats, read_replay, to_csv, verify
from sandbox.sim.live import LiveMatch

HANG_GUARD_S = 60


def _wait_ready(live: LiveMatch) -> None:
    deadline = time.monotonic() + HANG_GUARD_S
    while not live.match.turn_ready():
        assert time.monotonic() < deadline, "the searches never finished the turn"
        time.sleep(0.001)


def _play_one(live: LiveMatch) -> None:
    turn = live.match.turn
    live.step()
    deadline = time.monotonic() + HANG_GUARD_S
    while live.match.turn == turn:
        assert time.monotonic() < deadline
        live.update(1000.0)
        time.sleep(0.001)


def _two_safe_steps(view, agent: int, avoid: int) -> int:
    """A move other than `avoid` that the snake can keep for two turns
    without leaving the board or running into a body (turn 1 keeps it)."""
    s = view.snakes[agent]
    occupied = {c for sn in view.snakes if sn.alive for c in sn.body}
    hx, hy = s.head
    for m, (dx, dy) in enumerate(MOVE_DELTAS):
        cells = [(hx + k * dx, hy + k * dy) for k in (1, 2)]
        if m != avoid and all(0 <= x < view.width and 0 <= y < view.height
                              and (x, y) not in occupied for x, y in cells):
            return m
    pytest.skip("no move is safe for two turns here")


@pytest.fixture(scope="module")
def taken_over(tmp_path_factory):
    """Red (a search player) is taken over: turn 0 a key against the search's
    choice, turn 1 no key (the game's default), turn 2 handed back."""
    folder = tmp_path_factory.mktemp("chosen_by")
    recs = []

    def factory():
        recs.append(Recorder(folder, name_hint="taken"))
        return recs[-1]

    live = LiveMatch(load_scenario("snakes_standard_4p"), seed=3,
                     budget=Budget(ms=0, iterations=100), recorder_factory=factory, paused=True)
    try:
        live.wait_for_humans = False
        live.take_over(0)
        _wait_ready(live)
        search_move = live.match.controllers[0].moves()[0]
        mine = _two_safe_steps(live.view, 0, avoid=search_move)
        live.choose(0, mine)
        _play_one(live)          # turn 0: the person's key
        _play_one(live)          # turn 1: no key, the snake keeps going
        live.take_over(0, False)
        _play_one(live)          # turn 2: the search again
        history = list(live.match.history)
    finally:
        live.close()
    return recs[-1].path, search_move, mine, history


def test_the_person_is_recorded_as_the_chooser_not_the_search(taken_over):
    path, search_move, mine, history = taken_over
    assert [p.chosen_by[0] for p in (h.players[0] for h in history)] == \
        ["person", "default", "search"]
    replay = read_replay(path)
    t0, t1, t2 = replay.turns[:3]
    assert t0.joint[0] == mine and t0.agent(0).move == search_move   # what each chose
    assert t0.agent(0).chosen_by == "person"
    assert t1.agent(0).chosen_by == "default"
    assert t2.agent(0).chosen_by == "search"
    assert {t0.agent(a).chosen_by for a in (1, 2, 3)} == {"search"}
    assert verify(replay).ok


def test_stats_and_csv_say_who_chose(taken_over, tmp_path):
    path, *_ = taken_over
    replay = read_replay(path)
    stats = compute_stats(replay)
    red = stats.agents[0]
    assert red.moves_by == {"person": 1, "default": 1, "search": 1}
    assert red.person_turns == (0, 1)
    assert stats.agents[1].moves_by == {"search": 3} and stats.agents[1].person_turns == ()
    assert "moves of Red chosen by: person 1, default 1, search 1 (a person's on turns 0-1)" \
        in stats.text()
    assert json.loads(json.dumps(stats.to_dict()))["agents"][0]["moves_by"]["person"] == 1
    out = tmp_path / "x.csv"
    to_csv(replay, out, stats)
    rows = list(csv.DictReader(out.open()))
    assert [r["chosen_by"] for r in rows if r["agent"] == "0"] == ["person", "default", "search"]


def test_the_replay_panel_names_the_person_and_the_overridden_search_move(taken_over):
    path, search_move, mine, _ = taken_over
    app = App()
    try:
        scene = ReplayScene(app, read_replay(path))
        app.push(scene)
        name = scene.namers[0]
        assert scene.decision_title(0, 0) == \
            f"Red → {name(mine)} (a person; search: {name(search_move)})"
        assert "no key: default" in scene.decision_title(0, 1)
        assert scene.decision_title(0, 2) == f"Red → {name(scene.line(2).joint[0])}"
        scene.draw(app.screen)   # the panel draws with the new titles
    finally:
        app.close()
        pygame.event.clear()


def test_an_older_file_without_the_field_loads_verifies_and_infers_it(taken_over, tmp_path):
    path, *_ = taken_over
    old = tmp_path / "old.jsonl"
    lines = []
    for raw in Path(path).read_text().splitlines():
        obj = json.loads(raw)
        for p in obj.get("players", []) if obj["type"] == "turn" else []:
            for a in p["agents"]:
                a.pop("chosen_by", None)
        lines.append(json.dumps(obj))
    old.write_text("\n".join(lines) + "\n")
    assert "chosen_by" not in old.read_text()
    replay = read_replay(old)
    assert not replay.dropped and verify(replay).ok
    rows = [r for r in compute_stats(replay).rows if r.agent == 0]
    # the override shows (move played != move decided); an unsteered turn
    # that happened to match the search's move cannot be told apart
    assert rows[0].chosen_by == "person"
    assert rows[2].chosen_by == "search"


def test_a_persons_pod_and_its_bot_driven_team_mate_are_recorded_apart(tmp_path):
    """pods_you_vs_bots: the person drives pod 0 (a boost), the game's bot
    plays pod 1 and the bot team; the file says so and verifies."""
    recs = []

    def factory():
        recs.append(Recorder(tmp_path, name_hint="pods"))
        return recs[-1]

    live = LiveMatch(load_scenario("pods_you_vs_bots"), seed=1, recorder_factory=factory,
                     paused=True)
    try:
        assert live.human_agents == {0}
        _wait_ready(live)
        live.choose(0, len(live.match.world.game.legal_moves(0)) - 2)   # boost
        _play_one(live)
    finally:
        live.close()
    replay = read_replay(recs[-1].path)
    assert verify(replay).ok
    t0 = replay.turns[0]
    assert [t0.agent(a).chosen_by for a in range(4)] == ["person", "bot", "bot", "bot"]
    assert live.match.history[0].joint[0] == 9
