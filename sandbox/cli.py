"""Command line: `python main.py` (the app, or headless play) and
`python -m sandbox <command>` (play, bench, info, replay ...).

Every failure the user can cause ends as one line `error: ...` on stderr and
a non-zero exit status, never a traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .seeds import series_seed_problem
from .native import SandboxError
from .signals import EXIT_INTERRUPTED, interrupted, terminate_cleanly, terminate_status
from .run import (EXIT_ERROR, EXIT_USAGE, CliError, branch_from_args, budget_from as _budget_from,
                  make_recorder, replay_outcome as _replay_outcome, scenario_from_args)

class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line instead of usage + error
        raise CliError(f"{self.prog}: {message} (see --help)")


def display_available() -> tuple[bool, str]:
    """Can pygame open a window here? (A dummy/offscreen driver set on
    purpose counts: it renders without a screen, for screenshots.)"""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return True, ""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or
                                                os.environ.get("WAYLAND_DISPLAY")):
        return False, "no display available (DISPLAY is not set)"
    return True, ""


# ----------------------------------------------------------------- play args
def add_play_args(p: argparse.ArgumentParser, app: bool = False) -> None:
    """`app`: main.py's flags, where a window records by default but
    --headless, --screenshot and --profile-frames do not (see --record)."""
    p.add_argument("scenario", nargs="?", default=None,
                   help="scenario name in scenarios/ or a path to a .toml (default: snakes_standard_4p)")
    p.add_argument("--turns", type=int, default=None, metavar="N",
                   help="stop after N turns (default: the scenario's max_turns, 0 = until the game ends)")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="match seed (default: the scenario's)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=None, metavar="K",
                        help="search iterations per player per turn (reproducible)")
    budget.add_argument("--ms", type=float, default=None, metavar="T",
                        help="search milliseconds per player per turn")
    p.add_argument("--quiet", action="store_true",
                   help="print only the replay and result lines")
    p.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                   help="change a scenario field for this match, e.g. "
                        "players.0.search.algorithm=mcgs or game_params.points_order=random "
                        "(repeatable; validated like the file)")
    p.add_argument("--no-record", action="store_true",
                   help=("do not write a replay file (a match in the window records by "
                         "default; --headless, --screenshot and --profile-frames only with "
                         "--record)") if app else
                        "do not write a replay file (recording is on by default)")
    p.add_argument("--replay-dir", default=None, metavar="DIR",
                   help="folder for replay files (default: the scenario's record.dir, else "
                        "$SBX_REPLAY_DIR, else replays/)")
    # metavar F: a longer one widens the option column and rewraps every help line
    p.add_argument("--start-position", default=None, metavar="F",
                   help="start from the position in file F (snakes: the JSON body of a "
                        "Battlesnake /move request); --turns N then counts from its turn")


def _check_common(args: argparse.Namespace) -> None:
    if args.turns is not None and args.turns < 0:
        raise CliError("--turns must be >= 0")
    if args.seed is not None and not 0 <= args.seed < 2**63:
        raise CliError("--seed must be in 0..2^63-1")


def run_headless(args: argparse.Namespace, out=None) -> int:
    from .config import find_scenario

    out = out or sys.stdout
    _check_common(args)
    scenario = scenario_from_args(args)
    if any(p.controller == "human" for p in scenario.players):
        raise CliError(f"{find_scenario(args.scenario).name}: this scenario has human players; "
                       "headless play needs the app")
    budget = _budget_from(args)
    if getattr(args, "start_position", None) is not None:
        from .run import start_position_from_args
        bp = start_position_from_args(args, scenario)
        recorder = make_recorder(args, bp.scenario, on_error=lambda exc: None,
                                 name_hint=bp.name_hint)
        try:
            rc = _play_headless(args, out, bp.scenario, budget, recorder, seed=bp.seed,
                                max_turns=bp.max_turns, start=bp.start)
        finally:
            if recorder is not None:
                recorder.close()
        return _replay_outcome(recorder, rc)
    recorder = make_recorder(args, scenario, on_error=lambda exc: None)
    try:
        rc = _play_headless(args, out, scenario, budget, recorder)
    finally:
        if recorder is not None:
            recorder.close()
    return _replay_outcome(recorder, rc)


def _play_headless(args, out, scenario, budget, recorder, **match_args) -> int:
    """`match_args`: a branched match's seed, max_turns, start and budgets."""
    from .sim.match import Match
    from .sim.match import joint_names
    from .sim.world import divergence_summary

    match_args = {"seed": args.seed, "max_turns": args.turns, **match_args}
    with Match(scenario, budget=budget, recorder=recorder, **match_args) as match:
        if not args.quiet:
            # a branched match runs on the budgets recorded per player
            b = budget or (match.budget_for(0) if match.player_budgets else scenario.budget)
            what = f"{b.iterations} iterations" if b.iterations else f"{b.ms:g} ms"
            print(f"{scenario.name}: {match.world.num_agents} agents, seed {match.seed}, "
                  f"{what} per player per turn", file=out)

        full_turns: dict[int, int] = {}     # player -> turns its search stopped on the cap
        was_full: set[int] = set()

        def progress(rec) -> None:
            # A full tree stops the search early (it plays the best move found
            # so far): say so when it starts, not every turn it lasts.
            full = {p.player: p for p in rec.players if p.stop_reason == "node_cap"}
            for i in full:
                full_turns[i] = full_turns.get(i, 0) + 1
            newly = [full[i] for i in sorted(full) if i not in was_full]
            was_full.clear()
            was_full.update(full)
            if args.quiet:
                return
            for p in newly:
                print(f"turn {rec.turn:4d}: {_node_cap_text(match, p.player)}: its search "
                      f"stopped after {p.iterations:,} iterations", file=out, flush=True)
            if rec.eliminated or rec.turn % 10 == 0 or match.over:
                its = "/".join(str(p.iterations) for p in rec.players)
                msg = (f"turn {rec.turn:4d}: {' '.join(joint_names(match.world, rec.joint))}"
                       f"  alive {sum(rec.alive)}  iterations {its}  depth {_depths(match, rec)}")
                if rec.eliminated:
                    msg += "  eliminated " + ",".join(match.names[a] for a in rec.eliminated)
                if rec.divergence is not None:
                    msg += f"  divergence {max(rec.divergence):.1f}"
                print(msg, file=out, flush=True)

        result = match.play(progress)
        if not args.quiet and match.history:
            print(_search_summary(match), file=out)
        drift = divergence_summary([rec.divergence for rec in match.history])
        if drift and not args.quiet:
            print(drift, file=out)
        if full_turns and not args.quiet:
            each = ", ".join(f"{match.controllers[i].name} on {k} of {len(match.history)} turns"
                             for i, k in sorted(full_turns.items()))
            print(f"tree full (node cap): {each}", file=out)
        if recorder is not None:
            recorder.close()
            if recorder.path is not None:
                note = " (incomplete: recording stopped)" if recorder.failed else ""
                print(f"replay: {recorder.path}{note}", file=out)
        print(result.line(), file=out, flush=True)
    return 0


