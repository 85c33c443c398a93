"""The replay buffer: positions with their training targets, on disk,
append-only (docs/learning.md gives the format).

    8 bytes "SBXBUF01", u32 n, n bytes of JSON (the header: game, layout,
    what wrote it), then records: u32 payload length, u32 CRC-32 of the
    payload, the payload (RECORD_FIELDS; fixed size for one header).

A game's records are appended together and fsynced, the last one flagged
END; on opening, anything after the last END record (a game cut short by a
crash, a torn record) is cut off, so a resumed run replays that game and
never reads half of one. A damaged record before that is an error (one
line), not a guess.

Each record is one position from one view: the game's public features from
that view (sbx.h section 1), every player's range (zeros without hidden
information), and in view order per player: the search's value per private
slot with a mask of the slots that have one, the game's outcome, the
search's policy over move ids with a mask of the players that have one, and
the legal moves. Query records (KIND_QUERY: SoG's query solving, positions
from inside searches whose targets come from solving them) have no outcome
(NaN) and are written by later tools into the same format.
"""
from __future__ import annotations

import json
import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from ..native import SandboxError

MAGIC = b"SBXBUF01"
FORMAT = 1
KIND_MAIN, KIND_QUERY = 0, 1
FLAG_END = 1            # the last record of its game
PREFIX = struct.Struct("<II")


class BufferError(SandboxError):
    """A replay buffer that cannot be used (one line)."""


@dataclass(frozen=True)
class Dims:
    features: int
    players: int
    slots: int
    moves: int

    @property
    def value_slots(self) -> int:
        return max(1, self.slots)


def record_fields(d: Dims) -> list[tuple[str, str, tuple[int, ...]]]:
    """The payload, in order: (name, numpy type, shape)."""
    n, v, m = d.players, d.value_slots, d.moves
    return [("kind", "<i4", ()), ("view", "<i4", ()), ("turn", "<i4", ()), ("flags", "<i4", ()),
            ("game", "<u8", ()),
            ("features", "<f4", (d.features,)), ("ranges", "<f4", (n, d.slots)),
            ("value", "<f4", (n, v)), ("value_mask", "<f4", (n, v)),
            ("outcome", "<f4", (n,)), ("policy", "<f4", (n, m)), ("policy_mask", "<f4", (n,)),
            ("legal", "<f4", (n, m))]


def payload_dtype(d: Dims) -> np.dtype:
    return np.dtype([(name, t, shape) for name, t, shape in record_fields(d)])


def record_dtype(d: Dims) -> np.dtype:
    return np.dtype([("length", "<u4"), ("crc", "<u4"), ("payload", payload_dtype(d))])


def new_records(d: Dims, n: int) -> np.ndarray:
    """n empty payloads (masks 0, outcome NaN) to fill in."""
    r = np.zeros(n, dtype=payload_dtype(d))
    r["outcome"] = np.nan
    return r


def encode(records: np.ndarray) -> bytes:
    """Payloads -> the bytes of their records (prefix and CRC each)."""
    size = records.dtype.itemsize
    raw = records.tobytes()
    out = bytearray()
    for i in range(len(records)):
        p = raw[i * size:(i + 1) * size]
        out += PREFIX.pack(size, zlib.crc32(p)) + p
    return bytes(out)


