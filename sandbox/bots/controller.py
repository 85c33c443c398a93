"""ProcessController: a player whose moves come from a program of the
user's, spoken to in a protocol (JSON lines by default) over its stdin and
stdout. docs/bots.md is the user's side of it.

The program is started on the first turn (so its stderr log can go beside
the match's replay, which exists by then), given the start message and the
first turn together, and waited for first_turn_ms; every later turn
timeout_ms. A reply that comes after its turn was given up on is owed: it
is read and dropped at the next turn, so the bot and the sandbox stay on
the same turn. A bot that exited is not started again.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..config.process import DEFAULT_FIRST_TURN_MS, DEFAULT_TIMEOUT_MS
from ..games import move_names
from .external import ExternalController
from .process import BotIOError, BotProcess, SpawnError
from .adapters import protocol_class
from .protocol import BotStart, BotTurn, ReplyError


class ProcessController(ExternalController):
    kind = "process"

    def __init__(self, player: int, agents: Sequence[int], kind_name: str,
                 game_params: Mapping[str, Any], seed: int, *, command: Sequence[str],
                 cwd: str | None = None, env: Mapping[str, str] | None = None,
                 timeout_ms: float | None = None, first_turn_ms: float | None = None,
                 on_failure: str | None = None, memory_mb: int | None = None,
                 cpu_s: int | None = None, protocol: str | None = None, name: str = "") -> None:
        super().__init__(player, agents, name, kind_name, on_failure or "default")
        self.kind_name = kind_name
        self.game_params = dict(game_params)
        self.seed = int(seed)
        self.command = list(command)
        self.cwd = cwd
        self.env = dict(env or {})
        cls = protocol_class(protocol or "jsonl", kind_name)
        # a protocol may bring its contest's own timings (default_timeout_ms,
        # default_first_turn_ms); the player's settings outrank them
        self.timeout_ms = float(timeout_ms or getattr(cls, "default_timeout_ms",
                                                      DEFAULT_TIMEOUT_MS))
        self.first_turn_ms = float(first_turn_ms or getattr(cls, "default_first_turn_ms",
                                                            DEFAULT_FIRST_TURN_MS))
        self.memory_mb = memory_mb
        self.cpu_s = cpu_s
        self.protocol = cls()
        self.bot: BotProcess | None = None
        self.log_path: Path | None = None
        self._pending: list[str] = []     # the start lines, sent with the first turn
        self._owed = 0                    # reply lines of turns given up on, still to come
        self._first = True
        self._temp_log = False

    def attach_log(self, replay_path: str | os.PathLike | None) -> None:
        """Where the bot's stderr goes: beside the replay, named after it
        and the player; without a replay, the temporary folder's
        sandbox-bots/, which keeps the newest TEMP_LOGS_KEPT logs."""
        self._temp_log = replay_path is None
        if replay_path is not None:
            p = Path(replay_path)
            self.log_path = p.with_name(f"{p.stem}.p{self.player}.stderr.log")
        else:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            self.log_path = temp_log_folder() / (f"{stamp}-{os.getpid()}-{id(self):x}"
                                                 f".p{self.player}{LOG_SUFFIX}")

    def _prepare(self, turn: int, game: Any, view: Any) -> None:
        if not self._first:
            return
        self._first = False
        if self.log_path is None:
            self.attach_log(None)
        start = BotStart(kind=self.kind_name, params=self.game_params, player=self.player,
                         agents=self.agents, num_agents=game.num_agents,
                         move_names=tuple(_known(r) for r in move_names(game)), seed=self.seed,
                         view=view, timeout_ms=self.timeout_ms,
                         first_turn_ms=self.first_turn_ms)
        self._pending = self.protocol.start_lines(start)
        try:
            self.bot = BotProcess(self.command, cwd=self.cwd, env=self.env,
                                  memory_mb=self.memory_mb, cpu_s=self.cpu_s,
                                  stderr_log=self.log_path)
        except SpawnError as exc:
            self._spawn_error = str(exc)

    _spawn_error = ""

    def _exchange(self, turn: int, view: Any, legal: Mapping[int, tuple[int, ...]]
                  ) -> tuple[dict[int, Any], float, dict | None]:
        if self.bot is None:
            raise BotIOError("spawn", self._spawn_error or "the bot was not started")
        ms = self.first_turn_ms if self._pending else self.timeout_ms
        t = BotTurn(turn=turn, view=view, legal=dict(legal), time_ms=ms,
                    agents=tuple(a for a in self.agents if a in legal))
        lines = self._pending + self.protocol.turn_lines(t)
        self._pending = []
        # lines written since the last answer: first the late answers owed,
        # then anything else a bot printed (one stray line would otherwise
        # be taken for every later turn's answer, one turn out of step)
        t0 = time.monotonic()
        deadline = t0 + ms / 1000.0
        dropped = self.bot.drain_ready(deadline)
        self._owed = max(0, self._owed - dropped)
        self.bot.send(lines, deadline)
        while self._owed > 0:             # a late reply to an earlier turn
            self.bot.read_line(deadline)
            self._owed -= 1
        want = self.protocol.reply_line_count(t)
        got: list[str] = []
        try:
            while len(got) < want:
                got.append(self.bot.read_line(deadline))
        except BotIOError as exc:
            if exc.kind == "timeout":
                self._owed += want - len(got)
                if got:          # part of the reply came: the protocol says what is missing
                    self.protocol.parse_reply(got, t)
            raise
        latency = (time.monotonic() - t0) * 1000.0
        if self.protocol.exact_lines:
            got += self.bot.ready_lines(deadline)
        reply = self.protocol.parse_reply(got, t)
        return reply.moves, latency, reply.debug

    def _stop(self, why: str) -> None:
        super()._stop(why)
        if self.bot is not None:
            self.bot.kill()

    def end(self, ranking: Sequence[int], scores: Sequence[float]) -> None:
        if self.bot is None or self.gone or not self.bot.alive():
            return
        try:
            self.bot.send(self.protocol.end_lines(tuple(ranking), tuple(scores)),
                          time.monotonic() + 0.05)
        except BotIOError:
            pass

    def close(self) -> None:
        # the bot first: a worker waiting on its answer then returns at
        # once (end of file) instead of at the turn's deadline
        if self.bot is not None:
            # a moment to read the end message and exit by itself, then the group dies
            self.bot.close(grace_s=0.05)
        super().close()
        if self._temp_log and self.log_path is not None:
            tidy_temp_logs(self.log_path)


LOG_SUFFIX = ".stderr.log"
# logs kept without a replay: a tournament of thousands of games must not
# fill the disk, and the newest are the ones someone debugging looks at
TEMP_LOGS_KEPT = 32


def temp_log_folder() -> Path:
    return Path(tempfile.gettempdir()) / "sandbox-bots"


def tidy_temp_logs(closed: Path) -> None:
    """After a match without a replay: its log goes if the bot wrote
    nothing, and the folder keeps only the newest TEMP_LOGS_KEPT logs (a
    log still being written by another match may go too; its bot's
    writes then go nowhere, within the same cap)."""
    try:
        if closed.stat().st_size == 0:
            closed.unlink()
    except OSError:
        pass
    try:
        logs = []
        for entry in os.scandir(closed.parent):
            if entry.name.endswith(LOG_SUFFIX) and entry.is_file(follow_symlinks=False):
                logs.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
    except OSError:
        return
    logs.sort(reverse=True)
    for _, path in logs[TEMP_LOGS_KEPT:]:
        try:
            os.unlink(path)
        except OSError:
            pass


def _known(names: Sequence[str]) -> tuple[str, ...]:
    """An agent's move names up to its last real move ("?": no such move id)."""
    row = list(names)
    while row and row[-1] == "?":
        row.pop()
    return tuple(row)


__all__ = ["ProcessController", "ReplyError"]
