"""The replay library: one cheap summary row per file in a replay folder
(what the menu lists), a scenario filter, and deleting a file.

A summary reads only the header (line 1) and the file's tail, where the
result line is: it never re-simulates and never reads the turns in between,
so a folder of long matches lists quickly. A file that cannot be summarised
(no valid header, unreadable) is a row marked damaged with the reason, never
an exception: the menu must open whatever the folder holds.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .format import FORMAT_NAME
from ..textfile import TextFileProblem, open_regular

TAIL_BYTES = 64 * 1024   # enough for a result line and a turn line without trees
HEADER_BYTES = 4 * 1024 * 1024   # a header past this is refused, not read whole

# Environment variable naming the default replay folder (used when neither
# --replay-dir nor a scenario's own [record] dir says otherwise). The test
# suite points it at a temporary folder so tests never fill replays/.
REPLAY_DIR_ENV = "SBX_REPLAY_DIR"


def default_replay_dir() -> str:
    return os.environ.get(REPLAY_DIR_ENV) or "replays"


@dataclass(frozen=True)
class ReplaySummary:
    path: Path
    size: int                    # bytes
    mtime: float
    scenario: str = ""           # the stem it was loaded as, else the scenario's name
    created: str = ""            # header's ISO time
    turns: int | None = None     # from the result line, else the last turn line
    winner: str = ""             # a name, "draw", or "unfinished"
    damaged: str = ""            # why the file cannot be listed properly ("" = fine)

    @property
    def date(self) -> str:
        """'2026-11-25 18:03' from the ISO header time (the file's time if none)."""
        if self.created[:16].count("-") == 2 and "T" in self.created[:16]:
            return self.created[:16].replace("T", " ")
        import time
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.mtime))


def human_size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def summarize(path: str | os.PathLike) -> ReplaySummary:
    """The library row of one file (damaged files included; never raises)."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        return ReplaySummary(p, 0, 0.0, damaged=f"cannot read: {exc.strerror or exc}")
    base = dict(path=p, size=st.st_size, mtime=st.st_mtime)
    try:
        # a FIFO or a device in the folder is a row, never a hang
        with open_regular(p) as f:
            first = f.readline(HEADER_BYTES)
            start = max(0, st.st_size - TAIL_BYTES)
            f.seek(start)
            tail = f.read()
    except TextFileProblem as exc:
        return ReplaySummary(**base, damaged=str(exc))
    except OSError as exc:
        return ReplaySummary(**base, damaged=f"cannot read: {exc.strerror or exc}")
    header = _obj(first)
    if header is None or header.get("type") != "header" or header.get("format") != FORMAT_NAME:
        why = "empty file" if not first.strip() else "no valid replay header"
        return ReplaySummary(**base, damaged=why)
    scen = header.get("scenario")
    name = header.get("scenario_source") or (scen.get("name") if isinstance(scen, dict) else "")
    if not isinstance(name, str) or not name:
        return ReplaySummary(**base, damaged="header names no scenario")
    created = header.get("created") if isinstance(header.get("created"), str) else ""
    turns, winner = _ending(tail, header, cut=start > 0)
    return ReplaySummary(**base, scenario=name, created=created, turns=turns, winner=winner)


def _obj(line: bytes) -> dict | None:
    try:
        obj = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError, MemoryError):
        return None
    return obj if isinstance(obj, dict) else None


def _ending(tail: bytes, header: dict, cut: bool) -> tuple[int | None, str]:
    """(turns played, winner) from the last readable line of the tail: the
    result line of a finished match, else the last turn line (unfinished).
    `cut`: the tail starts mid-file, so its first piece is part of a line."""
    lines = tail.split(b"\n")[1 if cut else 0:]
    for raw in reversed(lines):
        obj = _obj(raw) if raw.strip() else None
        if obj is None:
            continue
        if obj.get("type") == "result":
            turns = obj.get("turns") if isinstance(obj.get("turns"), int) else None
            w, names, ranking = obj.get("winner"), obj.get("names"), obj.get("ranking")
            if w is None:
                return turns, _shared_first(ranking, names)
            if isinstance(w, int) and isinstance(names, list) and 0 <= w < len(names):
                return turns, str(names[w])
            return turns, f"agent {w}"
        if obj.get("type") == "turn" and isinstance(obj.get("turn"), int):
            start = header.get("start_turn") if isinstance(header.get("start_turn"), int) else 0
            return obj["turn"] + 1 - start, "unfinished"
        if obj.get("type") == "header":
            return 0, "unfinished"
    return None, "unfinished"


def _shared_first(ranking: object, names: object) -> str:
    """'draw' when every agent ties, else 'shared: A, B' (the tied first)."""
    if not (isinstance(ranking, list) and isinstance(names, list) and ranking
            and len(ranking) == len(names) and all(isinstance(r, int) for r in ranking)):
        return "draw"
    best = min(ranking)
    first = [str(n) for n, r in zip(names, ranking) if r == best]
    if len(first) == len(ranking):
        return "draw"
    return "shared: " + ", ".join(dict.fromkeys(first))


def scan(directory: str | os.PathLike) -> list[ReplaySummary]:
    """Every *.jsonl in the folder, newest first (a missing folder: none)."""
    try:
        files = [p for p in Path(directory).glob("*.jsonl") if p.is_file()]
    except OSError:
        return []
    rows = [summarize(p) for p in files]
    rows.sort(key=lambda r: (r.mtime, r.path.name), reverse=True)
    return rows


def scenarios(rows: list[ReplaySummary]) -> list[str]:
    """The scenarios the rows hold, for the filter picker (sorted)."""
    return sorted({r.scenario for r in rows if r.scenario})


def filtered(rows: list[ReplaySummary], scenario: str | None) -> list[ReplaySummary]:
    """The rows of one scenario (None: all; damaged rows only show under all)."""
    if scenario is None:
        return list(rows)
    return [r for r in rows if r.scenario == scenario]


def delete(path: str | os.PathLike) -> str:
    """Remove a replay file; '' when done, else why not (never raises)."""
    try:
        Path(path).unlink()
    except FileNotFoundError:
        return ""          # already gone: the list refresh shows that
    except OSError as exc:
        return f"cannot delete {Path(path).name}: {exc.strerror or exc}"
    return ""


__all__ = ["REPLAY_DIR_ENV", "ReplaySummary", "default_replay_dir", "delete", "filtered",
           "human_size", "scan", "scenarios", "summarize"]
