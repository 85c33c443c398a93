"""The results log: one JSON line per finished game, appended and fsynced
as each game ends, after a header line naming what is played. Re-running the
same command reads it back and plays only the games it lacks: an interrupted
tournament loses no finished game and plays none twice.

    {"type": "header", "format": 1, "kind": "tournament", "config": {...}}
    {"type": "game", "key": "0-1/3/1", "entrants": [1, 0], "scores": [1.0, 0.0], ...}

A torn last line (the process died mid-write) is dropped and the file cut
back to its last complete line before anything is appended."""
from __future__ import annotations

import fcntl
import json
import math
import os
from pathlib import Path
from typing import Any

from ..native import SandboxError

LOG_FORMAT = 1


class LogError(SandboxError):
    """A results log that cannot be used (one line)."""


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _share(x: Any) -> bool:
    return (isinstance(x, (int, float)) and not isinstance(x, bool)
            and math.isfinite(x) and 0.0 <= x <= 1.0)


def row_problem(row: dict[str, Any]) -> str | None:
    """What is wrong with a game row read back from a log, or None. Every
    field the tables read is checked, so a hand-edited row (scores [7, -3],
    a score "x") is one line naming it instead of a ValueError mid-table."""
    if not isinstance(row.get("key"), str) or not row["key"]:
        return "a game row without a key"
    entrants, scores = row.get("entrants"), row.get("scores")
    if not isinstance(entrants, list) or not entrants or not all(_int(e) and e >= 0
                                                                   for e in entrants):
        return f"game {row['key']}: entrants must be a list of entrant numbers"
    if not isinstance(scores, list) or len(scores) != len(entrants):
        return f"game {row['key']}: scores must be a list, one per seat"
    if not all(_share(x) for x in scores):
        return (f"game {row['key']}: scores {scores!r}: each is a share of the other seats "
                f"beaten, a number in 0..1")
    if not (_int(row.get("turns")) and row["turns"] >= 0):
        return f"game {row['key']}: turns must be a whole number >= 0"
    ranking = row.get("ranking")
    if ranking is not None and not (isinstance(ranking, list) and all(_int(r) for r in ranking)):
        return f"game {row['key']}: ranking must be a list of whole numbers"
    for name in ("seconds", "cpu_seconds"):
        v = row.get(name)
        if v is not None and not (isinstance(v, (int, float)) and not isinstance(v, bool)
                                  and math.isfinite(v) and v >= 0):
            return f"game {row['key']}: {name} must be a number >= 0"
    return None


# A run's size, not what it plays: games are keyed by round, so a run with
# more games plays the rounds the log lacks (a tournament or sweep extended
# from --games 2 to 4) and one with fewer reads the rounds it asks for.
SIZE_KEYS = ("games",)


def same_run(logged: Any, wanted: dict[str, Any]) -> bool:
    if not isinstance(logged, dict):
        return False
    strip = lambda d: {k: v for k, v in d.items() if k not in SIZE_KEYS}  # noqa: E731
    return strip(logged) == strip(wanted)


class ResultLog:
    def __init__(self, path: str | os.PathLike, kind: str, config: dict[str, Any]) -> None:
        self.path = Path(path)
        self.kind = kind
        # as it reads back from JSON (tuples are lists), so a resume compares equal
        self.config = json.loads(json.dumps(config, allow_nan=False))
        self.games: dict[str, dict[str, Any]] = {}
        self.dropped = 0
        self._f = None
        self._open()

    def _open(self) -> None:
        header = {"type": "header", "format": LOG_FORMAT, "kind": self.kind,
                  "config": self.config}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # one run per log: a second one would play the same games again
            self._f = open(self.path, "ab")   # rows go to the descriptor (_write)
            try:
                fcntl.flock(self._f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._f.close()
                self._f = None
                raise LogError(f"{self.path}: another run is writing this log; wait for it "
                               "or give another --out folder") from None
            if self.path.stat().st_size > 0:
                self._read(header)
            else:
                self._write(header)
        except OSError as exc:
            self.close()
            raise LogError(f"{self.path}: {exc.strerror or exc}") from None
        except LogError:
            self.close()
            raise

    def _read(self, header: dict[str, Any]) -> None:
        raw = self.path.read_bytes()
        good = raw.rfind(b"\n") + 1           # end of the last complete line
        if good < len(raw):
            self.dropped += 1
            with open(self.path, "r+b") as f:   # cut the torn tail off
                f.truncate(good)
                f.flush()
                os.fsync(f.fileno())
        lines = raw[:good].decode("utf-8", errors="replace").splitlines()
        try:
            first = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            first = None
        if not isinstance(first, dict) or first.get("type") != "header":
            raise LogError(f"{self.path}: not a results log (no header line); "
                           "give another --out folder")
        if first.get("kind") != self.kind or not same_run(first.get("config"), header["config"]):
            raise LogError(f"{self.path}: holds another {first.get('kind', 'run')} (other "
                           "scenario, agents or settings); give another --out folder to "
                           "start afresh")
        for n, line in enumerate(lines[1:], start=2):
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise LogError(f"{self.path}: line {n} is not JSON") from None
            if isinstance(row, dict) and row.get("type") == "game":
                why = row_problem(row)
                if why is not None:
                    raise LogError(f"{self.path}: line {n}: {why} (an edited or damaged log: "
                                   "fix the line or give another --out folder)")
                self.games.setdefault(row["key"], row)

    def _write(self, row: dict[str, Any]) -> None:
        """One whole line or nothing: written straight to the descriptor, and
        on a failure (a full disk takes part of a line) the file is cut back
        to where the line began, so a resume reads whole rows only."""
        assert self._f is not None
        fd = self._f.fileno()
        start = os.lseek(fd, 0, os.SEEK_END)
        view = memoryview((json.dumps(row, allow_nan=False) + "\n").encode("utf-8"))
        try:
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError:
            try:
                os.ftruncate(fd, start)
            except OSError:
                pass
            raise

    def append(self, result: dict[str, Any]) -> None:
        if result["key"] in self.games:      # never counted twice
            return
        row = {"type": "game", **result}
        try:
            self._write(row)
        except OSError as exc:
            raise LogError(f"{self.path}: cannot append: {exc.strerror or exc}") from None
        self.games[result["key"]] = row

    def close(self) -> None:
        if self._f is not None:
            f, self._f = self._f, None
            try:
                f.close()
            except OSError:
                # a failed append left its row in the buffer, and closing
                # flushes it again (a full disk fails twice): the row was
                # already reported as lost, and the file holds whole rows
                try:
                    os.close(f.fileno())
                except (OSError, ValueError):
                    pass

    def __enter__(self) -> "ResultLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
