"""Reading replays: tolerant of torn and damaged files, strict about what
they claim to be.

read_replay() keeps every complete, valid line and reports each line it
dropped (a torn last line, garbage, a line failing validation, a turn or
result line that disagrees with the header about the agents and players, a
turn out of order or repeated, anything after the result line). What it
cannot work around is a ReplayError with one line: a missing or empty file,
no header, another format, an unsupported version, a header inconsistent in
itself (e.g. fewer names than agents, a player owning an agent that does not
exist).

Replay.state_at(turn) re-simulates from the header with the recorded joint
actions (checkpoints every 25 turns keep scrubbing fast); view_at(turn)
decodes that state for renderers. A pods race in the pymunk world (scenario
physics = "pymunk") cannot be re-simulated: each turn's joint action is
still played (so an illegal one is caught), then the state the turn line
stored is imported over the result (play_line).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from pydantic import ValidationError

from ..config.errors import one_line
from ..native import Game, SandboxError
from ..textfile import TextFileProblem, open_regular
from .errors import ReplayError
from .format import (FORMAT_NAME, SUPPORTED_VERSIONS, HeaderLine, ResultLine, TurnLine,
                     hash_hex)

CHECKPOINT_EVERY = 25


@dataclass(frozen=True)
class Dropped:
    line: int          # 1-based line number in the file
    reason: str

    def __iter__(self):  # unpacks as (line_no, reason)
        return iter((self.line, self.reason))

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


@dataclass(eq=False)
class Replay:
    path: Path
    header: HeaderLine
    turns: list[TurnLine]                  # strictly increasing turn numbers, file order
    result: ResultLine | None              # None: the match did not finish (or the line was lost)
    dropped: list[Dropped] = field(default_factory=list)   # the first KEPT_DROPS
    more_dropped: int = 0                  # dropped lines past those listed
    _checkpoints: dict[int, Game] = field(default_factory=dict, repr=False)
    _cursor: Game | None = field(default=None, repr=False)

    # ------------------------------------------------------------- structure
    @property
    def start_turn(self) -> int:
        return self.header.start_turn

    @cached_property
    def by_turn(self) -> dict[int, TurnLine]:
        return {t.turn: t for t in self.turns}

    @cached_property
    def playable_turns(self) -> int:
        """How many turns from the start are recorded without a gap."""
        n = 0
        for t in self.turns:
            if t.turn != self.start_turn + n:
                break
            n += 1
        return n

    @property
    def end_turn(self) -> int:
        """The last turn state_at() can rebuild (the state after the last
        contiguous recorded turn)."""
        return self.start_turn + self.playable_turns

    @cached_property
    def missing_turns(self) -> list[int]:
        """Turns absent between the first and the last recorded one."""
        if not self.turns:
            return []
        have = {t.turn for t in self.turns}
        return [k for k in range(self.start_turn, self.turns[-1].turn) if k not in have]

    @property
    def complete(self) -> bool:
        return self.result is not None and not self.missing_turns

    def hash_at(self, turn: int) -> str:
        """The recorded state hash at the start of `turn`."""
        if turn == self.start_turn:
            return self.header.initial_hash
        line = self.by_turn.get(turn - 1)
        if line is None:
            raise ReplayError(f"{self.path}: turn {turn - 1} is not recorded")
        return line.hash

    def alive_before(self, turn: int) -> list[bool]:
        if turn == self.start_turn:
            return list(self.header.initial_alive)
        prev = self.by_turn.get(turn - 1)
        return list(prev.alive) if prev is not None else [True] * self.header.num_agents

    @property
    def stored_states(self) -> bool:
        """Turns are replayed from their stored states (a pymunk world), not
        re-simulated (the C model is the world: csb, and every older file)."""
        return self.header.scenario.get("physics", "csb") != "csb"

    # --------------------------------------------------------------- playback
    def play_line(self, game: Game, line: TurnLine) -> None:
        """Plays one turn line on `game` (at line.turn): the recorded joint
        action, then, for a replay of stored states, the state after it.
        SandboxError: a move C refuses, or a stored state it refuses;
        ReplayError: a stored state missing, or not the next turn's."""
        game.step(line.played())
        if not self.stored_states:
            return
        if line.state is None:
            raise ReplayError(f"turn {line.turn}: no stored state (a {self._physics} world "
                              f"is not re-simulated)")
        game.import_state(line.state)
        if game.turn != line.turn + 1:
            raise ReplayError(f"turn {line.turn}: the stored state is turn {game.turn}, "
                              f"not {line.turn + 1}")

    @property
    def _physics(self) -> str:
        return str(self.header.scenario.get("physics", "csb"))

    def new_game(self, check: bool = True) -> Game:
        """The initial state, rebuilt from the header (checked against the
        recorded initial hash unless check=False)."""
        h = self.header
        try:
            g = Game(h.game, h.game_params, seed=h.seed)
            # a replay begun mid-game or branched from another's turn: take
            # its recorded state
            if g.turn != h.start_turn or h.branched_from is not None:
                g.import_state(h.initial_state)
        except SandboxError as exc:
            raise ReplayError(f"{self.path}: cannot rebuild the game: {exc}") from None
        if g.num_agents != h.num_agents:  # every turn line is sized by the header's count
            g.close()
            raise ReplayError(f"{self.path}: cannot rebuild the game: it has {g.num_agents} "
                              f"agents, the header's num_agents says {h.num_agents}")
        got = hash_hex(g.state_hash())
        if check and got != h.initial_hash:
            g.close()
            raise ReplayError(f"{self.path}: this build rebuilds another initial state "
                              f"(hash {got}, recorded {h.initial_hash}; core "
                              f"{h.core_version} recorded it)")
        return g

    def state_at(self, turn: int) -> Game:
        """A new Game at the start of `turn` (after the recorded joints of
        turns start_turn..turn-1). The caller owns it (close() it)."""
        turn = int(turn)
        if not self.start_turn <= turn <= self.end_turn:
            gap = f"; turn {self.end_turn} is missing" if self.missing_turns else ""
            raise ReplayError(f"{self.path}: turn {turn} is outside the playable range "
                              f"{self.start_turn}..{self.end_turn}{gap}")
        # Start from the last state asked for when scrubbing forward, else from
        # the nearest checkpoint at or before `turn`.
        if self._cursor is not None and self._cursor.turn <= turn:
            base = self._cursor
        else:
            if self.start_turn not in self._checkpoints:
                self._checkpoints[self.start_turn] = self.new_game()
            base = self._checkpoints[max(c for c in self._checkpoints if c <= turn)]
        g = base.clone()
        while g.turn < turn:
            line = self.by_turn[g.turn]
            try:
                self.play_line(g, line)
            except SandboxError as exc:
                g.close()
                raise ReplayError(f"{self.path}: turn {line.turn}: cannot replay the "
                                  f"recorded moves: {exc}") from None
            except ReplayError as exc:
                g.close()
                raise ReplayError(f"{self.path}: {exc}") from None
            got = hash_hex(g.state_hash())
            if got != line.hash:  # playback must show what was played, or nothing
                g.close()
                raise ReplayError(f"{self.path}: turn {line.turn}: state hash differs "
                                  f"(recorded {line.hash}, replayed {got})")
            if g.turn % CHECKPOINT_EVERY == 0 and g.turn not in self._checkpoints:
                self._checkpoints[g.turn] = g.clone()
        cursor = g.clone()
        if self._cursor is not None:
            self._cursor.close()
        self._cursor = cursor
        return g

    def view_at(self, turn: int):
        """The decoded state at the start of `turn` (sandbox.games views)."""
        from ..games import decode
        g = self.state_at(turn)
        try:
            return decode(g.kind, g.export())
        finally:
            g.close()

    def close(self) -> None:
        """Free the cached game states."""
        for g in self._checkpoints.values():
            g.close()
        self._checkpoints.clear()
        if self._cursor is not None:
            self._cursor.close()
            self._cursor = None

    def __enter__(self) -> "Replay":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def dropped_lines(self) -> int:
        """How many lines were dropped in all (listed or not)."""
        return len(self.dropped) + self.more_dropped

    @property
    def damaged_lines(self) -> int:
        """Dropped lines other than a torn last line: a crash mid-write
        leaves only that one, so anything else means the file was damaged
        or edited into something it does not claim to be."""
        torn = sum(1 for d in self.dropped if d.reason == TORN_TAIL)
        return self.dropped_lines - torn

    def dropped_summary(self, limit: int = 3) -> str:
        """'dropped 2 lines (line 7: not JSON; line 12: torn last line)'."""
        n = self.dropped_lines
        if not n:
            return ""
        shown = "; ".join(str(d) for d in self.dropped[:limit])
        more = f"; and {n - limit} more" if n > limit else ""
        return f"dropped {n} line{'s' if n != 1 else ''} ({shown}{more})"


