"""`python -m sandbox train SCENARIO --out PATH`: self-play, the replay
buffer, training and the weights file (sandbox/learn/train.py); the
command line's flags and its one-line errors."""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from ..native import InvalidArgument
from ..tournament.commands import add_budget_args, add_executor_args

SIZES = ("tiny", "small")
TARGETS = ("solve", "search")


def add_train_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", help="the scenario whose searches play the self-play games "
                                    "(name in scenarios/ or a .toml)")
    p.add_argument("--out", required=True, metavar="PATH",
                   help="the network file to write (e.g. nets/goofspiel5.sbxnet); the loss "
                        "curve goes beside it as a .png")
    p.add_argument("--work", default=None, metavar="DIR",
                   help="the replay buffer and the checkpoint (default: PATH.work); the same "
                        "command run again resumes from them")
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="self-play games in the buffer (default 100; a larger N on a resumed "
                        "run plays only the games it lacks)")
    p.add_argument("--turns", type=int, default=None, metavar="N",
                   help="stop each self-play game after N turns (default: the scenario's)")
    add_budget_args(p)
    p.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                   help="change the scenario, e.g. players.0.search.algorithm=gtcfr (repeatable)")
    p.add_argument("--seed", type=int, default=1, metavar="S",
                   help="game g plays match seed S+g; the first weights and the minibatches "
                        "come from S too (default 1)")
    p.add_argument("--steps", type=int, default=2000, metavar="N",
                   help="training steps (default 2000)")
    p.add_argument("--batch", type=int, default=256, metavar="B",
                   help="positions per step (default 256)")
    p.add_argument("--lr", type=float, default=1e-3, metavar="X",
                   help="Adam's learning rate (default 0.001)")
    p.add_argument("--window", type=int, default=100_000, metavar="N",
                   help="train on the buffer's last N positions (default 100000)")
    p.add_argument("--targets", choices=TARGETS, default="solve",
                   help="solve: each position the self-play reaches, and --queries more "
                        "(--queries-from), is solved afresh by gtcfr at "
                        "--solve-iterations; its value and average strategies are the targets "
                        "(Student of Games' query solving; two-player games; with hidden "
                        "information pubcfr players' public belief states, solved by pubcfr "
                        "per private state). "
                        "search: the playing searches' own root values and policies "
                        "(default solve)")
    p.add_argument("--solve-iterations", type=int, default=2000, metavar="K",
                   help="gtcfr (with hidden information pubcfr) iterations per solved "
                        "position (default 2000)")
    p.add_argument("--solve-depth", type=int, default=None, metavar="D", dest="solve_depth",
                   help="the solver's max_depth in rounds (default: player 0's): deeper than "
                        "the players' searches, it values the states they ask a net about "
                        "from further below")
    p.add_argument("--queries", type=int, default=4, metavar="Q",
                   help="positions solved per turn besides the one played (default 4)")
    p.add_argument("--queries-from", choices=("tree", "walk"), default="tree",
                   dest="queries_from",
                   help="tree: states of the solver's own frontier at the position played "
                        "(the states a search from there asks a value for), as Student of "
                        "Games draws its queries, and recursive ones from those solves' "
                        "frontiers (--recursive); walk: 1 to 3 random joint actions from the "
                        "position (default tree)")
    p.add_argument("--recursive", type=float, default=0.1, metavar="P",
                   help="with --queries-from tree: the chance that each of --queries states of a "
                        "query's own frontier is solved too (Student of Games' recursive "
                        "queries; the paper uses 0.1 to 0.2; default 0.1)")
    p.add_argument("--query-ranges", choices=("current", "average"), default="current",
                   dest="query_ranges",
                   help="hidden information: the ranges a frontier query carries. current: "
                        "those a player's search asks its net with, at an iteration drawn "
                        "uniformly from its budget (Student of Games); average: those of its "
                        "average strategies after the search (default current)")
    p.add_argument("--generations", type=int, default=1, metavar="G",
                   help="G rounds of self-play and training: generation g's searches (and "
                        "solver) use generation g-1's net as value_net, and it trains on every "
                        "generation's positions so far; --games games each (default 1)")
    p.add_argument("--outcome-weight", type=float, default=None, metavar="W",
                   help="value target = (1-W) x the search's value + W x the game's outcome "
                        "(default 0.5 with --targets search; solved positions have no outcome)")
    p.add_argument("--size", choices=SIZES, default="small",
                   help="small: two 3x3 convolutions of 16 channels and a dense layer of 64 on "
                        "a board game, two dense layers of 64 otherwise; tiny: one dense layer "
                        "of 16 (default small)")
    p.add_argument("--dense", type=int, default=None, metavar="N",
                   help="dense ReLU layers after the size's convolutions, 0..8 (default: the "
                        "size's; 0: the heads read the features, or the convolutions, directly)")
    p.add_argument("--hidden", type=int, default=None, metavar="H",
                   help="units in each dense layer, 1..4096 (default: the size's, 16 tiny, "
                        "64 small)")
    add_executor_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def _check(args: argparse.Namespace) -> None:
    from ..seeds import series_seed_problem
    checks = [("--games", args.games, 0, 1_000_000), ("--steps", args.steps, 0, 10_000_000),
              ("--batch", args.batch, 1, 65_536), ("--window", args.window, 1, 100_000_000),
              ("--generations", args.generations, 1, 1000)]
    if args.turns is not None:
        checks.append(("--turns", args.turns, 1, 1_000_000))
    if args.targets == "solve":
        checks += [("--solve-iterations", args.solve_iterations, 1, 10_000_000),
                   ("--queries", args.queries, 0, 1000)]
        if args.solve_depth is not None:
            checks.append(("--solve-depth", args.solve_depth, 1, 1000))
        if not 0 <= args.recursive < 1:
            raise InvalidArgument(f"--recursive must be in [0, 1) (got {args.recursive})")
    for name, v, lo, hi in checks:
        if not lo <= v <= hi:
            raise InvalidArgument(f"{name} must be in {lo}..{hi} (got {v})")
    if args.dense is not None and not 0 <= args.dense <= 8:
        raise InvalidArgument(f"--dense must be in 0..8 (got {args.dense})")
    if args.hidden is not None and not 1 <= args.hidden <= 4096:
        raise InvalidArgument(f"--hidden must be in 1..4096 (got {args.hidden})")
    if args.dense == 0 and args.hidden is not None:
        raise InvalidArgument("--hidden with --dense 0: there is no dense layer to size")
    if not (0 < args.lr <= 1):
        raise InvalidArgument(f"--lr must be in (0, 1] (got {args.lr})")
    if args.outcome_weight is not None and not 0 <= args.outcome_weight <= 1:
        raise InvalidArgument(f"--outcome-weight must be in 0..1 (got {args.outcome_weight})")
    if series_seed_problem(args.seed):
        raise InvalidArgument(series_seed_problem(args.seed))
    out = Path(args.out)
    if out.is_dir():
        raise InvalidArgument(f"--out {out}: is a folder (name the network file)")
    if out.suffix.lower() == ".png":
        raise InvalidArgument(f"--out {out}: names the network file (e.g. .sbxnet); the loss "
                              "curve goes beside it as .png")


