"""Make the README's screenshots (docs/screenshots/*.png). Not a test.

    python tools/readme_screenshots.py [--out docs/screenshots]

Runs the real app headless (dummy video driver) on fixed seeds and iteration
budgets, so the pictures are reproducible:
  arena.png     the default scenario after 20 turns, every tree view open
  trees.png     the tree panels of that frame (icicles, root bars)
  nodelink.png  a young tree in the node-link layout, a node hovered
  step.png      the step-by-step view in its joint-action phase
  replay.png    the replay scene on a recorded duel with its trees
  whatif.png    that duel at turn 30 with the what-if panel: Yellow (Smitsimax) re-searched from
                its kept tree as recorded and with C 1.5, the second compared
  goofspiel.png the arena on goofspiel_13_duel after 5 rounds
  goofspiel_hidden.png  goofspiel_you_imp_info (hidden bids) after 4 rounds the person
                bid 13, 1, 12, 11: their seat's view (the search's hand as card
                backs, its bids "?", its tree withheld)
  matrix.png    the arena on matrix_biased_rps_duel after 12 rounds
  menu.png      the start menu
  policies.png  the arena with an Exp3 and an RM player: the algorithm and
                policy pickers, their average-strategy root bars, a policy
                change waiting for the next turn
  suct.png      a Sequential-UCT player's one tree (rows by player)    } once the
  joint.png     a joint-action player's one tree (joint-action labels) } C core
  greedy.png    a greedy player: no tree, its per-move means           } has them
  depthbias.png the arena on depthbias_lab after its first turn
  maze.png      the arena on maze_medium_smitsimax_duel after 25 turns
  mcgs.png      the arena on maze_medium_duel (MCGS vs Smitsimax) after 12 turns: MCGS's
                heat map beside its graph, and its principal variation on the maze
  mcgs_graph.png the panels of maze_tiny_mcgs_selfplay after 4 turns, Red's whole search,
                node-link: shared nodes ringed, their other parents dashed, one hovered
  lab_rps.png, lab_race.png, lab_depth.png  the Labs scene's three tabs
  pods.png      the arena on pods_race_2v2 after 40 turns (3,000 iterations a turn), the
                pods' planned paths dotted
  tournament.png the Tournament scene after its round robin on goofspiel_13_duel
  snakebyte.png the arena on snakebyte_2v2 after 12 turns (2,000 iterations a turn):
                the side view, the team scoreboard, the trees of one snake per tree
  explorer.png  the arena on snakes_duel_trees: a tree view re-rooted two levels down
                (breadcrumbs), zoomed in, one node's facts pinned

    python tools/readme_screenshots.py --only algorithms   # just the last four
    python tools/readme_screenshots.py --only mcgs         # just the MCGS two
    python tools/readme_screenshots.py --only pods         # just pods.png
    python tools/readme_screenshots.py --only snakebyte    # just snakebyte.png
    python tools/readme_screenshots.py --only tournament   # tournament.png and menu.png
    python tools/readme_screenshots.py --only explorer     # just explorer.png
    python tools/readme_screenshots.py --only labs         # the three lab_*.png
    python tools/readme_screenshots.py --only hidden       # just goofspiel_hidden.png
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame  # noqa: E402

from sandbox.app.arena import ArenaScene  # noqa: E402
from sandbox.app.replay_scene import ReplayScene  # noqa: E402
from sandbox.app.shell import App  # noqa: E402
from sandbox.config import Budget, load_scenario  # noqa: E402
from sandbox.replay import Recorder, read_replay  # noqa: E402
from sandbox.native import Game  # noqa: E402
from sandbox.sim.match import Match  # noqa: E402
from sandbox.settings.algorithms import algorithm_refusal  # noqa: E402


def frames(app: App, n: int) -> None:
    app.run(max_frames=app.frame + n)


def play_to(app: App, arena: ArenaScene, turns: int) -> None:
    arena.live.set_speed(None)
    while arena.match.turn < turns and not arena.live.over:
        frames(app, 1)
    arena.live.toggle_pause()
    for _ in range(30):  # let every panel take its newest tree
        frames(app, 1)


def arena_shots(out: Path) -> None:
    app = App()
    arena = ArenaScene(app, load_scenario(), seed=2, budget=Budget(iterations=4000, ms=0))
    app.push(arena)
    play_to(app, arena, 20)
    app.screenshot(out / "arena.png")
    trees = arena.layout["trees"]
    pygame.image.save(app.screen.subsurface(trees), str(out / "trees.png"))

    # step-by-step: one traced iteration, caught in its joint-action phase
    arena.traced_step()
    anim = arena.animation
    if anim is not None:
        anim.update(anim.phase_ms[0] + anim.phase_ms[1] * 0.97)
        frames(app, 1)
        pygame.image.save(app.screen.subsurface(trees), str(out / "step.png"))
    app.close()

    # a young tree: node-link layout, a node hovered
    app = App()
    arena = ArenaScene(app, load_scenario(), seed=2, budget=Budget(iterations=60, ms=0))
    app.push(arena)
    play_to(app, arena, 1)
    arena._set_tree_mode("nodelink")
    frames(app, 2)
    panel = arena.layout["panels"][0]
    area = arena._tree_area(panel)
    tv = arena.trees[0]
    best = None
    for x in range(area.x + 4, area.right - 4, 3):
        for y in range(area.y + 4, area.bottom - 4, 3):
            info = tv.node_at((x, y))
            if info is not None and info.row > 0 and (best is None or info.visits > best[1].visits):
                best = ((x, y), info)
    if best is not None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=best[0], rel=(0, 0),
                                             buttons=(0, 0, 0)))
        frames(app, 2)
    r = panel.union(arena.layout["panels"][1])
    pygame.image.save(app.screen.subsurface(r), str(out / "nodelink.png"))
    app.close()


def replay_shot(out: Path, whatif_only: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        scenario = load_scenario("snakes_duel_trees")
        rec = Recorder(tmp, name_hint="duel", record_trees=scenario.record.tree_nodes)
        with Match(scenario, seed=7, budget=Budget(iterations=3000, ms=0), max_turns=60,
                   recorder=rec) as m:
            while not m.over:
                if m.turn == 25:
                    m.controllers[1].update_settings({"c": 0.5}, turn=m.turn)
                m.play_turn()
        rec.close()
        app = App()
        scene = ReplayScene(app, read_replay(rec.path), turn=30)
        app.push(scene)
        frames(app, 3)
        if not whatif_only:
            app.screenshot(out / "replay.png")
        scene.toggle_whatif()
        scene.whatif.agent = 1
        scene.whatif.keep_tree = True      # the duel reuses its trees: start where it did
        for c in (None, 1.5):
            if c is not None:
                scene.whatif.set_setting("c", c)
            scene.whatif.run()
            scene.whatif.wait()
            frames(app, 2)
        scene._build_widgets()
        frames(app, 3)
        app.screenshot(out / "whatif.png")
        app.close()


def game_shots(out: Path) -> None:
    for name, stem, turns in (("goofspiel", "goofspiel_13_duel", 5),
                              ("matrix", "matrix_biased_rps_duel", 12),
                              ("depthbias", "depthbias_lab", 3),
                              ("maze", "maze_medium_smitsimax_duel", 25)):
        app = App()
        arena = ArenaScene(app, load_scenario(stem), seed=2, recorder_factory=lambda: None)
        app.push(arena)
        play_to(app, arena, turns)
        app.screenshot(out / f"{name}.png")
        app.close()


def hidden_bids_shot(out: Path) -> None:
    """A person's seat of a hidden-bids game: they bid by key, each round
    answered by the determinized search (iteration budget: reproducible)."""
    app = App()
    arena = ArenaScene(app, load_scenario("goofspiel_you_imp_info"), seed=2,
                       recorder_factory=lambda: None)
    app.push(arena)
    arena.live.set_speed(None)
    for bid in ("k", "1", "q", "j"):          # 13, 1, 12, 11
        turn = arena.match.turn
        while not arena.match.turn_ready():
            frames(app, 1)
        arena.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(bid),
                                              unicode=bid, mod=0, scancode=0))
        while arena.match.turn == turn:
            frames(app, 1)
    while not arena.match.turn_ready():       # the search's next bid decided, not shown
        frames(app, 1)
    frames(app, 30)
    app.screenshot(out / "goofspiel_hidden.png")
    app.close()


def pods_shot(out: Path) -> None:
    """Two Smitsimax teams of two pods, mid-race: trails, flames, shields, and
    each pod's planned path (its tree's best line, dotted) for the turn being
    decided."""
    app = App()
    arena = ArenaScene(app, load_scenario("pods_race_2v2"), seed=2,
                       budget=Budget(iterations=3000, ms=0), recorder_factory=lambda: None)
    app.push(arena)
    play_to(app, arena, 40)
    while not (arena.match.turn_ready() and len(arena.board.plan_points) == 4):
        frames(app, 1)
    frames(app, 2)
    app.screenshot(out / "pods.png")
    app.close()


def snakebyte_shot(out: Path) -> None:
    """Two Smitsimax teams of two gravity snakes on a seeded map (the
    scenario's), one tree per snake."""
    app = App()
    arena = ArenaScene(app, load_scenario("snakebyte_2v2"), seed=1,
                       budget=Budget(iterations=2000, ms=0), recorder_factory=lambda: None)
    app.push(arena)
    play_to(app, arena, 12)
    app.screenshot(out / "snakebyte.png")
    app.close()


def explorer_shot(out: Path) -> None:
    """The tree explorer: a Smitsimax tree view re-rooted two levels down
    (breadcrumbs in its header), zoomed in about a node, one node's facts
    pinned (right click)."""
    app = App()
    arena = ArenaScene(app, load_scenario("snakes_duel_trees"), seed=3,
                       budget=Budget(iterations=3000, ms=0), recorder_factory=lambda: None)
    app.push(arena)
    play_to(app, arena, 6)
    frames(app, 3)
    tv = arena.trees[1]
    area = arena._tree_area(arena.layout["panels"][1])
    for _ in range(2):     # the most visited child that has children, twice
        snap = tv.snapshot
        kids = [r for r in snap.children(0).tolist() if len(snap.children(r))]
        tv.reroot(max(kids, key=lambda r: int(snap.visits[r])))
        for _ in range(100):   # until the search has published that subtree
            frames(app, 1)
            if tv.source is not None and tv.source.top_path == tv.focus_path:
                break
    frames(app, 2)
    centre = (area.x + area.w // 3, area.y + area.h // 3)
    arena.explorer.mouse = centre
    tv.wheel(centre, 1.0)
    frames(app, 3)
    snap = tv.snapshot
    kids = sorted(snap.children(0).tolist(), key=lambda r: -int(snap.visits[r]))
    for r in kids:
        c = tv.node_center(r)
        if c is not None and area.collidepoint(c):
            tv.click(c)
            break
    frames(app, 3)
    app.screenshot(out / "explorer.png")
    app.close()


def algorithm_shots(out: Path) -> None:
    """The pickers and the views of every algorithm."""
    scenario = load_scenario("snakes_duel_trees")
    app = App()
    arena = ArenaScene(app, scenario, seed=3, budget=Budget(iterations=3000, ms=0),
                       recorder_factory=lambda: None)
    app.push(arena)
    arena.set_param("algorithm", "smitsimax", player=0)   # the duel seats joint MCTS there
    arena.set_param("policy", "exp3", player=0)
    arena.set_param("policy", "rm", player=1)
    arena._build_widgets()
    play_to(app, arena, 6)
    arena.set_param("policy", "rm_plus", player=0)   # waits for the next turn
    arena._build_widgets()
    frames(app, 2)
    app.screenshot(out / "policies.png")
    app.close()

    game = Game(scenario.game, None, seed=0)
    for alg in ("suct", "joint", "greedy"):
        if algorithm_refusal(game, alg) is not None:
            print(f"{alg}.png: skipped ({alg} is not built into this C core)")
            continue
        app = App()
        arena = ArenaScene(app, scenario, seed=3, budget=Budget(iterations=3000, ms=0),
                           recorder_factory=lambda: None)
        app.push(arena)
        arena.set_param("algorithm", alg, player=0)
        arena._build_widgets()
        play_to(app, arena, 4)
        if alg != "greedy":   # the one tree over both panels: player 0's whole search
            arena._set_tree_source(0)
            frames(app, 30)
        app.screenshot(out / f"{alg}.png")
        app.close()


def mcgs_shots(out: Path) -> None:
    """MCGS: the duel's heat map, graph and principal variation;
    a small self-play graph in node-link with its shared nodes."""
    app = App()
    arena = ArenaScene(app, load_scenario("maze_medium_duel"), seed=1,
                       budget=Budget(iterations=6000, ms=0), recorder_factory=lambda: None)
    app.push(arena)
    play_to(app, arena, 12)
    _hover_best_cell(app, arena)
    app.screenshot(out / "mcgs.png")
    app.close()

    app = App()
    arena = ArenaScene(app, load_scenario("maze_tiny_mcgs_selfplay"), seed=3,
                       recorder_factory=lambda: None)
    app.push(arena)
    play_to(app, arena, 4)
    arena._set_tree_source(0)
    arena._set_tree_mode("nodelink")
    arena.matrix_mode = "graph"
    arena._build_widgets()
    frames(app, 30)
    tv = arena.trees[0]
    snap = tv.snapshot
    if snap is not None:
        from sandbox.native.snapshot import FLAG_SHARED
        shared = [r for r in range(len(snap)) if snap.flags[r] & FLAG_SHARED
                  and tv.node_center(r) is not None]
        if shared:
            pos = tv.node_center(max(shared, key=lambda r: int(snap.visits[r])))
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                                 buttons=(0, 0, 0)))
            frames(app, 2)
    pygame.image.save(app.screen.subsurface(arena.layout["trees"]), str(out / "mcgs_graph.png"))
    app.close()


