"""The arena scene inside the app shell, driven frame by frame.

Synthesised pygame events go to scene.handle_event (and the UI events the
widgets post in response are handed back to it, as App.run does on the next
frame); time advances only through explicit scene.update(dt_ms) calls. The
searches are real (four Smitsimax players, 200 iterations a turn, so a turn
is decided in milliseconds and matches are reproducible); the only waits are
deadline loops on the search threads. Render checks are structural: sizes,
colour counts, agent colours where the snakes are, never pixel goldens.
The dummy video driver comes from tests/conftest.py.
"""
from __future__ import annotations

import json
import time

import numpy as np
import pygame
import pytest

from sandbox.app.arena import HELP, ArenaScene
from sandbox.app.shell import App
from sandbox.config import Budget, load_scenario
from sandbox.games.snakes.view import MOVE_DELTAS
from sandbox.render import palette as pal
from sandbox.render.grid import board_geometry
from sandbox.sim.controller import SearchController
from sandbox.ui import UI_EVENT

ARROWS = {pygame.K_UP: 0, pygame.K_DOWN: 1, pygame.K_LEFT: 2, pygame.K_RIGHT: 3}

SCENARIO = "snakes_standard_4p"
BUDGET = Budget(ms=0, iterations=200)
SEED = 5
HANG_GUARD_S = 30.0      # only guards against a hung search thread
C0 = 0.7                 # every player's C in the scenario


# ------------------------------------------------------------------ fixtures
@pytest.fixture
def app():
    a = App()
    pygame.event.clear()
    yield a
    a.close()            # ends every scene: search threads stop
    pygame.event.clear()


def make_arena(app: App, budget: Budget = BUDGET, seed: int = SEED) -> ArenaScene:
    scene = ArenaScene(app, load_scenario(SCENARIO), seed=seed, budget=budget,
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)      # enter + resize to the window (1280x800)
    return scene


@pytest.fixture
def arena(app) -> ArenaScene:
    return make_arena(app)


# ------------------------------------------------------------------ events
def down(pos, button: int = 1):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=tuple(pos), button=button)


def up(pos, button: int = 1):
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=tuple(pos), button=button)


def motion(pos):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=tuple(pos), rel=(0, 0), buttons=(1, 0, 0))


def key(k: int, unicode: str = "", mod: int = 0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0)


N = key(pygame.K_n, "n")
SPACE = key(pygame.K_SPACE, " ")
QUESTION = key(pygame.K_SLASH, "?", pygame.KMOD_LSHIFT)
ESC = key(pygame.K_ESCAPE, "\x1b")


def feed(scene: ArenaScene, *events) -> None:
    """Each event to the scene, then the UI events the widgets posted for it."""
    for e in events:
        scene.handle_event(e)
        for ui in pygame.event.get(UI_EVENT):
            scene.handle_event(ui)


def click(scene: ArenaScene, pos) -> None:
    feed(scene, down(pos), up(pos))


def drag(scene: ArenaScene, start, *points) -> None:
    feed(scene, down(start), *[motion(p) for p in points], up(points[-1] if points else start))


def on_track(slider, frac: float) -> tuple[int, int]:
    t = slider.track
    return (t.x + int(round(frac * t.w)), t.centery)


# ------------------------------------------------------------------ time
def wait_until(cond, scene: ArenaScene | None = None, dt_ms: float = 16.0, what: str = "") -> None:
    """Poll (calling scene.update(dt_ms) each round if a scene is given)
    until cond() holds; fail after HANG_GUARD_S."""
    deadline = time.monotonic() + HANG_GUARD_S
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what or cond}"
        if scene is not None:
            scene.update(dt_ms)
        time.sleep(0.001)


def wait_decided(scene: ArenaScene) -> None:
    """Every controller has decided this turn (so the searches are idle)."""
    wait_until(scene.match.turn_ready, what="the turn's decisions")


def step_turn(scene: ArenaScene) -> None:
    """N: play exactly one turn (the match stays paused)."""
    k = scene.match.turn
    feed(scene, N)
    wait_until(lambda: scene.match.turn == k + 1, scene, what=f"turn {k + 1}")


