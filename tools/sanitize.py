"""Build the C core with AddressSanitizer + UBSan and run tests under it.

    python tools/sanitize.py                      # build, then the sanitizer selection
    python tools/sanitize.py tests/native -x      # build, then any pytest arguments
    python tools/sanitize.py --build-only         # just the build (prints the .so path)
    python tools/sanitize.py --no-build tests/fuzz
    python tools/sanitize.py --tsan               # ThreadSanitizer: the parallel search
    python tools/sanitize.py --no-build --workers 2 tests/native   # two processes

--workers N runs the tests in N processes (pytest-xdist, whole test files
handed out as processes come free). Interrupting the run (Ctrl-C, or SIGTERM
to this script alone) stops pytest, its workers and anything a test started
before the interrupt goes on: nothing is left running.

--tsan builds with ThreadSanitizer into build/tsan/ (its own objects and .so)
and runs tests/native/test_parallel_races.py (or the given pytest arguments) with
the TSan runtime preloaded and TSAN_OPTIONS halt_on_error=1 (the first race
report ends the process), second_deadlock_stack=1, log_path=<dir>/tsan;
every report is printed and counted like ASan's.

The sanitizer build goes to build/sanitize/ (objects and the .so), never next
to the normal extension in sandbox/native/, and is loaded through
SBX_NATIVE_LIB: the normal test run cannot pick it up by accident, and
switching between the two never reuses the other's objects. tests/conftest.py
checks both ways that the core loaded is the one this run asked for.

The run preloads the ASan runtime (a non-instrumented python must load it
first) and sets:
  ASAN_OPTIONS   halt_on_error=1 (the first report ends the process),
                 detect_leaks=0 (Python itself never frees everything at exit,
                   so LeakSanitizer would drown real leaks in the interpreter's;
                   tests/native/test_lifetime.py measures leaks by RSS instead),
                 quarantine_size_mb=32 (freed memory is held back this long to
                   catch use after free; the default 256 MB grows RSS by the
                   whole quarantine over test_lifetime's 3000 create/free
                   cycles, which its 4 MB allowance rightly calls a leak; 32 MB
                   fills during the test's warm-up, so RSS is flat after it
                   and a real leak of the trees still shows in full),
                 allocator_may_return_null=1 (an allocation C cannot get
                   returns NULL like glibc does, so the core's own
                   out-of-memory path runs instead of an ASan abort),
                 log_path=<dir>/asan (reports from every process, including
                   subprocesses whose stderr a test swallows, land in files
                   that are printed and counted at the end)
  UBSAN_OPTIONS  halt_on_error=1, print_stacktrace=1 (with the build's
                 -fno-sanitize-recover the first finding ends the process).
                 GCC's UBSan runtime ignores log_path and writes to stderr,
                 so pytest runs with --capture=sys (fd 2 is not captured) and
                 its output is scanned for reports. A UBSan report from a
                 subprocess whose stderr a test captures is seen only as that
                 process's failure (none of the default selection starts one).
  PYTHONMALLOC=malloc (with --pymalloc-off, the default for the fuzz suite:
                 Python objects, cffi buffers included, get ASan redzones;
                 it roughly doubles the run time, so it is off for the rest)

Exit status: pytest's, or 3 if a sanitizer report was seen (in the output or
an ASan log file) even though pytest passed.
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "sanitize"
BUILD_TSAN = ROOT / "build" / "tsan"
DEFAULT_TESTS = ["tests/native", "tests/games", "tests/reference", "tests/sim", "tests/fuzz"]
TSAN_TESTS = ["tests/native/test_parallel_races.py"]
QUARANTINE_MB = 32
REPORT_MARKERS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer",
                  "WARNING: AddressSanitizer", "WARNING: ThreadSanitizer")


def runtime(name: str) -> str:
    path = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True,
                          text=True, check=True).stdout.strip()
    if not os.path.isabs(path) or not os.path.exists(path):
        sys.exit(f"error: {name} not found (gcc -print-file-name={name} gave {path!r})")
    return os.path.realpath(path)


def build(tsan: bool = False) -> Path:
    """Compile every source again (--force: a header change must not leave
    stale objects behind) into build/sanitize/ (build/tsan/ with --tsan)."""
    env = dict(os.environ, SBX_SANITIZE="thread" if tsan else "1")
    out = BUILD_TSAN if tsan else BUILD
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--force",
         "--build-temp", str(out / "temp"), "--build-lib", str(out / "lib")],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        sys.exit("error: the sanitizer build failed")
    found = sorted(glob.glob(str(out / "lib" / "sandbox" / "native" / "_sbx*.so")))
    if not found:
        sys.exit(f"error: no extension was built under {out / 'lib'}")
    print(f"sanitize: built {found[-1]} in {time.perf_counter() - t0:.1f} s", flush=True)
    return Path(found[-1])


def sanitizer_env(lib: Path, log_dir: Path, pymalloc_off: bool,
                  tsan: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    preload = [runtime("libtsan.so" if tsan else "libasan.so")]
    if env.get("LD_PRELOAD"):
        preload.append(env["LD_PRELOAD"])
    env.update({
        "SBX_NATIVE_LIB": str(lib),
        "SBX_SANITIZER_RUN": "1",
        "LD_PRELOAD": ":".join(preload),
        "ASAN_OPTIONS": ":".join([
            "halt_on_error=1", "detect_leaks=0", f"quarantine_size_mb={QUARANTINE_MB}",
            "allocator_may_return_null=1", "abort_on_error=0",
            f"log_path={log_dir / 'asan'}"]),
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    })
    if tsan:
        del env["ASAN_OPTIONS"]
        env["TSAN_OPTIONS"] = ":".join([
            "halt_on_error=1", "second_deadlock_stack=1", f"log_path={log_dir / 'tsan'}"])
    if pymalloc_off:
        env["PYTHONMALLOC"] = "malloc"
    return env


def reports(log_dir: Path) -> list[Path]:
    return sorted(p for p in log_dir.iterdir() if p.is_file() and p.stat().st_size > 0)


def _terminated(signum, frame):
    # SIGTERM (a CI runner's timeout, say) must clean up like Ctrl-C does
    raise SystemExit(128 + signum)


def run_pytest(cmd: list[str], env: dict[str, str] | None = None,
               cwd: Path = ROOT) -> tuple[int, int]:
    """Run cmd (a pytest run), pass its output through line by line and count
    sanitizer reports in it (UBSan writes them to stderr whatever log_path
    says). Returns (exit status, reports seen).

    pytest runs in a process group of its own, with its pytest-xdist workers
    and any process a test starts, and that whole group is stopped when this
    process is interrupted (Ctrl-C or SIGTERM), before the interrupt goes on:
    an interrupted stage leaves nothing running. Without the group, a signal
    sent to this process alone (a runner stopping its job) would leave pytest
    and its workers running on."""
    markers = 0
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace",
                            bufsize=1, start_new_session=True)
    assert proc.stdout is not None
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        for line in proc.stdout:
            sys.stdout.write(line)
            markers += any(m in line for m in REPORT_MARKERS)
        rc = proc.wait()
    except BaseException:
        # Ctrl-C, SIGTERM, or this process failing (a closed pipe to `tee`):
        # the group is stopped, and whatever ended the wait still ends the run
        _stop_group(proc)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            pass
    return rc, markers


def _drain(stream) -> None:
    """pytest's last words (its summary after SIGINT) passed on while it
    stops; reading also keeps a full pipe from blocking it."""
    try:
        for line in stream:
            sys.stdout.write(line)
        sys.stdout.flush()
    except (OSError, ValueError):
        pass


def _stop_group(proc: subprocess.Popen) -> None:
    """SIGINT to pytest's group (pytest stops its workers and prints what it
    has), then SIGKILL to whatever is left of it after a grace period, and
    SIGKILL to the group in any case once pytest has gone (a worker or a
    test's child may outlive it). A second Ctrl-C or a SIGTERM while this
    runs cannot cut it short: both are ignored until it returns."""
    old = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        threading.Thread(target=_drain, args=(proc.stdout,), daemon=True).start()
        try:
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait(timeout=10.0)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            pass
        for sig, handler in old.items():
            signal.signal(sig, handler)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-only", action="store_true", help="build and print the .so path")
    ap.add_argument("--no-build", action="store_true", help="reuse build/sanitize/")
    ap.add_argument("--tsan", action="store_true",
                    help="ThreadSanitizer build (build/tsan/); default tests: the parallel search")
    ap.add_argument("--pymalloc", choices=("on", "off", "auto"), default="auto",
                    help="off: PYTHONMALLOC=malloc (ASan sees Python's buffers too); "
                         "auto: off when the run is only the fuzz suite")
    ap.add_argument("--workers", type=int, default=1, metavar="N",
                    help="N pytest processes (pytest-xdist, a test file each at a time); "
                         "the fuzz suite needs 1: its call count is one process's")
    args, pytest_args = ap.parse_known_args(argv)
    if args.workers < 1:
        ap.error(f"--workers must be at least 1 (got {args.workers})")
    out = BUILD_TSAN if args.tsan else BUILD
    if args.no_build:
        found = sorted(glob.glob(str(out / "lib" / "sandbox" / "native" / "_sbx*.so")))
        if not found:
            sys.exit("error: no sanitizer build yet (run without --no-build)")
        lib = Path(found[-1])
    else:
        lib = build(args.tsan)
    if args.build_only:
        print(lib)
        return 0
    selection = list(pytest_args)
    if not any(not a.startswith("-") for a in selection):
        # only options (say -q): the default tests with them, not pytest's whole testpaths
        selection += TSAN_TESTS if args.tsan else DEFAULT_TESTS
    paths = [a for a in selection if not a.startswith("-")]
    pymalloc_off = args.pymalloc == "off" or (
        args.pymalloc == "auto" and bool(paths) and all("tests/fuzz" in p for p in paths))
    log_dir = Path(tempfile.mkdtemp(prefix="sbx-sanitize-"))
    env = sanitizer_env(lib, log_dir, pymalloc_off and not args.tsan, args.tsan)
    # --capture=sys: pytest captures Python's sys.stdout/err but leaves file
    # descriptor 2 alone, so a report written there by a process that UBSan
    # (or ASan) is killing reaches this script; with fd capture it would die
    # in pytest's temporary file, unread.
    capture = [] if any(a == "-s" or a.startswith("--capture") for a in selection) else [
        "--capture=sys"]
    # --dist loadfile: a file's tests share one process, as they do in a
    # serial run (some build a fixture once per module)
    workers = ["-n", str(args.workers), "--dist", "loadfile"] if args.workers > 1 else []
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *capture, *workers,
           *selection]
    print("sanitize: " + " ".join(f"{k}={env[k]}" for k in (
        "TSAN_OPTIONS" if args.tsan else "ASAN_OPTIONS", "UBSAN_OPTIONS")) +
        (" PYTHONMALLOC=malloc" if pymalloc_off and not args.tsan else ""), flush=True)
    print("sanitize: " + " ".join(cmd[1:]), flush=True)
    t0 = time.perf_counter()
    rc, markers = run_pytest(cmd, env)      # flushes stdout when pytest is done
    found = reports(log_dir)
    for p in found:
        text = p.read_text(errors="replace")
        markers += sum(text.count(m) for m in REPORT_MARKERS)
        print(f"\n===== sanitizer report {p.name} =====\n{text}", flush=True)
    print(f"sanitize: pytest exit {rc}, {markers} sanitizer report(s) "
          f"({len(found)} ASan log file(s)), {time.perf_counter() - t0:.0f} s", flush=True)
    shutil.rmtree(log_dir, ignore_errors=True)
    if rc == 0 and markers:
        return 3
    return rc


if __name__ == "__main__":
    sys.exit(main())
