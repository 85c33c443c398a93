"""The app in a real X window: `python main.py` under Xvfb, driven with
xdotool like a user would, checked through the app's own --state-file.

Drag the exploration-C slider of the chosen player, then read back from the
state file both the setting the UI asked for and the value the C search
reports (c_params: read from the native search after the change), and save a
screenshot with the app's P key. Needs Xvfb and xdotool (.ci/run installs
them with apt-get); skipped, with the reason, where they are missing.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from sandbox.render import palette as pal

ROOT = Path(__file__).resolve().parents[2]
MAIN = ROOT / "main.py"
SCREEN = (1600, 1000)
WINDOW = (1280, 800)       # the app's default window size
WM_CLASS = "simsandbox"    # set by the app (sandbox.app.shell.WM_CLASS)
TARGET_C = 2.0             # where the test drags the exploration-C slider
START_TIMEOUT_S = 30.0

missing = [tool for tool in ("Xvfb", "xdotool") if shutil.which(tool) is None]
pytestmark = pytest.mark.skipif(
    bool(missing), reason=f"real-window test needs {' and '.join(missing)} on PATH "
                          "(.ci/run installs them: apt-get install xvfb xdotool)")


# ----------------------------------------------------------------- helpers
@pytest.fixture
def xvfb_display():
    """A private Xvfb server; yields its DISPLAY (":N"). -displayfd lets the
    server pick a free display number and tells it once it accepts clients."""
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
         "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write_fd)
    try:
        number = b""
        deadline = time.monotonic() + 15.0
        os.set_blocking(read_fd, False)
        while not number.endswith(b"\n"):
            if server.poll() is not None:
                err = server.stderr.read().decode(errors="replace")
                pytest.fail(f"Xvfb exited with {server.returncode}: {err[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail("Xvfb did not report a display number within 15 s")
            try:
                chunk = os.read(read_fd, 64)
            except BlockingIOError:
                time.sleep(0.02)
                continue
            if not chunk:  # pipe closed without a number
                time.sleep(0.02)
                continue
            number += chunk
        yield f":{number.decode().strip()}"
    finally:
        os.close(read_fd)
        _stop(server, timeout=5.0)


def _stop(proc: subprocess.Popen, timeout: float) -> int | None:
    """SIGTERM, then SIGKILL if it is still there after `timeout` seconds."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5.0)
    return proc.returncode


def _xdotool(display: str, *args: str, timeout: float = 10.0) -> str:
    try:
        out = subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display},
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"xdotool {' '.join(args)} gave no answer within {timeout:.0f} s")
    assert out.returncode == 0, f"xdotool {' '.join(args)} failed: {out.stderr.strip()}"
    return out.stdout


def _read_state(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):  # not written yet (the app replaces it atomically)
        return None


def _wait_state(path: Path, ok, timeout: float, what: str, app: subprocess.Popen,
                log: Path) -> dict:
    """Poll the state file until ok(state) holds; fail with the last state
    (and the app's output) otherwise."""
    deadline = time.monotonic() + timeout
    state = None
    while time.monotonic() < deadline:
        if app.poll() is not None:
            pytest.fail(f"the app exited ({app.returncode}) while waiting for {what}:\n"
                        f"{_tail(log)}")
        state = _read_state(path)
        if state is not None and ok(state):
            return state
        time.sleep(0.05)
    brief = {k: v for k, v in (state or {}).items() if k != "widgets"}
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}; last state: "
                f"{json.dumps(brief)[:3000]}\napp output:\n{_tail(log)}")


def _tail(log: Path, n: int = 3000) -> str:
    try:
        return log.read_text(errors="replace")[-n:]
    except OSError:
        return "(no output)"


def _in_arena(state: dict) -> bool:
    if state.get("scene") != "arena" or "c" not in state.get("widgets", {}):
        return False
    players = state.get("players") or []
    sel = state.get("selected", -1)
    return 0 <= sel < len(players) and "settings" in players[sel] and "c_params" in players[sel]


def _slider_x(slider: dict, value: float) -> int:
    """Window x of `value` on the slider's track (linear track)."""
    tx, _, tw, _ = slider["track"]
    return int(round(tx + (value - slider["lo"]) / (slider["hi"] - slider["lo"]) * tw))


def _slider_value(slider: dict, x: int, step: float = 0.05) -> float:
    """What the slider sets when released at window x (its step is 0.05)."""
    tx, _, tw, _ = slider["track"]
    lo, hi = slider["lo"], slider["hi"]
    f = min(1.0, max(0.0, (x - tx) / max(1, tw)))
    v = lo + f * (hi - lo)
    return min(hi, max(lo, lo + round((v - lo) / step) * step))


