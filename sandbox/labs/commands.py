"""`python -m sandbox lab rps|race|depth`: run a lab headless, print its
table (or one JSON object) and optionally write its PNG."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .common import GTCFR_ENTRY, POLICIES


def add_lab_args(p: argparse.ArgumentParser) -> None:
    labs = p.add_subparsers(dest="lab", metavar="lab")
    rps = labs.add_parser("rps", help="RPS playground: a scripted you against a fresh search "
                                      "each round")
    rps.add_argument("--rounds", type=int, default=100, metavar="N", help="rounds (default 100)")
    rps.add_argument("--policy", default="ucb1", metavar="P",
                     help=f"the agent's selection policy: {', '.join(POLICIES)} (default ucb1)")
    rps.add_argument("--iterations", type=int, default=1000, metavar="K",
                     help="search iterations per round (default 1000)")
    rps.add_argument("--opponent", default="uniform", metavar="PATTERN",
                     help="your moves: rock (or paper, scissors), cycle, uniform, "
                          "biased:0.5,0.3,0.2, or a sequence r,p,s,r (default uniform)")
    rps.add_argument("--model-history", action="store_true",
                     help="the agent searches its expected payoff against your "
                          "Laplace-smoothed frequencies so far")
    race = labs.add_parser("race", help="convergence race: NashConv and most-played share per "
                                        "policy in self-play")
    race.add_argument("--game", default="rps", metavar="GAME",
                      help="a matrix preset (rps, biased_rps, ... see `info`) or a payoff table "
                           "'0,-1,1;1,0,-1;-1,1,0' (zero-sum) or 'A|B' (default rps)")
    race.add_argument("--iterations", type=int, default=100_000, metavar="K",
                      help="iterations per policy (default 100000); checkpoints 100, 200, 500, ...")
    race.add_argument("--policies", default=",".join((*POLICIES, GTCFR_ENTRY)), metavar="LIST",
                      help=f"comma-separated (default {','.join((*POLICIES, GTCFR_ENTRY))}); "
                           "rm:sampled or rm_plus:sampled races that policy with "
                           "counterfactual = off (sampled regret estimates) beside the exact "
                           "one; gtcfr is growing-tree CFR (an iteration is an expansion)")
    depth = labs.add_parser("depth", help="depth-bias lab: raw, discounted and depth-normalised "
                                          "backups on the depthbias game")
    depth.add_argument("--iterations", type=int, default=20_000, metavar="K",
                       help="iterations per backup (default 20000)")
    depth.add_argument("--siege-max", type=int, default=None, metavar="M",
                       help="Siege's longest episode (widens max_depth to M+2 past 20)")
    for q in (rps, race, depth):
        q.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default 1)")
        q.add_argument("--png", default=None, metavar="FILE", help="also write a PNG")
        q.add_argument("--json", action="store_true", help="print one JSON object")
    p._lab_parsers = labs  # type: ignore[attr-defined]


def run_lab(args: argparse.Namespace, out=None) -> int:
    from .png import check_png_path
    out = out or sys.stdout
    if args.png is not None:
        check_png_path(args.png)
    report: Any
    if args.lab == "rps":
        from .png import rps_png as draw
        from .rps import run_rps
        report = run_rps(args.rounds, args.policy, args.iterations, args.opponent,
                         args.model_history, args.seed)
    elif args.lab == "race":
        from .png import race_png as draw
        from .race import run_race
        report = run_race(args.game, args.iterations, args.policies, args.seed)
    elif args.lab == "depth":
        from .depth import run_depth
        from .png import depth_png as draw
        report = run_depth(args.iterations, args.siege_max, args.seed)
    else:
        raise ValueError(args.lab)
    path = draw(report, args.png) if args.png is not None else None
    if args.json:
        d = report.to_dict()
        if path is not None:
            d["png"] = str(path)
        print(json.dumps(d, allow_nan=False), file=out)
    else:
        print(report.text(), file=out)
        if path is not None:
            print(f"wrote {path}", file=out)
    return 0
