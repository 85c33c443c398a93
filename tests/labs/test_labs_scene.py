"""The Labs scene, driven headless through the app's event queue: opened
from the menu, tabs switched, R/P/S clicked and typed, the race growing,
the depth tab restarting on a wider Siege, Esc back to the menu."""
from __future__ import annotations

import pygame
import pytest

from sandbox.app.labs_scene import LabsScene
from sandbox.app.menu import MenuScene
from sandbox.app.shell import App
from sandbox.labs.kinds import matrix_game, matrix_params
from sandbox.render import palette as pal
from sandbox.ui import post_change


@pytest.fixture
def app():
    a = App()
    a.push(MenuScene(a))
    yield a
    a.close()


def frames(app: App, n: int = 2) -> None:
    # two: a widget's event posted in one frame reaches the scene in the next
    app.run(max_frames=app.frame + n)


def click(app: App, wid: str) -> None:
    pos = app.scene.widgets.get(wid).rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frames(app)


def press(app: App, key: int, char: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char,
                                         scancode=0))
    frames(app)


def colours(surface: pygame.Surface, rect: pygame.Rect) -> set:
    return {tuple(surface.get_at((x, y)))[:3] for x in range(rect.x, rect.right, 5)
            for y in range(rect.y, rect.bottom, 5)}


def test_opens_from_the_menu_and_esc_returns(app):
    frames(app)
    click(app, "labs")
    assert isinstance(app.scene, LabsScene) and app.scene.tab == "rps"
    press(app, pygame.K_ESCAPE, "\x1b")
    assert isinstance(app.scene, MenuScene)
    press(app, pygame.K_l, "l")
    assert isinstance(app.scene, LabsScene)


def test_tabs_switch(app):
    app.scene.labs()
    for tab in ("race", "depth", "rps"):
        click(app, f"tab:{tab}")
        assert app.scene.tab == tab
        assert app.scene.widgets.get(f"tab:{tab}").toggled


def test_rps_buttons_and_keys_play_rounds_and_render(app):
    app.scene.labs()
    scene = app.scene
    frames(app)
    blank = colours(app.screen, scene.content_rect())
    click(app, "rps:move:0")
    click(app, "rps:move:2")
    press(app, pygame.K_p, "p")
    assert [r.you for r in scene.rps.rounds] == [0, 2, 1]
    assert sum(scene.rps.score) == 3
    frames(app)
    drawn = colours(app.screen, scene.content_rect())
    assert len(drawn) > len(blank) and len(drawn) > 15
    # the strategy bars and your move bars are drawn in their colours
    assert pal.AGENT_COLORS[2] in drawn and pal.AGENT_COLORS[0] in drawn


def test_rps_pickers_and_toggle_reach_the_lab(app):
    app.scene.labs()
    scene = app.scene
    post_change("rps:policy", "rm")
    post_change("rps:iterations", 100)
    frames(app)
    click(app, "rps:model")
    assert (scene.rps.policy, scene.rps.iterations, scene.rps.model_history) == ("rm", 100, True)
    for _ in range(4):
        click(app, "rps:move:0")
    # modelling four rocks, the searched column favours paper
    assert scene.rps.rounds[-1].column[1] > 0 > scene.rps.rounds[-1].column[2]


def test_race_grows_and_restarts_on_another_game(app):
    app.scene.labs()
    scene = app.scene
    click(app, "tab:race")
    frames(app, 10)
    done = scene.race.done
    assert done > 0 and scene.race_points and scene.race.runners[0].points
    # RM with sampled regrets races beside the exact one, and GT-CFR
    assert [r.policy for r in scene.race.runners][-3:] == ["rm_plus", "rm:sampled", "gtcfr"]
    assert scene.race.runners[-2].search.c_params().counterfactual == "off"
    assert scene.race.runners[-1].search.c_params().algorithm == "gtcfr"
    frames(app, 5)
    assert scene.race.done > done
    post_change("race:game", "biased_rps")
    frames(app)
    assert scene.race.game_spec == "biased_rps" and scene.race.range == 100
    click(app, "race:run")     # pause
    paused = scene.race.done
    frames(app, 5)
    assert scene.race.done == paused and not scene.race_running
    assert len(colours(app.screen, scene.content_rect())) > 15


def test_depth_tab_restarts_on_a_wider_siege(app):
    seen = []

    def factory(params):
        seen.append(params)
        return matrix_game(matrix_params("biased_rps"))

    scene = LabsScene(app, tab="depth", depth_game_factory=factory)
    app.push(scene)
    frames(app, 5)
    assert scene.depth.done > 0 and seen == ["siege_max=18"]
    post_change("depth:siege_max", 30)
    frames(app, 1)
    assert seen[-1] == "siege_max=30" and scene.siege_max == 30
    assert all(s.params.max_depth == 32 for s in scene.depth.searches.values())
    frames(app, 3)
    assert len(colours(app.screen, scene.content_rect())) > 10


def test_rps_before_any_move_says_so_instead_of_even_bars(app, monkeypatch):
    """Before the first round there is no strategy and no history: "no
    moves yet", not 33% / 33% / 33% bars."""
    app.scene.labs()
    scene = app.scene
    import sandbox.render.bars as bars
    drawn = []
    real = bars.draw_bars
    monkeypatch.setattr(bars, "draw_bars", lambda s, r, labels, values, *a, **k:
                        drawn.append(list(values)) or real(s, r, labels, values, *a, **k))
    import sandbox.render.fonts as fonts
    said = []
    real_text = fonts.text
    monkeypatch.setattr(fonts, "text", lambda s, *a, **k: said.append(s) or real_text(s, *a, **k))
    frames(app)
    assert drawn and all(v == [] for v in drawn)          # no bar drawn, for no move
    assert said.count("no moves yet") >= 2
    click(app, "rps:move:0")
    drawn.clear()
    frames(app)
    assert any(len(v) == 3 for v in drawn)               # after one round: the bars