# ------------------------------------------------------------------ C slider
def test_dragging_the_c_slider_sets_c_in_the_controller_and_in_the_c_search(arena):
    ctl = arena.match.controllers[0]
    assert arena.selected == 0
    wait_decided(arena)            # not thinking: a change applies at once
    s = arena.widgets.get("c")
    assert (s.lo, s.hi, s.value) == (0.0, 3.0, C0)
    assert ctl.settings.c == C0 and ctl.c_confirmed.c == C0
    drag(arena, on_track(s, 1 / 3), on_track(s, 1 / 2))    # C 1.0, then 1.5
    assert s.value == 1.5
    assert ctl.settings.c == 1.5
    assert ctl.c_confirmed.c == 1.5                 # read back from C after the change
    assert ctl.search.c_params().c == 1.5           # and read again now
    for other in arena.match.controllers[1:]:       # only the chosen player's search
        assert other.settings.c == C0 and other.search.c_params().c == C0

    step_turn(arena)
    rec = arena.live.last_record
    assert rec.turn == 0
    changes = rec.players[0].changes
    # one drag in one turn is one change, from where it started to where it ended
    assert [(ch.turn, ch.player, ch.changes) for ch in changes] == [(0, 0, {"c": (C0, 1.5)})]
    assert all(p.changes == () for p in rec.players[1:])
    assert arena.change_log == ["turn 0: Red c 0.7→1.5"]
    # the next turn searched with it
    wait_decided(arena)
    snap = arena.match.controllers[0].latest
    assert snap.turn == 1 and snap.params.c == 1.5


def test_c_change_while_thinking_lands_at_the_next_search_slice(app):
    # a budget that never runs out: the search thinks until interrupted
    arena = make_arena(app, Budget(ms=0, iterations=1_000_000_000, slice_iterations=200))
    ctl = arena.match.controllers[0]
    wait_until(lambda: ctl.latest is not None and ctl.latest.thinking, what="a mid-turn snapshot")
    s = arena.widgets.get("c")
    click(arena, on_track(s, 0.5))
    assert ctl.settings.c == 1.5                    # asked for at once ...
    wait_until(lambda: ctl.c_confirmed.c == 1.5, what="the worker to apply C")  # ... by the worker
    assert not ctl.done                             # mid-turn
    arena.match.interrupt()                         # move now with what is known
    wait_decided(arena)
    assert ctl.search.c_params().c == 1.5
    step_turn(arena)
    (change,) = arena.live.last_record.players[0].changes
    assert (change.turn, change.player, change.changes) == (0, 0, {"c": (C0, 1.5)})
    assert change.iteration > 0                     # between slices, not before the turn
    assert arena.change_log == ["turn 0: Red c 0.7→1.5"]


def test_the_slider_shows_and_sets_the_chosen_players_c(arena):
    ctls = arena.match.controllers
    wait_decided(arena)
    click(arena, arena.widgets.get("tab2").rect.center)     # Blue's panel
    assert arena.selected == 2 and arena.widgets.get("tab2").toggled
    click(arena, on_track(arena.widgets.get("c"), 0.5))
    assert [c.settings.c for c in ctls] == [C0, C0, 1.5, C0]
    assert [c.c_confirmed.c for c in ctls] == [C0, C0, 1.5, C0]
    feed(arena, key(pygame.K_1, "1"))                          # back to Red's
    assert arena.selected == 0 and arena.widgets.get("c").value == C0
    feed(arena, key(pygame.K_3, "3"))
    assert arena.widgets.get("c").value == 1.5
    assert arena.change_log == []                              # logged with the turn's record
    step_turn(arena)
    assert [p.changes != () for p in arena.live.last_record.players] == [False, False, True, False]
    assert arena.change_log == ["turn 0: Blue c 0.7→1.5"]


def test_budget_slider_sets_the_players_time_budget(arena):
    wait_decided(arena)
    s = arena.widgets.get("budget_ms")
    assert s.log and (s.lo, s.hi) == (1.0, 1000.0)
    click(arena, on_track(s, 1 / 3))                           # log track: 10 ms
    assert arena.match.budget_for(0).ms == 10.0
    assert arena.match.budget_for(0).iterations == 0
    assert arena.match.budget_for(1) == BUDGET
    step_turn(arena)        # recorded with the turn, like every settings change
    changes = arena.live.last_record.players[0].changes
    assert [(ch.turn, ch.changes) for ch in changes] == [
        (0, {"budget_ms": (0.0, 10.0), "budget_iterations": (200, 0)})]
    assert arena.change_log == ["turn 0: Red budget_ms 0→10, budget_iterations 200→0"]


