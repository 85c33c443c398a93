"""What-ifs in the replay scene, driven headless by synthesized events: W
opens the panel, the agent picker, a settings slider and the Run button are
events as a user's would be. The oracle is the recording itself (each
search's root visits as written when it decided, read from the file)."""
from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from sandbox.app.replay_scene import ReplayScene
from sandbox.config import Budget, load_scenario, scenario_from_dict
from sandbox.replay import Recorder, read_replay
from sandbox.sim.match import Match
from sandbox.ui.events import post_change

ITERATIONS, TURNS, TURN, AGENT = 200, 10, 4, 1
FIRST_SEED, NEW_C = 7, 2.5


def _record(folder: Path, reuse: bool, seed: int) -> Path:
    base = load_scenario("snakes_standard_4p").model_dump()
    for p in base["players"]:
        p["search"]["tree_reuse"] = reuse
    base["players"][3] = {"name": "Rand", "controller": "random"}
    rec = Recorder(folder, name_hint=f"whatif{int(reuse)}")
    with Match(scenario_from_dict(base), seed=seed, budget=Budget(iterations=ITERATIONS, ms=0),
               max_turns=TURNS, recorder=rec) as m:
        m.play()
    rec.close()
    return rec.path


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The recordings, at the first seed from FIRST_SEED where c = NEW_C
    changes AGENT's move at TURN (the case the comparison test needs; which
    seed that is depends on how seeds are derived, not on the what-ifs)."""
    from sandbox.replay.research import research
    folder = tmp_path_factory.mktemp("whatif")
    for seed in range(FIRST_SEED, FIRST_SEED + 30):
        off = _record(folder, False, seed)
        with read_replay(off) as rp:
            if research(rp, TURN, AGENT, {"c": NEW_C}).move_changed:
                return {"off": off, "on": _record(folder, True, seed)}
        off.unlink()
    raise AssertionError(f"no seed where c = {NEW_C} changes the move")


def _recorded(path: Path, turn: int, agent: int) -> tuple[dict[int, int], int]:
    for raw in path.read_text().splitlines():
        obj = json.loads(raw)
        if obj["type"] == "turn" and obj["turn"] == turn:
            for p in obj["players"]:
                for a in p["agents"]:
                    if a["agent"] == agent:
                        return {m["move"]: m["visits"] for m in a["root"]}, a["move"]
    raise AssertionError("no such turn")


def _frames(app, n: int = 2) -> None:
    app.run(max_frames=app.frame + n)


def _click(app, scene, wid: str) -> None:
    r = scene.widgets.get(wid).rect
    for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(t, pos=r.center, button=1))
    _frames(app)


def _run(app, scene) -> None:
    _click(app, scene, "wi_run")
    scene.whatif.wait(120)
    _frames(app)               # the scene picks the finished run up


def _open(app, path: Path) -> ReplayScene:
    scene = ReplayScene(app, read_replay(path), turn=TURN)
    app.push(scene)
    _frames(app)
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w, unicode="w", mod=0))
    _frames(app)
    assert scene.whatif_open
    post_change("wi_agent", AGENT)
    _frames(app)
    assert scene.whatif.agent == AGENT
    return scene


def test_recorded_settings_and_budget_show_the_recorded_visits_exactly(app, files):
    scene = _open(app, files["off"])
    want, _ = _recorded(files["off"], TURN, AGENT)
    assert sum(want.values()) == ITERATIONS
    assert scene.widgets.get("wi_iterations").value == ITERATIONS   # the recorded budget
    _run(app, scene)
    lines = scene.whatif.comparison_lines()
    names = {m: scene.namers[AGENT](m) for m in want}
    assert {n: (rv, nv) for n, rv, nv, _ in lines} == {names[m]: (v, v) for m, v in want.items()}
    assert all(d == "+0%" for *_, d in lines)
    assert "identical" in scene.whatif.shown().report.difference()
    assert scene.whatif.kept_tree_notes() == []          # reuse off: a fresh tree, as recorded
    # the new tree is shown beside the recorded one
    views = scene.tree_views()
    assert len(views) == 2 and views[1][0].snapshot is not None
    assert int(views[1][0].snapshot.rows["visits"][0]) == ITERATIONS


def test_a_changed_c_is_a_second_listed_what_if_whose_difference_names_the_move(app, files):
    scene = _open(app, files["off"])
    _run(app, scene)
    post_change("wi_s_c", NEW_C)
    _frames(app)
    assert scene.whatif.changes == {"c": NEW_C}
    _run(app, scene)
    listed = scene.whatif.listed()
    assert [w.changes for w in listed] == [{}, {"c": NEW_C}]
    assert {"wi_pick0", "wi_pick1"} <= {w.id for w in scene.widgets.widgets}
    assert scene.widgets.get("wi_pick1").toggled            # the latest is compared
    shown = scene.whatif.shown()
    assert shown is listed[1]
    want, recorded_move = _recorded(files["off"], TURN, AGENT)
    lines = scene.whatif.comparison_lines()
    assert [rv for _, rv, _, _ in lines] == [want[m] for m in sorted(want)]
    new_best = max(lines, key=lambda x: x[2])[0]               # most visited in the re-search
    old = scene.namers[AGENT](recorded_move)
    assert new_best != old                                     # this case changes the move
    diff = shown.report.difference()
    assert "CHANGED" in diff and f"{old} → {new_best}" in diff
    assert new_best in listed[1].label() and "c 2.5" in listed[1].label()
    # picking the first compares it again
    _click(app, scene, "wi_pick0")
    assert scene.whatif.shown() is listed[0]
    # another turn: its own (empty) list; back: both still there
    scene.seek(TURN + 1)
    assert scene.whatif.listed() == []
    scene.seek(TURN)
    assert scene.whatif.listed() == listed


def test_reuse_on_says_the_recorded_search_began_from_a_kept_tree(app, files):
    scene = _open(app, files["on"])
    notes = scene.whatif.kept_tree_notes()
    assert len(notes) == 1 and "began from a kept tree" in notes[0]
    post_change("wi_keep", True)
    _frames(app)
    _run(app, scene)
    rep = scene.whatif.shown().report
    assert rep.recorded_kept_tree and rep.from_kept_tree
    want, _ = _recorded(files["on"], TURN, AGENT)
    # from the kept tree with the recorded settings: the recorded visits exactly
    assert {m.move: m.recorded_visits for m in rep.rows} == want
    assert all(m.visits == m.recorded_visits for m in rep.rows)


def test_a_refused_setting_goes_back_with_a_message(app, files):
    scene = _open(app, files["off"])
    post_change("wi_s_max_depth", 0)           # below SearchParams' range
    _frames(app)
    assert "max_depth" not in scene.whatif.changes
    assert scene.whatif.message.startswith("max_depth")
    assert scene.widgets.get("wi_s_max_depth").value != 0


def test_the_weights_grid_changes_an_evaluation_weight_for_a_what_if(app, files):
    scene = _open(app, files["off"])
    _click(app, scene, "wi_weights")
    assert scene.whatif.show_weights
    s = scene.widgets.get("wi_s_weights.w_space")
    assert s.value == 0.5                      # the scenario's, as the player used it
    post_change("wi_s_weights.w_space", 1.75)
    _frames(app)
    assert scene.whatif.changes == {"weights.w_space": 1.75}
    _run(app, scene)
    wi = scene.whatif.shown()
    assert wi.error == "" and wi.report.changes == {"weights.w_space": (0.5, 1.75)}
    assert "w_space 1.75" in wi.label()
    post_change("wi_s_weights.w_space", 5000.0)   # outside the parameter's range
    _frames(app)
    assert scene.whatif.changes == {"weights.w_space": 1.75}
    assert "w_space" in scene.whatif.message


def test_the_grid_offers_counterfactual_for_rm_only():
    """The what-if grid lists the knobs the recorded search reads: RM and RM+
    get `counterfactual` (a picker of its three values), Exp3 and UCB1 not."""
    from sandbox.app.whatif import _widget, knobs
    from sandbox.native import SearchParams
    assert "counterfactual" in knobs(SearchParams(policy="rm"))
    assert "counterfactual" in knobs(SearchParams(policy="rm_plus"))
    assert "counterfactual" not in knobs(SearchParams(policy="exp3"))
    assert "counterfactual" not in knobs(SearchParams())
    w = _widget("counterfactual", "terminal", pygame.Rect(0, 0, 200, 30))
    assert [v for v, _ in w.options] == ["off", "terminal", "last_step"]


def test_dragging_the_timeline_with_the_panel_open_follows_every_turn(app, files):
    """The panel is rebuilt for each turn shown (its settings in force, its
    list); a rebuild in the middle of a drag must not end the drag."""
    scene = _open(app, files["off"])
    _run(app, scene)                                   # one what-if listed at TURN
    tl = scene.timeline
    y = tl.bar.centery
    path = [2, 3, 5, 7, TURN, 8]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(tl.x_of(path[0]), y),
                                         button=1))
    _frames(app)
    assert scene.turn == path[0]
    for t in path[1:]:
        x = scene.timeline.x_of(t)                     # the timeline widget is rebuilt
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(1, 0),
                                             buttons=(1, 0, 0)))
        _frames(app)
        assert scene.turn == t, f"the drag stopped at {scene.turn}, not {t}"
        assert scene.timeline.value == t
        listed = scene.state()["whatif"]["listed"]
        assert len(listed) == (1 if t == TURN else 0)   # the panel shows this turn's
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(scene.timeline.x_of(8), y),
                                         button=1))
    _frames(app)
    assert not scene.timeline.dragging
    # after the release, moving the mouse over the bar no longer scrubs
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(scene.timeline.x_of(3), y),
                                         rel=(1, 0), buttons=(0, 0, 0)))
    _frames(app)
    assert scene.turn == 8