# ------------------------------------------------------------------ reading
# A line is read at most this long: a turn line with a stored pymunk state
# and a search summary is a few KB, so a longer one is garbage (dropped
# after the header, refused before it) and never held whole in memory.
MAX_LINE_BYTES = 16 * 1024 * 1024
# Lines tolerated before the header (a damaged start) before the file is
# refused as not a replay: a large garbage file is rejected at once.
HEADER_SCAN_LINES = 64
# Dropped lines listed one by one; the rest are counted (Replay.more_dropped).
KEPT_DROPS = 1000
_SKIP_CHUNK = 1 << 20
TORN_TAIL = "torn last line (no newline)"


def _read_lines(f):
    """(line number, the line without its newline or None if it ran over
    MAX_LINE_BYTES, whether it ended with a newline), streaming: at most
    MAX_LINE_BYTES + 1 bytes of one line are held at a time."""
    no = 0
    while True:
        blob = f.readline(MAX_LINE_BYTES + 1)
        if not blob:
            return
        no += 1
        if blob.endswith(b"\n"):
            yield no, blob[:-1], True
        elif len(blob) <= MAX_LINE_BYTES:
            yield no, blob, False          # the last line, torn
        else:                              # too long: skip to its end
            ended = False
            while not ended:
                chunk = f.readline(_SKIP_CHUNK)
                if not chunk:
                    break
                ended = chunk.endswith(b"\n")
            yield no, None, ended