# ------------------------------------------------------------------ picker, toggle
def test_elimination_picker_and_death_penalty_toggle_reach_the_c_search(arena):
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    p = arena.widgets.get("elimination")
    assert [v for v, _ in p.options] == ["pass", "freeze"]
    assert p.value == "pass" and ctl.c_confirmed.elimination == "pass"
    click(arena, p.box.center)
    assert p.open and ctl.settings.elimination == "pass"      # opening changes nothing
    click(arena, p.option_rect(1).center)                     # over the toggles below
    assert not p.open and p.value == "freeze"
    assert ctl.settings.elimination == "freeze"
    assert ctl.c_confirmed.elimination == "freeze"
    assert ctl.search.c_params().elimination == "freeze"
    assert ctl.settings.death_penalty is False                # the click did not fall through
    # the picker kept keyboard focus: Up goes back to "pass"
    assert p.focused
    feed(arena, key(pygame.K_UP))
    assert ctl.settings.elimination == "pass" and ctl.search.c_params().elimination == "pass"

    t = arena.widgets.get("death_penalty")
    assert t.value is False and ctl.c_confirmed.death_penalty is False
    click(arena, t.rect.center)
    assert t.value is True
    assert ctl.settings.death_penalty is True
    assert ctl.c_confirmed.death_penalty is True
    assert ctl.search.c_params().death_penalty is True
    assert arena.state()["players"][0]["c_params"]["death_penalty"] is True

    step_turn(arena)
    changes = arena.live.last_record.players[0].changes
    # pass -> freeze -> pass within the turn left elimination where it was
    assert [ch.changes for ch in changes] == [{"death_penalty": (False, True)}]
    assert {ch.turn for ch in changes} == {0}


# ------------------------------------------------------------------ pause / step
def test_n_plays_exactly_one_turn_while_paused(arena):
    live, m = arena.live, arena.match
    assert live.paused and m.turn == 0
    wait_decided(arena)
    for _ in range(10):
        arena.update(1000.0)                # decided, but the pause holds it back
    assert m.turn == 0
    for k in range(3):
        feed(arena, N)
        wait_until(lambda: m.turn == k + 1, arena, what=f"turn {k + 1}")
        wait_decided(arena)                 # the next turn is decided too ...
        for _ in range(20):
            arena.update(1000.0)            # ... and plenty of time passes
        assert m.turn == k + 1 and len(m.history) == k + 1
        assert live.last_record.turn == k
        assert live.paused
    assert arena.widgets.get("play").label == "Play"


def test_n_while_playing_pauses_after_one_turn(arena):
    live, m = arena.live, arena.match
    feed(arena, SPACE)
    assert not live.paused
    feed(arena, N)
    assert live.paused and arena.widgets.get("play").label == "Play"
    wait_until(lambda: m.turn == 1, arena)
    wait_decided(arena)
    for _ in range(10):
        arena.update(1000.0)
    assert m.turn == 1


def test_step_button_plays_exactly_one_turn(arena):
    m = arena.match
    step = arena.widgets.get("step")
    for k in range(2):
        click(arena, step.rect.center)
        wait_until(lambda: m.turn == k + 1, arena, what=f"turn {k + 1}")
        wait_decided(arena)
        for _ in range(10):
            arena.update(1000.0)
        assert m.turn == k + 1


def test_step_button_through_the_app_event_queue(app):
    """The same click posted to pygame's queue and run by App.run (real
    frames: the click's UI event is handled on the frame after)."""
    arena = make_arena(app)
    center = arena.widgets.get("step").rect.center
    pygame.event.post(down(center))
    pygame.event.post(up(center))
    deadline = time.monotonic() + HANG_GUARD_S
    while arena.match.turn < 1:
        assert time.monotonic() < deadline
        app.run(max_frames=app.frame + 1)
    wait_decided(arena)
    app.run(max_frames=app.frame + 10)
    assert arena.match.turn == 1 and arena.live.paused
    assert app.scene is arena


def test_space_and_the_play_button_toggle_pause(arena):
    live, m = arena.live, arena.match
    assert live.speed == 1.0                        # one turn per 400 ms
    feed(arena, SPACE)
    assert not live.paused and arena.widgets.get("play").label == "Pause"
    wait_decided(arena)
    arena.update(400.0)
    assert m.turn == 1
    feed(arena, SPACE)
    assert live.paused and arena.widgets.get("play").label == "Play"
    wait_decided(arena)
    for _ in range(5):
        arena.update(1000.0)
    assert m.turn == 1
    click(arena, arena.widgets.get("play").rect.center)
    assert not live.paused
    arena.update(0.0)             # the held turn's 400 ms passed while paused: it plays now
    assert m.turn == 2
    wait_decided(arena)
    arena.update(399.0)
    assert m.turn == 2
    arena.update(1.0)
    assert m.turn == 3


# ------------------------------------------------------------------ speed
def test_speed_keys_follow_the_help(arena):
    keys = dict(HELP)
    assert keys["+ / -"] == "faster / slower" and "fast" in keys["F"]
    plus = key(pygame.K_EQUALS, "+", pygame.KMOD_LSHIFT)
    equals = key(pygame.K_EQUALS, "=")
    minus = key(pygame.K_MINUS, "-")
    kp_plus = key(pygame.K_KP_PLUS, "+")
    kp_minus = key(pygame.K_KP_MINUS, "-")
    f = key(pygame.K_f, "f")
    steps = [(plus, 2.0), (equals, 4.0), (minus, 2.0), (kp_minus, 1.0), (minus, 0.5),
             (minus, 0.25), (minus, 0.25), (kp_plus, 0.5), (f, None), (f, 1.0), (f, None),
             (minus, 8.0), (plus, None), (plus, None)]
    live = arena.live
    assert live.speed == 1.0
    for ev, speed in steps:
        feed(arena, ev)
        assert live.speed == speed, ev
        assert arena.widgets.get("speed").value == speed    # the picker follows
    assert live.turn_period_ms == 0.0


