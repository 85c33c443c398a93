"""The tree explorer's pieces that are not drawing: sub-trees of a snapshot,
move paths, export, where a pinned box may go, and the input handler.

    sub = subtree(snap, row)               # row's subtree as a TreeSnapshot
    steps = path_steps(snap, row)          # the move path to row (find_path's steps)
    row = row_at_path(snap, steps)         # ... and back (None: not in the snapshot)
    json_path, dot_path = export_tree(snap, folder, "agent0", name_of)
    box = place_box((w, h), node_rect, bounds)   # a box that keeps off the node

ExplorerInput turns mouse and key events over tree panels into TreeView
calls (wheel zoom about the cursor, drag pan, click re-root, right click
pin, breadcrumbs, Backspace, `/` find, X export, Esc dismiss) and returns a
status line for the scene to show.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from ..native.snapshot import FLAG_PASS, FLAG_PRIOR, MOVE_NONE, TreeSnapshot  # noqa: E402
from .tree_layout import level_starts, tree_kind  # noqa: E402

TREE_DIR_ENV = "SBX_TREE_DIR"
# The scenes' help rows for the explorer (the arena and the replay list them).
HELP = [
    ("wheel / drag", "tree: zoom about the cursor / pan (Shift+wheel: deeper levels)"),
    ("click / right click", "tree node: make it the view's root / pin its facts (Esc: unpin)"),
    ("Backspace", "tree: back up a crumb of the re-rooted view"),
    ("/", "tree: find a move path, e.g. U,L,R (Enter goes there)"),
    ("X", "tree: export the shown tree to trees/"),
]
DRAG_PX = 4                  # a press that moves less than this is a click


# -- sub-trees and paths -----------------------------------------------------------

def descendants(snap: TreeSnapshot, row: int) -> np.ndarray:
    """Rows of `row`'s subtree (itself first), in the snapshot's order: rows
    come parents first, so one forward pass marks every descendant."""
    n = len(snap.rows)
    keep = np.zeros(n, dtype=bool)
    keep[row] = True
    parent = snap.parent
    starts = level_starts((snap.depth - snap.depth[0]).astype(np.int64))
    for lev in range(int(snap.depth[row] - snap.depth[0]) + 1, len(starts) - 1):
        s, e = int(starts[lev]), int(starts[lev + 1])
        k = keep[parent[s:e]]
        if not k.any():
            break
        keep[s:e] = k
    return np.flatnonzero(keep)


def subtree(snap: TreeSnapshot, row: int, top_path: tuple | None = None) -> TreeSnapshot:
    """`row`'s subtree as a snapshot of its own: row 0 is `row` (parent -1,
    prob 1, no move), rows keep their order, parents are renumbered. A
    graph's links are kept where both ends are inside."""
    if row == 0:
        return snap
    keep = descendants(snap, row)
    new_of = np.full(len(snap.rows), -1, dtype=np.int64)
    new_of[keep] = np.arange(len(keep))
    rows = snap.rows[keep].copy()
    rows["parent"] = np.where(rows["parent"] >= 0, new_of[np.maximum(rows["parent"], 0)], -1)
    rows["parent"][0] = -1
    rows["prob"][0] = 1.0
    rows["move"][0] = MOVE_NONE
    rows["agent"][0] = -1
    rows["joint"][0] = MOVE_NONE
    rows["prior"][0] = 0.0      # the view's root: no move, so no prior (as C's top row)
    rows["flags"][0] &= np.uint8(0xFF ^ FLAG_PRIOR)
    links, lj = snap.links, snap.link_joints
    if len(links):
        inside = (new_of[links[:, 0]] >= 0) & (new_of[links[:, 1]] >= 0)
        links = np.stack((new_of[links[inside, 0]], new_of[links[inside, 1]]),
                         axis=1).astype(np.int32)
        lj = lj[inside] if len(lj) == len(snap.links) else lj[:0]
    rows.flags.writeable = False
    path = top_path if top_path is not None else (
        None if snap.top_path is None else snap.top_path + tuple(path_steps(snap, row)))
    return replace(snap, rows=rows, links=links, link_joints=lj, top_path=path)


