"""'View as' a seat of a hidden-information game in the app (goofspiel_4_imp_info,
hidden bids): the spectator's toggle, a person's seat locked until the game
is over (board, tree panels, root bars, tooltips, step view), and the replay
scene switching views. What the board shows is read from the render model
its last frame drew (the goofspiel renderer's `shown`), which
tests/games/test_goofspiel_seat_view.py pins against the strings drawn."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from sandbox.app.arena import HELP, ArenaScene
from sandbox.app.replay_scene import HELP as REPLAY_HELP, ReplayScene
from sandbox.app.seat_view import LOCKED_NOTE
from sandbox.app.shell import App
from sandbox.config import Budget, load_scenario
from sandbox.replay import Recorder, read_replay
from sandbox.sim.match import Match
from sandbox.ui import UI_EVENT

from test_arena import feed, key, step_turn, wait_decided

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "goofspiel_4_imp_info"
BUDGET = Budget(ms=0, iterations=200)
O_KEY = key(pygame.K_o, "o")
DIGITS = {1: pygame.K_1, 2: pygame.K_2, 3: pygame.K_3, 4: pygame.K_4}


def arena_at(app: App) -> ArenaScene:
    scene = ArenaScene(app, load_scenario(SCENARIO), seed=3, budget=BUDGET,
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    return scene


def shown(scene):
    scene.draw(scene.app.screen)
    return scene.board.shown


def pick(scene, value) -> None:
    """The top bar's "view as" picker chose `value` (its UI event)."""
    scene.handle_event(pygame.event.Event(UI_EVENT, id="view_as", kind="change", value=value))


def test_the_help_lists_the_view_as_key():
    assert any(k == "O" and "view as" in what for k, what in HELP)
    assert any(k == "O" and "view as" in what for k, what in REPLAY_HELP)


def test_a_spectator_switches_between_all_cards_and_each_seat(app):
    arena = arena_at(app)
    for _ in range(2):
        wait_decided(arena)
        step_turn(arena)
    picker = arena.widgets.get("view_as")
    assert [v for v, _ in picker.options] == [None, 0, 1]
    m = shown(arena)
    assert m.seat is None and all(h.held is not None for h in m.hands)
    assert all(None not in r.bids for r in m.rounds)
    feed(arena, O_KEY)                                   # all -> Red
    m = shown(arena)
    view = arena.live.view
    assert m.seat == 0 and arena.state()["view_as"] == 0
    assert m.hands[0].held == view.hands[0] and m.hands[1].held is None
    assert m.hands[1].backs == len(view.hands[1])
    assert [r.bids for r in m.rounds] == [(h.bids[0], None) for h in view.history]
    assert [r.winner for r in m.rounds] == [h.winner for h in view.history]
    assert arena._panel_hidden((1,)) and not arena._panel_hidden((0,))
    pick(arena, 1)                                       # the mouse: Blue
    m = shown(arena)
    assert m.seat == 1 and m.hands[0].held is None and m.hands[1].held == view.hands[1]
    pick(arena, None)
    assert shown(arena).seat is None and not arena._panel_hidden((1,))


def test_a_person_sees_their_seat_only_until_the_game_is_over(app, monkeypatch):
    arena = arena_at(app)
    wait_decided(arena)
    for _ in range(3):
        arena.update(200.0)                              # Blue's tree reaches its panel
    arena.draw(app.screen)
    panel = arena.layout["panels"][1]
    on_node = next(p for p in ((x, y) for y in range(panel.y + 92, panel.bottom, 6)
                               for x in range(panel.x + 6, panel.right, 6))
                   if arena._tree_at(p, hover=True) is not None)   # a spectator's tooltip
    feed(arena, key(pygame.K_h, "h"))                    # you play Red
    assert arena.live.human_agents == {0}
    arena.update(16.0)
    assert [v for v, _ in arena.widgets.get("view_as").options] == [0]
    bars: list[int] = []
    real_bars = arena._draw_bars
    monkeypatch.setattr(arena, "_draw_bars", lambda s, agent, *a, **k:
                        (bars.append(agent), real_bars(s, agent, *a, **k)))
    tree_draws: list[int] = []
    real_tree = arena.trees[1].draw
    monkeypatch.setattr(arena.trees[1], "draw", lambda *a, **k:
                        (tree_draws.append(1), real_tree(*a, **k)))
    import sandbox.app.arena.meters as meters_module
    scored: list = []
    real_board = meters_module.draw_scoreboard
    monkeypatch.setattr(meters_module, "draw_scoreboard", lambda *a: (
        scored.append(a[-1]), real_board(*a)))
    for bid in (4, 1, 2):
        wait_decided(arena)
        feed(arena, key(DIGITS[bid], str(bid)))
        assert arena.live.human[0] == bid - 1
        step_turn(arena)
        m = shown(arena)
        view = arena.live.view
        assert m.seat == 0
        assert m.hands[0].held == view.hands[0] and m.hands[1].held is None
        assert all(r.bids[1] is None for r in m.rounds)
        assert [r.bids[0] for r in m.rounds] == [h.bids[0] for h in view.history]
        # the opponent's search: no root bars, no tree, no tooltip, no step view
        assert 1 not in bars and not tree_draws and 0 in bars
        # the evaluation's scores read both hands (their card sums): not shown
        assert scored and all(sc is None for sc in scored)
        assert arena._tree_at(on_node, hover=True) is None
        feed(arena, O_KEY)                               # the toggle is refused
        assert arena.message == LOCKED_NOTE and shown(arena).seat == 0
        pick(arena, None)
        assert shown(arena).seat == 0
        arena.selected = 1
        feed(arena, key(pygame.K_i, "i"))
        assert arena.animation is None and "hidden" in arena.message
        arena.selected = 0
    wait_decided(arena)
    feed(arena, key(DIGITS[3], "3"))
    step_turn(arena)
    assert arena.match.over
    arena.update(16.0)                                   # game over: all revealed
    m = shown(arena)
    assert m.seat is None and m.hands[1].held is not None
    assert [r.bids for r in m.rounds] == [h.bids for h in arena.live.view.history]
    assert [v for v, _ in arena.widgets.get("view_as").options] == [None, 0, 1]
    assert 1 in bars and not arena._panel_hidden((1,))
    scored.clear()
    arena.draw(app.screen)
    assert scored[-1] is not None and len(scored[-1]) == 2


