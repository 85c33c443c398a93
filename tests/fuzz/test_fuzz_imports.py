"""Fuzzed imports: real exports (after random play) with words flipped,
inserted, deleted, scaled; another game's export; random words. An import
either fails with InvalidArgument and leaves the state exactly as it was, or
gives a state that exports to a fixpoint and that the rules and the search
handle like any other."""
from __future__ import annotations

import numpy as np
from fuzz_support import (ALGORITHMS, ALL_CASES, GAME_CASES, attempt, fuzz_settings, must,
                          mutate, mutations, play_random, random_legal_joint,
                          search_any_algorithm)
from hypothesis import given
from hypothesis import strategies as st

from sandbox.native import Game, InvalidArgument, SearchParams

SMALL_SEARCH = SearchParams(max_depth=6, node_cap=4096, random_threshold=2)


def _exercise(g: Game, seed: int) -> None:
    """Every rule and a short search on an imported state."""
    rng = np.random.default_rng(seed)
    n = must(lambda: g.num_agents)
    for a in range(n):
        must(g.legal_moves, a)
        must(g.is_alive, a)
        must(g.move_name, a, int(rng.integers(-2, 20)))
    scores = must(g.evaluate)
    assert scores.shape == (n,)
    ranks = must(g.ranking)
    assert len(ranks) == n and all(0 <= r < n for r in ranks)
    must(g.playouts, 2, 30, seed)
    # the imported state searched by one algorithm (the seed picks which:
    # over the examples every one gets imported states)
    algorithm = ALGORITHMS[seed % len(ALGORITHMS)]
    with search_any_algorithm(g, SMALL_SEARCH.replace(algorithm=algorithm), seed) as s:
        assert must(s.run, iterations=30).iterations <= 30
        must(s.step_traced)
        for a in range(n):
            must(s.root_stats, a)
            must(s.snapshot, a, 64)
        if not must(lambda: g.is_terminal):
            joint = random_legal_joint(g, rng)
            must(s.advance, joint)
            must(s.run, iterations=10)
    if not must(lambda: g.is_terminal):
        play_random(g, 3, seed)


def _import_and_check(target: Game, words, seed: int) -> None:
    before = must(target.export)
    h = must(target.state_hash)
    turn = must(lambda: target.turn)
    _, exc = attempt(target.import_state, words)
    if exc is not None:
        assert isinstance(exc, InvalidArgument), repr(exc)
        # refused: the state is exactly what it was
        assert np.array_equal(must(target.export), before)
        assert must(target.state_hash) == h and must(lambda: target.turn) == turn
        return
    # accepted: exporting gives a fixpoint of import/export
    y = must(target.export)
    with must(target.clone) as twin:
        must(twin.import_state, y)
        assert np.array_equal(must(twin.export), y)
        assert must(twin.state_hash) == must(target.state_hash)
    _exercise(target, seed)


@fuzz_settings(25)
@given(case=st.sampled_from(ALL_CASES), turns=st.integers(0, 40), seed=st.integers(0, 2**32),
       ops=mutations(), target_turns=st.integers(0, 5))
def test_mutated_export_of_the_same_game(case, turns, seed, ops, target_turns):
    with case.new(seed) as src, case.new(seed + 1) as target:
        play_random(src, turns, seed)
        play_random(target, target_turns, seed + 1)
        _import_and_check(target, mutate(must(src.export), ops), seed)


@fuzz_settings(15)
@given(case=st.sampled_from(GAME_CASES), donor=st.sampled_from(GAME_CASES),
       turns=st.integers(0, 20), seed=st.integers(0, 2**32),
       ops=st.one_of(st.just([]), mutations(2)))
def test_export_of_another_game_or_parameter_set(case, donor, turns, seed, ops):
    with donor.new(seed) as src, case.new(seed) as target:
        play_random(src, turns, seed)
        _import_and_check(target, mutate(must(src.export), ops), seed)


@fuzz_settings(25)
@given(case=st.sampled_from(GAME_CASES), seed=st.integers(0, 2**32),
       words=st.one_of(
           st.lists(st.integers(-3, 40), max_size=150),
           st.lists(st.integers(-2**31, 2**31 - 1), max_size=40),
           st.lists(st.integers(-2**80, 2**80), max_size=5),
           st.integers(0, 20_000).map(lambda n: [1] * n)))
def test_random_words(case, seed, words):
    with case.new(seed) as target:
        _import_and_check(target, words, seed)
