"""Shared data for the tree-view tests: hand-built snapshots (render_support)
and a real snakes search (real shapes)."""
from __future__ import annotations

import pygame
import pytest
from render_support import SMALL, make_snapshot

from sandbox.native import Game, Search
from sandbox.native.snapshot import TreeSnapshot


@pytest.fixture(scope="session", autouse=True)
def _pygame():
    pygame.display.init()
    pygame.font.init()
    yield


@pytest.fixture
def small_snapshot() -> TreeSnapshot:
    return make_snapshot(SMALL)


@pytest.fixture(scope="session")
def real_search() -> Search:
    g = Game("snakes", seed=1)
    s = Search(g, {"max_depth": 10}, seed=1)
    s.run(iterations=20_000)
    return s


@pytest.fixture(scope="session")
def real_snapshot(real_search) -> TreeSnapshot:
    return real_search.snapshot(0, 4000)
