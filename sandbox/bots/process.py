"""A bot as an operating-system process: spawn, talk in lines, kill.

On Linux the bot runs under a keeper of its own (sandbox/bots/supervise.py,
a child subreaper in a new session): every process the bot starts stays
below the keeper even if it calls setsid() and its parent exits, and the
keeper kills them all when the sandbox closes the socket between them, or
when the sandbox dies (the kernel closes it then, even after a SIGKILL).
Elsewhere the bot is the leader of a session (and process group) of its
own, and killing the group ends the bot and what it started there.

Its stdout is read in the calling thread through a non-blocking pipe and
`poll` (not `select`, which fails on a file descriptor of 1024 or more: a
long tournament, an app with many files open), with a hard cap on a line's
length: a reply is waited for until its deadline and no longer, whatever
the bot writes or does not write. Its stderr is drained by a thread into a
log file, up to a size cap (the rest is counted, not kept), so a bot that
writes to stderr without end never blocks on a full pipe.

Limits (memory_mb: RLIMIT_AS, cpu_s: RLIMIT_CPU) are set by the keeper in
the bot's process before its program runs; without a keeper, with prlimit
right after the spawn (a preexec function would be unsafe in a program
with threads: the app's searches run on threads).

Every live BotProcess is in a registry that an atexit hook kills, so a
bot does not outlive the sandbox on a normal exit, Ctrl-C or an uncaught
exception. SIGTERM (a service manager, `kill`, a job's time limit) would
end Python without atexit: the entry points install
sandbox.signals.terminate_cleanly, which turns it into a clean exit. A pool worker process (tournaments)
leaves through multiprocessing's exit function, not atexit, so the same
hook is registered there too.
"""
from __future__ import annotations

import atexit
import errno
import multiprocessing.util
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..signals import ignore_stop_signals, on_forced_exit
from .protocol import MAX_LINE_BYTES

STDERR_LOG_CAP = 1 << 20        # bytes of a bot's stderr kept per match
_READ_CHUNK = 1 << 16
KEEPER = Path(__file__).with_name("supervise.py")
# the keeper needs Linux's child subreaper; SBX_BOT_KEEPER=0 turns it off
USE_KEEPER = sys.platform.startswith("linux") and os.environ.get("SBX_BOT_KEEPER", "1") != "0"
KEEPER_START_S = 20.0           # the keeper's own start (a Python), on a loaded machine
KEEPER_SWEEP_S = 7.0            # its sweep (5 s at most) and exit


class BotIOError(Exception):
    """A failure talking to the bot. `kind`: timeout | exit | too_long |
    write (its stdin is closed)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class SpawnError(Exception):
    """The bot could not be started (no such program, not executable)."""


_LIVE: "weakref.WeakSet[BotProcess]" = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()


def kill_all() -> None:
    """Kill every live bot and what it started (atexit; the app on quit)."""
    with _LIVE_LOCK:
        bots = list(_LIVE)
    for b in bots:
        b.kill()


def _kill_all_at_exit() -> None:
    # the program is ending: a second Ctrl-C or SIGTERM must not cut this
    # short (a bot left running, a traceback "ignored in atexit callback")
    ignore_stop_signals()
    kill_all()


atexit.register(_kill_all_at_exit)
on_forced_exit(kill_all)
# a multiprocessing worker ends with os._exit after its exit function
# (util._exit_function), which runs finalizers but not atexit hooks
multiprocessing.util.Finalize(None, _kill_all_at_exit, exitpriority=100)


def _ms(seconds: float) -> int:
    """poll's timeout: whole milliseconds, rounded up (never a busy 0)."""
    return max(1, int(seconds * 1000.0 + 0.999))