# searches whose iteration is one playout from the root, so turns simulated
# per iteration is how far ahead it looked (GT-CFR's iteration values a whole
# expansion's leaves; public-state CFR's sweeps a tree and simulates nothing)
PLAYOUT_SEARCHES = ("smitsimax", "suct", "joint", "mcgs", "uct")


def _looks_ahead(match, i: int) -> bool:
    settings = match.controllers[i].settings
    return settings is not None and settings.algorithm in PLAYOUT_SEARCHES


def _depths(match, rec) -> str:
    """Each player's mean playout depth this turn: game turns simulated per
    iteration ("-" for a player that did not search or whose iterations are
    not playouts)."""
    return "/".join(f"{p.sim_turns / p.iterations:.1f}"
                    if p.iterations and _looks_ahead(match, i) else "-"
                    for i, p in enumerate(rec.players))


def _search_summary(match) -> str:
    """"search: Red 1,000 iterations a turn, 1.93 turns deep; Blue ...": over
    the turns each player searched, how much and how far ahead."""
    parts = []
    for i, c in enumerate(match.controllers):
        turns = [rec.players[i] for rec in match.history if rec.players[i].iterations]
        if not turns:
            parts.append(f"{c.name} did not search")
            continue
        its = sum(p.iterations for p in turns)
        part = f"{c.name} {its / len(turns):,.0f} iterations a turn"
        if _looks_ahead(match, i):
            part += f", {sum(p.sim_turns for p in turns) / its:.2f} turns deep"
        parts.append(part)
    return "search: " + "; ".join(parts)