def _jax_missing() -> str | None:
    try:
        import jax  # noqa: F401
        import optax  # noqa: F401
    except ImportError as exc:
        return (f"training needs JAX and optax ({exc.name} is missing): pip install -e "
                "\".[learn]\" (or pip install 'simsearch-sandbox[learn]')")
    return None


def run_train(args: argparse.Namespace, argv: list[str], out=None) -> int:
    from ..tournament.commands import budget_from
    from ..tournament.executors import make_executor
    from .train import TrainConfig, run_training

    out = out or sys.stdout
    _check(args)
    problem = _jax_missing()
    if problem:
        raise InvalidArgument(problem)
    from ..config import load_scenario
    scenario = load_scenario(args.scenario)
    if args.set:
        scenario = scenario.with_settings(args.set)
    if args.iterations is not None or args.ms is not None:
        scenario = scenario.model_copy(update={"budget": budget_from(args)})
    if any(p.controller == "human" for p in scenario.players):
        raise InvalidArgument(f"{args.scenario}: has a human player; self-play needs searches")
    cfg = TrainConfig(scenario=scenario.model_dump(mode="json"), scenario_name=str(args.scenario),
                      out=str(args.out), work=args.work or str(args.out) + ".work",
                      games=args.games, max_turns=args.turns, seed=args.seed, steps=args.steps,
                      batch=args.batch, lr=args.lr, window=args.window,
                      outcome_weight=0.5 if args.outcome_weight is None else args.outcome_weight,
                      size=args.size, dense_layers=args.dense, hidden=args.hidden,
                      targets=args.targets,
                      solve_iterations=args.solve_iterations, solve_depth=args.solve_depth,
                      queries=args.queries, query_source=args.queries_from, recursive=args.recursive,
                      query_ranges=args.query_ranges,
                      generations=args.generations,
                      command=" ".join(["python -m sandbox train",
                                        *(shlex.quote(a) for a in argv)]))
    show = not (args.quiet or args.json) and sys.stderr.isatty()
    bars: dict[str, Any] = {}

    def progress(stage: str, k: int, total: int) -> None:
        if not show:
            return
        from tqdm import tqdm
        if stage not in bars:
            for b in bars.values():
                b.close()
            bars[stage] = tqdm(total=total, desc=stage, file=sys.stderr, dynamic_ncols=True,
                               leave=False)
        bars[stage].update(k)

    try:
        with make_executor(args.workers, args.dask) as ex:
            report = run_training(cfg, ex, progress)
    finally:
        for b in bars.values():
            b.close()
    if args.json:
        print(json.dumps(report.to_dict()), file=out)
    else:
        print(report.text(), file=out)
    return 0
