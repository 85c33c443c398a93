"""Goofspiel's board drawn for one seat (imp_info = 1, BoardContext.seat):
what is shown, read from the render model and from the strings the board
hands to the font.

Oracle: a hand-played game of 4 cards (prizes 4, 3, 2, 1 descending).
Round one Red bids 4, Blue 1: Red takes the 4. Round two Red bids 1, Blue 3:
Blue takes the 3. So Red holds 2 3 and has bid 4 1; Blue holds 2 4 and has
bid 1 3; the points are 4 and 3; the 2 is on the table."""
from __future__ import annotations

import os
from collections import Counter

import pygame
import pytest

from sandbox.games import BoardContext, plugin
from sandbox.games.goofspiel import render as goof_render
from sandbox.native import Game

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
P = plugin("goofspiel")
PARAMS = {"num_cards": 4, "imp_info": 1}


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def played(params=PARAMS):
    g = Game("goofspiel", P.c_params(params), seed=1)
    for red, blue in ((4, 1), (1, 3)):
        g.step([red - 1, blue - 1])
    view = P.decode(g.export())
    g.close()
    return view


def test_the_plugin_says_which_parameters_hide_information():
    assert P.hides_info(PARAMS) is True
    assert P.hides_info({"num_cards": 4}) is False
    for params in (PARAMS, {"num_cards": 4}):      # as the C game says
        with Game("goofspiel", P.c_params(params), seed=0) as g:
            assert g.hidden_info is P.hides_info(params)
    # the other games keep the default: nothing hidden
    assert plugin("matrix").hides_info({}) is False


def test_seat_models_show_own_cards_and_the_public_record_only():
    view = played()
    r = P.renderer([(230, 80, 70), (80, 140, 240)], ["Red", "Blue"])
    red = r.model(view, 0)
    assert red.hands[0].held == (2, 3) and red.hands[0].spent == (1, 4)
    assert red.hands[1].held is None and red.hands[1].spent is None
    assert red.hands[1].backs == 2                       # Blue's count is public
    assert [h.points for h in red.hands] == [4, 3]
    assert [(x.prize, x.winner, x.bids) for x in red.rounds] == [(4, 0, (4, None)),
                                                               (3, 1, (1, None))]
    blue = r.model(view, 1)
    assert blue.hands[1].held == (2, 4) and blue.hands[1].spent == (1, 3)
    assert blue.hands[0].held is None and blue.hands[0].backs == 2
    assert [(x.prize, x.winner, x.bids) for x in blue.rounds] == [(4, 0, (None, 1)),
                                                                (3, 1, (None, 3))]
    full = r.model(view, None)
    assert full.hands[0].held == (2, 3) and full.hands[1].held == (2, 4)
    assert [x.bids for x in full.rounds] == [(4, 1), (1, 3)]


def test_the_model_is_built_once_per_state_and_seat():
    view = played()
    r = P.renderer([], ["Red", "Blue"])
    assert r.model(view, 0) is r.model(view, 0)
    assert r.model(view, 1) is not r.model(view, 0)


def drawn(view, seat, monkeypatch) -> Counter:
    """Every string the board renders for `seat`'s view (the font's input)."""
    seen: list[str] = []
    real = goof_render.text

    def spy(s, *a, **k):
        seen.append(s)
        return real(s, *a, **k)
    monkeypatch.setattr(goof_render, "text", spy)
    surf = pygame.Surface((700, 700))
    r = P.renderer([(230, 80, 70), (80, 140, 240)], ["Red", "Blue"])
    r.draw(surf, surf.get_rect(), view, ctx=BoardContext(seat=seat))
    monkeypatch.setattr(goof_render, "text", real)
    return Counter(seen)


def test_what_is_drawn_for_a_seat_lacks_exactly_the_other_cards_and_bids(monkeypatch):
    view = played()
    full, red, blue = (drawn(view, s, monkeypatch) for s in (None, 0, 1))
    # all cards, less Red's view: Blue's four card faces (2 4 held, 1 3
    # spent) and Blue's two bids (1, 3), nothing else
    assert full - red == Counter({"1": 2, "2": 1, "3": 2, "4": 1})
    # and Red's view adds the backs' count, two hidden bids and the header note
    assert red - full == Counter({"2 cards, hidden": 1, "?": 2,
                                  "seat view (Red): other bids hidden": 1})
    # Blue's view: Red's faces (2 3 held, 1 4 spent) and Red's bids (4, 1) go
    assert full - blue == Counter({"1": 2, "2": 1, "3": 1, "4": 2})
    # the public record stays in every view: prizes, points, the prize on offer
    for seen in (full, red, blue):
        assert seen["4 pts"] == 1 and seen["3 pts"] == 1 and seen["prize"] == 1


def test_a_seat_out_of_range_draws_all_cards():
    view = played()
    assert P.renderer([], []).model(view, 5).seat is None