def test_turn_pacing_follows_the_speed_in_explicit_time(arena):
    m = arena.match
    feed(arena, key(pygame.K_EQUALS, "+", pygame.KMOD_LSHIFT), SPACE)   # x2, playing
    for period in (200.0, 200.0, 800.0):
        if period == 800.0:
            feed(arena, key(pygame.K_MINUS, "-"), key(pygame.K_MINUS, "-"))   # x0.5
        k = m.turn
        wait_decided(arena)
        arena.update(period - 1.0)
        assert m.turn == k
        arena.update(1.0)
        assert m.turn == k + 1


def test_speed_picker_sets_the_speed(arena):
    p = arena.widgets.get("speed")
    click(arena, p.box.center)
    assert p.open
    i = [v for v, _ in p.options].index(4.0)
    click(arena, p.option_rect(i).center)
    assert arena.live.speed == 4.0 and not p.open


# ------------------------------------------------------------------ human control
def safe_move(view, agent: int, avoid: int | None) -> int:
    """A move for `agent` that stays on the board and off every body,
    preferring one that is not `avoid`."""
    s = view.snakes[agent]
    occupied = {c for sn in view.snakes if sn.alive for c in sn.body[:-1]}
    hx, hy = s.head
    ok = [m for m, (dx, dy) in enumerate(MOVE_DELTAS)
          if 0 <= hx + dx < view.width and 0 <= hy + dy < view.height
          and (hx + dx, hy + dy) not in occupied]
    assert ok, "no safe move"
    return next((m for m in ok if m != avoid), ok[0])


def test_human_control_plays_the_chosen_move(arena):
    m, live = arena.match, arena.live
    feed(arena, key(pygame.K_2, "2"))
    assert arena.selected == 1
    ctl = m.controllers[1]
    (agent,) = ctl.agents
    feed(arena, key(pygame.K_h, "h"))
    assert live.human_agents == {agent}
    assert arena.widgets.get("human").value is True
    assert arena.state()["players"][1]["human"] is True
    arrow_for = {move: k for k, move in ARROWS.items()}
    for _ in range(3):
        wait_decided(arena)
        searched = ctl.moves()[agent]
        view = live.view
        move = safe_move(view, agent, avoid=searched)
        feed(arena, key(arrow_for[move]))
        assert live.human[agent] == move
        head = view.snakes[agent].head
        step_turn(arena)
        rec = live.last_record
        assert rec.joint[agent] == move
        assert rec.players[1].moves[agent] == searched      # what the search wanted
        for p in rec.players:                                # everyone else: their search
            for a, mv in p.moves.items():
                if a != agent:
                    assert rec.joint[a] == mv
        dx, dy = MOVE_DELTAS[move]
        assert live.view.snakes[agent].head == (head[0] + dx, head[1] + dy)
        assert live.view.snakes[agent].alive
    feed(arena, key(pygame.K_h, "h"))                      # hand it back
    assert live.human_agents == set()
    assert arena.widgets.get("human").value is False


def test_a_scenarios_human_player_steers_and_the_turn_waits_for_the_key(app):
    """snakes_you_vs_three: the person's snake is steered by the arrows from
    the start, and each turn waits for their key (W switches that off)."""
    arena = ArenaScene(app, load_scenario("snakes_you_vs_three"), seed=SEED, budget=BUDGET,
                       recorder_factory=lambda: None)          # playing, not paused
    app.push(arena)
    live = arena.live
    assert live.human_agents == {0} and arena.selected == 0
    assert "human" not in [w.id for w in arena.widgets.widgets]   # no toggle: always yours
    arrow_for = {move: k for k, move in ARROWS.items()}
    wait_decided(arena)
    for _ in range(20):                       # decided, time passes: still no turn
        arena.update(500.0)
    assert arena.match.turn == 0 and live.waiting_for_human()
    move = safe_move(live.view, 0, avoid=None)
    feed(arena, key(arrow_for[move]))
    wait_until(lambda: arena.match.turn == 1, arena, dt_ms=500.0, what="turn 1")
    assert live.last_record.joint[0] == move
    # straight back into the neck is not taken from a key
    d = live.view.snakes[0].direction
    back = [m for m, (dx, dy) in enumerate(MOVE_DELTAS)
            if (dx, dy) == (-MOVE_DELTAS[d][0], -MOVE_DELTAS[d][1])][0]
    feed(arena, key(arrow_for[back]))
    assert live.human[0] == move and live.waiting_for_human()   # the key was not taken
    feed(arena, key(pygame.K_w, "w"))          # don't wait: the match goes on
    assert not live.wait_for_humans
    wait_until(lambda: arena.match.turn >= 3, arena, dt_ms=500.0, what="turn 3 without keys")


