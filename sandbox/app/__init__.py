"""sandbox.app — the pygame desktop application (scenes over the sim layer).

run_app(args) is called by main.py when a display is available (or a dummy
video driver was asked for): it opens the arena on the chosen scenario, with
the start menu underneath (Esc goes back to it).
"""
from __future__ import annotations

import argparse
import sys
import time

from ..config import Budget, Scenario, budget_from_flags
from .shell import App

# --profile-frames alternates chunks of this many frames with the UI drawing
# and the same wall time with it idle, in one match (see _profile).
PROFILE_CHUNK_FRAMES = 30



# An unfinished match from the window is kept from this many turns on.
APP_KEEP_TURNS = 10

def run_app(args: argparse.Namespace) -> int:
    """The app on args; SIGTERM (the entry point's clean exit) becomes a QUIT
    here, so the matches, replays and bots close as on a closed window, and
    the status is then 143."""
    import pygame

    from ..signals import on_terminate, terminate_status
    remove = on_terminate(lambda: pygame.event.post(pygame.event.Event(pygame.QUIT)))
    try:
        rc = _run_app(args)
    finally:
        remove()
    return terminate_status(rc)


def _run_app(args: argparse.Namespace) -> int:
    from .arena import ArenaScene
    from .menu import MenuScene

    from ..run import scenario_from_args
    scenario = scenario_from_args(args)     # with main.py's --set changes
    # the CLI has checked the flags (run.budget_from) before a window opens
    budget = budget_from_flags(getattr(args, "iterations", None), getattr(args, "ms", None))
    app = App(state_file=getattr(args, "state_file", None))

    def recorder_factory(scn: Scenario, stem: str | None = None):
        # One recorder per match; a write failure shows in the arena's REC
        # indicator (recorder.failed) instead of stopping the match. `stem`:
        # the scenario file a replay is named after (default: the one given
        # on the command line).
        from ..run import make_recorder

        def make():
            rec = make_recorder(args, scn, on_error=lambda exc: None, name_hint=stem)
            if rec is not None:
                # a window opened for a look around fills no library: keep a
                # match that finished or ran APP_KEEP_TURNS turns
                rec.keep_min_turns = APP_KEEP_TURNS
            return rec
        return make

    app.recorder_factory = recorder_factory
    app.replay_dir = getattr(args, "replay_dir", None)
    app.push(MenuScene(app))
    if getattr(args, "replay", None):
        return _run_replay(app, args)
    if getattr(args, "start_position", None) is not None:
        # the CLI has read the file once already (a bad one: one line before
        # a window opened); a position starts the match like a branch does
        from ..run import start_position_from_args
        bp = start_position_from_args(args, scenario, notes=False)
        arena = ArenaScene(app, bp.scenario, budget=budget, branch=bp,
                           recorder_factory=app.recorder_factory(bp.scenario, bp.name_hint))
        arena.live.match.max_turns = bp.max_turns
        # --screenshot plays --turns turns (default 20) from the position
        args.turns = bp.turn + (20 if args.turns is None else args.turns) \
            if getattr(args, "screenshot", None) \
            else (bp.max_turns or None)
    else:
        arena = ArenaScene(app, scenario, seed=args.seed, budget=budget,
                           recorder_factory=app.recorder_factory(scenario))
    app.push(arena)
    arena.seats.choose(getattr(args, "view_seat", None))   # --view-as (checked by the CLI)
    arena._build_widgets()

    profile = getattr(args, "profile_frames", None)
    shot = getattr(args, "screenshot", None)
    if profile:
        return _profile(app, arena, profile, scenario, budget)
    if shot:
        return _screenshot(app, arena, shot, 20 if args.turns is None else args.turns)
    if args.turns:
        arena.live.match.max_turns = args.turns
    return app.run()


