"""Start menu: pick a scenario to play (or, later, a replay to watch)."""
from __future__ import annotations

from typing import Any

import pygame

from ..config import list_scenarios, load_scenario
from ..native import SandboxError
from ..render import palette as pal
from ..render.fonts import text
from ..ui import Button, WidgetGroup, is_ui
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
        self.chosen = 0
        self.widgets = WidgetGroup()

    def resize(self, size: tuple[int, int]) -> None:
        w, h = size
        g = WidgetGroup()
        x = w // 2 - 300
        for i, (stem, name, _) in enumerate(self.entries):
            b = g.add(Button(f"scen:{i}", (x, 150 + i * 56, 600, 46), name))
            b.toggled = i == self.chosen
        y = 150 + len(self.entries) * 56 + 20
        g.add(Button("play", (x, y, 290, 36), "Play (Enter)"))
        g.add(Button("quit", (x + 310, y, 290, 36), "Quit (Esc)"))
        self.widgets = g

    def handle_event(self, event: pygame.event.Event) -> bool:
        if is_ui(event, "click"):
            if event.id.startswith("scen:"):
                self.chosen = int(event.id[5:])
                self.resize(self.app.screen.get_size())
            elif event.id == "play":
                self.play()
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
        self.app.push(ArenaScene(self.app, scenario, recorder_factory=self.app.recorder_factory(scenario)))

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        w = surface.get_width()
        t = text("Simultaneous-move search sandbox", 28, pal.TEXT, bold=True)
        surface.blit(t, t.get_rect(center=(w // 2, 70)))
        sub = text("Choose a scenario. Every agent's search tree grows live beside the board.", 14,
                   pal.TEXT_DIM)
        surface.blit(sub, sub.get_rect(center=(w // 2, 108)))
        self.widgets.draw(surface)
        if self.entries:
            _, _, desc = self.entries[self.chosen]
            d = text(desc[:110], 13, pal.TEXT_DIM)
            surface.blit(d, d.get_rect(center=(w // 2, surface.get_height() - 40)))

    def state(self) -> dict[str, Any]:
        return {"scene": self.name, "chosen": self.entries[self.chosen][0] if self.entries else None}
