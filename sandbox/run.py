"""Starting a match from the command line's flags, shared by the headless CLI (sandbox.cli) and
the app (sandbox.app), below both: the budget of --iterations/--ms, the match's recorder as
--no-record/--replay-dir say, the start of a match branched from a replay (--replay FILE
--branch-at K), and the error a user's flags end in (CliError: one line, a non-zero exit).
"""
from __future__ import annotations

import argparse
import dataclasses
import sys

from .native import SandboxError

EXIT_USAGE = 2
EXIT_ERROR = 1


class CliError(SandboxError):
    """A user error detected by the CLI itself."""


def budget_from(args: argparse.Namespace):
    from .config import ScenarioError, budget_from_flags
    try:
        return budget_from_flags(args.iterations, args.ms)
    except ScenarioError as e:
        raise CliError(str(e)) from None


def scenario_from_args(args: argparse.Namespace):
    """The scenario named on the command line with every --set applied
    (series and exploit take the same flags)."""
    from .config import load_scenario

    scenario = load_scenario(args.scenario)
    sets = getattr(args, "set", None)
    return scenario.with_settings(sets) if sets else scenario


def make_recorder(args: argparse.Namespace, scenario, on_error=None, name_hint=None):
    """The match's Recorder as the scenario and --no-record/--replay-dir say
    (None when recording is off), its file named after `name_hint` (default:
    the --scenario given). Write failures go to `on_error` (default: one
    warning line on stderr) and never stop the match."""
    from .replay import ReplayError, recorder_for

    if on_error is None:
        def on_error(exc) -> None:
            print(f"warning: {exc}", file=sys.stderr, flush=True)
    recorder = recorder_for(scenario, args, on_error=on_error, name_hint=name_hint)
    if recorder is not None:
        try:
            recorder.check_folder()
        except ReplayError as exc:
            raise CliError(f"{exc} (--no-record plays without a replay)") from None
    return recorder


def replay_outcome(recorder, rc: int) -> int:
    """A replay lost mid-match (a full disk, a folder gone) is the command's
    failure: one line saying what was kept, and a non-zero exit. The file
    holds whole lines up to the failure (the recorder takes back a partial
    one)."""
    if recorder is None or not recorder.failed:
        return rc
    kept = (f"; {recorder.path} keeps {recorder.turns_written} turns"
            if recorder.path is not None else "")
    print(f"error: {recorder.error}{kept}", file=sys.stderr, flush=True)
    return EXIT_ERROR


def branch_from_args(args: argparse.Namespace):
    """--replay FILE --branch-at K: where the branched match starts, with
    --turns N counted from K (a BranchPoint whose max_turns is K + N)."""
    from .replay import read_replay
    from .replay.branch import branch_point
    if args.seed is not None:
        raise CliError("--seed: a match branched from a replay keeps the recorded seed")
    if args.branch_at < 0:
        raise CliError("--branch-at must be >= 0")
    with read_replay(args.replay) as replay:
        bp = branch_point(replay, args.branch_at)
    for note in bp.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.turns:
        bp = dataclasses.replace(bp, max_turns=bp.turn + args.turns)
    return bp


def start_position_from_args(args: argparse.Namespace, scenario, notes: bool = True):
    """--start-position FILE: the scenario played from the position in FILE
    (a format its game reads, sandbox.bots.adapters.start_position; snakes:
    a Battlesnake /move body), as a BranchPoint like --branch-at's: the game
    parameters the position needs replace the scenario's, --turns N (else
    the scenario's max_turns) counts from the position's turn. Errors are
    one line naming the file."""
    from .bots.adapters import start_position
    from .config import ScenarioError
    from .native import Game
    from .replay.branch import BranchPoint
    from .replay.format import hash_hex
    from .sim.match import StartState
    if getattr(args, "replay", None) is not None:
        raise CliError("--start-position and --replay: choose one place to start from")
    path = args.start_position
    sp = start_position(scenario.game, path)
    try:
        scn = scenario.with_overrides(game_params={**scenario.game_params,
                                                   **dict(sp.game_params)})
    except ScenarioError as exc:
        raise CliError(f"--start-position {path}: the scenario {scenario.name!r} cannot play "
                       f"it: {exc}") from None
    with Game(scn.game, scn.game_param_string(), seed=0) as g:
        g.import_state(sp.words)
        digest = hash_hex(g.state_hash())
        if g.is_terminal:
            raise CliError(f"--start-position {path}: the game is over in that position")
    for note in sp.notes if notes else ():
        print(f"note: {note}", file=sys.stderr)
    turns = args.turns if args.turns else scn.max_turns
    seed = scn.seed if args.seed is None else args.seed
    return BranchPoint(scenario=scn, seed=seed, player_budgets={},
                       start=StartState(tuple(sp.words), {"file": str(path), "turn": sp.turn,
                                                         "hash": digest}),
                       turn=sp.turn, max_turns=sp.turn + turns if turns else 0,
                       name_hint=f"{scenario.name}-position-t{sp.turn}")
