"""The Tournament scene (menu: T): a small round robin between built-in
agents on a two-player scenario, played live on a background thread through
the same runner as `python -m sandbox tournament` (an in-process executor:
the C searches release the GIL, the window stays responsive). The standings
table and the ratings chart fill in as games end; every game's replay is
kept, and a click on a game's row opens it in the replay scene. Esc: back
(the games in progress are abandoned; the results log keeps the rest).
"""
from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from typing import Any

import pygame

from ..native import SandboxError
from ..render import palette as pal
from ..render.fonts import elide, text
from ..ui import Button, WidgetGroup, is_ui
from .shell import App, Scene

ENTRANTS = ("smitsimax", "greedy", "random")
GAMES = 2                  # per pairing: one seed, both seat orders
ITERATIONS = 300           # per turn, for every entrant
ROW_H = 24


def two_player_scenario(preferred: str | None = None):
    """`preferred` if it is a two-player scenario without people, else the
    first bundled one that is."""
    from ..config import list_scenarios, load_scenario
    names = ([preferred] if preferred else []) + [p.stem for p in list_scenarios()]
    for stem in names:
        try:
            sc = load_scenario(stem)
        except SandboxError:
            continue
        if len(sc.players) == 2 and all(p.controller != "human" for p in sc.players):
            return stem, sc
    raise SandboxError("no two-player scenario without people to play a tournament on")


