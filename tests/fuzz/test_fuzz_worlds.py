"""Fuzzed physics worlds (a plugin's `worlds`, e.g. pods' "pymunk"): random
legal play on every example and edge parameter set of a game that has one.
Every step's state must be one C accepts (the world imports it) and that
exports to itself; the rewards and divergence are per agent and finite."""
from __future__ import annotations

import math

import numpy as np
import pytest
from fuzz_support import ALL_CASES, fuzz_settings, must, random_legal_joint
from hypothesis import given
from hypothesis import strategies as st

from sandbox.games import plugin
from sandbox.sim.world import make_world

WORLD_CASES = [(c, w) for c in ALL_CASES for w in plugin(c.kind).worlds]


@pytest.mark.parametrize("case, physics", WORLD_CASES,
                         ids=[f"{c.kind}-{c.example}-{w}" for c, w in WORLD_CASES])
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(1, 60))
@fuzz_settings(2)
def test_random_play_in_a_physics_world(case, physics, seed, turns):
    assert WORLD_CASES, "a game offers a physics world"
    rng = np.random.default_rng(seed)
    world = make_world(case.kind, case.params, seed, physics)
    try:
        n = world.num_agents
        for _ in range(turns):
            if world.is_terminal:
                break
            rewards = world.step(random_legal_joint(world.game, rng))
            words = list(world.export())
            assert words == list(world.recorded_state())
            must(world.game.import_state, words)         # C takes it back unchanged
            assert list(world.export()) == words
            assert rewards.shape == (n,) and np.isfinite(rewards).all()
            div = world.last_divergence
            assert len(div) == n and all(math.isfinite(d) and d >= 0 for d in div)
    finally:
        world.close()
