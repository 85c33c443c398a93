"""sandbox.app — the pygame desktop application (scenes over the sim layer).

run_app(args) is called by main.py when a display is available (or a dummy
video driver was asked for): it opens the arena on the chosen scenario, with
the start menu underneath (Esc goes back to it).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from ..config import Budget, Scenario, load_scenario
from .shell import App

# Per player per turn when --profile-frames is given no budget: about 50 ms of
# one of four searches sharing two cores, like the default scenario's budget.
PROFILE_ITERATIONS = 8000


def run_app(args: argparse.Namespace) -> int:
    from .arena import ArenaScene
    from .menu import MenuScene

    scenario = load_scenario(args.scenario)
    budget = None
    if getattr(args, "iterations", None):
        budget = Budget(iterations=args.iterations, ms=0)
    elif getattr(args, "ms", None):
        budget = Budget(ms=args.ms)
    elif getattr(args, "profile_frames", None):
        # A fixed iteration budget makes the UI run and the headless run play
        # the very same match, so their iterations/s compare like for like
        # (with ms budgets the two matches diverge, and the speed of a search
        # depends on the position: how many snakes are alive, how long).
        budget = Budget(iterations=PROFILE_ITERATIONS, ms=0)
    app = App(state_file=getattr(args, "state_file", None))

    def recorder_factory(scn: Scenario):
        # One recorder per match; a write failure shows in the arena's REC
        # indicator (recorder.failed) instead of stopping the match.
        from ..cli import make_recorder
        return lambda: make_recorder(args, scn, on_error=lambda exc: None)

    app.recorder_factory = recorder_factory
    app.replay_dir = getattr(args, "replay_dir", None)
    app.push(MenuScene(app))
    if getattr(args, "replay", None):
        return _run_replay(app, args)
    arena = ArenaScene(app, scenario, seed=args.seed, budget=budget,
                       recorder_factory=app.recorder_factory(scenario))
    app.push(arena)

    profile = getattr(args, "profile_frames", None)
    shot = getattr(args, "screenshot", None)
    if profile:
        return _profile(app, arena, profile, scenario, budget)
    if shot:
        return _screenshot(app, arena, shot, args.turns or 20)
    if args.turns:
        arena.live.match.max_turns = args.turns
    return app.run()


def _screenshot(app: App, arena, path: str, turns: int) -> int:
    """Play `turns` turns as fast as the search allows, then save the window."""
    arena.live.set_speed(None)
    app.running = True
    frames = 0
    while arena.live.match.turn < turns and not arena.live.over and frames < 100_000:
        app.run(max_frames=app.frame + 1)
        frames += 1
    for _ in range(3):  # let the views catch up with the last turn
        app.run(max_frames=app.frame + 1)
        time.sleep(0.05)
    out = app.screenshot(path)
    print(f"screenshot: {out} (turn {arena.live.match.turn})")
    _close(app)
    return 0


def _run_replay(app: App, args: argparse.Namespace) -> int:
    from ..replay import read_replay
    from .replay_scene import ReplayScene
    scene = ReplayScene(app, read_replay(args.replay))
    app.push(scene)
    shot = getattr(args, "screenshot", None)
    if shot:
        scene.seek(scene.last if args.turns is None else args.turns)
        for _ in range(2):
            app.run(max_frames=app.frame + 1)
        out = app.screenshot(shot)
        print(f"screenshot: {out} (replay turn {scene.turn})")
        _close(app)
        return 0
    return app.run()


def _profile(app: App, arena, frames: int, scenario: Scenario, budget: Budget | None) -> int:
    """Run `frames` frames with every tree view open; report frame times and
    the search's speed with the UI, then the same match headless (three
    times, the median: on a small machine one run of a few seconds varies
    by several per cent on its own)."""
    seed = arena.live.match.seed
    arena.live.set_speed(None)  # keep the searches busy: worst case for the UI
    app.run(max_frames=frames)
    ui_its = _search_rate(arena)
    turns = arena.live.match.turn
    print(app.frame_report())
    print(f"fps={app.achieved_fps():.1f} frames={len(app.frame_ms)} turns={turns} "
          f"budget={_budget_text(budget)}")
    _close(app)
    rates = [_headless_rate(scenario, budget, max(3, turns), seed) for _ in range(3)]
    headless = statistics.median(rates)
    ratio = ui_its / headless if headless else 0.0
    print("headless_runs " + " ".join(f"{r:,.0f}" for r in rates))
    print(f"search_iterations_per_s ui={ui_its:,.0f} headless={headless:,.0f} ratio={ratio:.2f}")
    sys.stdout.flush()
    return 0


def _budget_text(budget: Budget | None) -> str:
    if budget is None:
        return "scenario"
    if budget.iterations:
        return f"{budget.iterations}it"
    return f"{budget.ms:g}ms"


def _search_rate(arena) -> float:
    return _throughput(arena.live.match.history)


def _headless_rate(scenario: Scenario, budget: Budget | None, turns: int, seed: int) -> float:
    from ..sim import Match
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
