"""Every game's examples (GamePlugin.examples, as tests/games/test_contract.py
plays them) through the JSON-lines protocol with
examples/bots/first_legal_bot.py moving every agent: every message the
sandbox writes is checked against the protocol of docs/bots.md, and every
state's fields against that game's table there (the docs and the code name
the same fields), and the bot's moves are the ones played."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from sandbox.bots.process import BotProcess
from sandbox.config import scenario_from_dict
from sandbox.games import plugin, plugins
from sandbox.names import ScenarioError
from sandbox.sim.match import Match

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
FIRST_LEGAL = ROOT / "examples" / "bots" / "first_legal_bot.py"
CASES = [(p.kind, i) for p in plugins() for i in range(len(p.examples))]
TURNS = 40            # enough to see each state's shape change; the contract test plays to the end


def doc_fields(section: str) -> set[str]:
    """The field names of a game's state table in docs/bots.md (a row may
    name several: `x`, `y`)."""
    m = re.search(rf"^### {re.escape(section)}\n(.*?)(?=^### |^## |\Z)", DOC, re.M | re.S)
    assert m, f"docs/bots.md has no section '### {section}'"
    names = set()
    for row in m.group(1).splitlines():
        if row.startswith("| `"):
            first = row.split("|")[1]
            names |= set(re.findall(r"`([A-Za-z_\[\].]+)`", first))
    return names


def state_fields(state: dict) -> set[str]:
    out = set()
    for k, v in state.items():
        if v == []:
            continue        # an empty list shows no shape (its items are checked when it has some)
        if isinstance(v, list) and all(isinstance(x, dict) for x in v):
            out |= {f"{k}[].{kk}" for x in v for kk in x}
        else:
            out.add(k)
    return out


def section_of(kind: str, state: dict) -> str:
    return f"{kind} ({state['ruleset']} ruleset)" if "ruleset" in state else kind


INT = int
NUM = (int, float)


def check_start(msg: dict, kind: str, n: int, agents: list[int]) -> None:
    assert set(msg) == {"type", "protocol", "game", "params", "player", "agents", "num_agents",
                        "move_names", "seed", "timeout_ms", "first_turn_ms"}, set(msg)
    assert msg["protocol"] == 1 and msg["game"] == kind and msg["player"] == 0
    assert msg["agents"] == agents and msg["num_agents"] == n
    assert isinstance(msg["params"], dict) and isinstance(msg["seed"], INT)
    assert len(msg["move_names"]) == n
    assert all(isinstance(x, str) for row in msg["move_names"] for x in row)
    assert isinstance(msg["timeout_ms"], NUM) and isinstance(msg["first_turn_ms"], NUM)


def check_turn(msg: dict, names: list[list[str]], agents: list[int]) -> None:
    assert set(msg) == {"type", "turn", "time_ms", "state", "legal"}, set(msg)
    assert isinstance(msg["turn"], INT) and isinstance(msg["time_ms"], NUM)
    assert isinstance(msg["state"], dict)
    seen = []
    for entry in msg["legal"]:
        assert set(entry) == {"agent", "moves"} and entry["moves"]
        a = entry["agent"]
        seen.append(a)
        for mv in entry["moves"]:
            assert set(mv) == {"index", "name"}
            assert names[a][mv["index"]] == mv["name"]
    assert seen == [a for a in agents if a in seen]        # in the player's agent order


@pytest.mark.parametrize("kind, i", CASES)
def test_every_game_through_the_protocol(kind, i, monkeypatch):
    p = plugin(kind)
    sent: list[str] = []
    real_send = BotProcess.send

    def spy(self, lines, deadline=None):
        sent.extend(lines)
        return real_send(self, lines, deadline)

    monkeypatch.setattr(BotProcess, "send", spy)
    from sandbox.native import Game
    with Game(kind, p.c_params(p.examples[i]), seed=0) as g:
        n = g.num_agents
        hidden = g.hidden_info
    data = {
        "game": kind, "game_params": dict(p.examples[i]), "seed": 5, "max_turns": TURNS,
        "players": [{"controller": "process", "agents": list(range(n)),
                     "command": [sys.executable, str(FIRST_LEGAL)], "first_turn_ms": 10_000,
                     "timeout_ms": 5000}]}
    if hidden:
        check_only_its_own_seat(data, p, sent)
        return
    sc = scenario_from_dict(data)
    played = []
    with Match(sc) as m:
        while not m.over:
            legal = [m.world.game.legal_moves(a) for a in range(n)]
            rec = m.play_turn()
            played.append((legal, rec))
    msgs = [json.loads(x) for x in sent]
    assert [x["type"] for x in msgs] == ["start"] + ["turn"] * len(played) + ["end"]
    check_start(msgs[0], kind, n, list(range(n)))
    names = msgs[0]["move_names"]
    for msg, (legal, rec) in zip(msgs[1:-1], played):
        check_turn(msg, names, list(range(n)))
        assert state_fields(msg["state"]) <= doc_fields(section_of(kind, msg["state"])), \
            state_fields(msg["state"]) - doc_fields(section_of(kind, msg["state"]))
        # no failure, and the bot's moves (the first legal) are the ones played
        info = rec.players[0].bot
        assert info is not None and info.failures == () and info.latency_ms is not None
        for a in range(n):
            assert rec.joint[a] == (legal[a][0] if legal[a] else None)
    end = msgs[-1]
    assert set(end) == {"type", "ranking", "scores"} and len(end["ranking"]) == n


def test_the_docs_name_no_field_a_game_lacks():
    """Each game's table in docs/bots.md against a state of that game."""
    from sandbox.native import Game
    for p in plugins():
        for ex in p.examples:
            with Game(p.kind, p.c_params(ex), seed=1) as g:
                state = p.bot_view(p.decode(g.export()))
            fields = state_fields(state)
            doc = doc_fields(section_of(p.kind, state))
            # a list of objects that is empty here names no fields: skip those
            empty = {k for k, v in state.items() if v == []}
            missing = {f for f in doc - fields if f.split("[]")[0] not in empty}
            assert not missing, (p.kind, missing)


def check_only_its_own_seat(data: dict, p, sent: list[str]) -> None:
    """A hidden-information game: the process plays seat 0 against a random
    seat 1, and each turn's state shows it its own hand and bids (as the
    game holds them) and nothing of seat 1's but what is public (the card
    count, who won each round)."""
    data = {**data, "players": [{**data["players"][0], "agents": [0]},
                                {"controller": "random"}]}
    sc = scenario_from_dict(data)
    truth = []
    with Match(sc) as m:
        while not m.over:
            truth.append(m.world.view())
            m.play_turn()
    turns = [json.loads(x) for x in sent if json.loads(x)["type"] == "turn"]
    assert len(turns) == len(truth) > 1
    for msg, view in zip(turns, truth):
        st = msg["state"]
        assert st["hands"][0] == list(view.hands[0]) and st["hands"][1] is None
        assert [r["bids"] for r in st["history"]] == [[r.bids[0], None] for r in view.history]
        assert [r["winner"] for r in st["history"]] == [r.winner for r in view.history]
        assert st["points"] == list(view.points)
    assert any(st_round["bids"][0] is not None
               for msg in turns for st_round in msg["state"]["history"])