def read_replay(path: str | os.PathLike) -> Replay:
    p = Path(path)
    try:
        f = open_regular(p)
    except FileNotFoundError:
        raise ReplayError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise ReplayError(f"{p}: is a directory, not a replay file") from None
    except TextFileProblem as exc:
        what = "is a directory" if str(exc) == "a directory" else str(exc)
        raise ReplayError(f"{p}: {what}, not a replay file") from None
    except OSError as exc:
        raise ReplayError(f"{p}: cannot read: {exc.strerror or exc}") from None
    try:
        with f:
            return _read(p, f)
    except OSError as exc:
        raise ReplayError(f"{p}: cannot read: {exc.strerror or exc}") from None
    except MemoryError:
        raise ReplayError(f"{p}: too large to read into memory") from None


def _read(p: Path, f) -> Replay:
    dropped: list[Dropped] = []
    more_dropped = 0
    header: HeaderLine | None = None
    turns: list[TurnLine] = []
    result: ResultLine | None = None
    seen_lines = False                  # turn/result lines before any header
    any_text = False

    def drop(no: int, reason: str) -> None:
        nonlocal more_dropped
        if len(dropped) < KEPT_DROPS:
            dropped.append(Dropped(no, reason))
        else:
            more_dropped += 1

    for no, blob, ended in _read_lines(f):
        is_tail = not ended
        if blob is None:
            if header is None:
                raise ReplayError(f"{p}: not a replay file (line {no} is over "
                                  f"{MAX_LINE_BYTES // (1024 * 1024)} MB)")
            drop(no, f"line over {MAX_LINE_BYTES // (1024 * 1024)} MB")
            continue
        if not blob.strip():
            if not is_tail:
                drop(no, "blank line")
            continue
        any_text = True
        if header is None and no > HEADER_SCAN_LINES:
            if seen_lines:   # turn lines: a replay whose header was lost
                raise ReplayError(f"{p}: no valid replay header ({dropped[0]}; none in "
                                  f"its first {HEADER_SCAN_LINES} lines)")
            raise ReplayError(f"{p}: not a replay file (no {FORMAT_NAME} header in its first "
                              f"{HEADER_SCAN_LINES} lines)")
        obj, why = _parse(blob)
        if obj is None:
            drop(no, TORN_TAIL if is_tail else why)
            continue
        kind = obj.get("type")
        if header is None:
            if kind != "header":
                if not dropped and kind not in ("turn", "result"):
                    raise ReplayError(f"{p}: not a replay file (line {no} is not a "
                                      f"{FORMAT_NAME} header)")
                seen_lines = seen_lines or kind in ("turn", "result")
                drop(no, f"{kind or 'untyped'} line before the header")
                continue
            header = _header(p, no, obj)
            continue
        if result is not None:
            drop(no, f"{kind} line after the result line")
            continue
        try:
            if kind == "turn":
                line = TurnLine.model_validate(obj)
            elif kind == "result":
                line = ResultLine.model_validate(obj)
            elif kind == "header":
                drop(no, "a second header")
                continue
            else:
                drop(no, f"unknown line type {kind!r}")
                continue
        except ValidationError as exc:
            drop(no, f"invalid {kind} line: {one_line(exc, 1)}")
            continue
        if isinstance(line, ResultLine):
            why = header.result_problem(line)
            if why is not None:
                drop(no, f"result line: {why}")
                continue
            result = line
            continue
        expected = turns[-1].turn + 1 if turns else header.start_turn
        if line.turn < expected:
            drop(no, f"turn {line.turn} out of order or repeated (expected {expected})")
            continue
        why = header.turn_problem(line)
        if why is not None:
            drop(no, f"turn {line.turn}: {why}")
            continue
        turns.append(line)

    if header is None:
        if not any_text:
            raise ReplayError(f"{p}: empty file, not a replay")
        first = f" ({dropped[0]})" if dropped else ""
        if seen_lines:
            raise ReplayError(f"{p}: no valid replay header{first}")
        raise ReplayError(f"{p}: not a replay file{first}")
    return Replay(path=p, header=header, turns=turns, result=result, dropped=dropped,
                  more_dropped=more_dropped)