def step_of(snap: TreeSnapshot, row: int, kind: str | None = None) -> Any:
    """The move-path step that leads into `row` from its parent: the move
    (Smitsimax, SUCT; MOVE_NONE for a pass) or the joint action (joint, MCGS)
    as a tuple of every agent's move."""
    kind = kind or tree_kind(snap)
    if kind == "joint":
        j = [int(m) for m in snap.joint[row]]
        while len(j) > 1 and j[-1] == MOVE_NONE:
            j.pop()
        return tuple(j)
    return int(snap.move[row])


def path_steps(snap: TreeSnapshot, row: int) -> list:
    """The move path from row 0 to `row`."""
    kind = tree_kind(snap)
    return [step_of(snap, r, kind) for r in snap.path_to(row)[1:]]


def row_at_path(snap: TreeSnapshot, steps: Sequence) -> int | None:
    """The row reached from row 0 by `steps` (path_steps'), None if the
    snapshot does not show it."""
    kind = tree_kind(snap)
    row = 0
    for st in steps:
        kids = snap.children(row)
        nxt = next((int(k) for k in kids if step_of(snap, int(k), kind) == st), None)
        if nxt is None:
            return None
        row = nxt
    return row


# -- export ---------------------------------------------------------------------------

def default_tree_dir() -> Path:
    """$SBX_TREE_DIR, else `trees/` beside the replay folder."""
    env = os.environ.get(TREE_DIR_ENV)
    if env:
        return Path(env)
    from ..replay.library import default_replay_dir
    return Path(default_replay_dir()).resolve().parent / "trees"


def tree_json(snap: TreeSnapshot, name_of: Callable[[int], str], meta: dict | None = None) -> dict:
    """The snapshot as plain data: one entry per row, parents by row."""
    rows = snap.rows
    nodes = []
    for r in range(len(rows)):
        nodes.append({
            "row": r, "id": int(rows["node"][r]), "parent": int(rows["parent"][r]),
            "label": name_of(r), "visits": int(rows["visits"][r]),
            "mean": float(rows["mean"][r]), "prob": float(rows["prob"][r]),
            "depth": int(rows["depth"][r]), "flags": int(rows["flags"][r]),
            "mover": int(rows["agent"][r])})
    return {"format": "sbx-tree/1", **(meta or {}), "agent": snap.agent,
            "top_path": None if snap.top_path is None else [
                list(s) if isinstance(s, tuple) else s for s in snap.top_path],
            "tree_nodes": int(snap.tree_nodes), "rows": len(rows),
            "visits": int(rows["visits"][0]) if len(rows) else 0,
            "norm_min": snap.norm_min, "norm_max": snap.norm_max,
            "links": snap.links.tolist(), "nodes": nodes}