def test_handing_the_seat_back_keeps_its_view_until_the_game_is_over(app):
    """H, O, H would otherwise show a person the other hand mid-game and let
    them play on knowing it."""
    arena = arena_at(app)
    feed(arena, key(pygame.K_h, "h"))                    # you play Red
    wait_decided(arena)
    feed(arena, key(DIGITS[2], "2"))
    step_turn(arena)
    feed(arena, key(pygame.K_h, "h"))                    # Red searches again
    assert arena.live.human_agents == set()
    arena.update(16.0)
    feed(arena, O_KEY)
    assert arena.message == LOCKED_NOTE
    assert shown(arena).seat == 0 and arena._panel_hidden((1,))
    assert [v for v, _ in arena.widgets.get("view_as").options] == [0]
    while not arena.match.over:
        wait_decided(arena)
        step_turn(arena)
    arena.update(16.0)
    assert shown(arena).seat is None and not arena._panel_hidden((1,))
    feed(arena, key(pygame.K_r, "r"))                    # a new match: nobody played yet
    arena.update(16.0)
    assert shown(arena).seat is None and arena.seats.played is None


@pytest.fixture(scope="module")
def imp_replay(tmp_path_factory):
    rec = Recorder(tmp_path_factory.mktemp("seat_replay"), name_hint="seat", record_trees=4)
    with Match(load_scenario(SCENARIO), seed=2, budget=BUDGET, recorder=rec) as m:
        while not m.over:
            m.play_turn()
    rec.close()
    return rec.path


def test_the_replay_opens_on_all_cards_and_switches_to_a_seat_at_each_turn(app, imp_replay):
    scene = ReplayScene(app, read_replay(imp_replay), turn=2)
    app.push(scene)
    m = shown(scene)
    view = scene.view
    assert m.seat is None and scene.state()["view_as"] is None
    assert [r.bids for r in m.rounds] == [h.bids for h in view.history]
    scene.handle_event(O_KEY)                            # Red's view at turn 2
    m = shown(scene)
    assert m.seat == 0 and m.hands[1].held is None and m.hands[1].backs == 2
    assert [r.bids for r in m.rounds] == [(h.bids[0], None) for h in view.history]
    assert scene.seats.hidden_agents() == {1}
    scene.handle_event(O_KEY)                            # Blue's
    m = shown(scene)
    assert m.seat == 1 and m.hands[0].held is None and m.hands[1].held == view.hands[1]
    scene.seek(3)                                        # the view follows the turn
    m = shown(scene)
    assert m.seat == 1 and len(m.rounds) == 3 and m.hands[0].backs == 1
    scene.handle_event(O_KEY)                            # back to all cards
    assert shown(scene).seat is None and not scene.seats.hidden_agents()


