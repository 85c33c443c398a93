"""One game of a tournament or sweep, as plain data in and plain data out:
the only things that cross to a worker process (or a Dask worker) are a
GameJob and its result dict. The worker imports this package, whose C core
it loads (or builds) from its own installation."""
from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GameJob:
    key: str                       # unique in its tournament: "i-j/round/shift"
    scenario: dict[str, Any]       # the seated scenario (agents.seat_scenario)
    entrants: tuple[int, ...]      # the entrant index on each seat
    seed: int
    max_turns: int | None = None
    replay: str | None = None      # write the game's replay to this file
    think: str = "together"        # Match(think=...): "in_turn" for equal wall time

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def play_job(job: GameJob) -> dict[str, Any]:
    """Plays the game; returns its result row. Runs in a worker."""
    from ..config.scenario import scenario_from_dict
    from ..replay.recorder import Recorder
    from ..sim.match import Match
    from ..sim.series import game_scores

    t0 = time.perf_counter()
    c0 = time.process_time()
    scenario = scenario_from_dict(job.scenario, source="tournament game")
    recorder = None
    if job.replay is not None:
        path = Path(job.replay)
        path.parent.mkdir(parents=True, exist_ok=True)
        # a file here is from a game that was interrupted (finished games are
        # never played again): this game replaces it
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        recorder = Recorder(path=path)
    try:
        with Match(scenario, seed=job.seed, max_turns=job.max_turns,
                   recorder=recorder, think=job.think) as m:
            result = m.play()
            history = m.history
    finally:
        if recorder is not None:
            recorder.close()
    n = len(scenario.players)
    agents = [scenario.player_agents(i) for i in range(n)]
    # each seat's search: iterations summed over the turns it searched
    iterations, searched = [0] * n, [0] * n
    for rec in history:
        for pt in rec.players:
            if pt.iterations:
                iterations[pt.player] += pt.iterations
                searched[pt.player] += 1
    return {"key": job.key, "entrants": list(job.entrants), "seed": job.seed,
            "scores": game_scores(result.ranking, agents), "turns": result.turns,
            "ranking": list(result.ranking), "seconds": round(time.perf_counter() - t0, 4),
            "cpu_seconds": round(time.process_time() - c0, 4),
            "iterations": iterations, "search_turns": searched,
            "replay": job.replay, "pid": os.getpid()}
