"""The app shell: window, frame loop, scene stack.

Every frame is: events -> update(dt) -> draw, where draw only reads state.
Scenes form a stack (menu, arena, replay, later labs); the top scene gets the
events and is updated; scenes below stay paused (enter/exit and
pause/resume are paired). The shell also owns the things every scene shares:
screenshots, the frame-time profile and the --state-file output.
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pygame

from ..imagefile import ScreenshotError, screenshot_problem

from ..render import palette as pal

DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (1100, 700)    # the arena's layout holds together down to here
WM_CLASS = "simsandbox"


class Scene:
    """Base scene. Subclasses override what they need."""

    name = "scene"

    def __init__(self, app: "App") -> None:
        self.app = app

    def enter(self) -> None: ...
    def exit(self) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def resize(self, size: tuple[int, int]) -> None: ...

    def handle_event(self, event: pygame.event.Event) -> bool:
        return False

    def update(self, dt_ms: float) -> None: ...

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(pal.BG)

    def state(self) -> dict[str, Any]:
        """What --state-file reports about this scene."""
        return {"scene": self.name}


def _set_minimum_size(size: tuple[int, int]) -> None:
    """Below MIN_SIZE the arena's panels would overlap: ask the window
    manager not to go there. Best effort: pygame-ce reaches the display
    module's window only through an API it marks deprecated."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().minimum_size = size
    except (AttributeError, pygame.error):
        pass


