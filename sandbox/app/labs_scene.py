"""The Labs scene: the three labs of sandbox.labs behind tabs (Esc: back to
the menu).

- RPS playground: R / P / S buttons (or keys r, p, s) play a round against
  a fresh search; the agent's strategy as bars, a scoreboard, policy and
  iterations pickers, the model-history toggle.
- Convergence race: every policy in self-play on the picked matrix game;
  NashConv and most-played share grow live (log axes); a speed slider sets
  iterations per frame.
- Depth bias: raw, discounted and depth-normalised searches side by side,
  root mean per action and the action each ranks first; a slider widens
  Siege's depth range (a new game: the searches restart).

The C searches do every iteration; a frame runs one chunk per search.
"""
from __future__ import annotations

from typing import Any

import pygame

from ..native import SandboxError
from ..render import palette as pal
from ..render.fonts import text
from ..ui import Button, Picker, Slider, Toggle, WidgetGroup, is_ui
from .shell import App, Scene

TABS = (("rps", "RPS playground"), ("race", "Convergence race"), ("depth", "Depth bias"))
RPS_ITERATIONS = (10, 100, 1000, 10_000)
RACE_MAX = 100_000
DEPTH_MAX = 100_000
TOP, CONTROLS = 56, 64            # tab bar height, controls row height


