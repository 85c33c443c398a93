"""Step-by-step view of one Smitsimax iteration (tutorial §5 and §7).

    anim = StepAnimation(search.step_traced(), n, colors, move_name)
    each frame:  anim.update(dt_ms); anim.apply(tree_views)
                 for v, r in zip(tree_views, rects): v.draw(screen, r)
                 anim.draw_overlay(screen, rects)

Four phases, each a fixed share of time, with `progress` 0 -> 1 inside it:

  select    each agent walks down its OWN tree (purple path, revealed from
            the root); its picks appear as chips at the bottom of its panel.
            A dashed "wall" between the panels: no tree sees another's picks.
  joint     the chips leave the panels and line up, one column per turn, as
            the joint actions the game is stepped with (green merge).
  simulate  a cursor plays the turns; deaths (alive_after) are crossed out;
            "terminal" if the game ended before the depth limit.
  backprop  each tree gets its own agent's leaf score, flashed up its path
            (orange); with `gamma` the discounted value at the flash is shown.

GT-CFR (a trace with `update`): a phase "update" comes first, the
iteration's regret-update phase: the CFR+ sweeps it ran ("regret update:
N sweeps over M nodes", or "no sweep this step" when the 1/c credit did not
reach one) and, in each player's panel, its root strategies before -> after
as paired bars (current = regret matching+, average). Then the expansion
simulation plays out as above; its last phase is the new leaf's value,
which the next sweep carries up the tree.

Everything shown comes from the Trace: moves, picks (ucb / random / pass /
rollout), expanded nodes, alive_after, scores. Nothing is invented.

Phase by phase (`held=True`): C has already run the whole iteration; each
phase plays out and then holds until `skip_phase()` (the arena's J key)
reveals the next one. The trees' numbers follow the same clock: given the
snapshots taken just `before` and `after` the traced iteration, a scene shows
`before` until backprop (`shows_updated_stats`), and backprop lists each
path node's visits and mean before -> after (`node_changes`).
"""
from __future__ import annotations

import math
import os
from typing import Callable, Mapping, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from . import fonts, palette  # noqa: E402

PHASES = ("select", "joint", "simulate", "backprop")
PHASE_TITLES = ("1 select", "2 joint action", "3 simulate", "4 backprop")
# GT-CFR: its regret-update phase first, then the expansion simulation
GT_PHASES = ("update", *PHASES)
GT_PHASE_TITLES = ("1 regret update", "2 expand: select", "3 joint action", "4 simulate",
                   "5 leaf value")
UPDATE_COLOR = (240, 210, 80)
UPDATE_MS = 900.0
SELECT_COLOR = (190, 120, 255)   # the same purple as TreeView's selected path
MERGE_COLOR = (110, 220, 120)    # tutorial §5: green merge line
SIM_COLOR = (120, 180, 255)
BACKPROP_COLOR = (255, 160, 40)  # the same orange as TreeView's flash
PHASE_COLORS = (SELECT_COLOR, MERGE_COLOR, SIM_COLOR, BACKPROP_COLOR)
DEATH = (240, 70, 60)
CHIP_H = 16


def _ease(t: float) -> float:
    t = min(max(t, 0.0), 1.0)
    return t * t * (3 - 2 * t)


