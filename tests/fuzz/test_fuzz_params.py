"""Fuzzed parameters: game parameter strings and mappings for every registered
game, garbage kinds and seeds, and SearchParams over every knob the model
declares (in range, at the ends, past them, of the wrong type)."""
from __future__ import annotations

import numpy as np
from fuzz_support import (FIELDS, KINDS, PARAMS_DOOR, PUBCFR_REFUSALS, any_param_dicts,
                          any_seed, attempt, fuzz_settings, mcgs_refusal, must, param_dicts,
                          param_tokens, play_random, valid_param_dicts)
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from sandbox.games import plugin
from sandbox.native import Game, InvalidArgument, OutOfMemory, Search, SearchParams, params_doc


def _check_new_game(kind: str, params, seed) -> None:
    g, exc = attempt(Game, kind, params, seed)
    if exc is not None:
        # a bad kind, parameter or seed is the caller's mistake
        assert isinstance(exc, InvalidArgument), repr(exc)
        return
    with g:
        # what C accepted it can describe, and the description rebuilds the
        # same game (every effective value is written back, none is lost)
        again = must(Game, kind, must(lambda: g.params), seed)
        with again:
            assert (must(again.export) == must(g.export)).all()
            assert must(again.state_hash) == must(g.state_hash)
        # and the game plays, and a search runs on it (parameter sets no
        # example uses: the largest boards, one card, 10,000 rounds ...)
        assert must(lambda: g.num_agents) >= 1
        seed = int(seed) % 2**64      # it was taken: int() reads it
        play_random(g, 3, seed=seed % 1000)
        must(g.evaluate)
        must(g.ranking)
        with must(Search, g, SearchParams(node_cap=1 << 14), seed) as s:
            must(s.run, iterations=20)
            must(s.step_traced)
            for a in range(g.num_agents):
                must(s.snapshot, a, 50)


@fuzz_settings(40)
@given(kind=st.sampled_from(KINDS), data=st.data(), seed=any_seed)
def test_game_from_a_fuzzed_parameter_string(kind, data, seed):
    _check_new_game(kind, data.draw(param_tokens(kind), label="params"), seed)


@fuzz_settings(40)
@given(kind=st.sampled_from(KINDS), data=st.data(), seed=st.integers(0, 2**64 - 1))
def test_game_from_a_fuzzed_parameter_mapping(kind, data, seed):
    _check_new_game(kind, data.draw(param_dicts(kind), label="params"), seed)


@fuzz_settings(20)
@given(kind=st.one_of(st.text(max_size=12), st.sampled_from(KINDS).map(lambda k: k + " "),
                      st.sampled_from(KINDS).map(str.upper)),
       params=st.one_of(st.none(), st.text(max_size=20)))
def test_unknown_game_kinds_are_invalid_argument(kind, params):
    if kind in KINDS:
        return
    _, exc = attempt(Game, kind, params)
    assert isinstance(exc, InvalidArgument), repr(exc)
    _, exc = attempt(params_doc, kind)
    assert isinstance(exc, InvalidArgument), repr(exc)


@fuzz_settings(40)
@given(kind=st.sampled_from(KINDS), data=st.data())
def test_plugin_parameter_models_and_c_agree_on_what_is_valid(kind, data):
    """The plugin's pydantic model is the scenario's door; what it lets
    through must be a game C can make (plugin.c_params -> Game)."""
    p = plugin(kind)
    raw = data.draw(st.one_of(st.sampled_from(p.examples).map(dict), param_dicts(kind)),
                    label="game_params")
    text, exc = attempt(p.c_params, raw, allow=PARAMS_DOOR)
    if exc is not None:
        return
    g, exc = attempt(Game, kind, text, 1)
    assert exc is None, f"{kind}: the model accepted {raw!r} but C refused {text!r}: {exc}"
    g.close()


@fuzz_settings(60)
@given(params=st.one_of(valid_param_dicts(), any_param_dicts()))
def test_search_params_every_knob(params):
    """SearchParams either refuses a dict with ValidationError or holds
    exactly in-range values that survive C and come back unchanged."""
    sp, exc = attempt(SearchParams.model_validate, params, allow=(ValidationError,))
    if exc is not None:
        return
    for name in FIELDS:
        assert getattr(sp, name) is not None
    with Game("snakes", {"width": 5, "height": 5, "snakes": 1}, seed=1) as g:
        s, exc = attempt(Search, g, sp, 1)
        if exc is not None:
            # C's cross-field rules: the arena must hold one iteration of
            # the algorithm; SUCT's (and UCT's) lead must be one of the game's agents
            # (this snakes game has one), and so must info_seat; MCGS and
            # GT-CFR want two players, pubcfr two players and public states;
            # heuristic priors (MCGS, GT-CFR, Smitsimax, joint) the game's move
            # scores, which snakes have not
            assert isinstance(exc, (InvalidArgument, OutOfMemory)), repr(exc)
            if isinstance(exc, InvalidArgument):
                assert "node_cap" in str(exc) or (
                    sp.algorithm in ("suct", "uct") and sp.lead >= 1 and "lead" in str(exc)) or (
                    sp.info_seat >= 1 and "info_seat" in str(exc)) or (
                    sp.algorithm in ("mcgs", "gtcfr") and mcgs_refusal(sp, str(exc))) or (
                    sp.algorithm in ("smitsimax", "joint", "suct") and sp.priors == "heuristic"
                    and "priors: heuristic needs a game with move scores" in str(exc)) or (
                    sp.algorithm == "pubcfr"
                    and any(w in str(exc) for w in PUBCFR_REFUSALS)), str(exc)
            return
        with s:
            assert must(s.c_params) == sp
            assert must(s.stats).algorithm == sp.algorithm
            r = must(s.run, iterations=3)
            assert r.iterations <= 3
            assert must(s.best_moves)[0] in (0, 1, 2, 3)


@fuzz_settings(30)
@given(data=st.data(), seed=any_seed)
def test_search_constructor_and_setters_with_fuzzed_params(data, seed):
    with Game("goofspiel", {"num_cards": 5}, seed=3) as g:
        s, exc = attempt(Search, g, data.draw(st.one_of(
            st.none(), valid_param_dicts(), any_param_dicts()), label="params"), seed,
            allow=PARAMS_DOOR)
        if exc is not None:
            return
        with s:
            last = must(lambda: s.params)
            for _ in range(data.draw(st.integers(1, 6), label="changes")):
                new = data.draw(st.one_of(valid_param_dicts(), any_param_dicts()), label="set")
                how = data.draw(st.sampled_from(["set_params", "update_params"]), label="how")
                if how == "set_params":
                    _, exc = attempt(s.set_params, new, allow=PARAMS_DOOR)
                else:
                    kwargs = {str(k): v for k, v in new.items()}
                    _, exc = attempt(lambda kw=kwargs: s.update_params(**kw), allow=PARAMS_DOOR)
                if exc is None:
                    last = must(lambda: s.params)
                # a refused change leaves the search as it was; an accepted
                # one is what C holds from then on
                assert must(s.c_params) == last
                must(s.run, iterations=2)
            arr = np.asarray(must(s.best_moves), dtype=object)
            assert len(arr) == 2