def _node_cap_text(match, player: int) -> str:
    """"Red's tree is full (node cap 1,024 nodes per agent tree)"."""
    c = match.controllers[player]
    settings = c.settings
    cap = f"node cap {settings.node_cap:,} nodes per agent tree" if settings else "node cap"
    return f"{c.name}'s tree is full ({cap})"


# --------------------------------------------------------------- main.py entry
def app_main(argv: Sequence[str] | None = None) -> int:
    terminate_cleanly()          # SIGTERM: a clean exit, so the bots die
    parser = _Parser(prog="main.py", description="The simultaneous-move search sandbox.")
    add_play_args(parser, app=True)
    parser.add_argument("--headless", action="store_true", help="play without a window")
    parser.add_argument("--screenshot", metavar="PATH", default=None,
                        help="play --turns turns (default 20) in the app, save the window as PNG, "
                             "exit (no display needed)")
    parser.add_argument("--profile-frames", type=int, metavar="N", default=None,
                        help="run the app for N frames with every tree view open and report "
                             "frame times and search speed (no display needed)")
    parser.add_argument("--replay", metavar="FILE", default=None,
                        help="watch a recorded match (.jsonl) on a timeline instead of playing; "
                             "with --screenshot, --turns picks the turn shown")
    parser.add_argument("--branch-at", type=int, metavar="K", default=None,
                        help="with --replay: play on from the state at turn K, every player "
                             "with the settings and budget recorded there (in the arena; with "
                             "--headless in the terminal); --turns N then counts from K")
    parser.add_argument("--state-file", metavar="PATH", default=None,
                        help="keep writing the app's state (settings the searches received, "
                             "turn, ...) to this JSON file")
    parser.add_argument("--view-as", metavar="SEAT", default=None,
                        help="a game with hidden cards or bids (goofspiel imp_info=1): the board "
                             "shows this seat's view, e.g. 0 (default all: every card); a person "
                             "playing sees their own seat's until the game is over")
    parser.add_argument("--record", action="store_true",
                        help="record a replay with --headless, --screenshot or --profile-frames "
                             "too (they do not by default; --replay-dir DIR also asks for one)")
    return _guard(lambda: _app(parser.parse_args(argv)))


def _app(args: argparse.Namespace) -> int:
    _check_common(args)
    _budget_from(args)   # out of range: one line before a window opens
    if args.profile_frames is not None and not 1 <= args.profile_frames <= MAX_PROFILE_FRAMES:
        # a profile of more frames than a working day holds never finishes
        raise CliError(f"--profile-frames must be in 1..{MAX_PROFILE_FRAMES:,} "
                       f"(got {args.profile_frames})")
    if args.screenshot is not None:
        # before a window opens or a turn is played, not after the match
        from .imagefile import screenshot_problem
        why = screenshot_problem(args.screenshot)
        if why:
            raise CliError(f"--screenshot {args.screenshot}: {why}")
    offscreen = args.screenshot is not None or args.profile_frames is not None
    if args.record and args.no_record:
        raise CliError("--record and --no-record contradict each other")
    if (args.headless or offscreen) and not args.record and args.replay_dir is None:
        # Trial runs (a terminal match, a screenshot, a frame profile) do not
        # fill the user's replay folder; a match in the window, `python -m
        # sandbox play`, --record and --replay-dir do record.
        args.no_record = True
    if args.branch_at is not None and args.replay is None:
        raise CliError("--branch-at K plays on from a replay's turn: give --replay FILE")
    if args.start_position is not None and args.replay is not None:
        raise CliError("--start-position and --replay: choose one place to start from")
    if args.view_as is not None and args.headless and not offscreen:
        raise CliError("--view-as picks what the app's board shows; --headless draws no board")
    if args.view_as is not None and args.view_as.strip().lower() != "all":
        try:
            args.view_seat = int(args.view_as)
        except ValueError:
            raise CliError(f"--view-as must be all or a seat number (got {args.view_as!r})") \
                from None
    if args.replay is not None:
        if args.set:
            raise CliError("--set changes a scenario; a replay (and a match branched from "
                           "one) keeps the settings it recorded")
        return _app_replay(args, offscreen)
    if args.headless and not offscreen:
        return run_headless(args)
    from .config import find_scenario
    scenario = scenario_from_args(args)  # a bad scenario or --set: before anything else
    _check_view_seat(args, scenario.game, scenario.game_params)
    if args.start_position is not None:   # so is a bad position file
        from .run import start_position_from_args
        start_position_from_args(args, scenario)
    ok, why = display_available()
    if not ok:
        if not offscreen:
            if any(p.controller == "human" for p in scenario.players):
                # one line, not "playing headless" and then "it cannot be"
                raise CliError(f"{why}: {find_scenario(args.scenario).stem} has a human "
                               "player, who needs the app's window (--screenshot PATH "
                               "renders without one)")
            print(f"note: {why}; playing headless (use --headless to silence this)",
                  file=sys.stderr)
            return run_headless(args)
        os.environ["SDL_VIDEODRIVER"] = "dummy"  # render without a screen
    from .app import run_app
    return run_app(args)


