"""A served agent builds its search from its settings as every other player
does (sandbox.settings.seat): a setting that means "the seat this search
plays for" is our snake."""
from __future__ import annotations

import time

from sandbox.bots.battlesnake.agent import ServedAgent
from sandbox.bots.battlesnake.convert import position
from sandbox.bots.battlesnake.schema import read_state
from sandbox.native import Game, Search, SearchParams

from .helpers import duel


def _move_with_lead(agent: ServedAgent, pos, lead: int, iterations: int) -> int:
    with Game("snakes", agent.c_params(pos), seed=0) as g:
        g.import_state(pos.words)
        with Search(g, SearchParams(algorithm="suct", lead=lead),
                    seed=agent.seed("g-1", 3)) as s:
            s.run(iterations=iterations)
            return s.best_moves()[pos.you]


def test_a_served_suct_agent_moves_first_in_its_own_tree():
    """SUCT's lead -1 is the seat: our snake (here the second one) chooses
    first and does not peek at the other's move, as in a scenario."""
    pos = position(read_state(duel(you=1)))
    agent = ServedAgent("s", search={"algorithm": "suct"}, iterations=200)
    own, other = _move_with_lead(agent, pos, 1, 200), _move_with_lead(agent, pos, 0, 200)
    assert own != other            # the position tells the two apart
    assert agent.decide(pos, "g-1", 3, time.perf_counter() + 60).move == own