class BotProcess:
    """One running bot. Not thread-safe: one thread talks to it."""

    def __init__(self, argv: Sequence[str], *, cwd: str | os.PathLike | None = None,
                 env: Mapping[str, str] | None = None, memory_mb: int | None = None,
                 cpu_s: int | None = None, stderr_log: str | os.PathLike | None = None,
                 stderr_cap: int = STDERR_LOG_CAP, line_cap: int = MAX_LINE_BYTES) -> None:
        full_env = dict(os.environ)
        full_env.update(env or {})
        self.argv = [str(a) for a in argv]
        self.line_cap = int(line_cap)
        self.stderr_path = Path(stderr_log) if stderr_log is not None else None
        self.stderr_bytes = 0           # bytes the bot wrote to stderr
        self.stderr_kept = 0            # of those, bytes kept in the log
        self._stderr_cap = int(stderr_cap)
        self._buf = bytearray()
        self._scan = 0                  # bytes of _buf known to hold no newline
        self._discarding = False        # inside an over-long line: drop to its end
        self._eof = False
        self._killed = False
        self.returncode: int | None = None
        self._kept = USE_KEEPER                    # under a keeper (Linux)
        self._ctl: socket.socket | None = None     # the keeper's socket while it lives
        self._ctl_buf = b""
        self._bot_end: tuple[str, int] | None = None   # ("exit" | "signal", n)
        if self._kept:
            self._spawn_kept(full_env, cwd, memory_mb, cpu_s)
        else:
            self._spawn_direct(full_env, cwd, memory_mb, cpu_s)
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._out, False)
        self._in = self.proc.stdin.fileno()
        os.set_blocking(self._in, False)
        self._poll_out = select.poll()
        self._poll_out.register(self._out, select.POLLIN)
        self._poll_in = select.poll()
        self._poll_in.register(self._in, select.POLLOUT)

    def _popen(self, argv: list[str], env: Mapping[str, str], cwd, **kw: Any) -> None:
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=cwd, env=env, start_new_session=True, close_fds=True, bufsize=0, **kw)
        except (OSError, ValueError) as exc:
            raise SpawnError(f"cannot start {self.argv[0]}: "
                             f"{getattr(exc, 'strerror', None) or exc}") from None
        with _LIVE_LOCK:
            _LIVE.add(self)
        self._err_thread = threading.Thread(target=self._drain_stderr, daemon=True,
                                            name=f"bot-stderr-{self.proc.pid}")
        self._err_thread.start()

    def _spawn_kept(self, env: Mapping[str, str], cwd, memory_mb: int | None,
                    cpu_s: int | None) -> None:
        """The bot under its keeper: started, and its program running (or
        SpawnError saying why it cannot run) before this returns."""
        ours, theirs = socket.socketpair()
        try:
            memory = int(memory_mb) << 20 if memory_mb is not None else 0
            cpu = int(cpu_s) if cpu_s is not None else 0
            self._popen([sys.executable, "-I", "-S", str(KEEPER), str(theirs.fileno()),
                         str(memory), str(cpu), *self.argv], env, cwd,
                        pass_fds=(theirs.fileno(),))
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self._ctl = ours
        ours.setblocking(False)
        self.pid = self.proc.pid
        try:
            first = self._ctl_line(time.monotonic() + KEEPER_START_S)
        except BaseException:             # a signal while it starts: no bot left behind
            self.kill()
            raise
        word, _, rest = (first or "").partition(" ")
        if word == "ok" and rest.isdigit():
            self.pid = int(rest)
            return
        self.kill()
        if word == "error":
            raise SpawnError(f"cannot start {self.argv[0]}: {rest.partition(' ')[2] or rest}")
        raise SpawnError(f"cannot start {self.argv[0]}: its keeper did not start")

    def _spawn_direct(self, env: Mapping[str, str], cwd, memory_mb: int | None,
                      cpu_s: int | None) -> None:
        """The bot as the leader of a session of its own (no keeper)."""
        self._popen(self.argv, env, cwd)
        self.pid = self.proc.pid
        try:
            if memory_mb is not None:
                n = int(memory_mb) << 20
                resource.prlimit(self.pid, resource.RLIMIT_AS, (n, n))
            if cpu_s is not None:
                resource.prlimit(self.pid, resource.RLIMIT_CPU, (int(cpu_s), int(cpu_s) + 1))
        except (OSError, ValueError):
            pass          # it exited already: the first read says so

    # ------------------------------------------------------------ the keeper
    def _ctl_line(self, deadline: float) -> str | None:
        """The keeper's next line, waiting until `deadline` at most (None:
        none by then, or the keeper is gone)."""
        while b"\n" not in self._ctl_buf:
            ctl = self._ctl
            if ctl is None:
                return None
            left = deadline - time.monotonic()
            try:
                p = select.poll()
                p.register(ctl, select.POLLIN)
                if not p.poll(_ms(left) if left > 0 else 0):
                    if left <= 0:
                        return None
                    continue
                chunk = ctl.recv(4096)
            except (BlockingIOError, InterruptedError):
                continue
            except (OSError, ValueError):    # closed meanwhile (kill from another thread)
                chunk = b""
            if not chunk:
                return None
            self._ctl_buf += chunk
        line, _, self._ctl_buf = self._ctl_buf.partition(b"\n")
        return line.decode("utf-8", "replace")

    def _ended(self, wait_s: float = 0.0) -> tuple[str, int] | None:
        """How the bot itself ended (("exit", status) or ("signal", n)), as
        its keeper reports it; None while it runs (after waiting up to
        wait_s for the report)."""
        if self._bot_end is None and self._ctl is not None:
            deadline = time.monotonic() + wait_s
            while self._bot_end is None:
                line = self._ctl_line(deadline)
                if line is None:
                    break
                word, _, n = line.partition(" ")
                if word in ("exit", "signal") and n.isdigit():
                    self._bot_end = (word, int(n))
                    self.returncode = int(n) if word == "exit" else -int(n)
        return self._bot_end

    # ------------------------------------------------------------ stdin
    def send(self, lines: Sequence[str], deadline: float | None = None) -> None:
        """Write lines to the bot's stdin. A bot that does not read its
        input fills the pipe (64 KiB); the write then waits for room until
        `deadline` (time.monotonic(); default one second) and no longer:
        BotIOError "write", after which the bot's input is out of step (a
        line may be cut) and the bot must be stopped."""
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        view = memoryview(data)
        if deadline is None:
            deadline = time.monotonic() + 1.0
        while view:
            try:
                n = os.write(self._in, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except OSError as exc:     # EPIPE: it closed its input or exited
                raise BotIOError("exit", f"its stdin is closed ({exc.strerror or exc})") from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotIOError("write", "it does not read its input (the pipe stayed full)")
            try:
                self._poll_in.poll(_ms(left))
            except InterruptedError:
                pass

    # ------------------------------------------------------------ stdout
    def read_line(self, deadline: float) -> str:
        """The next line of the bot's stdout (without its newline), waiting
        until `deadline` (time.monotonic()) at most. BotIOError: timeout,
        exit (end of file), too_long (a line over line_cap bytes; the rest
        of that line is skipped when it comes)."""
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if len(self._buf) > self.line_cap:
                self._buf.clear()
                self._scan = 0
                self._discarding = True
                raise BotIOError("too_long", f"a line over {self.line_cap} bytes")
            if self._eof:
                raise BotIOError("exit", self.exit_text())
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotIOError("timeout", "no reply in time")
            try:
                ready = self._poll_out.poll(_ms(left))
            except InterruptedError:
                continue
            if not ready:
                continue
            self._fill()

    def _fill(self) -> None:
        try:
            chunk = os.read(self._out, _READ_CHUNK)
        except BlockingIOError:
            return
        except OSError as exc:
            if exc.errno == errno.EINTR:
                return
            chunk = b""
        if not chunk:
            self._eof = True
            return
        if self._discarding:
            nl = chunk.find(b"\n")
            if nl < 0:
                return
            self._discarding = False
            chunk = chunk[nl + 1:]
        self._buf += chunk

    def _take_line(self) -> str | None:
        nl = self._buf.find(b"\n", self._scan)
        if nl < 0:
            self._scan = len(self._buf)
            return None
        if nl > self.line_cap:
            # a whole over-long line arrived at once
            del self._buf[:nl + 1]
            self._scan = 0
            raise BotIOError("too_long", f"a line over {self.line_cap} bytes")
        raw = bytes(self._buf[:nl])
        del self._buf[:nl + 1]
        self._scan = 0
        return raw.decode("utf-8", errors="replace").rstrip("\r")

    def drain_ready(self, deadline: float, max_bytes: int = 4 * MAX_LINE_BYTES) -> int:
        """Read whatever the bot has written by now without waiting, and
        drop the complete lines (a late reply to a turn already given up
        on, stray output). Bounded by `max_bytes` and `deadline`: a bot
        that writes without end cannot hold the turn here. Returns the
        number of lines dropped."""
        n = 0
        taken = 0
        while taken < max_bytes and not self._eof and time.monotonic() < deadline:
            try:
                ready = self._poll_out.poll(0)
            except InterruptedError:
                continue
            if not ready:
                break
            before = len(self._buf)
            self._fill()
            taken += max(0, len(self._buf) - before) or 1
            n += self._drop_lines()
        return n + self._drop_lines()

    def ready_lines(self, deadline: float, max_lines: int = 64) -> list[str]:
        """The complete lines the bot has written by now, without waiting
        (at most `max_lines`; the rest stay for drain_ready)."""
        out: list[str] = []
        while len(out) < max_lines:
            try:
                line = self._take_line()
            except BotIOError:
                break
            if line is not None:
                out.append(line)
                continue
            if self._eof or time.monotonic() >= deadline:
                break
            try:
                if not self._poll_out.poll(0):
                    break
            except InterruptedError:
                continue
            before = len(self._buf)
            self._fill()
            if len(self._buf) == before and not self._eof:
                break
        return out

    def _drop_lines(self) -> int:
        """Drop every complete line in the buffer at once (no line by line
        copying: a flood of short lines costs one pass)."""
        last = self._buf.rfind(b"\n")
        if last < 0:
            return 0
        n = self._buf.count(b"\n", 0, last + 1)
        del self._buf[:last + 1]
        self._scan = 0
        return n

    # ------------------------------------------------------------ stderr
    def _drain_stderr(self) -> None:
        f = None
        if self.stderr_path is not None:
            try:
                self.stderr_path.parent.mkdir(parents=True, exist_ok=True)
                f = open(self.stderr_path, "ab")
            except OSError:
                f = None
        fd = self.proc.stderr.fileno()
        try:
            while True:
                try:
                    chunk = os.read(fd, _READ_CHUNK)
                except OSError:
                    break
                if not chunk:
                    break
                self.stderr_bytes += len(chunk)
                room = self._stderr_cap - self.stderr_kept
                if f is not None and room > 0:
                    part = chunk[:room]
                    try:
                        f.write(part)
                        f.flush()
                        self.stderr_kept += len(part)
                        if len(part) < len(chunk):
                            f.write(b"\n[stderr log cut here: over the size cap]\n")
                            f.flush()
                    except OSError:
                        pass
        finally:
            if f is not None:
                f.close()

    # ------------------------------------------------------------ lifetime
    def alive(self) -> bool:
        if self._killed:
            return False
        if self._kept:
            return self._ended() is None
        return self.proc.poll() is None

    def exit_text(self) -> str:
        if self._kept:
            # its stdout ended: the keeper's report of its exit follows at once
            end = self._ended(wait_s=0.25)
            if end is None:
                return "it closed its stdout"
            rc = end[1] if end[0] == "exit" else -end[1]
        else:
            rc = self.proc.poll()
            if rc is None:
                try:
                    rc = self.proc.wait(timeout=0.05)
                except subprocess.TimeoutExpired:
                    return "it closed its stdout"
        if rc < 0:
            try:
                return f"it was killed by {signal.Signals(-rc).name}"
            except ValueError:
                return f"it was killed by signal {-rc}"
        return f"it exited with status {rc}"

    def kill(self) -> None:
        """Kill the bot and everything it started, and reap. Safe to call
        more than once and from the atexit hook."""
        if self._killed:
            return
        self._killed = True
        if self._kept:
            # the keeper's order to sweep: end of file on its side (it then
            # reports how the bot ended, and exits)
            try:
                if self._ctl is not None:
                    self._ctl.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        else:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            rc = self.proc.wait(timeout=KEEPER_SWEEP_S if self._kept else 2)
            if not self._kept:
                self.returncode = rc
        except subprocess.TimeoutExpired:
            try:                          # a keeper that did not sweep: its group at least
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
        if self._ctl is not None:
            self._ended(wait_s=0.0)           # its report, written before it exited
            ctl, self._ctl = self._ctl, None
            ctl.close()
        self._err_thread.join(timeout=1)
        try:
            self.proc.stderr.close()
        except OSError:
            pass
        with _LIVE_LOCK:
            _LIVE.discard(self)

    def close(self, grace_s: float = 0.0) -> None:
        """End the bot: close its stdin, wait up to `grace_s` for it to
        exit by itself, then kill it and whatever it left behind."""
        if self._killed:
            return
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        if grace_s > 0:
            if self._kept:
                self._ended(wait_s=grace_s)
            else:
                try:
                    self.proc.wait(timeout=grace_s)
                except subprocess.TimeoutExpired:
                    pass
        self.kill()