def _app_replay(args: argparse.Namespace, offscreen: bool) -> int:
    """main.py --replay FILE: the replay scene (read and checked first, so a
    bad file is a one-line error before any window opens)."""
    from .replay import read_replay
    if args.profile_frames is not None:
        raise CliError("--profile-frames measures a live match; it does not take --replay")
    replay = read_replay(args.replay)
    replay.close()
    _check_view_seat(args, replay.header.game, replay.header.game_params)
    if args.branch_at is not None:
        branch = branch_from_args(args)
        if args.headless and not offscreen:
            return _branch_headless(args, branch)
    elif args.headless and not offscreen:
        raise CliError("a replay is watched in the app; in a terminal use "
                       "`python -m sandbox replay stats FILE`")
    ok, why = display_available()
    if not ok:
        if args.branch_at is not None and not offscreen:
            print(f"note: {why}; playing on headless (use --headless to silence this)",
                  file=sys.stderr)
            return _branch_headless(args, branch)
        if not offscreen:
            raise CliError(f"{why}: cannot show the replay (try --screenshot PATH, or "
                           "`python -m sandbox replay plot FILE --png OUT`)")
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    from .app import run_app
    return run_app(args)


def _check_view_seat(args: argparse.Namespace, game: str, params) -> None:
    """--view-as SEAT: a seat of this game, and a game that hides something
    from its seats (C's own answer, Game.hidden_info)."""
    seat = getattr(args, "view_seat", None)
    if seat is None:
        return
    from .native import Game
    with Game(game, params, seed=0) as g:
        hidden, n = g.hidden_info, g.num_agents
    if not hidden:
        raise CliError(f"--view-as {seat}: this game hides nothing (every seat sees every card)")
    if not 0 <= seat < n:
        raise CliError(f"--view-as must be all or a seat in 0..{n - 1} (got {seat})")


def _branch_headless(args: argparse.Namespace, bp, out=None) -> int:
    """Play a branched match in the terminal (recorded as `play` records)."""
    out = out or sys.stdout
    if any(p.controller == "human" for p in bp.scenario.players):
        raise CliError(f"{args.replay}: this match has human players; playing on from it "
                       "headless needs the app")
    budget = _budget_from(args)
    recorder = make_recorder(args, bp.scenario, name_hint=bp.name_hint, on_error=lambda exc: None)
    try:
        rc = _play_headless(args, out, bp.scenario, budget, recorder, seed=bp.seed,
                            max_turns=bp.max_turns, start=bp.start,
                            # a budget given here replaces the recorded ones
                            player_budgets=None if budget else bp.player_budgets)
    finally:
        if recorder is not None:
            recorder.close()
    return _replay_outcome(recorder, rc)


# ------------------------------------------------------------ python -m sandbox
MAX_PROFILE_FRAMES = 1_000_000   # about 4.6 hours at 60 frames a second


