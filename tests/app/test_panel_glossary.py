"""The arena's panel speaks the docs' words: a widget bound to a search
setting shows the docs' name for it on hover, with the meaning
docs/settings.md gives (one source: SearchParams); every other control has
a tip too; the terms a newcomer could not place are named as the docs name
them."""
from __future__ import annotations

from pathlib import Path

import pytest

from sandbox.app.arena import ArenaScene
from sandbox.app.shell import App
from sandbox.config import Budget, load_scenario
from sandbox.native import SearchParams
from sandbox.settings.glossary import TERMS, setting_tip

SETTINGS_DOC = (Path(__file__).resolve().parents[2] / "docs" / "settings.md").read_text(
    encoding="utf-8")

CASES = [("snakes_duel_trees", []),
         ("snakes_duel_trees", ["players.0.search.policy=rm"]),
         ("maze_tiny_mcgs_selfplay", []),
         ("goofspiel_13_duel", ["players.0.search.algorithm=gtcfr"])]


@pytest.fixture
def app():
    a = App()
    yield a
    a.close()


@pytest.mark.parametrize("name,sets", CASES, ids=lambda x: str(x))
def test_every_control_explains_itself_in_the_docs_words(app, name, sets):
    scenario = load_scenario(name)
    scenario = scenario.with_settings(sets) if sets else scenario
    arena = ArenaScene(app, scenario, seed=1, budget=Budget(iterations=50),
                       recorder_factory=lambda: None, paused=True)
    app.push(arena)
    bound = 0
    for w in arena.widgets.widgets:
        if not w.visible:
            continue
        # what hovering it shows (the group's own lookup, as the scene does)
        tip = arena.widgets.tooltip_at(w.rect.center) if w.rect.w else w.tooltip
        assert tip, f"{name}: {w.id} ({w.label!r}) has no hover tip"
        if w.id in SearchParams.model_fields:
            bound += 1
            desc = SearchParams.model_fields[w.id].description
            assert w.tooltip == setting_tip(w.id) and w.tooltip.startswith(f"{w.id}: ")
            # the same sentence the settings page shows (cut where it wraps)
            assert desc.split(",")[0][:40] in SETTINGS_DOC, w.id
    assert bound >= 3


def test_the_terms_a_newcomer_tripped_on_are_the_docs_names(app):
    arena = ArenaScene(app, load_scenario("snakes_duel_trees"), seed=1,
                       budget=Budget(iterations=50), recorder_factory=lambda: None, paused=True)
    app.push(arena)
    get = arena.widgets.get
    assert get("elimination").label.rstrip(":") == "elimination"
    assert [n for _, n in get("elimination").options] == ["pass", "freeze"]
    assert [n for _, n in get("bounds").options] == ["leaf", "depth"]
    assert get("random_threshold").label == "random threshold"
    assert get("reuse_decay").label == "reuse decay"
    assert get("weights").label == "weights" and TERMS["weights"] in get("weights").tooltip
    for term in ("μ", "doomed", "pass", "hidden", "weights"):
        assert TERMS[term]


def _step(arena, n_key):
    """N: one turn, through the scene's own update (as a frame does)."""
    import time
    k = arena.match.turn
    arena.handle_event(n_key)
    deadline = time.monotonic() + 60
    while arena.match.turn == k:
        assert time.monotonic() < deadline, "the turn never came"
        arena.update(16.0)
        time.sleep(0.001)


def test_the_panel_leaves_a_player_that_is_out_unless_a_person_chose_it(app):
    """Four snakes on a small board with iteration budgets: play until one
    player is out. A panel left on it (not chosen by a person) moves to a
    player still in at the next turn and says so; a player a person picked
    stays, its tab and status line saying it is out."""
    import pygame
    n_key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="n", scancode=0)
    scenario = load_scenario("snakes_standard_4p").with_settings(
        ["game_params.width=7", "game_params.height=7"])
    arena = ArenaScene(app, scenario, seed=3, budget=Budget(iterations=40),
                       recorder_factory=lambda: None, paused=True)
    app.push(arena)
    players = range(len(arena.match.controllers))
    while not any(arena.player_out(i) for i in players):
        assert not arena.match.world.is_terminal
        _step(arena, n_key)
    out = next(i for i in players if arena.player_out(i))
    assert sum(arena.player_out(i) is None for i in players) >= 2   # the game goes on
    # a person's choice stays on the player that is out, and says it is out
    arena._select_player(out)
    assert "out since turn" in arena.widgets.get(f"tab{out}").tooltip
    arena.draw(app.screen)
    _step(arena, n_key)
    assert arena.selected == out
    # left there by the program: the next turn moves it to a player still in
    arena.player_chosen = False
    _step(arena, n_key)
    assert arena.selected != out and arena.player_out(arena.selected) is None
    assert arena.match.controllers[out].name in arena.message and "is out" in arena.message


def test_the_tree_legend_and_the_root_bars_explain_their_words_on_hover(app):
    """Hovering a tree panel's legend word (pass, doomed, hidden) or the root
    bars (v, μ) shows its glossary line: the scene's own hover lookup."""
    import time
    arena = ArenaScene(app, load_scenario("snakes_duel_trees"), seed=1,
                       budget=Budget(iterations=200), recorder_factory=lambda: None, paused=True)
    app.push(arena)
    deadline = time.monotonic() + 60
    while not arena.match.turn_ready():
        assert time.monotonic() < deadline
        arena.update(16.0)
        time.sleep(0.001)
    for _ in range(3):          # the trees render once a snapshot is in
        arena.update(16.0)
        arena.draw(app.screen)
    tips = set()
    _g, tv, _panel = arena._panel_views(visible=True)[0]
    for term, r in tv._legend_rects:
        tip = arena.panel_term_tip(r.move(tv._rect.topleft).center)
        assert tip == f"{term}: {TERMS[term]}"
        tips.add(term)
    assert "doomed" in tips
    bars = next(iter(arena._bar_rects.values()))
    tip = arena.panel_term_tip(bars.center)
    assert TERMS["μ"] in tip and TERMS["v"] in tip
    assert arena.panel_term_tip((0, 0)) == ""