class StepAnimation:
    def __init__(self, trace, num_agents: int, agent_colors: Sequence[tuple[int, int, int]],
                 move_name: Callable[[int], str] | Sequence[Callable[[int], str]],
                 phase_ms: Sequence[float] = (450, 450, 500, 600),
                 gamma: float | None = None, held: bool = False,
                 before: Mapping | None = None, after: Mapping | None = None,
                 expansions_per_update: float | None = None) -> None:
        self.trace = trace
        # a regret-update phase (GT-CFR) comes before the four simulation
        # phases; phase_ms may then hold its duration too (five)
        self.update_phase = getattr(trace, "update", None)
        gt = self.update_phase is not None
        self.phases = GT_PHASES if gt else PHASES
        self.phase_titles = GT_PHASE_TITLES if gt else PHASE_TITLES
        self._off = 1 if gt else 0
        phase_ms = tuple(phase_ms)
        if gt and len(phase_ms) == 4:
            phase_ms = (UPDATE_MS, *phase_ms)
        if len(phase_ms) != len(self.phases) or any(float(t) < 0 for t in phase_ms):
            raise ValueError(f"phase_ms: {len(self.phases)} durations >= 0 "
                             f"({', '.join(self.phases)})")
        self.expansions_per_update = expansions_per_update
        self.update_boxes: list[pygame.Rect] = []
        self.update_header = pygame.Rect(0, 0, 0, 0)
        self.num_agents = int(num_agents)
        self.colors = [tuple(agent_colors[a]) if a < len(agent_colors) else
                       palette.agent_color(a) for a in range(self.num_agents)]
        # one namer for all agents, or one per agent (a matrix game's row and
        # column players name the same move id differently)
        self.move_names = (list(move_name) if isinstance(move_name, (list, tuple))
                           else [move_name] * self.num_agents)
        self.phase_ms = tuple(float(t) for t in phase_ms)
        self.gamma = gamma
        self.held = bool(held)
        # agent -> TreeSnapshot (or None) taken just before / after the traced
        # iteration: the only source of the per-node before -> after numbers
        self.before = dict(before or {})
        self.after = dict(after or {})
        self.elapsed = 0.0

    # -- clock -----------------------------------------------------------------
    @property
    def total_ms(self) -> float:
        return sum(self.phase_ms)

    def update(self, dt_ms: float) -> None:
        """Advance the animation by dt_ms (explicit time: tests drive it).
        Held: never past the end of the phase it is in (skip_phase moves on)."""
        limit = self.total_ms
        if self.held and not self.done:
            # just short of the next phase's start: the phase stays shown,
            # played out to its last frame
            limit = sum(self.phase_ms[: self.phase_index + 1]) - 1e-6
        self.elapsed = min(self.elapsed + max(float(dt_ms), 0.0), max(limit, self.elapsed))

    def restart(self) -> None:
        self.elapsed = 0.0

    def finish(self) -> None:
        self.elapsed = self.total_ms

    def skip_phase(self) -> None:
        """Jump to the start of the next phase (or the end)."""
        i = self.phase_index
        if i < len(self.phases):
            self.elapsed = min(sum(self.phase_ms[: i + 1]), self.total_ms)

    @property
    def done(self) -> bool:
        return self.elapsed >= self.total_ms

    @property
    def phase_index(self) -> int:
        """Index into self.phases (0..3, GT-CFR 0..4), len(self.phases) once
        done. Zero-length phases are skipped."""
        if self.done:
            return len(self.phases)
        start = 0.0
        for i, d in enumerate(self.phase_ms):
            if self.elapsed < start + d:
                return i
            start += d
        return len(self.phases)

    @property
    def _sim_index(self) -> int:
        """The simulation's phase 0..3 (select..backprop), 4 once done, -1
        during GT-CFR's regret-update phase."""
        return self.phase_index - self._off

    @property
    def phase(self) -> str:
        i = self.phase_index
        return self.phases[i] if i < len(self.phases) else "done"

    @property
    def progress(self) -> float:
        i = self.phase_index
        if i >= len(self.phases):
            return 1.0
        start = sum(self.phase_ms[:i])
        return min(max((self.elapsed - start) / self.phase_ms[i], 0.0), 1.0)

    @property
    def shows_updated_stats(self) -> bool:
        """True from backprop on: only then has the iteration written its
        visits and means into the trees (before it, show the `before` trees)."""
        return self.phase_index >= self.phases.index("backprop")

    def node_changes(self, agent: int) -> list[tuple[int, int, int, int, float | None, float]]:
        """(depth, node id, visits before, after, mean before, after) for each
        node of agent's path found in the `after` snapshot; a node the
        iteration expanded is not in `before` (0 visits, no mean)."""
        path = self.trace.paths[agent] if agent < len(self.trace.paths) else ()
        pre, post = self.before.get(agent), self.after.get(agent)
        if post is None or not path:
            return []
        rows_after = {int(n): k for k, n in enumerate(post.node)}
        rows_before = {int(n): k for k, n in enumerate(pre.node)} if pre is not None else {}
        out = []
        for depth, node in enumerate(path):
            k = rows_after.get(int(node))
            if k is None:
                continue
            j = rows_before.get(int(node))
            vb = int(pre.visits[j]) if j is not None else 0
            mb = float(pre.mean[j]) if j is not None else None
            out.append((depth, int(node), vb, int(post.visits[k]), mb, float(post.mean[k])))
        return out

    # -- facts from the trace ----------------------------------------------------
    @property
    def depth(self) -> int:
        return int(self.trace.depth)

    def move(self, agent: int, turn: int) -> int:
        return int(self.trace.moves[agent][turn])

    def pick(self, agent: int, turn: int) -> str:
        return self.trace.picks[agent][turn]

    def deaths(self) -> list[tuple[int, int]]:
        """(agent, turn index) where an agent alive at that turn's start died."""
        out = []
        t = self.trace
        for a in range(min(self.num_agents, len(t.alive_after))):
            for d in range(self.depth):
                alive_before = (t.alive_after[a][d - 1] if d > 0 else
                                t.picks[a][0] in ("ucb", "random", "rollout"))
                if alive_before and not t.alive_after[a][d]:
                    out.append((a, d))
                    break
        return out

    def turns_revealed(self) -> int:
        """Turns whose picks are visible (grows during select)."""
        i = self._sim_index
        if i < 0:
            return 0
        if i == 0:
            return min(self.depth, math.ceil(self.progress * self.depth - 1e-9))
        return self.depth

    def sim_turn(self) -> int:
        """Turns simulated so far (the cursor), 0..depth."""
        i = self._sim_index
        if i < 2:
            return 0
        if i == 2:
            return min(self.depth, math.ceil(self.progress * self.depth - 1e-9))
        return self.depth

    def backed_value(self, agent: int) -> tuple[int, float]:
        """(path index the flash is at, value added there): the leaf gets the
        full score, each step up multiplies by gamma (smitsimax_iterate.c)."""
        path = self.trace.paths[agent]
        last = len(path) - 1
        climbed = round(self.progress * last) if self.phase == "backprop" else 0
        if self.phase == "done":
            climbed = last
        g = 1.0 if self.gamma is None else float(self.gamma)
        return last - climbed, float(self.trace.scores[agent]) * g ** climbed

    # -- tree views --------------------------------------------------------------
    def apply(self, tree_views: Sequence | Mapping) -> None:
        """Set each agent's TreeView highlight for the current moment."""
        for a in range(self.num_agents):
            view = tree_views.get(a) if isinstance(tree_views, Mapping) else \
                (tree_views[a] if a < len(tree_views) else None)
            if view is None:
                continue
            path = self.trace.paths[a] if a < len(self.trace.paths) else ()
            phase = self.phase
            if phase in ("done", "update") or not path:
                view.set_highlight(None)
            elif phase == "select":
                # In step with the chips: root + one node per revealed turn.
                shown = 1 + self.turns_revealed()
                view.set_highlight(path, "select", min(1.0, shown / len(path)))
            elif phase == "backprop":
                view.set_highlight(path, "backprop", self.progress)
            else:
                view.set_highlight(path, "select", 1.0)

    # -- drawing -----------------------------------------------------------------
    def draw_overlay(self, surface: pygame.Surface, tree_rects: Sequence,
                     wall_x: Sequence[int] | None = None,
                     strip_rect: pygame.Rect | Sequence[int] | None = None,
                     box_rects: Sequence | None = None) -> pygame.Rect:
        """Draw the walls, the per-agent picks, the joint-action strip and the
        phase status over the tree panels. `tree_rects[a]` is agent a's panel;
        `wall_x` defaults to the gaps between horizontally adjacent panels;
        `strip_rect` (where the joint action forms) defaults to the bottom
        middle of the panels. Returns the strip rect."""
        rects = [pygame.Rect(r) for r in tree_rects]
        if not rects:
            return pygame.Rect(0, 0, 0, 0)
        union = rects[0].unionall(rects[1:])
        strip = pygame.Rect(strip_rect) if strip_rect is not None else self._default_strip(union)
        self._draw_walls(surface, rects, union, wall_x)
        i = self._sim_index
        cells = self._strip_cells(strip)
        if i < 0:
            # no strip yet: the sweeps are over the whole tree, drawn over
            # the panels (their root bars too where given)
            self._draw_update(surface, [pygame.Rect(r) for r in box_rects] if box_rects
                              else rects)
            return strip
        # Per-panel chips (select), flying chips (joint), strip (joint on).
        if i == 0:
            for a, r in enumerate(rects[: self.num_agents]):
                for d in range(self.turns_revealed()):
                    self._chip(surface, self._panel_chip(r, strip, d), a, d)
        self._draw_strip_frame(surface, strip, cells)
        if i == 1:
            t = _ease(self.progress)
            for a, r in enumerate(rects[: self.num_agents]):
                src_row = self._panel_chip(r, strip, 0)
                pygame.draw.line(surface, palette.lerp(MERGE_COLOR, palette.PANEL, 0.5),
                                 src_row.center, cells[a][0].center if self.depth else
                                 strip.center, 1)
                for d in range(self.depth):
                    src = self._panel_chip(r, strip, d)
                    dst = cells[a][d]
                    box = pygame.Rect(0, 0, dst.w, dst.h)
                    box.center = (src.centerx + (dst.centerx - src.centerx) * t,
                                  src.centery + (dst.centery - src.centery) * t)
                    self._chip(surface, box, a, d)
            if self.progress > 0.7:
                self._merge_lines(surface, cells)
        elif i >= 2:
            for a in range(self.num_agents):
                for d in range(self.depth):
                    self._chip(surface, cells[a][d], a, d, dim=i == 2 and d >= self.sim_turn())
            self._merge_lines(surface, cells)
            self._draw_deaths(surface, cells)
            if i == 2 and 0 < self.sim_turn() <= self.depth:
                col = [cells[a][self.sim_turn() - 1] for a in range(self.num_agents)]
                box = col[0].unionall(col[1:]).inflate(4, 4)
                pygame.draw.rect(surface, SIM_COLOR, box, 2)
        if i == 3 or (i == 4 and self.depth):
            self._draw_scores(surface, rects, strip,
                              [pygame.Rect(r) for r in box_rects] if box_rects else None)
        self._draw_status(surface, strip)
        return strip

    @property
    def strip_height(self) -> int:
        """Height the joint-action strip needs: a scene that wants it below
        the panels (not over their deepest rows) reserves this much and
        passes strip_rect."""
        return 20 + self.num_agents * (CHIP_H + 2) + 34

    # -- pieces ------------------------------------------------------------------
    def _default_strip(self, union: pygame.Rect) -> pygame.Rect:
        d = max(self.depth, 1)
        cw = int(min(40, max(14, (union.w * 0.7 - 70) / d)))
        w = min(union.w - 8, 70 + d * cw + 12)
        h = self.strip_height
        r = pygame.Rect(0, 0, max(w, 260 if union.w >= 268 else union.w - 8), h)
        r.midbottom = (union.centerx, union.bottom - 4)
        return r

    def _strip_cells(self, strip: pygame.Rect) -> list[list[pygame.Rect]]:
        d = max(self.depth, 1)
        x0 = strip.x + 66
        cw = max(min(40, (strip.right - 6 - x0) // d), 6)
        cells = []
        for a in range(self.num_agents):
            y = strip.y + 20 + a * (CHIP_H + 2)
            cells.append([pygame.Rect(x0 + k * cw, y, cw - 2, CHIP_H) for k in range(self.depth)])
        return cells

    def _panel_chip(self, r: pygame.Rect, strip: pygame.Rect, d: int) -> pygame.Rect:
        """Where agent's pick at turn d sits inside its own panel."""
        cw = int(min(40, max(10, (r.w - 16) / max(self.depth, 1))))
        bottom = r.bottom - 20
        if r.colliderect(strip):
            bottom = min(bottom, strip.top - 6)
        return pygame.Rect(r.x + 8 + d * cw, bottom - CHIP_H, cw - 2, CHIP_H)

    def _chip(self, surface, box: pygame.Rect, agent: int, turn: int, dim: bool = False) -> None:
        """One agent's pick for one turn. Solid: UCB pick. Outline: random
        pick (parent below the random threshold). Faint: rollout (below the
        tree). Grey: pass (eliminated). '+': a node was expanded here."""
        move, pick = self.move(agent, turn), self.pick(agent, turn)
        color = self.colors[agent]
        if pick == "pass" or move < 0:
            fill, text_col = palette.GRID, palette.TEXT_DIM
            name = "pass" if pick == "pass" else "–"
        elif pick == "rollout":
            fill = palette.lerp(color, palette.PANEL, 0.65)
            text_col, name = palette.TEXT_DIM, self.move_names[agent](move)
        elif pick == "random":
            fill, text_col, name = palette.PANEL, color, self.move_names[agent](move)
        else:
            fill, name = color, self.move_names[agent](move)
            text_col = (18, 20, 26) if sum(color) > 380 else palette.TEXT
        if dim:
            fill = palette.lerp(fill, palette.PANEL, 0.6)
            text_col = palette.lerp(text_col, palette.PANEL, 0.5)
        surface.fill(fill, box)
        if pick == "random":
            pygame.draw.rect(surface, color, box, 2)
        lab = fonts.text(name, 10, text_col)
        if lab.get_width() > box.w - 2:
            lab = fonts.text(name[:1], 10, text_col)
        if lab.get_width() <= box.w:
            surface.blit(lab, (box.centerx - lab.get_width() // 2,
                               box.centery - lab.get_height() // 2))
        if self.trace.expanded[agent][turn] and box.w >= 10:
            surface.fill(palette.TEXT, (box.right - 4, box.y + 1, 3, 1))
            surface.fill(palette.TEXT, (box.right - 3, box.y, 1, 3))

    def _draw_walls(self, surface, rects, union, wall_x) -> None:
        xs = list(wall_x) if wall_x is not None else _gaps(rects)
        for x in xs:
            for y in range(union.top, union.bottom, 10):
                pygame.draw.line(surface, palette.TEXT_DIM, (x, y),
                                 (x, min(y + 5, union.bottom)), 2)
            lab = fonts.text("wall", 10, palette.TEXT_DIM)
            surface.fill(palette.BG, (x - lab.get_width() // 2 - 2, union.top + 20,
                                      lab.get_width() + 4, lab.get_height()))
            surface.blit(lab, (x - lab.get_width() // 2, union.top + 20))

    def _draw_strip_frame(self, surface, strip: pygame.Rect, cells) -> None:
        surface.fill(palette.BG, strip)
        pygame.draw.rect(surface, palette.BORDER, strip, 1)
        self._draw_titles(surface, strip.x + 4, strip.y + 3, strip.right)
        for a, row in enumerate(cells):
            lab = fonts.text(f"Agent {a}", 10, self.colors[a])
            surface.blit(lab, (strip.x + 4, strip.y + 20 + a * (CHIP_H + 2) + 2))
            for box in row:
                pygame.draw.rect(surface, palette.GRID, box, 1)
        if cells and cells[0]:
            for k in range(0, self.depth, max(1, math.ceil(self.depth / 12))):
                lab = fonts.text(str(k + 1), 9, palette.TEXT_DIM)
                b = cells[-1][k]
                surface.blit(lab, (b.centerx - lab.get_width() // 2, b.bottom + 1))

    def _draw_titles(self, surface, x: int, y: int, right: int) -> None:
        """The phase names in a row from (x, y), the current one lit; where
        they do not all fit, the others shrink to their numbers."""
        colors = ((UPDATE_COLOR,) if self._off else ()) + PHASE_COLORS
        full = sum(fonts.text(t, 10, palette.TEXT).get_width() + 11
                   for t in self.phase_titles) <= right - x - 2
        for k, title in enumerate(self.phase_titles):
            on = k == self.phase_index
            if not full and not on:
                title = title.split(" ", 1)[0]
            lab = fonts.text(title, 10, palette.BG if on else palette.TEXT_DIM, bold=on)
            box = pygame.Rect(x, y, lab.get_width() + 8, 14)
            if box.right > right - 2:
                break
            if on:
                surface.fill(colors[k], box)
            surface.blit(lab, (x + 4, y))
            x = box.right + 3

    def _merge_lines(self, surface, cells) -> None:
        """Green bars tying each turn's picks into one joint action."""
        if not cells or not cells[0]:
            return
        for d in range(self.depth):
            top, bot = cells[0][d], cells[-1][d]
            x = top.centerx
            pygame.draw.line(surface, MERGE_COLOR, (top.x, top.y - 2), (top.right, top.y - 2), 2)
            pygame.draw.line(surface, MERGE_COLOR, (x, top.y - 2), (x, bot.bottom), 1)

    def _draw_deaths(self, surface, cells) -> None:
        shown = self.sim_turn()
        for a, d in self.deaths():
            if a >= len(cells) or d >= shown:
                continue
            b = cells[a][d]
            pygame.draw.line(surface, DEATH, b.topleft, b.bottomright, 2)
            pygame.draw.line(surface, DEATH, b.bottomleft, b.topright, 2)

    def score_lines(self, agent: int, compact: bool = False) -> list[str]:
        """The backprop box's lines for `agent`: its leaf score, what each
        path node receives, and each node's visits and mean before -> after
        with as many digits as it takes to see the mean move (a 0.4813 ->
        0.4817 step read "0.48 -> 0.48" at two decimals). `compact`: the
        same facts in fewer characters, for narrow panels."""
        idx, value = self.backed_value(agent)
        t = self.trace
        lo, hi = float(t.norm_min[agent]), float(t.norm_max[agent])
        norm = (float(t.scores[agent]) - lo) / (hi - lo) if hi > lo else 0.5
        score = float(t.scores[agent])
        if self._off:
            # GT-CFR backs nothing up along the path: the trace's score is
            # the root's value from the last sweep, and the new leaf's
            # value reaches the tree in the next one
            lines = [f"root value {score:.3g} (last sweep)"]
            ref = t.refine
            if ref is not None:
                # the simulation refined a frontier leaf instead of
                # expanding it: one more leaf value into its mean
                v, m = (ref.value, ref.mean) if agent == 0 else (-ref.value, -ref.mean)
                lines[:0] = ([f"leaf refined, visit {ref.visits}/{ref.expand_after}",
                              f"{v:+.3g} → mean {m:.3g} of {ref.samples}"] if compact else
                             [f"leaf refined, not expanded: visit {ref.visits} "
                              f"(it expands at visit {ref.expand_after})",
                              f"this value {v:+.3g}, the leaf's mean of {ref.samples} "
                              f"now {m:.3g}"])
        elif compact:
            lines = [f"leaf {score:.3g} (norm {norm:.2f})"]
            lines.append(f"{value:+.3g} at d{idx} (×γ {self.gamma:g})"
                         if self.gamma is not None and self.gamma != 1.0
                         else f"{value:+.3g} to each node")
        else:
            lines = [f"leaf score {score:.3g}  (normalised {norm:.2f})"]
            if self.gamma is not None and self.gamma != 1.0:
                lines.append(f"{value:+.3g} at depth {idx}  (× γ={self.gamma:g} per level)")
            else:
                lines.append(f"{value:+.3g} to every node on the path")
        changes = self.node_changes(agent)
        for depth, _node, vb, va, mb, ma in changes:
            if compact:   # the new mean and the change it made
                delta = "new" if mb is None else f"{ma - mb:+.2g}"
                lines.append(f"d{depth} n {va} μ {ma:.3g} ({delta})")
            else:
                was, now = ("new", f"{ma:.3g}") if mb is None else mean_change(mb, ma)
                lines.append(f"d{depth}: n {vb}→{va}  mean {was}→{now}")
        return lines

    def _draw_scores(self, surface, rects, strip: pygame.Rect,
                     panels: list[pygame.Rect] | None = None) -> None:
        """One box per agent inside its own panel (never over a neighbour's),
        clear of the joint-action strip: above it or beside it, whichever
        shows the most lines in full; lines that do not fit are counted.
        `panels[a]`: agent a's whole panel (its root bars too), a place for
        the box where the strip leaves its tree area too little room."""
        self.score_boxes = []
        for a, r in enumerate(rects[: self.num_agents]):
            best = None
            rooms = [(room, 1) for room in _free_rooms(r, strip)]
            if panels is not None and a < len(panels):
                rooms += [(room, 0) for room in _free_rooms(panels[a], strip)]
            for room, own in rooms:
                for compact, size in ((False, 10), (True, 10), (True, 9)):
                    lines = self.score_lines(a, compact)
                    f = fonts.font(size)
                    readable = max(f.size(x)[0] for x in lines) + 10 <= room.w
                    if not readable and size > 9:
                        continue   # the last form is cut to fit instead
                    lh = f.get_linesize()
                    fit = max(0, (room.h - 6) // lh)
                    if fit < 2:
                        continue
                    if len(lines) > fit:   # the last line counts what is left out
                        lines = lines[:fit - 1] + [f"… {len(lines) - fit + 1} more lines"]
                    # readable first, then the most lines, the fuller form,
                    # and the tree area before the bars above it
                    score = (readable, len(lines), not compact, size, own)
                    if best is None or score > best[0]:
                        best = (score, room, lines, size, lh)
                    break
            if best is None:
                continue
            _, room, lines, size, lh = best
            labs = [fonts.text(fonts.elide(x, size, room.w - 10), size, palette.TEXT)
                    for x in lines]
            w = min(room.w, max(lab.get_width() for lab in labs) + 10)
            box = pygame.Rect(room.right - w, room.y, w, 6 + lh * len(labs))
            surface.fill(palette.BG, box)
            pygame.draw.rect(surface, BACKPROP_COLOR, box, 1)
            pygame.draw.rect(surface, self.colors[a], (box.x, box.y, 3, box.h))
            for k, lab in enumerate(labs):
                surface.blit(lab, (box.x + 7, box.y + 3 + lh * k))
            self.score_boxes.append(box)

    def update_text(self) -> str:
        """The regret-update phase in one line."""
        u = self.update_phase
        if u is None:
            return ""
        if u.sweeps > 0:
            return (f"regret update: {u.sweeps} sweep{'s' * (u.sweeps != 1)} "
                    f"over {u.nodes} node{'s' * (u.nodes != 1)}")
        c = self.expansions_per_update
        if c is None:
            return "no sweep this step"
        return f"no sweep this step (c = {c:g}: one sweep every {c:g} expansions)"

    def update_rows(self, agent: int) -> list[tuple[int, float, float, float, float]]:
        """Player `agent`'s root moves in the update phase: (move, current
        before, after, average before, after)."""
        u = self.update_phase
        if u is None or agent >= len(u.moves):
            return []
        return [(m, u.current_before[agent][i], u.current_after[agent][i],
                 u.average_before[agent][i], u.average_after[agent][i])
                for i, m in enumerate(u.moves[agent])]

    def _draw_update(self, surface, areas: Sequence[pygame.Rect]) -> None:
        """The regret-update phase over the panels (it has no joint-action
        strip): a header with the phase titles and what the sweeps did,
        then one column per player (its own panel where each has one) with
        a line per root move: the current strategy (RM+) and the average,
        each a pair of bars, before (faint, upper) over after (solid,
        lower), and the numbers. Rows that do not fit are counted."""
        self.update_boxes = []
        union = areas[0].unionall(areas[1:])
        f = fonts.font(10)
        lh = max(f.get_linesize(), 13)
        surface.fill(palette.BG, union)
        pygame.draw.rect(surface, UPDATE_COLOR, union, 1)
        self._draw_titles(surface, union.x + 4, union.y + 3, union.right)
        status = fonts.elide(self.status_text(), 10, union.w - 8)
        surface.blit(fonts.text(status, 10, UPDATE_COLOR), (union.x + 4, union.y + 20))
        legend = "per root move: current (regret matching+) and average strategy; " \
                 "faint bar before the sweeps, solid after"
        surface.blit(fonts.text(fonts.elide(legend, 9, union.w - 8), 9, palette.TEXT_DIM),
                     (union.x + 4, union.y + 20 + lh))
        self.update_header = pygame.Rect(union.x, union.y, union.w, 22 + 2 * lh)
        top = self.update_header.bottom + 2
        n = self.num_agents
        if len(areas) >= n:
            cols = [pygame.Rect(r.x, top, r.w, r.bottom - top) for r in areas[:n]]
        else:
            w = union.w // max(n, 1)
            cols = [pygame.Rect(union.x + a * w, top, w, union.bottom - top) for a in range(n)]
        for a, col in enumerate(cols):
            rows = self.update_rows(a)
            if not rows or col.h < 2 * lh or col.w < 120:
                continue
            col = col.inflate(-8, -2)
            fit = max(0, (col.h - lh) // lh)
            shown = rows if len(rows) <= fit else rows[:max(fit - 1, 0)]
            name_w = min(60, col.w // 6)
            group_w = (col.w - name_w - 6) // 2
            num_w = fonts.text("0.000→0.000", 9, palette.TEXT).get_width() + 4
            bar_w = max(group_w - num_w - 6, 6)
            x_cur = col.x + name_w
            x_avg = x_cur + group_w + 6
            y = col.y
            surface.fill(self.colors[a], (col.x, y + 2, 3, lh - 4))
            surface.blit(fonts.text(f"Agent {a}", 10, self.colors[a]), (col.x + 6, y))
            surface.blit(fonts.text("current", 9, palette.TEXT_DIM), (x_cur, y))
            surface.blit(fonts.text("average", 9, palette.TEXT_DIM), (x_avg, y))
            y += lh
            half = max((lh - 3) // 2, 2)
            for m, cb, ca, ab, aa in shown:
                name = fonts.elide(self.move_names[a](m) if m >= 0 else "pass", 10, name_w - 6)
                surface.blit(fonts.text(name, 10, palette.TEXT), (col.x + 6, y))
                for x0, pre, post in ((x_cur, cb, ca), (x_avg, ab, aa)):
                    pygame.draw.rect(surface, palette.GRID, (x0, y + 1, bar_w, 2 * half + 1), 1)
                    surface.fill(palette.lerp(UPDATE_COLOR, palette.PANEL, 0.6),
                                 (x0, y + 1, round(bar_w * pre), half))
                    surface.fill(UPDATE_COLOR, (x0, y + 2 + half, round(bar_w * post), half))
                    col_num = palette.TEXT if abs(post - pre) >= 5e-4 else palette.TEXT_DIM
                    surface.blit(fonts.text(f"{pre:.3f}→{post:.3f}", 9, col_num),
                                 (x0 + bar_w + 4, y))
                y += lh
            if len(shown) < len(rows):
                surface.blit(fonts.text(f"… {len(rows) - len(shown)} more moves", 9,
                                        palette.TEXT_DIM), (col.x + 6, y))
                y += lh
            self.update_boxes.append(pygame.Rect(col.x, col.y, col.w, y - col.y))

    def status_text(self) -> str:
        if self._sim_index < 0:
            held = "  · J: the expansion" if self.held else ""
            return self.update_text() + held
        i, d = self._sim_index, self.depth
        t = self.trace
        if d == 0:
            return f"no turn simulated (stop: {t.stop_reason})"
        held = "  · J: next phase" if self.held else ""
        if i == 0:
            return (f"each agent descends its own tree: turn {self.turns_revealed()} of {d}"
                    + held)
        if i == 1:
            return f"picks combine into {d} joint action{'s' * (d != 1)}" + held
        if i == 2:
            k = self.sim_turn()
            died = [f"A{a} died turn {x + 1}" for a, x in self.deaths() if x < k]
            s = f"simulating turn {k} of {d}"
            if k == d:
                s += " · terminal state" if t.terminal else " · depth limit"
                s += " · leaf score " + " ".join(
                    f"A{a} {float(t.scores[a]):.3g}" for a in range(min(self.num_agents,
                                                                       len(t.scores))))
            return s + ("  · " + ", ".join(died) if died else "") + held
        if i == 3:
            if self._off:
                ref = t.refine
                if ref is not None:
                    return (f"leaf refined, not expanded (visit {ref.visits} of "
                            f"{ref.expand_after}): value {ref.value:+.3g}, mean of "
                            f"{ref.samples} now {ref.mean:.3g}; the next sweep reads it" + held)
                return "new leaf valued; the next sweep carries it up" + held
            return "backpropagation: each tree gets its own agent's score" + held
        return "iteration done"

    def _draw_status(self, surface, strip: pygame.Rect) -> None:
        y = strip.y + 20 + self.num_agents * (CHIP_H + 2) + 12
        colors = ((UPDATE_COLOR,) if self._off else ()) + PHASE_COLORS
        lab = fonts.text(fonts.elide(self.status_text(), 10, strip.w - 8), 10,
                         colors[min(self.phase_index, len(colors) - 1)] if not self.done
                         else palette.TEXT)
        surface.blit(lab, (strip.x + 4, min(y, strip.bottom - lab.get_height() - 1)))


def mean_change(before: float, after: float) -> tuple[str, str]:
    """Both means with the fewest significant digits (3 to 8) that tell
    them apart; equal ones at 3."""
    for d in range(3, 9):
        a, b = f"{before:.{d}g}", f"{after:.{d}g}"
        if a != b:
            return a, b
    return f"{before:.3g}", f"{after:.3g}"


def _free_rooms(r: pygame.Rect, strip: pygame.Rect) -> list[pygame.Rect]:
    """Where a panel's backprop box may go: the panel below its header,
    or, where the joint-action strip lies over the panel, above the strip
    and left or right of it."""
    full = pygame.Rect(r.x + 4, r.y + 20, r.w - 10, r.bottom - r.y - 24)
    if not full.colliderect(strip.inflate(6, 6)):
        return [full]
    rooms = [pygame.Rect(full.x, full.y, full.w, strip.top - 4 - full.y),
             pygame.Rect(full.x, full.y, strip.left - 4 - full.x, full.h),
             pygame.Rect(strip.right + 4, full.y, full.right - strip.right - 4, full.h)]
    return [x for x in rooms if x.w >= 60 and x.h >= 30]


def _gaps(rects: Sequence[pygame.Rect]) -> list[int]:
    """x of the wall between each panel and its nearest neighbour to the
    right in the same row."""
    xs = []
    for a in rects:
        right = [b for b in rects if b.left >= a.right - 2 and
                 min(a.bottom, b.bottom) > max(a.top, b.top)]
        if right:
            b = min(right, key=lambda r: r.left)
            x = (a.right + b.left) // 2
            if x not in xs:
                xs.append(x)
    return xs
