"""Shared test setup. Set before anything imports pygame: tests never open a
real window (STYLE.md: headless tests set SDL_VIDEODRIVER=dummy here)."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _terminal_signals():
    """The signal tests play a user at a terminal pressing Ctrl-C: a program
    started from a shell has SIGINT at its default. A test run started in
    the background by a non-interactive shell inherits SIGINT and SIGQUIT
    ignored (POSIX shells do that to background jobs), and every program the
    tests start would then ignore the Ctrl-C they send. So the run gives
    itself Python's own Ctrl-C handler back (programs it starts then get the
    default, as from a shell) and SIGQUIT its default. SIGHUP is left as the
    run was given it (nohup's choice is the user's; the bot test allows
    for it)."""
    import signal
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGQUIT) == signal.SIG_IGN:
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)


_terminal_signals()


def pytest_configure(config):
    """Tests never fill the user's replays/: every recorder that is not given
    a folder (and the app's menu) uses $SBX_REPLAY_DIR, set here to a fresh
    temporary folder for the whole session (child processes inherit it).
    Tests about the replays/ default itself delete the variable first."""
    import tempfile
    os.environ["SBX_REPLAY_DIR"] = tempfile.mkdtemp(prefix="sbx-test-replays-")


def pytest_unconfigure(config):
    import shutil
    folder = os.environ.get("SBX_REPLAY_DIR", "")
    if "sbx-test-replays-" in folder:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_report_header(config):
    from sandbox.native import _lib
    build = "ASan+UBSan build" if _lib.SANITIZED else "normal build"
    return f"sandbox C core: {build} ({_lib.CORE_PATH})"


def pytest_sessionstart(session):
    """The sanitizer build (python tools/sanitize.py, SBX_SANITIZE=1) and the
    normal one are never mixed up: a sanitizer run must have loaded the
    sanitizer build, and a normal run must not have (an instrumented .so in
    sandbox/native/ left by `SBX_SANITIZE=1 pip install -e .` would make the
    suite slow and its timings meaningless)."""
    import pytest

    from sandbox.native import _lib
    wanted = os.environ.get("SBX_SANITIZER_RUN") == "1"
    if wanted and not _lib.SANITIZED:
        pytest.exit(f"SBX_SANITIZER_RUN=1 but {_lib.CORE_PATH} is not the sanitizer build",
                    returncode=4)
    if _lib.SANITIZED and not wanted:
        pytest.exit(f"{_lib.CORE_PATH} is the ASan+UBSan build; run it through "
                    "`python tools/sanitize.py`, or rebuild the normal one "
                    "(`rm -rf build && python setup.py build_ext --inplace`)", returncode=4)


import pytest  # noqa: E402


@pytest.fixture
def small_tmpfs(tmp_path):
    """mount(kb) -> a real filesystem of that many KB that fills mid-run (a
    full disk): a tmpfs under tmp_path, unmounted after the test; skipped
    where mounting is not permitted (not root, or a sandbox without it)."""
    import subprocess
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mounted = []

    def mount(kb: int):
        mnt = tmp_path / f"small{len(mounted)}"
        mnt.mkdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kb}k", "tmpfs", str(mnt)],
                          capture_output=True).returncode != 0:
            pytest.skip("mount not permitted here")
        mounted.append(mnt)
        return mnt

    try:
        yield mount
    finally:
        for mnt in mounted:
            subprocess.run(["umount", str(mnt)], capture_output=True)


@pytest.fixture
def texts(monkeypatch):
    """Every string drawn through sandbox.render.fonts.text while the test
    runs, in order (the one font entry point every view draws text with)."""
    from sandbox.render import fonts
    seen: list[str] = []
    real = fonts.text

    def spy(s, *a, **k):
        seen.append(s)
        return real(s, *a, **k)

    monkeypatch.setattr(fonts, "text", spy)
    return seen
