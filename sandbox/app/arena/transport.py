"""The transport bar: play/pause, one turn, speed, traced search iterations (I, J, K) and
the step-by-step animation, the top bar's info and recording indicator, screenshots."""
from __future__ import annotations

from pathlib import Path

import pygame

from ...native import SandboxError
from ...render import palette as pal
from ...render.fonts import elide, font, text
from ...render.step_view import StepAnimation
from ...sim.controller import SearchController
from ...settings.algorithms import ALGORITHM_LABELS

# the algorithms whose traced iteration the step view animates
STEP_VIEW_ALGORITHMS = ("smitsimax", "gtcfr")
from ...sim.live import SPEEDS
from .constants import SCREENSHOT_DIR


class TransportBar:
    """ArenaScene's part: the transport bar, a mixin over the scene's state. It uses the
    scene's live, selected, trees, namers, colors, widgets, layout, app and the step
    animation's animation, _step_before, _step_player; it calls match, flash, _in_force
    (controls), _set_tree_source (panels) and hidden_agents (scene)."""

    def _toggle_pause(self) -> None:
        self.live.toggle_pause()
        self._sync_play_button()

    def _sync_play_button(self) -> None:
        try:
            self.widgets.get("play").label = "Play" if self.live.paused else "Pause"
        except KeyError:
            pass

    def _set_speed(self, speed: float | None) -> None:
        self.live.set_speed(speed)
        try:
            self.widgets.get("speed").value = speed
        except KeyError:
            pass

    def _shift_speed(self, step: int) -> None:
        finite = [s for s in SPEEDS if s is not None]
        cur = self.live.speed
        if cur is None:
            self._set_speed(finite[-1] if step < 0 else None)
            return
        i = finite.index(cur) + step if cur in finite else 2
        self._set_speed(None if i >= len(finite) else finite[max(0, i)])

    def traced_step(self, count: int = 1, held: bool = False) -> None:
        """`count` search iterations of the chosen player, each traced by C;
        the last one is animated across its trees (selection, joint action,
        simulation, backpropagation), held at each phase when `held`. The
        trees show their numbers from before that iteration until backprop."""
        ctl = self.match.controllers[self.selected]
        if not isinstance(ctl, SearchController):
            self.flash("this player does not search")
            return
        if set(ctl.agents) & self.hidden_agents():
            # its trace walks the tree whose root holds the move it chose
            self.flash(f"step view: {ctl.name}'s search is hidden in this seat's view")
            return
        alg, _ = self._in_force(ctl)
        if alg not in STEP_VIEW_ALGORITHMS or ctl.settings.algorithm != alg:
            # The animation walks one tree per agent (Smitsimax), or GT-CFR's
            # one tree with its regret-update phase first; other single-tree
            # searches' traces have no walls or update phase to show.
            self.flash(f"step view: Smitsimax and GT-CFR only "
                       f"({ctl.name} runs {ALGORITHM_LABELS[alg]})")
            return
        if not self.live.paused:
            self.live.toggle_pause()
            self._sync_play_button()
        if not ctl.done:
            self.flash("still thinking — try again when this turn's search is done")
            return
        self._end_animation()
        self._set_tree_source(ctl.player)
        try:
            # each iteration is one C call; only the last one's trace is shown
            for _ in range(count - 1):
                trace = ctl.step_traced()
                if trace.stop_reason != "none":
                    break
            else:
                before = ctl.publish_now(self.match.turn)
                trace = ctl.step_traced()
        except SandboxError as exc:
            self.flash(str(exc))
            return
        after = ctl.publish_now(self.match.turn)
        if trace.stop_reason != "none":
            self.flash(f"no iteration: {trace.stop_reason}")
            return
        self._step_before, self._step_player = before, ctl.player
        self.animation = StepAnimation(
            trace, self.match.world.num_agents, self.colors, self.namers, held=held,
            before=before.trees if before is not None else None,
            after=after.trees if after is not None else None,
            expansions_per_update=ctl.settings.expansions_per_update)
        if count > 1:
            self.flash(f"{count} traced iterations; the last one is shown")

    def next_phase(self) -> None:
        """J: the next phase of a held traced iteration, or a new one held at
        its first phase (select)."""
        anim = self.animation
        if anim is None or not anim.held:
            self.traced_step(held=True)
            return
        anim.skip_phase()
        anim.apply(self.trees)
        if anim.done:
            self._end_animation()

    def _end_animation(self) -> None:
        self.animation = None
        self._step_before = None
        for tv in self.trees:
            tv.set_highlight(None, "select", 0.0)

    def take_screenshot(self, path: str | None = None) -> None:
        if path is None:
            path = self.app.screenshot_path("arena", SCREENSHOT_DIR)
        self.app.pending_screenshot = path
        self.flash(f"screenshot: {path}")

    def top_bar(self, r: pygame.Rect | None = None) -> dict[str, tuple[pygame.Rect, str]]:
        """What the top bar shows besides its buttons, where: "info" (turn,
        status, fps) at the right, "rec" (the recording's dot and label)
        between the last button and the info, its file name elided with "…"
        to fit, or left out where not even "REC" fits."""
        r = self.layout["top"] if r is None else r
        m = self.match
        status = "over" if m.over else ("paused" if self.live.paused else "playing")
        info = f"turn {m.turn}   {status}   {self.app.fps:4.0f} fps"
        iw, ih = font(14, mono=True).size(info)
        info_rect = pygame.Rect(r.right - iw - 12, r.y + 12, iw, ih)
        out = {"info": (info_rect, info)}
        rec = m.recorder
        if rec is not None and getattr(rec, "path", None) is not None:
            ok = not getattr(rec, "failed", False)
            label = f"REC {Path(rec.path).name}" if ok else "REC failed"
            left = max((w.rect.right for w in self.widgets.widgets
                        if w.rect.colliderect(r)), default=r.x) + 12
            room = info_rect.x - 10 - (left + 20)      # 20: the dot and its gap
            label = elide(label, 12, room)
            lw, lh = font(12).size(label)
            if lw <= room and len(label) > 1:
                out["rec"] = (pygame.Rect(info_rect.x - 10 - lw - 20, r.y + 13, lw + 20, lh),
                              label)
        return out

    def _draw_top(self, surface, r: pygame.Rect) -> None:
        pygame.draw.rect(surface, pal.PANEL, r)
        pygame.draw.line(surface, pal.BORDER, r.bottomleft, r.bottomright)
        items = self.top_bar(r)
        info_rect, info = items["info"]
        surface.blit(text(info, 14, pal.TEXT, mono=True), info_rect.topleft)
        if "rec" in items:
            rect, label = items["rec"]
            color = pal.WARN if getattr(self.match.recorder, "failed", False) else pal.ERROR
            pygame.draw.circle(surface, color, (rect.x + 5, r.y + 20), 5)
            surface.blit(text(label, 12, color), (rect.x + 20, rect.y))
