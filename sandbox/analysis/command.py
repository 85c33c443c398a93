"""`python -m sandbox exploit SCENARIO`: the exact NashConv of a player's
search in self-play, one seed, several, or against the budget (--curve)."""
from __future__ import annotations

import argparse
import sys

from ..run import CliError, budget_from, scenario_from_args
from ..seeds import series_seed_problem


def add_exploit_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", help="scenario name in scenarios/ or a path to a .toml")
    p.add_argument("--agent", type=int, default=0, metavar="K",
                   help="the player whose search settings define the behaviour (default 0)")
    p.add_argument("--iterations", type=int, default=None, metavar="N",
                   help="iterations per search (default: the player's budget)")
    p.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                   help="change the scenario, e.g. players.0.search.policy=rm (repeatable)")
    p.add_argument("--seeds", type=int, default=None, metavar="N",
                   help="judge the searches of N seeds (1..100), S..S+N-1, and report "
                        "each seed's NashConv with their mean, median, min and max "
                        "(default: one seed, the single report)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="the (first) match seed the searches' seeds are derived from "
                        "(default: the scenario's)")
    p.add_argument("--curve", default=None, metavar="N1,N2,...",
                   help="NashConv against the budget: judge each series at these "
                        "iterations per search (increasing, up to 12), e.g. "
                        "10,100,1000,10000")
    p.add_argument("--series", action="append", default=[], metavar="NAME:PATH=V,...",
                   help="with --curve: a curve named NAME, the scenario with these "
                        "changes (after --set; values without commas), e.g. "
                        "gtcfr:players.0.search.algorithm=gtcfr (repeatable; default: "
                        "one curve of the scenario as it is)")
    p.add_argument("--png", default=None, metavar="FILE",
                   help="with --curve: also draw the curves, both axes log")
    p.add_argument("--no-equilibrium", action="store_false", dest="equilibrium",
                   help="with hidden information, skip the reference equilibrium (a pure-Python "
                        "CFR+ solve of the whole game, for the game-value line; over an hour on "
                        "goofspiel-5): the NashConv figures do not need it")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run_exploit(args: argparse.Namespace, out=None) -> int:
    import json

    from .exploit import MAX_SEEDS, exploit_scenario, exploit_seeds

    out = out or sys.stdout
    if args.iterations is not None:
        budget_from(argparse.Namespace(iterations=args.iterations, ms=None))  # range check
    if args.seeds is not None and not 1 <= args.seeds <= MAX_SEEDS:
        raise CliError(f"--seeds must be in 1..{MAX_SEEDS} (each seed is one exact run)")
    if args.seed is not None and series_seed_problem(args.seed):
        raise CliError(series_seed_problem(args.seed))
    scenario = scenario_from_args(args)
    show = not args.json and sys.stderr.isatty()

    def progress(stage: str, done: int, total: int) -> None:
        if show:
            of = f"/{total:,}" if total else ""
            print(f"\r  {stage} {done:,}{of}   ", end="", file=sys.stderr, flush=True)

    if args.curve is not None:
        return _run_curve(args, scenario, out, progress, show)
    if args.series or args.png is not None:
        raise CliError("--series and --png draw a curve: give --curve N1,N2,...")
    if args.seeds is not None:
        report = exploit_seeds(scenario, agent=args.agent, iterations=args.iterations,
                               first_seed=args.seed, seeds=args.seeds, progress=progress,
                               equilibrium=args.equilibrium)
    else:
        if args.seed is not None:
            scenario = scenario.model_copy(update={"seed": args.seed})
        report = exploit_scenario(scenario, agent=args.agent, iterations=args.iterations,
                                  progress=progress, equilibrium=args.equilibrium)
    if show:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_dict()), file=out)
    else:
        print(report.text(), file=out)
    return 0


def _run_curve(args: argparse.Namespace, scenario, out, progress, show: bool) -> int:
    import json

    from .curve import budgets_arg, check_png_path, curve_png, exploit_curve, series_arg

    if args.iterations is not None:
        raise CliError("--curve gives the iterations per search: drop --iterations")
    budgets = budgets_arg(args.curve)
    series = [series_arg(s) for s in args.series] or [("agent", [])]
    if args.png is not None:
        check_png_path(args.png)        # a wrong name fails now, not after the run
    report = exploit_curve(scenario, budgets, series, agent=args.agent, first_seed=args.seed,
                           seeds=args.seeds or 1, progress=progress,
                           equilibrium=args.equilibrium)
    if show:
        print(file=sys.stderr)
    path = curve_png(report, args.png) if args.png is not None else None
    if args.json:
        d = report.to_dict()
        if path is not None:
            d["png"] = str(path)
        print(json.dumps(d), file=out)
    else:
        print(report.text(), file=out)
        if path is not None:
            print(f"wrote {path}", file=out)
    return 0