def _hover_best_cell(app: App, arena: ArenaScene) -> None:
    """Hover the most visited cell of the first heat map shown (its tooltip)."""
    for mv in arena.matrices:
        g = mv._g
        if g is not None:
            r = mv.cell_rect(*g["best"])
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=r.center, rel=(0, 0),
                                                 buttons=(0, 0, 0)))
            frames(app, 2)
            return


def lab_shots(out: Path) -> None:
    """The Labs scene: RPS after a few rounds against an RM agent that
    models the person's history, the convergence race part-way, the
    depth-bias lab after some thousands of iterations."""
    from sandbox.app.labs_scene import LabsScene
    app = App()
    scene = LabsScene(app, tab="rps", seed=1)
    app.push(scene)
    scene.rps.set(policy="rm", model_history=True)
    scene.resize(app.screen.get_size())   # the pickers show the lab's settings
    for move in (0, 0, 1, 0, 2, 0, 0, 1, 0, 0, 0, 2):
        scene.play(move)
    frames(app, 3)
    app.screenshot(out / "lab_rps.png")
    scene.switch("race")
    frames(app, 60)
    app.screenshot(out / "lab_race.png")
    scene.switch("depth")
    frames(app, 40)
    app.screenshot(out / "lab_depth.png")
    app.close()


