"""LiveMatch restarts: a new match starts from what the user set, and its
replay header says so (the controllers are built from those settings, not
patched after the header was written)."""
from __future__ import annotations

import time

from sandbox.config import Budget, load_scenario
from sandbox.replay import Recorder, read_replay
from sandbox.sim.controller import SearchController
from sandbox.sim.live import LiveMatch

HANG_GUARD_S = 60


def wait_ready(live: LiveMatch) -> None:
    deadline = time.monotonic() + HANG_GUARD_S
    while not live.match.turn_ready():
        assert time.monotonic() < deadline, "the searches never finished the turn"
        time.sleep(0.001)


def test_restart_keeps_settings_and_budgets_and_records_them_in_the_header(tmp_path):
    files = []

    def recorder():
        r = Recorder(tmp_path, name_hint="live")
        files.append(r)
        return r

    scn = load_scenario("snakes_standard_4p")
    live = LiveMatch(scn, seed=3, budget=Budget(ms=0, iterations=100),
                     recorder_factory=recorder, paused=True)
    try:
        wait_ready(live)
        live.update_settings(0, c=2.3, max_depth=12, gamma=0.9)
        live.match.set_player_budget(1, Budget(ms=0, iterations=250))
        live.restart()
        m = live.match
        assert m.seed == 4
        red = m.controllers[0]
        assert isinstance(red, SearchController)
        assert (red.settings.c, red.settings.max_depth, red.settings.gamma) == (2.3, 12, 0.9)
        assert red.search.c_params().c == 2.3
        assert red.drain_changes() == []          # set before the match, not changed in it
        assert m.budget_for(1).iterations == 250 and m.budget_for(0).iterations == 100
        assert m.controllers[2].settings.c == scn.players[2].search.c   # others untouched
        wait_ready(live)
        live.step()
        live.toggle_pause()
        deadline = time.monotonic() + HANG_GUARD_S
        while m.turn < 1:
            assert time.monotonic() < deadline
            live.update(1000.0)
            time.sleep(0.001)
    finally:
        live.close()
        for r in files:
            r.close()
    header = read_replay(files[-1].path).header
    p0, p1 = header.players[0], header.players[1]
    assert (p0.search["c"], p0.search["max_depth"], p0.search["gamma"]) == (2.3, 12, 0.9)
    assert header.scenario["players"][0]["search"]["c"] == 2.3
    assert p1.budget["iterations"] == 250
    assert header.seed == 4


def test_set_player_budget_is_a_recorded_change():
    scn = load_scenario("snakes_standard_4p")
    live = LiveMatch(scn, seed=1, budget=Budget(ms=0, iterations=100), paused=True)
    try:
        live.match.set_player_budget(2, Budget(ms=40))
        changes = live.match.controllers[2].drain_changes()
        assert [(c.turn, c.player, c.changes) for c in changes] == [
            (0, 2, {"budget_ms": (0.0, 40.0), "budget_iterations": (100, 0)})]
        live.match.set_player_budget(2, Budget(ms=40))   # the same budget: no change
        assert live.match.controllers[2].drain_changes() == []
    finally:
        live.close()


def test_a_match_closed_before_its_first_turn_leaves_no_replay(tmp_path):
    """Each restart closes the old match's recorder (its file descriptor
    too); a header with no turn is removed, a played turn is kept."""
    made = []

    def recorder():
        made.append(Recorder(tmp_path, name_hint="live"))
        return made[-1]

    scn = load_scenario("snakes_standard_4p")
    live = LiveMatch(scn, seed=3, budget=Budget(ms=0, iterations=50),
                     recorder_factory=recorder, paused=True)
    try:
        first = made[0].path
        assert first.exists()
        live.restart()
        assert made[0].status.state == "closed" and not first.exists()
        wait_ready(live)
        live.step()
        deadline = time.monotonic() + HANG_GUARD_S
        while live.match.turn < 1:
            assert time.monotonic() < deadline
            live.update(1.0)
            time.sleep(0.001)
        second = made[1].path
    finally:
        live.close()
    assert made[1].status.state == "closed" and second.exists()
    assert len(read_replay(second).turns) == 1
    assert [p.name for p in tmp_path.iterdir()] == [second.name]
