"""What recording costs, measured: `python -m sandbox.replay.overhead`.

Plays the default scenario at 50 ms per player per turn and reports
  direct   the time spent inside the recorder (begin/append/end, plus the tree
           snapshots Match takes for record_trees) as a share of the turn time
  a/b      mean turn wall time with recording against without (interleaved
           runs; noisy by nature — the direct figure is the precise one)
The target is <= 5% of turn time at 50 ms budgets (a recorded match plays
nearly as fast as an unrecorded one).
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from ..config import Budget, load_scenario
from ..sim.match import Match
from ..sim.controller import SearchController
from .recorder import Recorder


class _TimedRecorder(Recorder):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.spent = 0.0

    def begin(self, match) -> None:
        t = time.perf_counter()
        super().begin(match)
        self.spent += time.perf_counter() - t

    def append(self, record) -> None:
        t = time.perf_counter()
        super().append(record)
        self.spent += time.perf_counter() - t

    def end(self, result) -> None:
        t = time.perf_counter()
        super().end(result)
        self.spent += time.perf_counter() - t


def _run(turns: int, ms: float, seed: int, directory: Path | None, trees: int) -> dict:
    scenario = load_scenario()
    rec = _TimedRecorder(directory, record_trees=trees) if directory is not None else None
    snap_time = [0.0]
    times: list[float] = []
    with Match(scenario, seed=seed, budget=Budget(ms=ms), max_turns=turns, recorder=rec) as m:
        for c in m.controllers:
            if isinstance(c, SearchController):
                real = c.search.snapshot

                def timed(*a, _real=real, **k):
                    t = time.perf_counter()
                    try:
                        return _real(*a, **k)
                    finally:
                        snap_time[0] += time.perf_counter() - t
                c.search.snapshot = timed  # only Match takes snapshots here (no tree view)
        while not m.over:
            t = time.perf_counter()
            m.play_turn()
            times.append(time.perf_counter() - t)
    if rec is not None:
        rec.close()
    total = sum(times)
    spent = (rec.spent if rec else 0.0) + snap_time[0]
    return {"turns": len(times), "mean_turn_ms": 1000 * total / len(times),
            "recorder_ms_per_turn": 1000 * spent / len(times),
            "recorder_share": spent / total if total else 0.0,
            "bytes_per_turn": (rec.bytes_written / len(times)) if rec else 0}


def measure(turns: int = 40, ms: float = 50.0, reps: int = 2, trees: int = 200,
            progress: Callable[[int, int, str], None] | None = None) -> dict:
    """`progress(k, total, what)` is called before each of the 3 x reps
    matches (k from 1): they take turns x ms x players each."""
    out: dict = {"budget_ms": ms, "turns": turns}
    total = 3 * reps
    done = [0]

    def run(seed: int, folder: Path | None, nodes: int, what: str) -> dict:
        done[0] += 1
        if progress is not None:
            progress(done[0], total, f"{what}, seed {seed}")
        return _run(turns, ms, seed, folder, nodes)

    with tempfile.TemporaryDirectory() as tmp:
        base, rec, rect = [], [], []
        for r in range(reps):
            seed = 11 + r
            base.append(run(seed, None, 0, "not recorded"))
            rec.append(run(seed, Path(tmp) / f"a{r}", 0, "recorded"))
            rect.append(run(seed, Path(tmp) / f"t{r}", trees, f"recorded with {trees}-node trees"))
    mean = statistics.fmean
    b = mean(x["mean_turn_ms"] for x in base)
    for name, runs in (("record", rec), (f"record_trees_{trees}", rect)):
        t = mean(x["mean_turn_ms"] for x in runs)
        out[name] = {
            "direct_share": mean(x["recorder_share"] for x in runs),
            "recorder_ms_per_turn": mean(x["recorder_ms_per_turn"] for x in runs),
            "bytes_per_turn": mean(x["bytes_per_turn"] for x in runs),
            "mean_turn_ms": t, "ab_share": (t - b) / b}
    out["no_record_mean_turn_ms"] = b
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m sandbox.replay.overhead",
                                description="measure what recording a replay costs")
    p.add_argument("--turns", type=int, default=40)
    p.add_argument("--ms", type=float, default=50.0)
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--trees", type=int, default=200, help="tree_nodes for the record_trees run")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    r = measure(a.turns, a.ms, a.reps, a.trees)
    if a.json:
        print(json.dumps(r))
        return 0
    print(f"{a.turns} turns at {a.ms:g} ms per player, {a.reps} runs each; "
          f"mean turn without recording {r['no_record_mean_turn_ms']:.2f} ms")
    for k in ("record", f"record_trees_{a.trees}"):
        x = r[k]
        print(f"{k:>18}: recorder {x['recorder_ms_per_turn']:.3f} ms/turn = "
              f"{100 * x['direct_share']:.2f}% of turn time (direct); "
              f"a/b {100 * x['ab_share']:+.2f}%; {x['bytes_per_turn'] / 1024:.1f} KiB/turn")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
