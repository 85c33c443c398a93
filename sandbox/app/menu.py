"""Start menu: pick a scenario to play, or a replay to watch from the
replay library (every file in the replay folder: --replay-dir, else
$SBX_REPLAY_DIR, else replays/; see replay_list.py)."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame

from ..config import list_scenarios, load_scenario
from ..config.scenario import DEFAULT_SCENARIO
from ..native import SandboxError
from ..render import palette as pal
from ..render.fonts import text
from ..ui import Button, WidgetGroup, is_ui
from .replay_list import ReplayList
from .shell import App, Scene


class MenuScene(Scene):
    name = "menu"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.entries: list[tuple[str, str, str]] = []   # (stem, name, description or error)
        for p in list_scenarios():
            try:
                s = load_scenario(p)
                self.entries.append((p.stem, s.name, s.description))
            except SandboxError as exc:
                self.entries.append((p.stem, p.stem, f"cannot load: {exc}"))
        stems = [e[0] for e in self.entries]
        self.chosen = stems.index(DEFAULT_SCENARIO) if DEFAULT_SCENARIO in stems else 0
        self.message = ""
        self.message_until = 0.0
        self.widgets = WidgetGroup()
        self.library = ReplayList(self.replay_dir, self.watch, self.say)
        self.library.refresh()

    @property
    def replays(self) -> list[Path]:
        """The listed replay files (the filter applied), newest first."""
        return [r.path for r in self.library.shown]

    def replay_dir(self) -> Path:
        from ..replay.library import default_replay_dir
        return Path(getattr(self.app, "replay_dir", None) or default_replay_dir())

    def say(self, message: str) -> None:
        self.message = message
        self.message_until = time.perf_counter() + 5.0

    def resume(self) -> None:
        # a match just played has left a new replay: list it
        self.library.refresh()
        self.resize(self.app.screen.get_size())

    def resize(self, size: tuple[int, int]) -> None:
        w, h = size
        g = WidgetGroup()
        x = max(20, w // 2 - 560)
        # Scenario buttons in as many columns (up to 3) as it takes to keep
        # them, the Play row and the description line inside the window.
        n = max(1, len(self.entries))
        room = max(120, h - 170 - 36 - 20 - 90)
        cols = min(3, -(-n // max(1, room // 40)))
        rows = -(-n // cols)
        pitch = max(30, min(56, room // rows))
        cw = (560 - (cols - 1) * 10) // cols
        for i, (stem, name, _) in enumerate(self.entries):
            c, r = divmod(i, rows)
            b = g.add(Button(f"scen:{i}", (x + c * (cw + 10), 170 + r * pitch, cw, pitch - 8),
                             name))
            b.toggled = i == self.chosen
        y = 170 + rows * pitch + 12
        g.add(Button("play", (x, y, 134, 36), "Play (Enter)"))
        g.add(Button("labs", (x + 142, y, 134, 36), "Labs (L)",
                     "RPS playground, convergence race, depth bias"))
        g.add(Button("tournament", (x + 284, y, 134, 36), "Tournament (T)",
                     "a small round robin between built-in agents, live"))
        g.add(Button("quit", (x + 426, y, 134, 36), "Quit (Esc)"))
        rx = x + 600
        self.library.build(g, rx, max(200, min(620, w - rx - 20)), h)
        self.layout = {"scenarios_x": x, "replays_x": rx}
        self.widgets = g

    def handle_event(self, event: pygame.event.Event) -> bool:
        g = self.widgets
        focused = g.widgets[g.focus_index].id if 0 <= g.focus_index < len(g.widgets) else None
        done = self.library.handle(event, focused)
        if done:
            if done == "relayout" and self.app.scene is self:
                self.resize(self.app.screen.get_size())
                if focused is not None:    # keep keyboard focus on the same widget
                    ids = [w.id for w in self.widgets.widgets]
                    if focused in ids:
                        self.widgets._set_focus(ids.index(focused))
            return True
        if is_ui(event, "click"):
            if event.id.startswith("scen:"):
                self.chosen = int(event.id[5:])
                self.resize(self.app.screen.get_size())
            elif event.id == "play":
                self.play()
            elif event.id == "labs":
                self.labs()
            elif event.id == "tournament":
                self.tournament()
            elif event.id == "quit":
                self.app.quit()
            return True
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.play()
                return True
            if event.key == pygame.K_ESCAPE:
                self.app.quit()
                return True
            if event.key == pygame.K_l:
                self.labs()
                return True
            if event.key == pygame.K_t:
                self.tournament()
                return True
            if event.key in (pygame.K_UP, pygame.K_DOWN) and self.entries:
                self.chosen = (self.chosen + (1 if event.key == pygame.K_DOWN else -1)) % len(self.entries)
                self.resize(self.app.screen.get_size())
                return True
        return self.widgets.process_event(event)

    def play(self) -> None:
        if not self.entries:
            return
        from .arena import ArenaScene
        stem = self.entries[self.chosen][0]
        try:
            scenario = load_scenario(stem)
        except SandboxError:
            return
        self.app.push(ArenaScene(self.app, scenario,
                                 recorder_factory=self.app.recorder_factory(scenario, stem)))

    def labs(self) -> None:
        from .labs_scene import LabsScene
        self.app.push(LabsScene(self.app))

    def tournament(self) -> None:
        """The chosen scenario if it has two players, else the first that has."""
        from .tournament_scene import TournamentScene
        stem = self.entries[self.chosen][0] if self.entries else None
        try:
            scene = TournamentScene(self.app, stem)
        except SandboxError as exc:
            self.say(str(exc))
            return
        self.app.push(scene)

    def watch(self, path: Path) -> None:
        """Open a replay file in the replay scene (a bad file: a message)."""
        from ..replay import read_replay
        from .replay_scene import ReplayScene
        try:
            scene = ReplayScene(self.app, read_replay(path))
        except SandboxError as exc:
            self.say(str(exc))
            return
        self.app.push(scene)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        w = surface.get_width()
        t = text("Simultaneous-move search sandbox", 28, pal.TEXT, bold=True)
        surface.blit(t, t.get_rect(center=(w // 2, 70)))
        sub = text("Choose a scenario. Every agent's search tree grows live beside the board.", 14,
                   pal.TEXT_DIM)
        surface.blit(sub, sub.get_rect(center=(w // 2, 108)))
        L = getattr(self, "layout", {})
        if L:
            surface.blit(text("Play a scenario", 16, pal.TEXT, bold=True), (L["scenarios_x"], 140))
            surface.blit(text("Watch a replay", 16, pal.TEXT, bold=True), (L["replays_x"], 140))
            self.library.draw(surface)
        self.widgets.draw(surface)
        if self.message and time.perf_counter() < self.message_until:
            m = text(self.message[:120], 13, pal.WARN)
            surface.blit(m, m.get_rect(center=(w // 2, surface.get_height() - 70)))
        if self.entries:
            _, _, desc = self.entries[self.chosen]
            d = text(desc[:110], 13, pal.TEXT_DIM)
            surface.blit(d, d.get_rect(center=(w // 2, surface.get_height() - 40)))

    def state(self) -> dict[str, Any]:
        return {"scene": self.name, "chosen": self.entries[self.chosen][0] if self.entries else None,
                "replays": [str(p) for p in self.replays], "library": self.library.state()}