class TournamentScene(Scene):
    name = "tournament"

    def __init__(self, app: App, scenario: str | None = None,
                 entrants: tuple[str, ...] = ENTRANTS, games: int = GAMES,
                 iterations: int = ITERATIONS, out_dir: str | Path | None = None) -> None:
        super().__init__(app)
        from ..config import Budget
        from ..replay.library import default_replay_dir
        from ..tournament.agents import builtin_entrant
        from ..tournament.tournament import make_spec
        self.stem, sc = two_player_scenario(scenario)
        self.iterations = iterations
        self.spec = make_spec(sc, [builtin_entrant(e) for e in entrants], games=games,
                              budget=Budget(iterations=iterations, ms=0))
        base = Path(out_dir) if out_dir is not None else \
            Path(getattr(app, "replay_dir", None) or default_replay_dir())
        self.folder = base / f"tournament-{self.stem}-{time.strftime('%Y%m%d-%H%M%S')}"
        self.jobs = self.spec.jobs(self.folder / "replays")
        self.results: list[dict[str, Any]] = []
        self.summary = None
        self.error = ""
        self.message = ""
        self._queue: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.widgets = WidgetGroup()
        self.layout: dict[str, Any] = {}

    # ---------------------------------------------------------------- lifecycle
    def enter(self) -> None:
        self._thread = threading.Thread(target=self._run, name="tournament", daemon=True)
        self._thread.start()

    def exit(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self) -> None:
        from ..tournament.executors import InlineExecutor
        from ..tournament.log import ResultLog
        from ..tournament.runner import run_jobs
        try:
            with ResultLog(self.folder / "results.jsonl", "tournament",
                           self.spec.config()) as log:
                run_jobs(self.jobs, InlineExecutor(), log, self._queue.put,
                         should_stop=self._stop.is_set, in_flight=1)
        except SandboxError as exc:
            self._queue.put(exc)
        self._queue.put(None)              # done

    @property
    def finished(self) -> bool:
        return self._thread is not None and not self._thread.is_alive() and self._queue.empty()

    # ---------------------------------------------------------------- frame
    def update(self, dt_ms: float) -> None:
        from ..tournament.tournament import summarize
        changed = False
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, SandboxError):
                self.error = str(item)
            elif isinstance(item, dict):
                self.results.append(item)
                changed = True
        if changed:
            self.summary = summarize(self.spec, self.results)
            self.resize(self.app.screen.get_size())

    def resize(self, size: tuple[int, int]) -> None:
        w, h = size
        g = WidgetGroup()
        g.add(Button("back", (20, 16, 120, 30), "Back (Esc)"))
        left = pygame.Rect(20, 70, min(560, w // 2 - 30), h - 90)
        table_h = ROW_H * (len(self.spec.entrants) + 1) + 16
        games_top = left.y + table_h + 40
        names = [e.name for e in self.spec.entrants]
        for k, row in enumerate(self.results):
            y = games_top + k * ROW_H
            if y + ROW_H > h - 10:
                break
            a, b = row["entrants"]
            sa, sb = row["scores"]
            label = (f"{names[a]} {_score(sa)} - {_score(sb)} {names[b]}   seed {row['seed']}, "
                     f"{row['turns']} turns")
            g.add(Button(f"game:{k}", (left.x, y, left.w, ROW_H - 3), label,
                         "watch this game's replay"))
        self.widgets = g
        self.layout = {"left": left, "games_top": games_top,
                       "chart": pygame.Rect(left.right + 30, 110, w - left.right - 50,
                                            max(120, min(40 * len(self.spec.entrants) + 40,
                                                         h - 180)))}

    def handle_event(self, event: pygame.event.Event) -> bool:
        if is_ui(event, "click"):
            if event.id == "back":
                self.app.pop()
            elif event.id.startswith("game:"):
                self.watch(int(event.id[5:]))
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
            return True
        return self.widgets.process_event(event)

    def watch(self, k: int) -> None:
        from ..replay import read_replay
        from .replay_scene import ReplayScene
        path = self.results[k].get("replay")
        try:
            scene = ReplayScene(self.app, read_replay(path))
        except (SandboxError, TypeError) as exc:
            self.message = f"cannot open the replay: {exc}"
            return
        self.app.push(scene)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        L = self.layout
        if not L:
            self.resize(surface.get_size())
            L = self.layout
        done, total = len(self.results), len(self.jobs)
        state = "finished" if self.finished else "playing"
        title = (f"Tournament on {self.spec.scenario.name}: {done} of {total} games, {state}"
                 f" ({self.iterations} iterations a turn, seats swapped on paired seeds)")
        surface.blit(text(elide(title, 16, surface.get_width() - 170, bold=True), 16, pal.TEXT,
                          bold=True), (160, 22))
        left = L["left"]
        head = f"{'agent':<14}{'elo':>7}{'score':>8}{'W':>5}{'D':>5}{'L':>5}"
        surface.blit(text(head, 14, pal.TEXT_DIM, mono=True), (left.x, left.y))
        if self.summary is not None:
            s = self.summary
            order = s.ratings.order() if s.ratings else range(len(s.names))
            for r, k in enumerate(order):
                st = s.standings[k]
                elo = f"{s.ratings.elo(k):>+7.0f}" if s.ratings else f"{'-':>7}"
                line = (f"{st.name[:14]:<14}{elo}{st.mean:>8.3f}{st.wins:>5}{st.draws:>5}"
                        f"{st.losses:>5}")
                color = pal.AGENT_COLORS[k % len(pal.AGENT_COLORS)]
                surface.blit(text(line, 14, color, mono=True), (left.x, left.y + (r + 1) * ROW_H))
            from ..tournament.chart import draw_ratings
            if s.ratings is not None:
                surface.blit(text("Elo, 95% interval (Bradley–Terry)", 14, pal.TEXT_DIM),
                             (L["chart"].x, L["chart"].y - 24))
                draw_ratings(surface, L["chart"], s.ratings, [x.mean for x in s.standings])
        else:
            surface.blit(text("waiting for the first game ...", 14, pal.TEXT_DIM),
                         (left.x, left.y + ROW_H))
        surface.blit(text("Games (click one to watch its replay)", 14, pal.TEXT_DIM),
                     (left.x, L["games_top"] - 24))
        self.widgets.draw(surface)
        msg = self.error or self.message
        if msg:
            m = text(msg[:140], 13, pal.WARN)
            surface.blit(m, (20, surface.get_height() - 24))

    def state(self) -> dict[str, Any]:
        return {"scene": self.name, "scenario": self.stem, "games": len(self.results),
                "of": len(self.jobs), "finished": self.finished, "folder": str(self.folder),
                "error": self.error or None}


def _score(s: float) -> str:
    return "1" if s == 1.0 else "0" if s == 0.0 else "½"