class LabsScene(Scene):
    name = "labs"

    def __init__(self, app: App, tab: str = "rps", seed: int = 1,
                 depth_game_factory=None) -> None:
        """`depth_game_factory`: params -> Game, a stand-in for the depth-bias
        game (tests drive the tab with another game before it exists)."""
        super().__init__(app)
        from ..labs.common import GTCFR_ENTRY, POLICIES
        from ..labs.kinds import depthbias_available, race_games
        from ..labs.rps import RpsLab
        self.tab = tab if tab in dict(TABS) else "rps"
        self.seed = seed
        self.policies = POLICIES
        # the race adds RM with sampled regrets beside the exact ones: the
        # tutorial's §11 point, live (an rm:variant entry, see labs.common),
        # and growing-tree CFR, which solves the table outright
        self.race_entries = (*POLICIES, "rm:sampled", GTCFR_ENTRY)
        self.rps = RpsLab("ucb1", 1000, False, seed)
        self.race_games = race_games()
        self.race_game = self.race_games[0]
        self.race_speed = 1000            # iterations per frame, per policy
        self.race_running = True
        self.race = None
        self.race_points: list[int] = []  # iterations at each recorded point
        self.depth_factory = depth_game_factory
        self.depth_ok = depthbias_available() or depth_game_factory is not None
        self.siege_max = 18
        self.depth_speed = 200
        self.depth = None
        self.depth_error = ""
        self.widgets = WidgetGroup()
        self.size = app.screen.get_size()

    # ---------------------------------------------------------------- lifecycle
    def enter(self) -> None:
        self._start_race()
        self._start_depth()

    def exit(self) -> None:
        for lab in (self.race, self.depth):
            if lab is not None:
                lab.close()
        self.race = self.depth = None

    def _start_race(self) -> None:
        from ..labs.race import RaceLab
        if self.race is not None:
            self.race.close()
        self.race = RaceLab(self.race_game, self.race_entries, self.seed)
        self.race_points = []

    def _start_depth(self) -> None:
        from ..labs.depth import DepthLab
        if self.depth is not None:
            self.depth.close()
            self.depth = None
        if not self.depth_ok:
            return
        try:
            self.depth = DepthLab(self.siege_max, self.seed, self.depth_factory)
            self.depth_error = ""
        except SandboxError as exc:   # a siege_max the game refuses: say so
            self.depth_error = str(exc)

    # ---------------------------------------------------------------- widgets
    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        w, _ = size
        g = WidgetGroup()
        x = 120
        for key, label in TABS:
            b = g.add(Button(f"tab:{key}", (x, 12, 170, 32), label))
            b.toggled = key == self.tab
            x += 180
        g.add(Button("back", (w - 150, 12, 138, 32), "Menu (Esc)"))
        y = TOP + 12
        if self.tab == "rps":
            for i, name in enumerate(self.rps.names):
                g.add(Button(f"rps:move:{i}", (16 + i * 110, y, 100, 40),
                             f"{name.capitalize()} ({name[0]})", f"play {name}"))
            x = 16 + len(self.rps.names) * 110 + 20
            g.add(Picker("rps:policy", (x, y + 8, 200, 26), "policy",
                         [(p, p) for p in self.policies], self.rps.policy))
            g.add(Picker("rps:iterations", (x + 215, y + 8, 190, 26), "iterations",
                         [(k, f"{k:,}") for k in RPS_ITERATIONS], self.rps.iterations))
            g.add(Toggle("rps:model", (x + 420, y + 8, 230, 26), "model your history",
                         self.rps.model_history,
                         "the agent searches its expected payoff against your smoothed "
                         "move frequencies"))
            g.add(Button("rps:reset", (x + 660, y + 6, 90, 30), "New score"))
        elif self.tab == "race":
            g.add(Picker("race:game", (16, y + 8, 260, 26), "game",
                         [(n, n) for n in self.race_games], self.race_game))
            g.add(Slider("race:speed", (300, y, 260, 36), "iterations per frame", 10, 20_000,
                         self.race_speed, integer=True, log=True, fmt="{:,}"))
            g.add(Button("race:run", (580, y + 6, 100, 30),
                         "Pause" if self.race_running else "Run"))
            g.add(Button("race:restart", (690, y + 6, 100, 30), "Restart"))
        elif self.tab == "depth" and self.depth_ok:
            from ..labs.depth import SIEGE_MAX_LIMIT
            g.add(Slider("depth:siege_max", (16, y, 260, 36), "Siege's longest episode", 18,
                         SIEGE_MAX_LIMIT, self.siege_max, step=1, integer=True, fmt="{}"))
            g.add(Slider("depth:speed", (300, y, 260, 36), "iterations per frame", 10, 5000,
                         self.depth_speed, integer=True, log=True, fmt="{:,}"))
            g.add(Button("depth:restart", (580, y + 6, 100, 30), "Restart"))
        self.widgets = g

    def content_rect(self) -> pygame.Rect:
        w, h = self.size
        return pygame.Rect(8, TOP + CONTROLS, w - 16, h - TOP - CONTROLS - 8)

    # ---------------------------------------------------------------- events
    def handle_event(self, event: pygame.event.Event) -> bool:
        if is_ui(event, "click"):
            self._click(event.id)
            return True
        if is_ui(event, "change"):
            self._change(event.id, event.value)
            return True
        if self.widgets.process_event(event):
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
                return True
            if self.tab == "rps" and event.unicode:
                for i, name in enumerate(self.rps.names):
                    if event.unicode.lower() == name[0].lower():
                        self.play(i)
                        return True
        return False

    def _click(self, wid: str) -> None:
        if wid.startswith("tab:"):
            self.switch(wid[4:])
        elif wid == "back":
            self.app.pop()
        elif wid.startswith("rps:move:"):
            self.play(int(wid[9:]))
        elif wid == "rps:reset":
            self.rps.reset()
        elif wid == "race:run":
            self.race_running = not self.race_running
            self.resize(self.size)
        elif wid == "race:restart":
            self._start_race()
            self.race_running = True
            self.resize(self.size)
        elif wid == "depth:restart":
            self._start_depth()

    def _change(self, wid: str, value: Any) -> None:
        if wid == "rps:policy":
            self.rps.set(policy=value)
        elif wid == "rps:iterations":
            self.rps.set(iterations=int(value))
        elif wid == "rps:model":
            self.rps.set(model_history=bool(value))
        elif wid == "race:game":
            self.race_game = value
            self._start_race()
        elif wid == "race:speed":
            self.race_speed = int(value)
        elif wid == "depth:siege_max":
            self.siege_max = int(value)
            self._start_depth()     # a new game: the searches restart
        elif wid == "depth:speed":
            self.depth_speed = int(value)

    def switch(self, tab: str) -> None:
        if tab in dict(TABS):
            self.tab = tab
            self.resize(self.size)

    def play(self, move: int) -> None:
        """One RPS round: you played `move`; the agent's fresh search answers."""
        self.rps.play(move)

    # ---------------------------------------------------------------- update
    def update(self, dt_ms: float) -> None:
        if self.tab == "race" and self.race is not None and self.race_running \
                and self.race.done < RACE_MAX:
            # geometric at first (100, 200, 400 ...): the log axis starts filled
            step = min(self.race_speed, max(100, self.race.done))
            target = min(RACE_MAX, self.race.done + step)
            # a point per ~5% more iterations: even on a log axis
            last = self.race_points[-1] if self.race_points else 0
            record = target >= RACE_MAX or target >= max(last * 1.05, 100) and target > last
            self.race.advance_to(target, record=record)
            if record:
                self.race_points.append(target)
        if self.tab == "depth" and self.depth is not None and self.depth.done < DEPTH_MAX:
            self.depth.advance_to(min(DEPTH_MAX, self.depth.done + self.depth_speed))

    # ---------------------------------------------------------------- drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)
        surface.blit(text("Labs", 24, pal.TEXT, bold=True), (16, 14))
        r = self.content_rect()
        if self.tab == "rps":
            self._draw_rps(surface, r)
        elif self.tab == "race":
            self._draw_race(surface, r)
        else:
            self._draw_depth(surface, r)
        self.widgets.draw(surface)

    def _draw_rps(self, surface: pygame.Surface, r: pygame.Rect) -> None:
        import numpy as np

        from ..labs.png import draw_rps
        lab = self.rps
        you, ties, agent = lab.score
        line = f"you {you}   ties {ties}   agent {agent}"
        if lab.rounds:
            last = lab.rounds[-1]
            verdict = {1: "the agent wins", 0: "a tie", -1: "you win"}[last.outcome]
            line += (f"      round {last.round}: you {lab.names[last.you]}, agent "
                     f"{lab.names[last.agent]}: {verdict}")
            if last.policy_in_force != lab.policy:
                line += f"  ({lab.policy} runs as {last.policy_in_force} in this build)"
        else:
            line += "      play a move: the agent searches afresh each round"
        surface.blit(text(line, 16, pal.TEXT, bold=True), (r.x + 8, r.y))
        body = pygame.Rect(r.x, r.y + 28, r.w, r.h - 28)
        rounds = lab.rounds
        strat = rounds[-1].strategy if rounds else None     # None: "no moves yet"
        series = {"you": np.cumsum([x.outcome < 0 for x in rounds]).tolist(),
                  "ties": np.cumsum([x.outcome == 0 for x in rounds]).tolist(),
                  "agent": np.cumsum([x.outcome > 0 for x in rounds]).tolist()}
        draw_rps(surface, body, lab.names, strat, lab.frequencies() if rounds else None, series,
                 [x.round for x in rounds])

    def _draw_race(self, surface: pygame.Surface, r: pygame.Rect) -> None:
        from ..labs.png import draw_race
        lab = self.race
        if lab is None:
            return
        state = "done" if lab.done >= RACE_MAX else "running" if self.race_running else "paused"
        head = (f"{self.race_game}: {lab.done:,} / {RACE_MAX:,} iterations per policy ({state});"
                f" payoff range {lab.range:g}")
        cur = []
        for run in lab.runners:
            if run.points:
                cur.append(f"{run.policy} {run.points[-1].nashconv_norm:.3g}")
        surface.blit(text(head, 15, pal.TEXT, bold=True), (r.x + 8, r.y))
        surface.blit(text("NashConv now (normalised): " + "   ".join(cur), 13, pal.TEXT_DIM),
                     (r.x + 8, r.y + 22))
        nc = {run.policy: [p.nashconv_norm for p in run.points] for run in lab.runners}
        top = {run.policy: [p.top_share for p in run.points] for run in lab.runners}
        draw_race(surface, pygame.Rect(r.x, r.y + 44, r.w, r.h - 44), self.race_points, nc, top,
                  True, x_max=RACE_MAX)

    def _draw_depth(self, surface: pygame.Surface, r: pygame.Rect) -> None:
        from ..labs.png import draw_depth
        if not self.depth_ok or self.depth is None:
            why = self.depth_error or ("the depth-bias game ('depthbias') is not in this build "
                                       "yet")
            t = text(why, 16, pal.WARN)
            surface.blit(t, t.get_rect(center=r.center))
            return
        lab = self.depth
        rows = lab.rows()
        head = (f"{lab.done:,} iterations per backup; Siege lasts up to {self.siege_max} turns; "
                "first: " + ", ".join(f"{row.backup} {row.first}" for row in rows))
        surface.blit(text(head, 15, pal.TEXT, bold=True), (r.x + 8, r.y))
        draw_depth(surface, pygame.Rect(r.x, r.y + 28, r.w, r.h - 28), lab.names, rows)

    def state(self) -> dict[str, Any]:
        return {"scene": self.name, "tab": self.tab, "rps_score": list(self.rps.score),
                "rps_rounds": len(self.rps.rounds),
                "race_iterations": self.race.done if self.race else 0,
                "depth_iterations": self.depth.done if self.depth else 0}
