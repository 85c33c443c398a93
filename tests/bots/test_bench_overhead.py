"""The process player's overhead figures of `bench` (sandbox/bots/bench.py):
a short run gives the wall-clock overhead, the sandbox's own CPU time per
turn and the bare pipe floor. The CPU time is this thread's clock and does
not count waits, so it is at most the turn's wall time and it stays small
however busy the machine is: a turn whose own work grew (a state encoded
twice, a reply parsed slowly) shows in the bench's figure, not here: how
fast a machine is belongs to the bench, so this test asserts only what
holds on any machine."""
from sandbox.bots.bench import measure


def test_a_short_overhead_run():
    r = measure(turns=60)
    assert r["turns"] == 60 and r["game"] == "snakes" and r["agents"] == 4
    assert 0 < r["own_cpu_p50_ms"] <= r["own_cpu_p95_ms"]
    assert 0 < r["p50_ms"] <= r["p95_ms"] <= r["max_ms"]
    assert r["pipe_p50_ms"] > 0
