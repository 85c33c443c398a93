"""Every official ruleset and modelled map through the snake server, the
position reader and the client's state objects: games logged by the
official rules engine (tests/data/battlesnake_official) sent to our server
as the official command-line tool sends them, each recorded whole and
verified; the order of checks; the settings the engine sends."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from sandbox.bots.battlesnake.agent import ServedAgent
from sandbox.bots.battlesnake.convert import position, settings_json, state_json
from sandbox.bots.battlesnake.schema import (MalformedState, Unsupported, parse_body,
                                                     read_state)
from sandbox.games.snakes.view import decode_snakes
from sandbox.native import Game
from sandbox.replay import read_replay
from sandbox.replay.verify import verify

from .helpers import body, snake, state
from .test_server import call, server  # noqa: F401 (the fixture)

DATA = Path(__file__).resolve().parent.parent / "data" / "battlesnake_official"


def cli_request(header: dict, line: dict, you: str, turn: int | None = None) -> dict:
    """A request body as the official command-line tool builds it from a
    board (settings object with every field, latency "0", live snakes only)."""
    s = header["settings"]
    snakes = []
    for sn in line["snakes"]:
        if sn["cause"]:
            continue
        snakes.append({"id": sn["id"], "name": sn["id"].upper(), "latency": "0",
                       "health": sn["health"], "body": sn["body"], "head": sn["body"][0],
                       "length": len(sn["body"]), "shout": "", "squad": "",
                       "customizations": {"color": "#888888", "head": "", "tail": ""}})
    me = next((x for x in snakes if x["id"] == you), None)
    if me is None:      # /end to an eliminated snake: its last record
        sn = next(x for x in line["snakes"] if x["id"] == you)
        me = {"id": you, "name": you.upper(), "latency": "0", "health": sn["health"],
              "body": sn["body"], "head": sn["body"][0], "length": len(sn["body"]),
              "shout": "", "squad": "", "customizations": {}}
    return {"game": {"id": "cli-" + header["ruleset"] + "-" + header["map"],
                     "ruleset": {"name": header["ruleset"], "version": "cli", "settings": {
                         "foodSpawnChance": int(s["foodSpawnChance"]),
                         "minimumFood": int(s["minimumFood"]),
                         "hazardDamagePerTurn": int(s["damagePerTurn"]),
                         "hazardMap": "", "hazardMapAuthor": "",
                         "royale": {"shrinkEveryNTurns": int(s["shrinkEveryNTurns"])},
                         "squad": {"allowBodyCollisions": False, "sharedElimination": False,
                                   "sharedHealth": False, "sharedLength": False}}},
                     "map": header["map"], "timeout": 500, "source": ""},
            "turn": line["turn"] if turn is None else turn,
            "board": {"height": header["height"], "width": header["width"],
                      "snakes": snakes, "food": line["food"], "hazards": line["hazards"]},
            "you": me}


def one_log_per_mode() -> list[Path]:
    """Per ruleset and map, its shortest logged game that ended (the tool
    sends /end only then)."""
    best: dict[tuple[str, str], tuple[int, Path]] = {}
    for p in sorted(DATA.glob("*.jsonl.gz")):
        with gzip.open(p, "rt") as f:
            lines = [json.loads(x) for x in f]
        if not lines[-1].get("over"):
            continue
        key = (lines[0]["ruleset"], lines[0]["map"])
        if key not in best or len(lines) < best[key][0]:
            best[key] = (len(lines), p)
    return [p for _, p in sorted(best.values(), key=lambda x: x[1].name)]


@pytest.mark.parametrize("path", one_log_per_mode(), ids=lambda p: p.name.split(".")[0])
def test_an_official_game_served_is_recorded_whole_and_verifies(server, tmp_path, path):
    """The command-line tool's sequence: /start, a /move for each live snake
    every turn (ours is s0), the game found over at the start of the turn
    after the last (a /move on the final board, nothing moves), then /end
    with the turn counter one on."""
    server = server(ServedAgent("test", iterations=30))
    with gzip.open(path, "rt") as f:
        header, *lines = [json.loads(x) for x in f]
    you = "s0"
    assert call(server, "POST", "/start", body(cli_request(header, lines[0], you)))[0] == 200
    last_seen = 0
    for line in lines:
        if any(s["id"] == you and not s["cause"] for s in line["snakes"]):
            status, ans = call(server, "POST", "/move", body(cli_request(header, line, you)))
            assert status == 200 and ans["shout"] == "", (line["turn"], ans)
            last_seen = line["turn"]
    final = lines[-1]
    end = cli_request(header, final, you, turn=final["turn"] + 1)
    assert call(server, "POST", "/end", body(end)) == (200, {})
    [f] = (tmp_path / "served").glob("*.jsonl")
    with read_replay(f) as rp:
        assert rp.result is not None, "no result line"
        report = verify(rp)
        assert report.ok, report.message
        # every turn we saw is on record, and the last one when the game
        # ended while we were in it or on the turn we went out
        ended_with_us = last_seen == final["turn"] or (
            final["over"] and last_seen == final["turn"] - 1)
        want = final["turn"] if ended_with_us else last_seen
        assert rp.result.turns == want
        assert len(rp.turns) == want
        if ended_with_us and final["over"]:
            assert rp.result.terminal


def test_a_cli_game_over_is_not_read_as_a_turn(server, tmp_path):
    """The case that broke the recording: /end repeats the final board with
    the turn counter one on; the replay ends at the final board, with its
    result, and verifies."""
    server = server(ServedAgent("test", iterations=30))
    a44 = snake("a", [(9, 1), (9, 0), (8, 0)], health=61)
    b44 = snake("b", [(3, 3), (3, 4), (3, 5)], health=50)
    st44 = state([a44, b44], turn=44, food=((5, 5),), game_id="echo")
    assert call(server, "POST", "/move", body(st44))[0] == 200
    # b turned back into its neck; a went up: the final board at 45
    a = snake("a", [(9, 2), (9, 1), (9, 0)], health=60)
    st = state([a], turn=45, food=((5, 5),), game_id="echo")
    assert call(server, "POST", "/move", body(st))[0] == 200        # the final board
    end = state([a], turn=46, food=((5, 5), (1, 1)), game_id="echo")
    assert call(server, "POST", "/end", body(end)) == (200, {})
    [f] = (tmp_path / "served").glob("*.jsonl")
    with read_replay(f) as rp:
        assert rp.result is not None and rp.result.turns == 45 and rp.result.terminal
        assert len(rp.turns) == 1
        assert verify(rp).ok


def test_an_unmodelled_ruleset_is_named_before_its_bodies_are_checked():
    # a body across the edge: fine in a wrapped game, and in a game we do
    # not model the ruleset is the reason given, not the body
    crossing = snake("a", [(0, 7), (10, 7), (9, 7)])
    other = snake("b", [(5, 5), (5, 4), (5, 3)])
    st = state([crossing, other], ruleset="wrapped")
    pos = position(read_state(st))
    with Game("snakes", " ".join(f"{k}={v}" for k, v in pos.game_params.items()),
              seed=0) as g:
        g.import_state(pos.words)
        assert decode_snakes(g.export()).snakes[0].body == ((0, 7), (10, 7), (9, 7))
        g.step([2, 0])            # left from x=0 comes in at x=10: its own neck
        assert not g.alive[0]
    st = state([crossing, other], ruleset="speedsnake")
    with pytest.raises(Unsupported, match="ruleset 'speedsnake' is not modelled"):
        position(read_state(st))
    # in a game without wrap it is a malformed body
    with pytest.raises(MalformedState, match="not neighbours"):
        read_state(state([crossing, other]))


@pytest.mark.parametrize("ruleset", ["standard", "solo", "royale", "constrictor", "wrapped",
                                     "wrapped_constrictor", "squad"])
def test_every_field_the_engine_sends_is_taken(ruleset):
    st = state([snake("a", [(1, 1), (1, 2), (1, 3)]), snake("b", [(7, 7), (7, 6), (7, 5)])],
               ruleset=ruleset, food=(), hazards=((0, 0), (0, 0)) if ruleset == "royale" else ())
    st["game"]["ruleset"]["settings"] = settings_json({"food_spawn_chance": 11,
                                                       "minimum_food": 7, "hazard_damage": 19,
                                                       "shrink_every": 17})
    pos = position(read_state(parse_body(json.dumps(st))))
    gp = pos.game_params
    assert (gp["food_spawn_chance"], gp["minimum_food"], gp["hazard_damage"],
            gp["shrink_every"]) == (11, 7, 19, 17)
    assert gp["ruleset"] == ("standard" if ruleset == "squad" else ruleset)
    if ruleset == "royale":      # one cell listed twice: two layers
        assert pos.words[-4 - 4:-4] == (1, 0, 0, 2)


def test_the_client_sends_the_settings_objects_and_latency_as_the_engine_does():
    gp = {"ruleset": "royale", "map": "standard", "hazard_damage": 20, "shrink_every": 10}
    with Game("snakes", "ruleset=royale shrink_every=2 snakes=2", seed=3) as g:
        g.step([0, 0])
        g.step([0, 0])
        v = decode_snakes(g.export())
    out = state_json(v, 0, ["a", "b"], ["A", "B"], game_id="x", timeout_ms=500,
                     game_params=gp)
    rs = out["game"]["ruleset"]
    assert rs["name"] == "royale" and out["game"]["map"] == "standard"
    assert rs["settings"]["royale"] == {"shrinkEveryNTurns": 10}
    assert rs["settings"]["squad"] == {"allowBodyCollisions": False, "sharedElimination": False,
                                       "sharedHealth": False, "sharedLength": False}
    assert rs["settings"]["hazardDamagePerTurn"] == 20
    assert rs["settings"]["hazardMap"] == "" and rs["settings"]["hazardMapAuthor"] == ""
    assert out["you"]["latency"] == "0"
    assert len(out["board"]["hazards"]) == sum(k for _, _, k in v.hazards) > 0