def main(argv: Sequence[str] | None = None) -> int:
    terminate_cleanly()          # SIGTERM: a clean exit, so the bots die
    parser = _Parser(prog="python -m sandbox", description="The simultaneous-move search sandbox.")
    sub = parser.add_subparsers(dest="command", metavar="command")
    play = sub.add_parser("play", help="play a scenario headless")
    add_play_args(play)
    bench = sub.add_parser("bench", help="measure engine and search speed")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--quick", action="store_true", help="smaller budgets (for CI smoke runs)")
    bench.add_argument("--recording", action="store_true",
                       help="also measure what recording a replay costs (about 15 s more)")
    bench.add_argument("--tournament", action="store_true",
                       help="also measure tournament games/s with 1 and 2 local workers and a "
                            "2-worker Dask LocalCluster (about 30 s more)")
    bench.add_argument("--game", default=None, metavar="NAME",
                       help="only this game's cases (names: `python -m sandbox info`)")
    bench.add_argument("--explorer", action="store_true",
                       help="only the tree explorer: frame times zooming a 1,000,000-node "
                            "tree (a few seconds)")
    bench.add_argument("--markdown", default=None, metavar="FILE",
                       help="also write the figures as a Markdown page to FILE: the machine, "
                            "the date, the command that regenerates it, each figure with its "
                            "target and whether it was met")
    bench.add_argument("--net", nargs="?", const="", default=None, metavar="FILE",
                       help="only the network's pass: evaluations/s in C, a state at a time, "
                            "in batches of 64 and from games (FILE: a trained net; without: "
                            "the default architecture with random weights per game)")
    bench.add_argument("--parallel", action="store_true",
                       help="only the parallel search table: iterations/s per mode and "
                            "thread count, per game (--game for one; about 5 s per game "
                            "and core)")
    series = sub.add_parser("series", help="a series of matches with seats rotated: each "
                                           "player's score with a 95%% interval")
    series.add_argument("scenario", help="scenario name in scenarios/ or a path to a .toml")
    series.add_argument("--games", type=int, default=100, metavar="N",
                        help="games in all, a multiple of the players (default 100)")
    series.add_argument("--seed", type=int, default=1, metavar="S",
                        help="first seed; group k of games plays seed S+k (default 1)")
    sb = series.add_mutually_exclusive_group()
    sb.add_argument("--iterations", type=int, default=None, metavar="K",
                    help="search iterations per player per turn")
    sb.add_argument("--ms", type=float, default=None, metavar="T",
                    help="search milliseconds per player per turn")
    series.add_argument("--turns", type=int, default=None, metavar="N",
                        help="stop each game after N turns (default: the scenario's)")
    series.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                        help="change the scenario, e.g. players.1.controller=random (repeatable)")
    series.add_argument("--vary", default=None, metavar="PATH",
                        help="set this scenario path to each group's seed, e.g. "
                             "game_params.maze_seed (a new maze per group)")
    series.add_argument("--think", choices=("together", "in_turn"), default="together",
                        help="together (default): the players search at the same time, "
                             "sharing the cores; in_turn: one after another, each alone on "
                             "the machine (strength at equal wall time with threads > 1)")
    series.add_argument("--json", action="store_true", help="print one JSON object")
    series.add_argument("--quiet", action="store_true", help="no progress line")
    from .analysis.command import add_exploit_args
    add_exploit_args(sub.add_parser(
        "exploit", help="exact NashConv of a player's search in self-play (matrix games, "
                        "goofspiel with up to 5 cards)"))
    from .tournament.commands import add_sweep_args, add_tournament_args
    add_tournament_args(sub.add_parser(
        "tournament", help="round robin between agents (files or built-ins): W/D/L, "
                           "Elo with 95%% intervals, SPRT; resumable"))
    add_sweep_args(sub.add_parser(
        "sweep", help="grid or random search of search settings against an opponent pool"))
    from .tournament.strength import add_strength_args
    add_strength_args(sub.add_parser(
        "strength", help="the strength table: agents against yardstick opponents on the "
                         "two-player scenarios, at equal iterations and equal wall time"))
    from .learn.command import add_train_args
    add_train_args(sub.add_parser(
        "train", help="train a value-and-policy network on self-play of a scenario's searches "
                      "(needs the [learn] extra: JAX, optax); resumable"))
    info = sub.add_parser("info", help="core version, games and their parameters, scenarios")
    info.add_argument("--settings", action="store_true",
                      help="only the search settings: range, default, the algorithms that read "
                           "each, what it means")
    info.add_argument("--markdown", action="store_true",
                      help="with --settings: as the Markdown table of docs/settings.md")
    soak = sub.add_parser("soak", help="matches back to back with live settings swaps; "
                                       "fails if memory grows after warm-up (one scenario: "
                                       "more than 5%%; --rotate: more than 256 bytes a turn "
                                       "between full cycles)")
    soak.add_argument("--minutes", type=float, default=None, metavar="N",
                      help="stop after N minutes (default: no time limit)")
    soak.add_argument("--turns", type=int, default=10_000, metavar="T",
                      help="stop after T turns in all (default 10000)")
    soak.add_argument("--scenario", default=None, metavar="S",
                      help="scenario name or .toml (default: snakes_standard_4p)")
    soak.add_argument("--rotate", action="store_true",
                      help="cycle through every bundled scenario without a human player")
    soak.add_argument("--iterations", type=int, default=100, metavar="K",
                      help="search iterations per player per turn (default 100)")
    soak.add_argument("--seed", type=int, default=1, metavar="S", help="first match seed")
    soak.add_argument("--inject-leak", type=int, default=0, metavar="BYTES",
                      help="keep BYTES more memory every turn: shows that the check fails on "
                           "a leak (default 0)")
    from .serve import add_serve_args
    add_serve_args(sub.add_parser("serve", help="serve an agent to the outside, e.g. as a "
                                                "Battlesnake snake server"))
    from .replay.command import add_replay_args
    replay = sub.add_parser("replay", help="verify, analyse, export or plot a replay file")
    add_replay_args(replay)
    from .labs.commands import add_lab_args
    lab = sub.add_parser("lab", help="the labs headless: rps (playground), race (convergence), "
                                     "depth (depth bias); a table and a PNG")
    add_lab_args(lab)
    for p in [*sub.choices.values(), *lab._lab_parsers.choices.values()]:
        p.error = parser.error  # type: ignore[method-assign]

    def dispatch() -> int:
        # parsed inside _guard: a usage error is one `error:` line too
        args = parser.parse_args(argv) if argv is None or len(argv) else parser.parse_args(
            ["--help"])
        if args.command == "play":
            return run_headless(args)
        if args.command == "bench":
            only = [f for f, on in (("--parallel", args.parallel), ("--explorer", args.explorer),
                                    ("--net", args.net is not None)) if on]
            also = [f for f, on in (("--recording", args.recording),
                                    ("--tournament", args.tournament)) if on]
            if len(only) > 1 or (only and also):
                # each "only" flag runs its own table; silently dropping the
                # others would measure something the user did not ask for
                raise CliError(f"bench: {' and '.join(only + also)} do not combine "
                               f"({only[0]} measures only its own table)")
            if args.parallel and args.markdown is not None:
                raise CliError("bench: --parallel and --markdown do not combine (the "
                               "parallel table has no page yet)")
            if args.net is not None:
                if args.markdown is not None:
                    raise CliError("bench: --net and --markdown do not combine (the network "
                                   "table has no page yet)")
                from .bench.net import collect as net_collect
                from .bench.net import print_report as net_report
                res = net_collect(quick=args.quick, path=args.net or None, game=args.game)
                if args.json:
                    import json
                    print(json.dumps(res))
                else:
                    net_report(res)
                return 0
            if args.parallel:
                from .bench.parallel import collect as par_collect
                from .bench.parallel import print_report
                res = par_collect(quick=args.quick, game=args.game)
                if args.json:
                    import json
                    print(json.dumps(res))
                else:
                    print_report(res)
                return 0
            from .bench.report import run_bench
            return run_bench(json_out=args.json, quick=args.quick, recording=args.recording,
                             game=args.game, tournament=args.tournament,
                             explorer=args.explorer, markdown=args.markdown)
        if args.command == "info":
            if args.markdown and not args.settings:
                raise CliError("--markdown goes with --settings")
            if args.settings:
                from .settings.doc import settings_markdown, settings_text
                print(settings_markdown() if args.markdown else settings_text(), end="")
                return 0
            return _info()
        if args.command == "serve":
            from .serve import run_serve
            return run_serve(args)
        if args.command == "series":
            return run_series(args)
        if args.command == "exploit":
            from .analysis.command import run_exploit
            return run_exploit(args)
        if args.command == "strength":
            from .tournament.strength import run_strength
            run = run_strength
            if args.ladder:         # budget ladders: each agent against itself
                from .tournament.ladder import run_ladder as run
            return run(args, list(sys.argv[1:] if argv is None else argv)[1:])
        if args.command == "train":
            from .learn.command import run_train
            return run_train(args, list(sys.argv[1:] if argv is None else argv)[1:])
        if args.command in ("tournament", "sweep"):
            from .tournament import commands
            return (commands.run_tournament if args.command == "tournament"
                    else commands.run_sweep)(args)
        if args.command == "soak":
            from .bench.soak import run_soak
            return run_soak(turns=args.turns, minutes=args.minutes, scenario=args.scenario,
                            rotate=args.rotate, iterations=args.iterations, seed=args.seed,
                            leak_per_turn=args.inject_leak)[0]
        if args.command == "replay":
            if args.action is None:
                replay.print_help()
                return EXIT_USAGE
            from .replay.command import run_replay
            return run_replay(args)
        if args.command == "lab":
            if args.lab is None:
                lab.print_help()
                return EXIT_USAGE
            from .labs.commands import run_lab
            return run_lab(args)
        parser.print_help()
        return EXIT_USAGE

    return _guard(dispatch)