def test_arrows_go_to_a_focused_slider_not_the_snake(arena):
    live = arena.live
    feed(arena, key(pygame.K_h, "h"))
    assert live.human_agents == {0}
    wait_decided(arena)
    order = [w.id for w in arena.widgets.widgets if w.focusable and w.visible and w.enabled]
    for _ in range(order.index("c") + 1):
        feed(arena, key(pygame.K_TAB, "\t"))
    assert arena.widgets.get("c").focused
    feed(arena, key(pygame.K_RIGHT))
    assert arena.match.controllers[0].settings.c == 0.75
    assert live.human == {}
    feed(arena, ESC)                                # clears the focus, stays in the arena
    assert not arena.widgets.get("c").focused and arena.app.scene is arena
    feed(arena, key(pygame.K_RIGHT))
    assert live.human == {0: ARROWS[pygame.K_RIGHT]}
    assert arena.match.controllers[0].settings.c == 0.75


# ------------------------------------------------------------------ help, restart, leaving
def mean_brightness(surface: pygame.Surface, rect: pygame.Rect) -> float:
    px = pygame.surfarray.array3d(surface)[rect.x:rect.right, rect.y:rect.bottom]
    return float(px.mean())


def test_question_mark_toggles_the_help_overlay(app, arena):
    corner = pygame.Rect(arena.layout["board"].topleft, (300, 150))   # outside the help box
    arena.draw(app.screen)
    plain = mean_brightness(app.screen, corner)
    feed(arena, QUESTION)
    assert arena.show_help
    arena.draw(app.screen)
    assert mean_brightness(app.screen, corner) < 0.6 * plain          # the shade is over it
    # every line fits the box: its right edge is past the widest line's end
    from sandbox.app.arena import HELP
    from sandbox.render.fonts import text as render_text
    widest = max(render_text(what, 13, (0, 0, 0)).get_width() for _, what in HELP)
    box = arena.help_rect
    assert box.width >= widest + 16 + 114 + 16 and app.screen.get_rect().contains(box)
    feed(arena, QUESTION)
    assert not arena.show_help
    feed(arena, key(pygame.K_F1))
    assert arena.show_help
    feed(arena, ESC)                                 # Esc closes the help, not the arena
    assert not arena.show_help and app.scene is arena
    click(arena, arena.widgets.get("help").rect.center)
    assert arena.show_help
    assert arena.match.turn == 0                      # none of it played a turn


def test_escape_leaves_the_arena_and_stops_its_searches(app, arena):
    ctls = arena.match.controllers
    feed(arena, ESC)
    assert app.scenes == [] and not app.running
    assert all(c.search.closed for c in ctls)


def test_restart_gives_a_new_seed_and_turn_zero(arena):
    wait_decided(arena)
    click(arena, on_track(arena.widgets.get("c"), 0.5))
    step_turn(arena)
    step_turn(arena)
    old = arena.match
    assert old.turn == 2 and old.seed == SEED and arena.change_log
    feed(arena, key(pygame.K_r, "r"))
    m = arena.match
    assert m is not old and all(c.search.closed for c in old.controllers)
    assert (m.seed, m.turn, m.history) == (SEED + 1, 0, [])
    assert arena.change_log == []
    assert arena.state()["seed"] == SEED + 1 and arena.state()["turn"] == 0
    ctl = m.controllers[0]                            # the players keep their settings
    assert ctl.settings.c == 1.5 and ctl.c_confirmed.c == 1.5
    assert arena.widgets.get("c").value == 1.5
    step_turn(arena)                                  # the new match plays
    assert m.turn == 1 and all(p.changes == () for p in arena.live.last_record.players)
    click(arena, arena.widgets.get("restart").rect.center)
    assert (arena.match.seed, arena.match.turn) == (SEED + 2, 0)


# ------------------------------------------------------------------ rendering
def pixels(surface: pygame.Surface) -> np.ndarray:
    return pygame.surfarray.array3d(surface)          # (w, h, 3)


