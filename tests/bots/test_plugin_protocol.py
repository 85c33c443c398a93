"""A protocol of one game's (listed in sandbox.bots.adapters.PROTOCOLS with
the games it speaks for) plugs into the process
machinery: found by name, its lines sent and its multi-line replies read
with the same limits, and a move the protocol gives that is no move index
(a free move, as a game's own protocol may give) reaches the match
untouched."""
from __future__ import annotations

import sys

import pytest

from sandbox.bots import adapters
from sandbox.bots.protocol import BotReply, Protocol
from sandbox.config import ScenarioError, scenario_from_dict
from sandbox.sim.match import make_controller
from sandbox.sim.world import make_world

# a bot speaking the "echo2" protocol: for each turn line "N", two lines back
ECHO2 = ("import sys\n"
         "for line in sys.stdin:\n"
         "    sys.stdout.write('a ' + line.strip() + '\\nb ' + line.strip() + '\\n')\n"
         "    sys.stdout.flush()\n")


class FreeLike:
    """Stands for a free move: not an int."""

    def __init__(self, text: str) -> None:
        self.text = text


class Echo2(Protocol):
    name = "echo2"
    games = ("goofspiel",)

    def start_lines(self, s):
        return []

    def turn_lines(self, t):
        return [str(t.turn)]

    def reply_line_count(self, t):
        return 2

    def parse_reply(self, lines, t):
        return BotReply({a: FreeLike("|".join(lines)) for a in t.agents if a in t.legal})


def test_a_games_own_protocol_and_free_moves(monkeypatch):
    monkeypatch.setitem(adapters.PROTOCOLS, "echo2", Echo2)
    sc = scenario_from_dict({"game": "goofspiel", "game_params": {"num_cards": 3}, "players": [
        {"controller": "process", "protocol": "echo2", "command": [sys.executable, "-c", ECHO2]},
        {"controller": "random"}]})
    world = make_world(sc.game, sc.game_param_string(), 1, sc.physics)
    c = make_controller(sc, 0, world, 1)
    try:
        for turn in (0, 1):
            c.start(turn, world.game, sc.budget)
            c.wait()
            move = c.moves()[0]
            assert isinstance(move, FreeLike) and move.text == f"a {turn}|b {turn}"
            assert c.turn_info(turn).failures == ()
    finally:
        c.close()
        world.close()


def test_a_games_own_protocol_is_refused_for_another_game(monkeypatch):
    monkeypatch.setitem(adapters.PROTOCOLS, "echo2", Echo2)
    assert "echo2" in adapters.protocol_names("goofspiel")
    assert "echo2" not in adapters.protocol_names("maze")
    with pytest.raises(ScenarioError, match="'echo2' is not a protocol of maze"):
        scenario_from_dict({"game": "maze", "players": [
            {"controller": "process", "protocol": "echo2", "command": [sys.executable]},
            {"controller": "random"}]})