class ReplayBuffer:
    """One buffer file, opened for appending (made if missing). `header`
    must match the file's (the same game, layout and self-play settings):
    another run's buffer is refused, not mixed in."""

    def __init__(self, path: str | os.PathLike, header: dict[str, Any], dims: Dims) -> None:
        self.path = Path(path)
        self.dims = dims
        self.header = json.loads(json.dumps({"format": FORMAT, **header, "dims": dims.__dict__}))
        self.dtype = record_dtype(dims)
        self.dropped = 0          # records cut off at opening (a game in progress)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and not self.path.is_file():
                raise BufferError(f"{self.path}: not a regular file")
            if not self.path.exists() or self.path.stat().st_size == 0:
                self._start()
            self.records, self._end = self._load()
        except OSError as exc:
            raise BufferError(f"{self.path}: {exc.strerror or exc}") from None

    # -- reading ----------------------------------------------------------------
    def _start(self) -> None:
        body = json.dumps(self.header, sort_keys=True).encode("utf-8")
        with open(self.path, "wb") as f:
            f.write(MAGIC + struct.pack("<I", len(body)) + body)
            f.flush()
            os.fsync(f.fileno())

    def _load(self) -> tuple[np.ndarray, int]:
        raw = self.path.read_bytes()
        if raw[:8] != MAGIC or len(raw) < 12:
            raise BufferError(f"{self.path}: not a replay buffer (give another --work folder)")
        (n,) = struct.unpack_from("<I", raw, 8)
        try:
            got = json.loads(raw[12:12 + n].decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            got = None
        if not isinstance(got, dict):
            raise BufferError(f"{self.path}: the header is damaged")
        if got != self.header:
            diff = sorted(k for k in set(got) | set(self.header) if got.get(k) != self.header.get(k))
            raise BufferError(f"{self.path}: holds another run's positions ({', '.join(diff)} "
                              "differ); give another --work folder to start afresh")
        start = 12 + n
        size = self.dtype.itemsize
        whole = (len(raw) - start) // size
        recs = np.frombuffer(raw, dtype=self.dtype, count=whole, offset=start)
        psize = size - PREFIX.size

        def valid(i: int) -> bool:
            a = start + i * size + PREFIX.size
            return (int(recs[i]["length"]) == psize
                    and zlib.crc32(raw[a:a + psize]) == int(recs[i]["crc"]))

        good = next((i for i in range(whole) if not valid(i)), whole)
        payloads = recs["payload"]
        # what an interrupted append leaves is after the last fsynced game:
        # a whole game after a bad record means damage, not a crash's tail
        if any(valid(i) and payloads[i]["flags"] & FLAG_END for i in range(good + 1, whole)):
            raise BufferError(f"{self.path}: record {good} is damaged (CRC) before whole "
                              "games; the buffer cannot be trusted")
        ends = np.nonzero(payloads["flags"][:good] & FLAG_END)[0]
        keep = int(ends[-1]) + 1 if len(ends) else 0
        end = start + keep * size
        if end < len(raw):
            self.dropped = whole - keep + (1 if (len(raw) - start) % size else 0)
            with open(self.path, "r+b") as f:
                f.truncate(end)
                f.flush()
                os.fsync(f.fileno())
        return payloads[:keep].copy(), end

    @property
    def games(self) -> set[int]:
        """The games (match seeds) whose positions are all here."""
        return set(int(g) for g in self.records["game"])

    def __len__(self) -> int:
        return len(self.records)

    # -- writing ----------------------------------------------------------------
    def append_game(self, payloads: np.ndarray) -> None:
        """One game's records, the last flagged END, written and fsynced at
        once; on a failure the file is cut back to where they began."""
        if len(payloads) == 0:
            return
        if payloads.dtype != self.dtype["payload"]:
            raise BufferError("records of another layout")
        payloads = payloads.copy()
        payloads["flags"][-1] |= FLAG_END
        data = encode(payloads)
        try:
            fd = os.open(self.path, os.O_WRONLY)
            try:
                os.lseek(fd, self._end, os.SEEK_SET)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except OSError:
                os.ftruncate(fd, self._end)
                raise
            finally:
                os.close(fd)
        except OSError as exc:
            raise BufferError(f"{self.path}: cannot append: {exc.strerror or exc}") from None
        self._end += len(data)
        self.records = np.concatenate([self.records, payloads])

    def window(self, n: int | None) -> np.ndarray:
        """The last n records (all when n is None): the sliding window the
        trainer samples from."""
        return self.records if n is None or n >= len(self.records) else self.records[-n:]


def concat(parts: Iterable[np.ndarray], d: Dims) -> np.ndarray:
    parts = list(parts)
    return np.concatenate(parts) if parts else new_records(d, 0)
