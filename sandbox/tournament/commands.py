"""`python -m sandbox tournament` and `python -m sandbox sweep`: the
command-line side (arguments, progress bar, files written)."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from ..native import InvalidArgument
from ..sim.series import interval_json, one_start_note

DEFAULT_OUT = Path("tournaments")


def add_budget_args(p: argparse.ArgumentParser) -> None:
    b = p.add_mutually_exclusive_group()
    b.add_argument("--iterations", type=int, default=None, metavar="K",
                   help="search iterations per turn for agents without a budget of their own")
    b.add_argument("--ms", type=float, default=None, metavar="T",
                   help="search milliseconds per turn for agents without a budget of their own")


def add_executor_args(p: argparse.ArgumentParser) -> None:
    """Where games run: --workers K or --dask ADDRESS (executors.make_executor)."""
    w = p.add_mutually_exclusive_group()
    w.add_argument("--workers", type=int, default=None, metavar="K",
                   help="local worker processes (default: one per core; 0: in this process)")
    w.add_argument("--dask", default=None, metavar="ADDRESS",
                   help="run the games on an existing Dask cluster (tcp://host:8786; needs "
                        "the [cluster] extra)")


def add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=20, metavar="N",
                   help="games per pairing, even: N/2 seeds, each played with both seat orders "
                        "(default 20)")
    p.add_argument("--seed", type=int, default=1, metavar="S",
                   help="first seed; round r plays seed S+r (default 1)")
    p.add_argument("--turns", type=int, default=None, metavar="N",
                   help="stop each game after N turns (default: the scenario's)")
    p.add_argument("--vary", default=None, metavar="PARAM",
                   help="a game parameter set to each round's seed, e.g. game_params.maze_seed "
                        "or game_params.map_seed: a new maze or map per seed, the same for "
                        "both seat orders (default: every game on the scenario's own)")
    add_budget_args(p)
    add_executor_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def add_tournament_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", help="a two-player scenario (name in scenarios/ or a .toml)")
    p.add_argument("--agents", nargs="+", required=True, metavar="AGENT",
                   help="agent files (*.toml) or built-in agents: random, bot, smitsimax, "
                        "suct, joint, mcgs, greedy, uct (the untuned textbook yardstick)")
    add_run_args(p)
    p.add_argument("--out", default=None, metavar="DIR",
                   help="folder for results.jsonl (the resumable log), results.json and "
                        "ratings.png (default: tournaments/<scenario>)")
    p.add_argument("--keep-replays", action="store_true",
                   help="keep every game's replay in DIR/replays/")
    p.add_argument("--sprt", default=None, metavar="ELO0,ELO1",
                   help="two agents: stop when a sequential test decides between 'the first "
                        "is ELO0 stronger' and 'ELO1 stronger' (alpha = beta = 0.05)")


def budget_from(args: argparse.Namespace):
    from ..config import ScenarioError, budget_from_flags
    try:
        return budget_from_flags(args.iterations, args.ms)
    except ScenarioError as e:
        raise InvalidArgument(str(e)) from None


def parse_sprt(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        a, b = (float(x) for x in text.split(","))
    except ValueError:
        raise InvalidArgument(f"--sprt must look like 0,10 (ELO0,ELO1), got {text!r}") from None
    return (a, b)


def check_run_args(args: argparse.Namespace) -> None:
    if args.turns is not None and args.turns < 0:
        raise InvalidArgument("--turns must be >= 0")
    if args.workers is not None and not 0 <= args.workers <= 256:
        raise InvalidArgument("--workers must be in 0..256 (0: in this process)")


class Progress:
    """A tqdm bar (with ETA) on stderr where a person watches; nothing in a
    pipe or with --quiet/--json."""

    def __init__(self, total: int, initial: int, show: bool, desc: str) -> None:
        self.bar = None
        if show:
            from tqdm import tqdm
            self.bar = tqdm(total=total, initial=initial, desc=desc, unit="game",
                            file=sys.stderr, dynamic_ncols=True, leave=False)

    def update(self, postfix: str = "") -> None:
        if self.bar is not None:
            self.bar.update(1)
            if postfix:
                self.bar.set_postfix_str(postfix)   # redraws: a game is far slower than a redraw

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# --------------------------------------------------------------- tournament
def run_tournament(args: argparse.Namespace, out=None) -> int:
    from ..config import find_scenario, load_scenario
    from .agents import load_entrant
    from .chart import ratings_png
    from .executors import executor_label, make_executor
    from .log import ResultLog
    from .runner import run_jobs
    from .tournament import SprtWatch, make_spec, sorted_results, summarize

    out = out or sys.stdout
    check_run_args(args)
    scenario = load_scenario(args.scenario)
    entrants = [load_entrant(a) for a in args.agents]
    spec = make_spec(scenario, entrants, games=args.games, seed=args.seed,
                     budget=budget_from(args), max_turns=args.turns,
                     sprt=parse_sprt(args.sprt), keep_replays=args.keep_replays,
                     vary=args.vary)
    folder = Path(args.out) if args.out else DEFAULT_OUT / find_scenario(args.scenario).stem
    jobs = spec.jobs(folder / "replays" if args.keep_replays else None)
    t0 = time.perf_counter()
    # the executor first: an unreachable cluster fails before any file is made
    # (a local pool starts its processes only when the first game is sent)
    with make_executor(args.workers, args.dask) as ex:
        log = ResultLog(folder / "results.jsonl", "tournament", spec.config())
        try:
            done = sorted_results(log.games, jobs)
            watch = SprtWatch(spec, done)
            show = not (args.quiet or args.json) and sys.stderr.isatty()
            if done and not (args.quiet or args.json):
                print(f"resuming: {len(done)} of {len(jobs)} games already in {log.path}",
                      file=sys.stderr)
            bar = Progress(len(jobs), len(done), show, "tournament")

            def on_result(row: dict[str, Any]) -> None:
                watch.add(row)
                s = watch.result()
                bar.update(f"LLR {s.llr:.2f}" if s is not None else "")

            played = 0
            try:
                if not watch.decided():
                    workers = args.workers if args.workers is not None else 4
                    played = run_jobs(jobs, ex, log, on_result, watch.decided,
                                      in_flight=max(4, 2 * workers))
            finally:
                bar.close()
            summary = summarize(spec, sorted_results(log.games, jobs))
        finally:
            log.close()
    summary.seconds = time.perf_counter() - t0
    data = {"scenario": scenario.name, "executor": executor_label(args.workers, args.dask),
            "log": str(log.path), "played_now": played, **summary.to_dict()}
    note = one_start_note(scenario, args.vary, range(args.seed, args.seed + 2))
    if note is not None:
        data["note"] = note
    _write_json(folder / "results.json", data)
    chart = None
    if summary.ratings is not None:
        chart = ratings_png(summary.ratings, f"{scenario.name}: {summary.games} games",
                            folder / "ratings.png", [s.mean for s in summary.standings])
    if args.json:
        print(json.dumps(data, allow_nan=False), file=out)
    else:
        print(summary.text(f"{scenario.name}: round robin, seats swapped on paired seeds"),
              file=out)
        print(f"  results: {folder / 'results.json'}" + (f", chart: {chart}" if chart else ""),
              file=out)
        if note is not None:
            print(note, file=out)
    return 0


def _write_json(path: Path, data: dict[str, Any]) -> None:
    from .log import LogError
    try:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=1, allow_nan=False) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        raise LogError(f"{path}: cannot write: {exc.strerror or exc}") from None


def add_sweep_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", help="a two-player scenario (name in scenarios/ or a .toml)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=SPEC",
                   help="a search setting and its values: c=0.3:1.5:7 (7 values from 0.3 to "
                        "1.5) or max_depth=6,10,14 (depth is max_depth; budget.iterations "
                        "too); repeatable")
    p.add_argument("--vs", nargs="+", required=True, metavar="AGENT",
                   help="the opponent pool: agent files or built-ins (random, bot, smitsimax, "
                        "suct, joint, mcgs, greedy, uct)")
    p.add_argument("--agent", default="smitsimax", metavar="AGENT",
                   help="the agent whose settings are swept (a file or built-in; default "
                        "smitsimax with default knobs)")
    p.add_argument("--random", type=int, default=None, metavar="N",
                   help="N random points of the ranges instead of the whole grid")
    add_run_args(p)
    p.add_argument("--out", default=None, metavar="DIR",
                   help="folder for results.jsonl (resumable), results.json, heatmap.png and "
                        "best.toml (default: sweeps/<scenario>)")


def run_sweep(args: argparse.Namespace, out=None) -> int:
    from ..config import find_scenario, load_scenario
    from ..config.agent import agent_toml
    from .agents import load_entrant
    from .chart import heatmap_png
    from .executors import executor_label, make_executor
    from .log import ResultLog
    from .runner import run_jobs
    from .sweep import best, make_sweep, parse_param, score_candidates, table
    from .tournament import sorted_results

    out = out or sys.stdout
    check_run_args(args)
    scenario = load_scenario(args.scenario)
    params = [parse_param(p) for p in args.param]
    spec = make_sweep(scenario, load_entrant(args.agent), params,
                      [load_entrant(a) for a in args.vs], games=args.games, seed=args.seed,
                      random_n=args.random, budget=budget_from(args), max_turns=args.turns,
                      vary=args.vary)
    folder = Path(args.out) if args.out else Path("sweeps") / find_scenario(args.scenario).stem
    jobs = spec.jobs()
    t0 = time.perf_counter()
    with make_executor(args.workers, args.dask) as ex:
        log = ResultLog(folder / "results.jsonl", "sweep", spec.config())
        try:
            done = sorted_results(log.games, jobs)
            show = not (args.quiet or args.json) and sys.stderr.isatty()
            bar = Progress(len(jobs), len(done), show, "sweep")
            try:
                workers = args.workers if args.workers is not None else 4
                played = run_jobs(jobs, ex, log, lambda _row: bar.update(),
                                  in_flight=max(4, 2 * workers))
            finally:
                bar.close()
            results = sorted_results(log.games, jobs)
        finally:
            log.close()
    scores = score_candidates(spec, results)
    top = best(scores)
    files = {}
    if top is not None:
        from ..config.agent import AGENT_FORMAT
        data = {"format": AGENT_FORMAT,
                "description": f"best of a sweep on {scenario.name}: {top.entrant.name}, "
                               f"score {top.mean:.3f} against "
                               f"{', '.join(e.name for e in spec.pool)}",
                "name": "swept", **top.entrant.player}
        path = folder / "best.toml"
        try:
            path.write_text(agent_toml(data), encoding="utf-8")
        except OSError as exc:
            from .log import LogError
            raise LogError(f"{path}: cannot write: {exc.strerror or exc}") from None
        files["best"] = str(path)
    if len(params) == 2 and args.random is None and results:
        px, py = params
        grid = [[float("nan")] * len(px.values) for _ in py.values]
        for cs in scores:
            if cs.scores:
                grid[py.values.index(cs.point[py.path])][px.values.index(cs.point[px.path])] \
                    = cs.mean
        files["heatmap"] = str(heatmap_png(
            px.values, py.values, grid, px.name, py.name,
            f"{scenario.name}: mean score against {', '.join(e.name for e in spec.pool)}",
            folder / "heatmap.png"))
    data = {"scenario": scenario.name, "executor": executor_label(args.workers, args.dask),
            "games": len(results), "expected_games": len(jobs), "played_now": played,
            "seconds": round(time.perf_counter() - t0, 2), "files": files,
            "candidates": [{"settings": {(t + "." if t != "search" else "") + k: v
                                         for (t, k), v in cs.point.items()},
                            "games": len(cs.scores),
                            "score": None if not cs.scores else round(cs.mean, 4),
                            "ci95": interval_json(*cs.interval()),
                            "wins": cs.wins, "draws": cs.draws, "losses": cs.losses}
                           for cs in scores]}
    note = one_start_note(scenario, args.vary, range(args.seed, args.seed + 2))
    if note is not None:
        data["note"] = note
    _write_json(folder / "results.json", data)
    if args.json:
        print(json.dumps(data, allow_nan=False), file=out)
    else:
        print(f"{scenario.name}: {len(scores)} settings x {len(spec.pool)} opponent{'s' if len(spec.pool) != 1 else ''} x "
              f"{args.games} games (seats swapped on paired seeds), best first", file=out)
        print(table(spec, scores), file=out)
        for k, v in files.items():
            print(f"  {k}: {v}", file=out)
        if note is not None:
            print(note, file=out)
    return 0