def test_a_replay_seat_view_withholds_the_other_seats_decision_and_tree(app, imp_replay,
                                                                        monkeypatch):
    import sandbox.app.replay_scene as replay_scene_module
    calls: list[tuple] = []
    real = replay_scene_module.draw_root_bars

    def spy(surface, box, stats, namer, color, **kw):
        calls.append((kw.get("title"), tuple(stats), kw.get("empty")))
        return real(surface, box, stats, namer, color, **kw)
    monkeypatch.setattr(replay_scene_module, "draw_root_bars", spy)
    scored: list = []
    real_board = replay_scene_module.draw_scoreboard
    monkeypatch.setattr(replay_scene_module, "draw_scoreboard", lambda *a: (
        scored.append(a[-1]), real_board(*a)))
    scene = ReplayScene(app, read_replay(imp_replay), turn=1)
    app.push(scene)
    blue_bid = scene.line().joint[1]
    scene.draw(app.screen)                               # all cards: Blue's decision shows
    assert any(t and t.startswith("Blue →") and s for t, s, _ in calls)
    assert scene.namers[1](blue_bid) in next(t for t, _, _ in calls if t.startswith("Blue"))
    scene.update(16.0)                                   # the recorded trees fed
    scene.draw(app.screen)
    panel = scene.layout["panels"][1]
    on_node = next(p for p in ((x, y) for y in range(panel.y + 22, panel.bottom, 6)
                               for x in range(panel.x + 6, panel.right, 6))
                   if scene._tree_at(p, click=False) is not None)   # Blue's tree answers
    calls.clear()
    scene.handle_event(O_KEY)                            # Red's view
    scene.draw(app.screen)
    assert scored[0] is not None and scored[-1] is None   # the scores read both hands
    blue = [c for c in calls if c[0] == "Blue"]
    assert blue and blue[0][1] == () and "hidden" in blue[0][2]
    assert any(t and t.startswith("Red →") and s for t, s, _ in calls)
    # Blue's recorded tree: no tooltip from it in Red's view
    assert scene._tree_at(on_node, click=False) is None


# ------------------------------------------------------------- main.py --view-as
def _main(*args: str, cwd) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_view_as_without_a_board_is_refused(tmp_path):
    p = _main(SCENARIO, "--headless", "--view-as", "0", cwd=tmp_path)
    assert p.returncode != 0 and "Traceback" not in p.stderr
    assert p.stderr.strip() == ("error: --view-as picks what the app's board shows; "
                                "--headless draws no board")
    assert "result:" not in p.stdout


@pytest.mark.parametrize("scenario, value, words", [
    (SCENARIO, "foo", "must be all or a seat number (got 'foo')"),
    (SCENARIO, "2", "must be all or a seat in 0..1 (got 2)"),
    (SCENARIO, "-1", "must be all or a seat in 0..1 (got -1)"),
    ("goofspiel_13_duel", "0", "this game hides nothing"),
])
def test_a_bad_view_as_is_one_error_line_before_any_turn(tmp_path, scenario, value, words):
    p = _main(scenario, "--screenshot", str(tmp_path / "s.png"), "--turns", "1",
              "--view-as", value, cwd=tmp_path)
    assert p.returncode != 0 and "Traceback" not in p.stderr + p.stdout
    err = p.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --view-as") and words in err[0], p.stderr
    assert not (tmp_path / "s.png").exists()


def test_a_screenshot_shows_the_seat_asked_for(tmp_path, monkeypatch):
    import sandbox.app as app_module
    from sandbox.cli import app_main
    seen = {}

    def shot(app, arena, path, turns):          # what the picture would show
        arena.draw(app.screen)
        seen["seat"] = arena.board.shown.seat
        app.close()
        return 0
    monkeypatch.setattr(app_module, "_screenshot", shot)
    assert app_main([SCENARIO, "--screenshot", str(tmp_path / "s.png"), "--turns", "1",
                     "--view-as", "1"]) == 0
    assert seen == {"seat": 1}
    assert app_main([SCENARIO, "--screenshot", str(tmp_path / "s.png"), "--turns", "1",
                     "--view-as", "all"]) == 0
    assert seen == {"seat": None}


def test_a_replay_seat_view_charts_only_that_seats_search(app, imp_replay, monkeypatch):
    import sandbox.app.replay_scene as replay_scene_module
    drawn = []
    monkeypatch.setattr(replay_scene_module, "draw_replay_charts",
                        lambda surf, stats, **kw: drawn.append((set(stats.root_value),
                                                                set(stats.entropy))))
    scene = ReplayScene(app, read_replay(imp_replay), turn=1)
    app.push(scene)
    scene.draw(app.screen)
    scene.handle_event(O_KEY)                            # Red's view
    scene.draw(app.screen)
    assert drawn == [({"Red", "Blue"}, {"Red", "Blue"}), ({"Red"}, {"Red"})]


def test_a_replay_seat_view_withholds_a_what_if_of_the_other_seat(app, imp_replay,
                                                                 monkeypatch):
    scene = ReplayScene(app, read_replay(imp_replay), turn=1)
    app.push(scene)
    scene.toggle_whatif()
    shown_for: list = []
    real = scene.whatif.draw
    monkeypatch.setattr(scene.whatif, "draw", lambda *a, **k: (shown_for.append(
        scene.whatif.agent), real(*a, **k)))
    scene.whatif.agent = 1                               # a what-if of Blue's decision
    scene.draw(app.screen)
    assert shown_for == [1]
    scene.handle_event(O_KEY)                            # Red's view: Blue's what-if withheld
    scene.draw(app.screen)
    assert shown_for == [1]
    scene.whatif.agent = 0                               # Red's own: shown
    scene.draw(app.screen)
    assert shown_for == [1, 0]