def _parse(blob: bytes) -> tuple[dict | None, str]:
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        return None, "not UTF-8 text"
    try:
        obj = json.loads(text)
    except ValueError:
        return None, "not JSON"
    except RecursionError:   # json.loads recurses once per level of [ or {
        return None, "JSON nested too deeply to read"
    except MemoryError:
        return None, "line too large to read"
    if not isinstance(obj, dict):
        return None, "not a JSON object"
    return obj, ""


def _header(p: Path, no: int, obj: dict) -> HeaderLine:
    fmt = obj.get("format")
    if fmt != FORMAT_NAME:
        raise ReplayError(f"{p}: not a {FORMAT_NAME} file (format {fmt!r})")
    version = obj.get("version")
    if version not in SUPPORTED_VERSIONS or isinstance(version, bool):
        known = ", ".join(str(v) for v in SUPPORTED_VERSIONS)
        raise ReplayError(f"{p}: replay format version {version!r} is not supported "
                          f"(this build reads version {known})")
    try:
        return HeaderLine.model_validate(obj)
    except ValidationError as exc:
        raise ReplayError(f"{p}: line {no}: invalid header: {one_line(exc, 1)}") from None


__all__ = ["CHECKPOINT_EVERY", "Dropped", "Replay", "read_replay", "hash_hex"]