class App:
    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, fps: int = 60,
                 state_file: str | None = None, title: str = "Simultaneous-move search sandbox") -> None:
        # lets xdotool find us. `import pygame` already set this variable to
        # argv[0]'s basename when DISPLAY is set, so setdefault would be a
        # no-op: replace pygame's default, keep a value the user chose.
        if os.environ.get("SDL_VIDEO_X11_WMCLASS") in (None, os.path.basename(sys.argv[0])):
            os.environ["SDL_VIDEO_X11_WMCLASS"] = WM_CLASS
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(300, 40)
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        _set_minimum_size(MIN_SIZE)
        pygame.display.set_caption(title)
        self.fps_cap = fps
        self.clock = pygame.time.Clock()
        self.scenes: list[Scene] = []
        self.running = False
        # a QUIT (window closed, or SIGTERM, which SDL turns into QUIT;
        # Python keeps SIGINT: KeyboardInterrupt) seen by any run(): loops
        # that call run() a frame at a time (screenshots, frame profiles)
        # stop on it instead of starting the next frame
        self.quit_requested = False
        self.frame = 0
        self.frame_ms: list[float] = []       # work per frame (events+update+draw+flip)
        self.frame_interval_ms: list[float] = []
        self.fps = 0.0
        self.state_file = Path(state_file) if state_file else None
        self._last_state_write = 0.0
        self._last_frame_start: float | None = None
        self.pending_screenshot: str | None = None
        self.exit_code = 0
        # scenario -> (() -> recorder or None); set by run_app, used by scenes
        self.recorder_factory = lambda scenario, stem=None: (lambda: None)
        self.replay_dir: str | None = None   # where the menu lists replays (None: replays/)

    # --------------------------------------------------------------- scenes
    @property
    def scene(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        if self.scene:
            self.scene.pause()
        self.scenes.append(scene)
        scene.enter()
        scene.resize(self.screen.get_size())

    def pop(self) -> None:
        if not self.scenes:
            return
        self.scenes.pop().exit()
        if self.scene:
            self.scene.resume()
            self.scene.resize(self.screen.get_size())
        else:
            self.running = False

    def replace(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes.pop().exit()
        self.scenes.append(scene)
        scene.enter()
        scene.resize(self.screen.get_size())

    def quit(self, code: int = 0) -> None:
        self.exit_code = code
        self.running = False

    # --------------------------------------------------------------- frame
    def screenshot(self, path: str | os.PathLike) -> Path:
        """Save the whole window (works with the dummy video driver), in the
        format the name's extension says (IMAGE_SUFFIXES). A file that
        cannot be written is a ScreenshotError, one line."""
        p = Path(path)
        why = screenshot_problem(p)
        if why:
            raise ScreenshotError(f"screenshot {p}: {why}")
        try:
            if p.parent and not p.parent.exists():
                p.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(self.screen, str(p))
        except (OSError, pygame.error) as exc:
            msg = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise ScreenshotError(f"screenshot {p}: cannot write it: {msg}") from None
        return p

    def screenshot_path(self, prefix: str, directory: str | os.PathLike = "screenshots") -> str:
        """A new file name screenshots/<prefix>-<date>-<time>[-n].png (two
        presses within a second must not overwrite each other)."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        stem = time.strftime(f"{prefix}-%Y%m%d-%H%M%S")
        p, n = d / f"{stem}.png", 1
        while p.exists():
            n += 1
            p = d / f"{stem}-{n}.png"
        return str(p)

    def run(self, max_frames: int | None = None) -> int:
        self.running = True
        while self.running and self.scenes:
            t0 = time.perf_counter()
            # frame-to-frame interval; across run() calls (screenshots, tests
            # stepping a few frames) it is unknown: count one nominal frame
            last = self._last_frame_start
            interval = (t0 - last) * 1000.0 if last is not None else 1000.0 / self.fps_cap
            self._last_frame_start = t0
            dt = min(interval, 250.0)  # a stall must not fast-forward the game
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    self.running = False
                    self.quit_requested = True
                elif event.type == pygame.VIDEORESIZE:
                    self.screen = pygame.display.get_surface()
                    for s in self.scenes:
                        s.resize(self.screen.get_size())
                elif self.scene is not None:
                    self.scene.handle_event(event)
            if not self.scenes:
                break
            self.scene.update(dt)
            self.scene.draw(self.screen)
            pygame.display.flip()
            if self.pending_screenshot:
                try:
                    self.screenshot(self.pending_screenshot)
                except ScreenshotError as exc:   # a key press must not end the app
                    flash = getattr(self.scene, "flash", None)
                    if flash is not None:
                        flash(str(exc))
                self.pending_screenshot = None
            work = (time.perf_counter() - t0) * 1000.0
            self.frame += 1
            if self.frame > 1 and last is not None:  # the first frame includes start-up
                self.frame_ms.append(work)
                self.frame_interval_ms.append(interval)
                # smoothed over ~1 s of frames, for the on-screen readout
                self.fps += (1000.0 / max(interval, 1e-3) - self.fps) * 0.05
            self._write_state()
            if max_frames is not None and self.frame >= max_frames:
                self._last_frame_start = None
                return self.exit_code  # paused, not ended: run() may go on later
            self.clock.tick(self.fps_cap)
        self.close()
        return self.exit_code

    def close(self) -> None:
        """End every scene (closing their matches and searches)."""
        while self.scenes:
            self.scenes.pop().exit()
        self._write_state(force=True)

    # --------------------------------------------------------------- reports
    def frame_report(self) -> str:
        if not self.frame_ms:
            return "frame_ms min=0 median=0 p95=0"
        xs = sorted(self.frame_ms)
        p95 = xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
        return (f"frame_ms min={xs[0]:.2f} median={statistics.median(xs):.2f} p95={p95:.2f}")

    def achieved_fps(self) -> float:
        total = sum(self.frame_interval_ms)
        return 1000.0 * len(self.frame_interval_ms) / total if total > 0 else 0.0

    def _write_state(self, force: bool = False) -> None:
        if self.state_file is None:
            return
        now = time.perf_counter()
        if not force and now - self._last_state_write < 0.2:
            return
        self._last_state_write = now
        data = {"frame": self.frame, "fps": round(self.fps, 1),
                "scenes": [s.name for s in self.scenes]}
        if self.scene is not None:
            data.update(self.scene.state())
        tmp = self.state_file.with_suffix(self.state_file.suffix + ".tmp")
        tmp.write_text(json.dumps(data, default=str))
        os.replace(tmp, self.state_file)  # readers never see a half-written file
