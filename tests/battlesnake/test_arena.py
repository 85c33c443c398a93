"""A snake-server player in the arena: its meter line says how its server
answers, and "Save agent" writes a file that calls the same server again."""
from __future__ import annotations

import re
import socket
import time

import pygame
import pytest

from sandbox.app.arena import ArenaScene
from sandbox.app.shell import App
from sandbox.config import scenario_from_dict
from sandbox.config.agent import read_agent_file


@pytest.fixture
def app():
    a = App()
    pygame.event.clear()
    yield a
    a.close()
    pygame.event.clear()


def test_a_snake_server_player_in_the_arena(app, tmp_path):
    # The port stays bound (never listening) for the whole test: every call
    # is refused at once, and no other program can start listening on it
    # meanwhile (a released port once went to another test's server, whose
    # silence read as a timeout).
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        _play_against_a_server_that_is_down(app, port, tmp_path)


def _play_against_a_server_that_is_down(app, port: int, tmp_path) -> None:
    scn = scenario_from_dict({
        "name": "arena vs server", "game": "snakes",
        "game_params": {"width": 7, "height": 7, "snakes": 2},
        "budget": {"iterations": 100, "ms": 0},
        "players": [{"name": "us"}, {"name": "srv", "controller": "battlesnake",
                                     "url": f"http://127.0.0.1:{port}", "timeout_ms": 100}]})
    arena = ArenaScene(app, scn)
    app.push(arena)
    ctl = arena.match.controllers[1]
    assert ctl.status_line().startswith("battlesnake")
    arena.live.set_speed(None)
    app.running = True
    deadline = time.monotonic() + 30
    while arena.match.turn < 2 and time.monotonic() < deadline:
        app.run(max_frames=app.frame + 1)
        # the app's clock sleeps between frames; frames stepped back to back
        # hold the GIL against the server's worker thread and the search
        # thread, whose every call then waits out a switch interval (a turn
        # took 3-30 s that way, 30 s and more on a loaded machine)
        time.sleep(0.002)
    assert arena.match.turn >= 2
    # Refused at once ("down"); on a machine so busy that this process did
    # not run for longer than the timeout (seen once: 3.1 s) the call reads
    # as a "timeout" instead. The client tests pin the kind itself.
    assert re.search(r"failed \(last: (down|timeout)\)", ctl.status_line()), ctl.status_line()
    # the bot panel a process player gets: the shared figures, drawn
    from sandbox.app.arena.bot_panel import is_external, latency_text
    assert is_external(ctl)
    assert ctl.stats.failures >= 2
    assert ctl.stats.recent_failures[0][1].kind in ("down", "timeout")
    assert latency_text(ctl) == "no answer yet"
    arena.selected = 1
    app.run(max_frames=app.frame + 2)
    # its settings column: the bot controls, with the server's address and no stderr log
    from sandbox.app.arena.bot_panel import LogTail, draw_bot_controls
    surf = pygame.Surface((400, 400))
    surf.fill((0, 0, 0))
    draw_bot_controls(surf, pygame.Rect(0, 0, 400, 400), ctl, LogTail())
    assert pygame.transform.average_color(surf, pygame.Rect(0, 90, 400, 120))[:3] != (0, 0, 0)
    arena.agent_dir = tmp_path / "agents"
    path = arena.save_agent(1)
    data = read_agent_file(path, "t")
    assert data["controller"] == "battlesnake"
    assert data["url"] == f"http://127.0.0.1:{port}" and data["timeout_ms"] == 100