# ------------------------------------------------------------------- series
def run_series(args: argparse.Namespace, out=None) -> int:
    import json

    from .sim.series import one_start_note, play_series

    out = out or sys.stdout
    _check_common(args)
    if series_seed_problem(args.seed):
        raise CliError(series_seed_problem(args.seed))
    scenario = scenario_from_args(args)
    budget = _budget_from(args)

    # a progress line only where a person watches (not into logs or pipes)
    show = not (args.quiet or args.json) and sys.stderr.isatty()

    def progress(done: int, res) -> None:
        if show:
            scores = "  ".join(f"{p.name} {p.mean:.3f}" for p in res.players)
            print(f"\r  game {done}/{args.games}: {scores}   ", end="", file=sys.stderr,
                  flush=True)

    res = play_series(scenario, args.games, seed=args.seed, budget=budget, max_turns=args.turns,
                      on_game=progress, vary=args.vary, think=args.think)
    if show:
        print(file=sys.stderr)
    note = one_start_note(scenario, args.vary, range(args.seed, args.seed + 2))
    if args.json:
        print(json.dumps({**res.to_dict(), **({"note": note} if note else {})}), file=out)
    else:
        print(res.text(), file=out)
        if note is not None:
            print(note, file=out)
    return 0


def _info() -> int:
    from .config import list_scenarios, load_scenario
    from .games import plugin
    from .native import core_version, kinds, params_doc
    print(f"core {core_version()}")
    for k in kinds():
        p = plugin(k)
        print(f"\ngame '{k}': {p.title}")
        if p.keys_hint:
            print(f"  a person plays with: {p.keys_hint}")
        print("parameters ([game_params] in a scenario):\n" + params_doc(k))
    print("\nscenarios:")
    for path in list_scenarios():
        try:
            sc = load_scenario(path)
            print(f"  {path.stem:<28} {sc.game:<10} {sc.name}")
        except SandboxError as exc:
            print(f"  {path.stem:<28} (does not load: {exc})")
    return 0


def _guard(fn) -> int:
    try:
        return fn()
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except SandboxError as exc:
        if interrupted():     # a worker the same Ctrl-C reached failed first
            print("interrupted", file=sys.stderr)
            return EXIT_INTERRUPTED
        if terminate_status(0):     # likewise a SIGTERM's
            return terminate_status(0)
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