def tree_dot(snap: TreeSnapshot, name_of: Callable[[int], str], title: str = "tree") -> str:
    """Graphviz DOT: one `nR [...]` line per row, an edge per parent link
    (a graph's other parents dashed)."""
    def q(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    out = [f"digraph {q(title)} {{", "  node [shape=box, fontsize=10];"]
    rows = snap.rows
    for r in range(len(rows)):
        style = ", style=dashed" if rows["flags"][r] & FLAG_PASS else ""
        label = f"{name_of(r)}\n{int(rows['visits'][r])} v  {float(rows['mean'][r]):.3g}"
        out.append(f"  n{r} [label={q(label)}{style}];")
    for r in range(1, len(rows)):
        out.append(f"  n{int(rows['parent'][r])} -> n{r};")
    for p, c in snap.links.tolist():
        out.append(f"  n{p} -> n{c} [style=dashed];")
    out.append("}")
    return "\n".join(out) + "\n"


def export_tree(snap: TreeSnapshot, folder: str | os.PathLike, stem: str,
                name_of: Callable[[int], str], meta: dict | None = None) -> tuple[Path, Path]:
    """Write `stem`-<time>.json and .dot into folder (made if missing)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    base = f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}"
    k, jp = 0, folder / f"{base}.json"
    while jp.exists():
        k += 1
        jp = folder / f"{base}-{k}.json"
    dp = jp.with_suffix(".dot")
    jp.write_text(json.dumps(tree_json(snap, name_of, meta)))
    dp.write_text(tree_dot(snap, name_of, stem))
    return jp, dp


# -- boxes that keep off their node ------------------------------------------------

def place_box(size: tuple[int, int], node: pygame.Rect | None, bounds: pygame.Rect,
              gap: int = 6) -> pygame.Rect:
    """Where a box of `size` goes inside `bounds` without covering `node`:
    the corners of bounds first (top left, top right, bottom left, bottom
    right), then beside the node; the least overlap if nothing fits."""
    w, h = size
    cands = [pygame.Rect(bounds.x + 2, bounds.y + 2, w, h),
             pygame.Rect(bounds.right - w - 2, bounds.y + 2, w, h),
             pygame.Rect(bounds.x + 2, bounds.bottom - h - 2, w, h),
             pygame.Rect(bounds.right - w - 2, bounds.bottom - h - 2, w, h)]
    if node is not None:
        cands += [pygame.Rect(node.right + gap, node.centery - h // 2, w, h),
                  pygame.Rect(node.x - gap - w, node.centery - h // 2, w, h),
                  pygame.Rect(node.centerx - w // 2, node.bottom + gap, w, h),
                  pygame.Rect(node.centerx - w // 2, node.y - gap - h, w, h)]
    if node is None:
        return cands[0]
    best, best_area = cands[0], None
    target = node.inflate(2, 2)
    for c in cands:
        c = c.clamp(bounds) if c.w <= bounds.w and c.h <= bounds.h else c
        ov = c.clip(target)
        area = ov.w * ov.h
        if area == 0:
            return c
        if best_area is None or area < best_area:
            best, best_area = c, area
    return best


# -- input ------------------------------------------------------------------------------

class ExplorerInput:
    """Mouse and keys over tree panels -> TreeView explorer calls.

    `handle(event, panes)` with panes = [(view, rect), ...] returns
    (consumed, status): status is a line for the scene's message bar (None:
    nothing to say). The scene gives its panes each call (they move with the
    layout) and draws `draw(surface)` last (the find box)."""

    def __init__(self, export_dir: str | os.PathLike | None = None) -> None:
        self.export_dir = export_dir
        self.mouse: tuple[int, int] = (-1, -1)
        self._press: tuple[Any, tuple[int, int]] | None = None   # (view, pos)
        self._dragging = False
        self.find_text: str | None = None       # the `/` box's text while it is open
        self._find_view = None

    @property
    def busy(self) -> bool:
        """The find box is open: it takes the keyboard."""
        return self.find_text is not None

    @staticmethod
    def _pane_at(panes, pos):
        for view, rect in panes:
            if pygame.Rect(rect).collidepoint(pos):
                return view
        return None

    def handle(self, event: pygame.event.Event, panes) -> tuple[bool, str | None]:
        t = event.type
        if t == pygame.KEYDOWN and self.find_text is not None:
            return self._find_key(event)
        if t == pygame.MOUSEMOTION:
            self.mouse = tuple(event.pos)
            if self._press is not None and (event.buttons[0] if hasattr(event, "buttons") else 1):
                view, start = self._press
                dx, dy = event.pos[0] - start[0], event.pos[1] - start[1]
                if self._dragging or abs(dx) + abs(dy) >= DRAG_PX:
                    self._dragging = True
                    view.pan(dx, dy)
                    self._press = (view, tuple(event.pos))
                    return True, None
            return False, None
        if t == pygame.MOUSEWHEEL:
            view = self._pane_at(panes, self.mouse)
            if view is None:
                return False, None
            dy = getattr(event, "precise_y", event.y) or event.y
            if pygame.key.get_mods() & pygame.KMOD_SHIFT:
                view.pan(0, int(40 * dy))
            else:
                view.wheel(self.mouse, float(dy))
            return True, None
        if t == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.mouse = tuple(event.pos)
            view = self._pane_at(panes, event.pos)
            if view is None:
                dismissed = self._dismiss_all(panes)
                return False, "pinned facts dismissed" if dismissed else None
            if event.button == 3:
                info = view.click(event.pos)
                return True, None if info is None else "pinned (Esc or a click elsewhere dismisses)"
            self._press = (view, tuple(event.pos))
            self._dragging = False
            return True, None
        if t == pygame.MOUSEBUTTONUP and event.button == 1 and self._press is not None:
            view, _ = self._press
            dragged, self._press, self._dragging = self._dragging, None, False
            if dragged:
                return True, None
            return True, self._click(view, tuple(event.pos), panes)
        if t == pygame.KEYDOWN:
            return self._key(event, panes)
        return False, None

    def _dismiss_all(self, panes) -> bool:
        hit = False
        for view, _ in panes:
            if view.selected is not None:
                view.dismiss()
                hit = True
        return hit

    def _click(self, view, pos, panes) -> str | None:
        crumb = view.crumb_at(pos)
        if crumb is not None:
            view.go_up_to(crumb)
            return f"back to {view.focus_label}"
        pinned = view.selected is not None
        view.dismiss()
        if view.reroot_at(pos):
            return f"showing the subtree of {view.focus_label} (Backspace or a crumb: back up)"
        return "pinned facts dismissed" if pinned else None

    def _key(self, event, panes) -> tuple[bool, str | None]:
        view = self._pane_at(panes, self.mouse) or (panes[0][0] if panes else None)
        k, ch = event.key, event.unicode
        if k == pygame.K_ESCAPE:
            return (True, "pinned facts dismissed") if self._dismiss_all(panes) else (False, None)
        if view is None:
            return False, None
        if k == pygame.K_BACKSPACE:
            if view.focus_depth == 0:
                return False, None
            view.go_up_to(view.focus_depth - 1)
            return True, f"back to {view.focus_label}"
        if ch == "/":
            self.find_text, self._find_view = "", view
            return True, "find: type moves (e.g. U,L,R or up,left) then Enter; Esc cancels"
        if ch in ("x", "X") and view.snapshot is not None:
            try:
                jp, dp = view.export(self.export_dir or default_tree_dir())
            except OSError as exc:
                return True, f"export failed: {exc}"
            return True, f"tree exported: {jp} and {dp.name}"
        return False, None

    def _find_key(self, event) -> tuple[bool, str | None]:
        k = event.key
        if k == pygame.K_ESCAPE:
            self.find_text = None
            return True, "find cancelled"
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            text, view = self.find_text, self._find_view
            self.find_text = None
            info, err = view.find(text)
            if info is None:
                return True, f"find {text!r}: {err}"
            return True, f"found {' › '.join(info.path) or 'root'}: {info.visits:,} visits"
        if k == pygame.K_BACKSPACE:
            self.find_text = self.find_text[:-1]
        elif event.unicode and event.unicode.isprintable():
            self.find_text += event.unicode
        return True, None

    def draw(self, surface: pygame.Surface) -> None:
        """The find box over the pane it searches."""
        if self.find_text is None or self._find_view is None:
            return
        from . import fonts, palette
        r = self._find_view.rect
        lab = fonts.text(f"find: {self.find_text}_", 12, palette.TEXT)
        box = pygame.Rect(r.x + 4, r.bottom - lab.get_height() - 10, max(160, lab.get_width() + 12),
                          lab.get_height() + 6)
        surface.fill(palette.PANEL_HI, box)
        pygame.draw.rect(surface, palette.ACCENT, box, 1)
        surface.blit(lab, (box.x + 6, box.y + 3))