def _screenshot(app: App, arena, path: str, turns: int) -> int:
    """Play `turns` turns as fast as the search allows, then save the window.
    A human player's turn ends the play early: nobody is at the keyboard, so
    the picture shows the board waiting for their move."""
    arena.live.set_speed(None)
    app.running = True
    frames = 0
    live = arena.live
    human = False
    while live.match.turn < turns and not live.over and frames < 100_000:
        if live.waiting_for_human() and live.match.turn_ready():
            human = True
            break
        wait_for_decisions(live.match, 1.0 / app.fps_cap)
        app.run(max_frames=app.frame + 1)
        frames += 1
        if app.quit_requested:
            _close(app)
            print(f"error: screenshot not taken: stopped at turn {live.match.turn} "
                  "(window closed or the process was told to stop)", file=sys.stderr)
            return 1
    arena.live.paused = True    # the picture shows turn `turns`, not a turn or two later
    arena._sync_play_button()
    for _ in range(3):  # let the views catch up with the last turn
        app.run(max_frames=app.frame + 1)
        time.sleep(0.05)
    try:
        out = app.screenshot(path)
    finally:
        _close(app)
    why = ", waiting for the human player's move" if human else ""
    print(f"screenshot: {out} (turn {arena.live.match.turn}{why})")
    return 0


def wait_for_decisions(match, timeout: float) -> None:
    """Block until every player has decided the turn in progress, or for
    `timeout` seconds. A loop that steps the app a frame at a time runs no
    clock between frames (the app's own loop sleeps in clock.tick): frames
    back to back keep the main thread on the GIL, and a search thread that
    needs it between two C calls (publishing a slice's snapshot) waits, at
    worst for as long as the frames go on. Waiting here releases it; the
    frames a screenshot skips would show only a turn still being thought."""
    if not match.thinking:
        return
    end = time.perf_counter() + timeout
    for c in match.controllers:
        left = end - time.perf_counter()
        if left <= 0 or not c.wait(left):
            return


def _run_replay(app: App, args: argparse.Namespace) -> int:
    from ..replay import read_replay
    from .replay_scene import ReplayScene
    scene = ReplayScene(app, read_replay(args.replay))
    app.push(scene)
    scene.seats.choose(getattr(args, "view_seat", None))   # --view-as (checked by the CLI)
    scene._build_widgets()
    shot = getattr(args, "screenshot", None)
    if getattr(args, "branch_at", None) is not None:
        return _run_branch(app, args, scene, shot)
    if shot:
        asked = scene.last if args.turns is None else args.turns
        scene.seek(asked)
        for _ in range(2):
            app.run(max_frames=app.frame + 1)
        try:
            out = app.screenshot(shot)
        finally:
            _close(app)
        for note in replay_shot_notes(scene.replay, asked, scene.turn):
            print(f"note: {note}", file=sys.stderr)
        print(f"screenshot: {out} (replay turn {scene.turn})")
        return 0
    return app.run()


def _run_branch(app: App, args: argparse.Namespace, scene, shot: str | None) -> int:
    """--replay FILE --branch-at K: the arena plays on from turn K (over the
    replay scene, where Esc goes back); with --screenshot, --turns N turns
    from K (default 20) are played first."""
    from ..run import branch_from_args
    from .arena import ArenaScene
    bp = branch_from_args(args)
    scene.seek(bp.turn)
    arena = ArenaScene(app, bp.scenario, branch=bp,
                       recorder_factory=app.recorder_factory(bp.scenario, bp.name_hint))
    app.push(arena)
    arena.seats.choose(getattr(args, "view_seat", None))   # --view-as, as the replay's
    arena._build_widgets()
    arena.flash(f"played on from {scene.replay.path.name}, turn {bp.turn}", 6.0)
    if shot:
        return _screenshot(app, arena, shot, bp.turn + (20 if args.turns is None else args.turns))
    arena.live.match.max_turns = bp.max_turns
    return app.run()


def replay_shot_notes(replay, asked: int, shown: int) -> list[str]:
    """What a `--replay FILE --screenshot --turns K` picture is not: the turn
    asked for where another is shown (past the end, before the start, or
    unreachable past a damaged turn), and the lines the reader dropped."""
    notes = []
    if shown != asked:
        if asked > replay.end_turn:
            why = (f"the file ends at turn {replay.end_turn}" if not replay.missing_turns
                   else f"turn {replay.end_turn} is missing from the file, so the board "
                        f"cannot be rebuilt past it")
        elif asked < replay.start_turn:
            why = f"the match starts at turn {replay.start_turn}"
        else:
            why = f"turn {asked} cannot be rebuilt from the file"
        notes.append(f"turn {asked} asked for, turn {shown} shown: {why}")
    if replay.dropped:
        notes.append(f"{replay.path}: {replay.dropped_summary()}")
    return notes