# ----------------------------------------------------------------- the test
def test_drag_c_slider_reaches_the_search_and_screenshot(xvfb_display, tmp_path):
    display = xvfb_display
    state_path = tmp_path / "state.json"
    log = tmp_path / "app.log"
    env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11"}
    env.pop("SDL_VIDEO_X11_WMCLASS", None)  # the app names its own window class
    env.pop("WAYLAND_DISPLAY", None)
    with open(log, "wb") as out:
        app = subprocess.Popen(
            [sys.executable, str(MAIN), "--no-record", "--state-file", str(state_path),
             "--iterations", "2000"],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        # 1. The app is up, in the arena, and says where its widgets are.
        state = _wait_state(state_path, _in_arena, START_TIMEOUT_S, "the arena", app, log)
        sel = state["selected"]
        before = state["players"][sel]
        slider = state["widgets"]["c"]
        assert slider["log"] is False and (slider["lo"], slider["hi"]) == (0.0, 3.0)
        assert before["settings"]["c"] == pytest.approx(slider["value"])
        assert abs(before["settings"]["c"] - TARGET_C) > 0.5, "C already near the target"

        # 2. Its window, found the way an outside tool would: by WM class.
        ids = _xdotool(display, "search", "--sync", "--onlyvisible", "--class", WM_CLASS,
                       timeout=10.0).split()  # times out if the class is not set
        assert ids, f"no visible window of class {WM_CLASS!r}"
        wid = ids[0]
        geometry = _xdotool(display, "getwindowgeometry", wid)
        assert f"{WINDOW[0]}x{WINDOW[1]}" in geometry, geometry

        # 3. Drag the knob from where it is to TARGET_C (window coordinates).
        _, ty, _, th = slider["track"]
        y = ty + th // 2
        x0 = _slider_x(slider, slider["value"])
        x1 = _slider_x(slider, TARGET_C)
        _xdotool(display, "mousemove", "--window", wid, str(x0), str(y))
        time.sleep(0.1)
        _xdotool(display, "mousedown", "1")
        steps = 8
        for i in range(1, steps + 1):
            x = x0 + (x1 - x0) * i // steps
            _xdotool(display, "mousemove", "--window", wid, str(x), str(y))
            time.sleep(0.04)
        _xdotool(display, "mouseup", "1")
        # off the window, so no hover tooltip covers the slider in the screenshot
        _xdotool(display, "mousemove", "5", "5")
        expected = _slider_value(slider, x1)
        assert expected == pytest.approx(TARGET_C, abs=0.05)

        # 4. The search received it: the setting moved, and the C search's own
        # parameters (read back from the native search) say the same.
        def received(s: dict) -> bool:
            p = s["players"][sel] if _in_arena(s) else None
            return (p is not None and abs(p["settings"]["c"] - expected) <= 0.05 + 1e-9
                    and p["c_params"]["c"] == pytest.approx(p["settings"]["c"]))

        state = _wait_state(state_path, received, 10.0, f"C={expected} in the search", app, log)
        after = state["players"][sel]
        assert after["settings"]["c"] > 1.5
        assert after["c_params"]["c"] == pytest.approx(after["settings"]["c"], abs=1e-9)
        assert state["widgets"]["c"]["value"] == pytest.approx(after["settings"]["c"])
        # only C changed (the other sliders were not touched on the way)
        for key, value in before["settings"].items():
            if key != "c":
                assert after["settings"][key] == value, key
                assert after["c_params"][key] == before["c_params"][key], key

        # 5. The app's own screenshot key (P), into cwd/screenshots/.
        shots = tmp_path / "screenshots"
        _xdotool(display, "key", "--window", wid, "p")
        deadline = time.monotonic() + 10.0
        pngs: list[Path] = []
        while time.monotonic() < deadline:
            pngs = sorted(shots.glob("*.png")) if shots.is_dir() else []
            if pngs and pngs[0].stat().st_size > 0:
                time.sleep(0.2)  # let pygame finish writing it
                break
            time.sleep(0.05)
        assert pngs, f"no PNG in {shots} after pressing P\n{_tail(log)}"
        image = pygame.image.load(str(pngs[0]))
        assert image.get_size() == WINDOW
        colours = {tuple(image.get_at((x, yy)))[:3]
                   for x in range(0, WINDOW[0], 7) for yy in range(0, WINDOW[1], 7)}
        assert len(colours) > 50, f"screenshot looks blank: {len(colours)} colours"
        # the picture shows the new value: the track is filled up to the knob
        # at TARGET_C (accent colour), and empty (grid colour) past it
        knob = _slider_x(slider, after["settings"]["c"])
        assert tuple(image.get_at((knob - 12, y)))[:3] == tuple(pal.ACCENT)[:3]
        assert tuple(image.get_at((knob + 12, y)))[:3] == tuple(pal.GRID)[:3]
    finally:
        # SIGTERM becomes a window-close (QUIT) event: a clean exit whose
        # status says a signal ended it (128 + 15)
        code = _stop(app, timeout=10.0)
    assert code == 143, f"the app did not close cleanly ({code}):\n{_tail(log)}"
    final = _read_state(state_path)
    assert final is not None and final["scenes"] == [], "the app did not end its scenes"
