"""The keeper of one bot (Linux): run as a program of its own, it starts
the bot as its child and, when told or when the sandbox is gone, kills
every process the bot started, wherever they went.

    python -I -S supervise.py CTL MEMORY_BYTES CPU_S PROGRAM [ARGS...]

A process group is not enough: a bot's child may call setsid() and leave
both the group and the session. This process is a child subreaper
(prctl PR_SET_CHILD_SUBREAPER), so every descendant of the bot whose
parent exits is re-parented here rather than to init; the whole tree stays
below it, and its sweep (kill every descendant, reap, until none is left)
ends them all.

CTL is a socket to the sandbox. This side writes "ok PID" once the bot's
program runs (or "error ERRNO TEXT" if it cannot start, and exits), then
"exit N" or "signal N" when the bot itself ends. The sandbox closing its
side (its kill, its exit, or its death by SIGKILL: the kernel closes it)
is the order to sweep and exit. SIGTERM to this process sweeps too.

It uses the standard library only and runs with -I -S (no site, no user
paths), so it starts fast and is untouched by the bot's PYTHON* settings,
which the bot still receives in its environment. Limits (RLIMIT_AS,
RLIMIT_CPU) are set in the forked child before it runs the program: never
on this process, and with no moment when the bot runs without them.
"""
import ctypes
import errno
import os
import resource
import select
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
SWEEP_S = 5.0


def _send(ctl: int, text: str) -> None:
    try:
        os.write(ctl, (text + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


def _descendants(root: int) -> list[int]:
    """Live processes below `root`, read from /proc (zombies left out)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        rest = stat[stat.rfind(b")") + 2:].split()
        if len(rest) < 2 or rest[0] == b"Z":
            continue
        children.setdefault(int(rest[1]), []).append(int(name))
    out, todo = [], [root]
    while todo:
        for c in children.get(todo.pop(), ()):
            out.append(c)
            todo.append(c)
    return out


def _reap(bot: int, ctl: int, status: list) -> bool:
    """Reaps every child that has ended; False when none is left."""
    while True:
        try:
            pid, st = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        except InterruptedError:
            continue
        if pid == 0:
            return True
        if pid == bot and not status:
            status.append(st)
            if os.WIFSIGNALED(st):
                _send(ctl, f"signal {os.WTERMSIG(st)}")
            else:
                _send(ctl, f"exit {os.waitstatus_to_exitcode(st)}")


def _sweep(bot: int, ctl: int, status: list) -> None:
    """SIGKILL every descendant, reap, again, until no child is left: a
    process that forks meanwhile has its child re-parented here and killed
    on the next pass."""
    deadline = time.monotonic() + SWEEP_S
    me = os.getpid()
    while time.monotonic() < deadline:
        found = _descendants(me)
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if not _reap(bot, ctl, status) and not found:
            return
        time.sleep(0.002)


def _start(argv: list, memory: int, cpu: int) -> tuple[int, str]:
    """Forks and runs the bot; (pid, "") or (-1, the reason it cannot run)."""
    r, w = os.pipe()                          # closed on exec: EOF = it runs
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            # Python ignores SIGPIPE and SIGXFSZ, and this keeper SIGINT; a
            # program expects them at their defaults (an ignored signal
            # stays ignored across exec; subprocess restores the first two)
            for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT):
                signal.signal(sig, signal.SIG_DFL)
            if memory > 0:
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            if cpu > 0:
                resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            os.execvp(argv[0], argv)
        except OSError as exc:
            os.write(w, f"{exc.errno or 0} {exc.strerror or exc}".encode("utf-8", "replace"))
        except BaseException as exc:          # noqa: BLE001 - a child never returns
            os.write(w, f"0 {exc}".encode("utf-8", "replace"))
        os._exit(127)
    os.close(w)
    chunks = []
    while True:
        try:
            chunk = os.read(r, 4096)
        except InterruptedError:
            continue
        if not chunk:
            break
        chunks.append(chunk)
    os.close(r)
    if chunks:
        os.waitpid(pid, 0)
        return -1, b"".join(chunks).decode("utf-8", "replace")
    return pid, ""


def main() -> None:
    ctl, memory, cpu = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    argv = sys.argv[4:]
    os.set_inheritable(ctl, False)            # the bot must not hold (or write) it
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        _send(ctl, f"error {ctypes.get_errno()} cannot become a subreaper")
        os._exit(1)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    stop = []
    signal.signal(signal.SIGCHLD, lambda *a: None)
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the sandbox's Ctrl-C is its own
    bot, why = _start(argv, memory, cpu)
    if bot < 0:
        err, _, text = why.partition(" ")
        _send(ctl, f"error {err} {text}")
        os._exit(1)
    # only the bot holds its pipes now: its end of file is its own
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    _send(ctl, f"ok {bot}")
    status: list = []
    poll = select.poll()
    poll.register(ctl, select.POLLIN)
    poll.register(wake_r, select.POLLIN)
    while not stop:
        _reap(bot, ctl, status)
        try:
            ready = poll.poll(1000)
        except InterruptedError:
            continue
        for fd, _ in ready:
            if fd == wake_r:
                try:
                    os.read(wake_r, 512)
                except OSError:
                    pass
                continue
            try:
                data = os.read(ctl, 512)
            except OSError as exc:
                data = b"" if exc.errno != errno.EINTR else b"x"
            if not data:
                stop.append(1)
    _sweep(bot, ctl, status)
    os._exit(0)


if __name__ == "__main__":
    main()