def _profile(app: App, arena, frames: int, scenario: Scenario, budget: Budget | None) -> int:
    """Run `frames` frames with every tree view open and report the frame
    times, then what the UI costs the searches.

    The cost is measured within one match: chunks of PROFILE_CHUNK_FRAMES
    frames with the UI drawing alternate with the same wall time with the UI
    idle (the match goes on, nothing is drawn), and iterations per second are
    compared between the turns thought entirely in one mode or the other.
    Alternating every half second cancels what separate runs cannot: this
    machine's speed drifts by +-10% from one few-second run to the next, and a
    search's speed depends on the position. For reference it also reports a
    separate headless match of as many turns with the same settings."""
    live = arena.live
    live.set_speed(None)  # keep the searches busy: worst case for the UI
    mode = ["ui"]
    kinds: dict[int, str] = {}       # turn -> mode it was thought in ("mixed")
    since = ["ui"]                   # mode when the turn now thinking began
    records = []

    def on_turn(record) -> None:
        kinds[len(records)] = mode[0] if since[0] == mode[0] else "mixed"
        records.append(record)
        since[0] = mode[0]

    live.on_turn.append(on_turn)
    done, seed = 0, live.match.seed
    while done < frames:
        n = min(PROFILE_CHUNK_FRAMES, frames - done)
        mode[0] = "ui"
        app.run(max_frames=app.frame + n)
        done += n
        if app.quit_requested:   # window closed or SIGTERM: no report from a part-run
            _close(app)
            print(f"error: frame profile stopped after {done} of {frames} frames (window "
                  "closed or the process was told to stop)", file=sys.stderr)
            return 1
        mode[0] = "idle"
        end = time.perf_counter() + n / app.fps_cap
        while time.perf_counter() < end:
            if live.over:
                break
            live.update(1.0)
            time.sleep(0.0005)
        if live.over:   # a finished match: the next one goes on measuring
            seed += 1
            arena.restart(seed=seed)   # same LiveMatch: on_turn and speed stay
            since[0] = mode[0]
    ui = _throughput([r for i, r in enumerate(records) if kinds[i] == "ui"])
    idle = _throughput([r for i, r in enumerate(records) if kinds[i] == "idle"])
    n_ui = sum(k == "ui" for k in kinds.values())
    n_idle = sum(k == "idle" for k in kinds.values())
    print(app.frame_report())
    print(f"fps={app.achieved_fps():.1f} frames={len(app.frame_ms)} turns={len(records)} "
          f"budget={_budget_text(budget or scenario.player_budget(0))}")
    _close(app)
    headless = _headless_rate(scenario, budget, max(3, len(records)), arena.live.match.seed)
    ratio = ui / idle if idle else 0.0
    print(f"search_iterations_per_s ui={ui:,.0f} headless={idle:,.0f} ratio={ratio:.2f} "
          f"(one match: {n_ui} turns with the UI drawing, {n_idle} with it idle)")
    print(f"separate_headless_match iterations_per_s={headless:,.0f} "
          f"turns={max(3, len(records))}")
    sys.stdout.flush()
    return 0


def _budget_text(budget: Budget) -> str:
    if budget.iterations and budget.ms:
        return f"{budget.iterations}it+{budget.ms:g}ms"
    if budget.iterations:
        return f"{budget.iterations}it"
    return f"{budget.ms:g}ms"


def _headless_rate(scenario: Scenario, budget: Budget | None, turns: int, seed: int) -> float:
    from ..sim.match import Match
    with Match(scenario, seed=seed, budget=budget, max_turns=turns) as m:
        m.play()
        return _throughput(m.history)


def _throughput(history) -> float:
    """Iterations per second the machine gave the searches: every player's
    iterations over the time the turns spent thinking (a turn thinks until
    its slowest player is done). This is what a UI can take away; a mean of
    per-thread rates would instead depend on how the OS happened to
    interleave four searches on two cores."""
    its = sum(p.iterations for r in history for p in r.players)
    wall = sum(max((p.wall_ms for p in r.players), default=0.0) for r in history) / 1000.0
    return its / wall if wall > 0 else 0.0


def _close(app: App) -> None:
    app.close()


__all__ = ["App", "run_app"]
