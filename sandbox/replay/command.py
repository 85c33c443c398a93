"""`python -m sandbox replay ACTION FILE`: verify, stats, export, research,
plot (docs/analysing.md)."""
from __future__ import annotations

import argparse
import sys

from ..run import CliError


def add_replay_args(p: argparse.ArgumentParser) -> None:
    actions = p.add_subparsers(dest="action", metavar="action")
    p._replay_actions = actions  # type: ignore[attr-defined]
    v = actions.add_parser("verify", help="re-simulate and check every state hash")
    v.add_argument("file", help="a replay file (.jsonl)")
    st = actions.add_parser("stats", help="winner, turns and per-agent search figures")
    st.add_argument("file", help="a replay file (.jsonl)")
    st.add_argument("--json", action="store_true", help="print one JSON object")
    ex = actions.add_parser("export", help="one CSV row per turn and agent")
    ex.add_argument("file", help="a replay file (.jsonl)")
    ex.add_argument("--csv", required=True, metavar="OUT",
                    help="the CSV file to write (- for standard output)")
    rs = actions.add_parser("research", help="re-run a player's search at a recorded turn "
                                             "(with other settings) and compare its root")
    rs.add_argument("file", help="a replay file (.jsonl)")
    rs.add_argument("--turn", type=int, required=True, metavar="K",
                    help="the turn whose decision is searched again")
    rs.add_argument("--agent", type=int, required=True, metavar="A",
                    help="the agent (0-based) whose player's search is re-run")
    rs.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                    help="change a search setting, e.g. c=1.2 or policy=exp3, or an evaluation "
                         "weight, e.g. weights.w_space=2 (repeatable)")
    rb = rs.add_mutually_exclusive_group()
    rb.add_argument("--iterations", type=int, default=None, metavar="N",
                    help="iterations (default: as many as the recorded search ran)")
    rb.add_argument("--ms", type=float, default=None, metavar="T", help="milliseconds instead")
    rs.add_argument("--keep-tree", action="store_true",
                    help="start from the tree the recorded search kept from earlier turns "
                         "(tree reuse on) instead of a fresh one")
    rs.add_argument("--json", action="store_true", help="print one JSON object")
    pl = actions.add_parser("plot", help="the replay charts as a PNG (no display needed)")
    pl.add_argument("file", help="a replay file (.jsonl)")
    pl.add_argument("--png", required=True, metavar="OUT", help="the PNG file to write")
    pl.add_argument("--size", default="1200x900", metavar="WxH",
                    help="image size in pixels (default 1200x900)")


def run_replay(args: argparse.Namespace, out=None) -> int:
    import json

    from . import ReplayError, compute_stats, read_replay, to_csv, verify

    out = out or sys.stdout
    if args.action == "plot":
        size = _parse_size(args.size)
    replay = read_replay(args.file)
    try:
        if replay.dropped:
            print(f"warning: {args.file}: {replay.dropped_summary()}", file=sys.stderr,
                  flush=True)
        if args.action == "research":
            from .research import parse_assignments, research
            rep = research(replay, args.turn, args.agent, parse_assignments(args.set),
                           iterations=args.iterations, ms=args.ms, keep_tree=args.keep_tree)
            if args.json:
                print(json.dumps(rep.to_dict(), allow_nan=False), file=out)
            else:
                print(rep.text(), file=out)
            return 0
        if args.action == "verify":
            report = verify(replay)
            if not report.ok:
                raise ReplayError(f"{args.file}: {report.message}")
            if replay.damaged_lines:
                # what was kept replays, but the file is not what it claims
                # (a crash mid-write tears at most the last line)
                n = replay.damaged_lines
                raise ReplayError(f"{args.file}: {report.message}, but {n} damaged "
                                  f"line{'s' if n != 1 else ''} dropped: not the file that "
                                  f"was recorded")
            print(f"ok: {args.file}: {report.message}", file=out)
            return 0
        stats = None
        if args.action in ("stats", "export", "plot"):
            # they show the recorded figures without re-simulating: say which
            # of them contradict each other (verify checks by replaying)
            stats = compute_stats(replay)
            for w in stats.warnings:
                print(f"warning: {args.file}: {w}", file=sys.stderr, flush=True)
        if args.action == "stats":
            if args.json:
                print(json.dumps(stats.to_dict(), allow_nan=False), file=out)
            else:
                print(stats.text(), file=out)
            return 0
        if args.action == "export":
            if args.csv == "-":   # the CSV itself is the output: no "wrote" line
                to_csv(replay, out, stats)
                return 0
            try:
                rows = to_csv(replay, args.csv, stats)
            except OSError as exc:
                raise ReplayError(f"{args.csv}: cannot write: {exc.strerror or exc}") from None
            print(f"wrote {rows} rows to {args.csv}", file=out)
            return 0
        if args.action == "plot":
            from .plot import plot_png
            path = plot_png(replay, args.png, size, stats)
            print(f"wrote {path} ({size[0]}x{size[1]})", file=out)
            return 0
        raise CliError(f"unknown replay action {args.action!r}")
    finally:
        replay.close()


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise CliError(f"--size must look like 1200x900 (got {text!r})") from None
    return w, h