def play_turns(arena: ArenaScene, n: int) -> None:
    feed(arena, key(pygame.K_f, "f"), SPACE)         # as fast as the search allows
    wait_until(lambda: arena.match.turn >= n, arena, what=f"turn {n}")
    feed(arena, SPACE)
    arena.update(1e6)                                 # paused: interpolation completes
    assert arena.live.paused and arena.live.alpha == 1.0


def test_render_shows_every_snake_in_its_colour_where_it_is(app, arena):
    play_turns(arena, 4)
    surf = app.screen
    arena.draw(surf)
    assert surf.get_size() == (1280, 800)
    px = pixels(surf)
    packed = (px[..., 0].astype(np.int64) << 16) | (px[..., 1].astype(np.int64) << 8) | px[..., 2]
    assert len(np.unique(packed)) > 100               # not blank, not a flat fill
    assert (packed != ((pal.BG[0] << 16) | (pal.BG[1] << 8) | pal.BG[2])).mean() > 0.3

    board = arena.layout["board"]
    view = arena.live.view
    cell, x0, y0 = board_geometry(board, view.width, view.height)
    alive = [a for a, s in enumerate(view.snakes) if s.alive]
    assert len(alive) >= 2
    assert len({arena.colors[a] for a in alive}) == len(alive)
    for a in alive:
        s = view.snakes[a]
        mask = np.all(px == np.array(arena.colors[a]), axis=2)
        hx, hy = s.head
        head = pygame.Rect(x0 + hx * cell, y0 + (view.height - 1 - hy) * cell, cell, cell)
        in_head = mask[head.x:head.right, head.y:head.bottom].sum()
        assert in_head > 0.2 * cell * cell, f"agent {a}'s colour is missing at its head"
        # on the board, that colour is only where that snake's body is
        xs, ys = np.nonzero(mask[board.x:board.right, board.y:board.bottom])
        cells = {((x + board.x - x0) // cell, view.height - 1 - (y + board.y - y0) // cell)
                 for x, y in zip(xs.tolist(), ys.tolist())}
        assert cells and cells <= set(s.body), f"agent {a}'s colour off its body: {cells}"


def non_panel_fraction(surface: pygame.Surface, rect: pygame.Rect) -> float:
    px = pixels(surface)[rect.x:rect.right, rect.y:rect.bottom]
    return float(np.any(px != np.array(pal.PANEL), axis=2).mean())


def test_tree_panels_fill_once_search_snapshots_exist(app, arena):
    panels = arena.layout["panels"]
    assert len(panels) == 4 and all(p.w == 320 for p in panels)
    areas = [arena._tree_area(p) for p in panels]
    arena.draw(app.screen)                            # no frame yet: "no search data yet"
    before = [non_panel_fraction(app.screen, r) for r in areas]
    assert all(f < 0.1 for f in before), before
    wait_until(lambda: all(tv.snapshot is not None for tv in arena.trees), arena,
               what="tree snapshots")
    arena.draw(app.screen)
    after = [non_panel_fraction(app.screen, r) for r in areas]
    assert all(f > 0.3 for f in after), after


def test_a_frame_that_plays_a_turn_renders_no_tree_unless_the_trees_waited_too_long(
        app, arena, monkeypatch):
    """One heavy job per frame: a turn-playing frame (hold) hands no new tree
    to the views; a quiet frame hands exactly one; and when the trees have
    waited TREE_HOLD_MAX_S past their due time (every frame plays a turn)
    they move on even in a turn-playing frame."""
    import copy

    from sandbox.app.arena import TREE_HOLD_MAX_S
    wait_until(lambda: all(tv.snapshot is not None for tv in arena.trees), arena,
               what="tree snapshots")
    arena.update(0.0)
    newer = {a: copy.copy(tv.snapshot) for a, tv in enumerate(arena.trees)}
    monkeypatch.setattr(arena, "_tree_snapshot", lambda a: newer[a])

    def fresh() -> int:
        return sum(tv.snapshot is newer[a] for a, tv in enumerate(arena.trees))

    arena._feed_after = time.perf_counter() - TREE_HOLD_MAX_S / 2   # a re-render is due...
    arena._feed_trees(hold=True)                 # ...but this frame played a turn
    assert fresh() == 0
    arena._feed_trees(hold=False)                # the next quiet frame
    assert fresh() == 1
    arena._feed_after = time.perf_counter() - 2 * TREE_HOLD_MAX_S
    arena._feed_trees(hold=True)                 # waited too long: turn frame or not
    assert fresh() == 2


def test_trees_are_asked_for_before_any_search_starts(app, monkeypatch):
    """Regression: the arena used to set its tree requests after the first
    turn's searches had started; a search that finished first (a small
    budget, a busy machine) published no trees, and a paused arena showed
    "no search data yet" for the whole turn (also after a restart)."""
    seen = []
    start = SearchController.start

    def spy(self, turn, game, budget):
        seen.append((self.player, self.tree_request))
        return start(self, turn, game, budget)

    monkeypatch.setattr(SearchController, "start", spy)
    arena = make_arena(app)
    wait_decided(arena)
    feed(arena, key(pygame.K_r, "r"))                  # a new match starts new searches
    assert [p for p, _ in seen] == [0, 1, 2, 3] * 2
    for player, req in seen:
        assert req is not None, f"player {player} started without a tree request"
        assert req.agents is None or player in req.agents


# ------------------------------------------------------------------ state
def test_state_reports_widget_geometry_an_outside_driver_can_aim_with(app, arena, tmp_path):
    st = arena.state()
    s = arena.widgets.get("c")
    c = st["widgets"]["c"]
    assert c["rect"] == list(s.rect)
    assert c["track"] == [s.track.x, s.track.y, s.track.w, s.track.h]
    assert (c["lo"], c["hi"], c["value"], c["log"]) == (0.0, 3.0, C0, False)
    assert st["widgets"]["budget_ms"]["log"] is True
    assert st["widgets"]["elimination"]["value"] == "pass"
    assert st["widgets"]["death_penalty"]["value"] is False
    assert {"play", "step", "speed", "restart", "tab0", "tab3"} <= set(st["widgets"])
    assert st["players"][0]["settings"]["c"] == C0

    wait_decided(arena)
    x, y, w, h = c["track"]
    click(arena, (x + w // 2, y + h // 2))            # aimed from the state alone
    st = arena.state()
    assert st["widgets"]["c"]["value"] == 1.5
    assert st["players"][0]["settings"]["c"] == 1.5
    assert st["players"][0]["c_params"]["c"] == 1.5

    app.state_file = tmp_path / "state.json"         # what --state-file writes
    app.run(max_frames=app.frame + 1)
    data = json.loads(app.state_file.read_text())
    assert data["scene"] == "arena" and data["scenes"] == ["arena"]
    assert data["widgets"]["c"]["track"] == c["track"]
    assert data["widgets"]["c"]["value"] == 1.5


def test_a_scenario_chosen_in_the_arena_records_under_its_own_name(app):
    """Regression: replays of a scenario picked in the arena were named after
    the scenario the app was started with."""
    calls = []

    def factory(scenario, stem=None):
        calls.append((scenario.name, stem))
        return lambda: None

    app.recorder_factory = factory
    arena = make_arena(app)
    wait_decided(arena)
    arena._change_scenario("snakes_duel_trees")
    assert calls == [(load_scenario("snakes_duel_trees").name, "snakes_duel_trees")]
    assert arena.match.scenario.name == load_scenario("snakes_duel_trees").name


def test_sliders_stretch_to_a_scenario_value_outside_their_range(app):
    """A scenario may set C 5, depth 60, gamma 0.5 (all valid in C): the
    sliders show those values instead of clamping them, so touching one
    nudges the search from where it is, not from the slider's edge."""
    base = load_scenario(SCENARIO)
    players = [p.model_copy(update={"search": p.search.replace(c=5.0, max_depth=60, gamma=0.5)})
               for p in base.players]
    scn = base.model_copy(update={"players": players})
    arena = ArenaScene(app, scn, seed=SEED, budget=BUDGET, recorder_factory=lambda: None,
                       paused=True)
    app.push(arena)
    wait_decided(arena)
    ctl = arena.match.controllers[0]
    c, d, g = (arena.widgets.get(k) for k in ("c", "max_depth", "gamma"))
    assert (c.value, c.hi) == (5.0, 5.0)
    assert (d.value, d.hi) == (60, 60)
    assert (g.value, g.lo) == (0.5, 0.5)
    assert (ctl.settings.c, ctl.settings.max_depth, ctl.settings.gamma) == (5.0, 60, 0.5)
    click(arena, c.rect.center)                # focus, then one step down
    ctl_c = ctl.settings.c
    feed(arena, key(pygame.K_LEFT))
    assert ctl.settings.c == pytest.approx(ctl_c - 0.05)
    assert arena.widgets.get("budget_ms").label.endswith("(now 200 it)")


def test_a_pinned_node_keeps_its_numbers_on_screen(app, arena):
    """Right-click a node: its facts stay on screen after the mouse leaves
    the tree (hovering shows them only while the mouse is there), in a box
    that does not cover the node."""
    wait_until(lambda: all(tv.snapshot is not None for tv in arena.trees), arena,
               what="tree snapshots")
    arena.update(0.0)
    arena.draw(app.screen)
    tv, area = arena.trees[0], arena._tree_area(arena.layout["panels"][0])
    pos = next((x, y) for y in range(area.y, area.bottom, 4) for x in range(area.x, area.right, 4)
               if tv.row_at((x, y)) is not None)
    away = arena.layout["board"].center
    feed(arena, down(pos, 3), up(pos, 3))
    assert tv.selected is not None
    feed(arena, motion(away))
    assert arena.hover_info is None
    arena.draw(app.screen)
    box = tv.pinned_box(area)
    assert box is not None and not box.colliderect(tv.node_rect(tv.selected.row))
    pinned = pygame.surfarray.array3d(app.screen.subsurface(area)).copy()
    feed(arena, down(pos, 3), up(pos, 3))   # the same node again: unpinned
    assert tv.selected is None
    feed(arena, motion(away))
    arena.draw(app.screen)
    plain = pygame.surfarray.array3d(app.screen.subsurface(area))
    changed = np.any(pinned != plain, axis=2)
    b = box.move(-area.x, -area.y)
    assert changed[b.x:b.right, b.y:b.bottom].mean() > 0.3   # the box of text was there


def test_the_window_asks_for_a_minimum_size(app):
    """Below MIN_SIZE the panels would overlap (toolbar under the pickers)."""
    import warnings

    from sandbox.app.shell import MIN_SIZE
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert tuple(pygame.Window.from_display_module().minimum_size) == MIN_SIZE


def test_meters_say_when_a_players_tree_is_full(app, monkeypatch):
    """A search stopped by its node cap plays its best move so far; the
    meters say "tree full (node cap N)" under that player only."""
    import sandbox.app.arena.meters as arena_module   # the meters draw the note
    from sandbox.render.fonts import text as real_text
    sc = load_scenario(SCENARIO).with_settings(["players.1.search.node_cap=1024"])
    scene = ArenaScene(app, sc, seed=SEED, budget=Budget(ms=0, iterations=20_000),
                       recorder_factory=lambda: None, paused=True)
    app.push(scene)
    wait_decided(scene)
    snaps = [c.latest for c in scene.match.controllers]
    assert snaps[1].stop_reason == "node_cap" and snaps[1].iterations < 20_000
    assert all(s.stop_reason != "node_cap" for i, s in enumerate(snaps) if i != 1)
    drawn: list[tuple[str, tuple]] = []

    def capture(s, size, color, *args, **kwargs):
        drawn.append((s, color))
        return real_text(s, size, color, *args, **kwargs)
    monkeypatch.setattr(arena_module, "text", capture)
    scene.draw(app.screen)
    notes = [(s, c) for s, c in drawn if s.startswith("tree full")]
    assert notes == [("tree full (node cap 1,024)", pal.WARN)]
    # it sits under player 1's row: the row's name is drawn just before it
    names = [s for s, _ in drawn if s in [c.name[:9] for c in scene.match.controllers]]
    order = [s for s, _ in drawn if s in names or s.startswith("tree full")]
    assert order.index("tree full (node cap 1,024)") == order.index(
        scene.match.controllers[1].name[:9]) + 1


def test_space_is_play_pause_after_a_click_on_a_toggle_or_picker(arena):
    """A clicked toggle or picker keeps keyboard focus; Space must still be
    play / pause, never flip that toggle back (the change log once showed
    death_penalty False→True, then True→False) or re-open the picker."""
    ctl = arena.match.controllers[0]
    wait_decided(arena)
    t = arena.widgets.get("death_penalty")
    click(arena, t.rect.center)
    assert t.focused and t.value is True and ctl.settings.death_penalty is True
    was = arena.live.paused
    feed(arena, SPACE)
    assert arena.live.paused is (not was)                    # the match, not the toggle
    assert t.value is True and ctl.settings.death_penalty is True
    feed(arena, SPACE)
    assert arena.live.paused is was
    p = arena.widgets.get("elimination")
    click(arena, p.box.center)
    click(arena, p.option_rect(0).center)                    # picked: closed, focused
    assert p.focused and not p.open
    feed(arena, SPACE)
    assert not p.open and arena.live.paused is (not was)
    feed(arena, SPACE)


@pytest.mark.parametrize("size", [(1280, 800), (1000, 480)])
def test_the_help_lists_find_and_fits_the_window(size):
    """Every key row is inside the window (a long list once ran off its
    bottom, hiding the tree's find key), and find has its own row."""
    from sandbox.app.arena import HELP
    from sandbox.app.arena.overlays import draw_help
    assert ("/", ) == tuple(k for k, _ in HELP if k == "/")
    surface = pygame.Surface(size)
    box = draw_help(surface)
    assert surface.get_rect().contains(box)
    rows_per_col = (box.height - 40) // 22
    assert 2 * rows_per_col >= len(HELP)                    # every row is in a column
    if size[1] < 40 + 22 * len(HELP) + 20:                  # too tall for one column
        assert rows_per_col < len(HELP)
