"""Imported first in the local pool's fork server (its preload), before the
fork server saves the signal handlers its workers start with: a worker then
ignores Ctrl-C from its first instruction (Ctrl-C reaches the terminal's
whole process group; the runner decides what stops and prints the one
line), and SIGTERM kills its bots and ends it at once, whatever it is
doing (an exception would be caught by the pool's worker loop as a game's
result). The game in flight is played again on resume.

It sets them when imported: only the fork server (by name, executors.
POOL_WORKER) and a worker's initializer import it, never the runner."""
from __future__ import annotations

import os
import signal
from typing import Any

from ..bots.process import kill_all


def _on_sigterm(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    kill_all()
    os._exit(128 + signum)


def install() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    # the fork server starts with both held (executors.make_executor), so a
    # Ctrl-C while it loads is dropped here rather than raised there
    signal.pthread_sigmask(signal.SIG_UNBLOCK, (signal.SIGINT, signal.SIGTERM))


install()