def menu_shot(out: Path) -> None:
    # the library lists one short match recorded into a temporary folder, not
    # whatever the user's replays/ holds (and nothing is written there)
    from sandbox.app.menu import MenuScene
    with tempfile.TemporaryDirectory() as tmp:
        rec = Recorder(tmp, name_hint="goofspiel_13_duel")
        with Match(load_scenario("goofspiel_13_duel"), seed=1,
                   budget=Budget(iterations=200, ms=0), recorder=rec) as m:
            while not m.over:
                m.play_turn()
        rec.close()
        app = App()
        app.replay_dir = tmp
        app.push(MenuScene(app))
        frames(app, 3)
        app.screenshot(out / "menu.png")
        app.close()


def tournament_shot(out: Path) -> None:
    """The Tournament scene once its six games (3 built-ins, 2 a pairing,
    300 iterations a turn) are in; their replays go to a temporary folder."""
    import time
    from sandbox.app.tournament_scene import TournamentScene
    with tempfile.TemporaryDirectory() as tmp:
        app = App()
        scene = TournamentScene(app, "goofspiel_13_duel", out_dir=tmp)
        app.push(scene)
        while not scene.finished:
            frames(app, 1)
            time.sleep(0.01)
        frames(app, 3)
        app.screenshot(out / "tournament.png")
        app.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/screenshots")
    ap.add_argument("--only", choices=["algorithms", "mcgs", "pods", "whatif", "snakebyte",
                                       "tournament", "explorer", "labs", "hidden"],
                    help="make only these shots")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.only == "pods":
        pods_shot(out)
        return 0
    if args.only == "whatif":
        replay_shot(out, whatif_only=True)
        return 0
    if args.only == "snakebyte":
        snakebyte_shot(out)
        return 0
    if args.only == "explorer":
        explorer_shot(out)
        return 0
    if args.only == "labs":
        lab_shots(out)
        return 0
    if args.only == "hidden":
        hidden_bids_shot(out)
        return 0
    if args.only == "tournament":
        tournament_shot(out)
        menu_shot(out)
        return 0
    if args.only != "mcgs":
        algorithm_shots(out)
    mcgs_shots(out)
    if args.only:
        return 0
    arena_shots(out)
    replay_shot(out)
    game_shots(out)
    hidden_bids_shot(out)
    pods_shot(out)
    snakebyte_shot(out)
    lab_shots(out)
    menu_shot(out)
    tournament_shot(out)
    explorer_shot(out)
    for p in sorted(out.glob("*.png")):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
