"""The `app` fixture of the app tests: a headless App with an empty event
queue, closed after the test (which ends every scene, so search threads
stop). test_arena.py keeps its own copy, which other test modules import."""
import pygame
import pytest

from sandbox.app.shell import App


@pytest.fixture
def app():
    a = App()
    pygame.event.clear()
    yield a
    a.close()
    pygame.event.clear()
