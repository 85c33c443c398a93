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
import os
from pathlib import Path
from typing import Any

from ..native import SandboxError

LOG_FORMAT = 1


class LogError(SandboxError):
    """A results log that cannot be used (one line)."""


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
            self._f = open(self.path, "a", encoding="utf-8")
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
        if first.get("kind") != self.kind or first.get("config") != header["config"]:
            raise LogError(f"{self.path}: holds another {first.get('kind', 'run')} (other "
                           "scenario, agents or settings); give another --out folder to "
                           "start afresh")
        for n, line in enumerate(lines[1:], start=2):
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise LogError(f"{self.path}: line {n} is not JSON") from None
            if isinstance(row, dict) and row.get("type") == "game" and "key" in row:
                self.games.setdefault(row["key"], row)

    def _write(self, row: dict[str, Any]) -> None:
        assert self._f is not None
        self._f.write(json.dumps(row, allow_nan=False) + "\n")
        self._f.flush()
        os.fsync(self._f.fileno())

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
            self._f.close()
            self._f = None

    def __enter__(self) -> "ResultLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
