"""Recorder: writes a match to a replay file as it is played.

Plugged into Match as its recorder (begin / append / end). Every line goes to
the file in one os.write() of the whole line, newline included, straight to
the kernel (no Python buffer): a crash or a SIGKILL between turns loses
nothing, one during a write loses at most that line, which the reader drops.
The file is fsync'ed when the match ends (and every `fsync_every` turns if
asked), so a power loss can cost more than a process crash can.

Failures (disk full, folder not writable, ...) never break a match more than
once: the first becomes a ReplayError — raised, or handed to `on_error` if
given — and recording stops; `status` says what happened, for the app's
indicator.
"""
from __future__ import annotations

import errno
import os
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..names import find_scenario, slug
from .errors import ReplayError
from .format import (FREE_VERSION, AgentTurn, BotFailureLine, BotLine, FreeMoveLine,
                     FreeMovesLine, HeaderLine, PlayerHeader, PlayerTurnLine, ResultLine,
                     RootMove, SettingsChangeLine, TreeColumns, TurnLine, hash_hex)

if TYPE_CHECKING:
    from ..config import Scenario
    from ..sim.match import Match
    from ..sim.records import MatchResult, TurnRecord


SCORE_DECIMALS = 6      # turn lines keep scores to this many decimals (verify compares so)


def replay_name(scenario_stem: str, seed: int, when: float | None = None) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
    return f"{stamp}_{slug(scenario_stem)}_s{seed}.jsonl"


@dataclass(frozen=True)
class RecorderStatus:
    """What the app's recording indicator shows."""
    state: str                   # "waiting" | "recording" | "finished" | "closed" | "failed"
    path: Path | None
    turns: int                   # turn lines written
    bytes: int
    error: str | None = None

    def label(self) -> str:
        if self.state == "failed":
            return f"REC failed: {self.error}"
        if self.state == "recording":
            return f"REC {self.turns} turns"
        if self.state == "waiting":
            return "REC ready"
        return f"saved {self.path.name}" if self.path is not None else "REC off"


class Recorder:
    """Writes one replay file per match.

    directory      folder for the file (created if missing); the file is named
                   <YYYYmmdd-HHMMSS>_<scenario>_s<seed>.jsonl, with -2, -3, ...
                   added when that name is taken
    path           write exactly this file instead (must not exist)
    name_hint      the scenario's file stem (default: a slug of its name)
    record_trees   > 0: store each search agent's top-of-tree (at most this
                   many nodes) in every turn line
    fsync_every    fsync every N turns (0: only at the end)
    on_error       called with the first ReplayError instead of raising it
    """

    def __init__(self, directory: str | os.PathLike = "replays", *,
                 path: str | os.PathLike | None = None, name_hint: str | None = None,
                 record_trees: int = 0, fsync_every: int = 0,
                 on_error: Callable[[ReplayError], None] | None = None) -> None:
        if record_trees < 0 or fsync_every < 0:
            raise ValueError("record_trees and fsync_every must be >= 0")
        self.directory = Path(directory)
        self._fixed_path = Path(path) if path is not None else None
        self.name_hint = name_hint
        self.record_trees = int(record_trees)
        self.fsync_every = int(fsync_every)
        self.on_error = on_error
        self.path: Path | None = None
        self.error: ReplayError | None = None
        self.turns_written = 0
        self.bytes_written = 0
        self._fd: int | None = None
        self._state = "waiting"
        self._since_sync = 0
        # an unfinished replay shorter than this is removed at close (0: any
        # turn is kept); a finished match is always kept
        self.keep_min_turns = 0

    def check_folder(self) -> None:
        """ReplayError (one line) unless the folder replays go to is a folder
        this process can create files in: called before the first game, so a
        wrong --replay-dir (a file, /proc/1, a read-only or vanished place)
        stops the command instead of a match played with its replay lost."""
        folder = (self._fixed_path.parent if self._fixed_path is not None else self.directory)
        if folder.exists() and not folder.is_dir():
            raise ReplayError(f"replay folder {folder}: is not a folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(prefix=".write-check-", dir=folder)
        except OSError as exc:
            raise ReplayError(f"replay folder {folder}: cannot write there: {_why(exc)}") from None
        os.close(fd)
        try:
            os.unlink(probe)
        except OSError:
            pass

    # ---------------------------------------------------------- match hook
    def begin(self, match: "Match") -> None:
        if self._state != "waiting":
            raise ReplayError("a Recorder records one match; make a new one")
        if self.record_trees and match.record_trees <= 0:
            match.record_trees = self.record_trees
        try:
            header = header_for(match, self.name_hint, match.record_trees)
            line = header.model_dump_json() + "\n"
        except Exception as exc:  # a bug, not the disk: still never break the match twice
            self._fail(f"cannot build the replay header: {exc}")
            return
        try:
            self.path = self._create(match)
        except OSError as exc:
            where = self._fixed_path or self.directory
            self._fail(f"cannot create a replay in {where}: {_why(exc)}")
            return
        self._state = "recording"
        self._write(line)

    def append(self, record: "TurnRecord") -> None:
        if self._state != "recording":
            return
        try:
            line = turn_line(record).model_dump_json() + "\n"
        except Exception as exc:
            self._fail(f"turn {record.turn}: cannot encode: {exc}")
            return
        if self._write(line):
            self.turns_written += 1
            self._since_sync += 1
            if self.fsync_every and self._since_sync >= self.fsync_every:
                self._sync()

    def end(self, result: "MatchResult") -> None:
        if self._state != "recording":
            return
        line = result_line(result).model_dump_json() + "\n"
        if self._write(line):
            self._close("finished")

    # ------------------------------------------------------------- lifetime
    def close(self) -> None:
        """Flush to disk and close (a match that stopped early keeps every
        complete turn and has no result line). A match closed before its
        first turn leaves no file: a header alone replays nothing, and each
        restart in the app would leave one behind. Nor does an unfinished
        one of fewer than `keep_min_turns` turns (the app's: a window opened
        and closed after a few turns is a look around, not a match to keep)."""
        if self._state == "recording":
            self._close("closed")
            if (self.turns_written < max(1, self.keep_min_turns) and self.path is not None
                    and self._state == "closed"):
                try:
                    self.path.unlink()
                    self.path = None
                except OSError:
                    pass

    def __enter__(self) -> "Recorder":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def failed(self) -> bool:
        return self._state == "failed"

    @property
    def status(self) -> RecorderStatus:
        return RecorderStatus(self._state, self.path, self.turns_written, self.bytes_written,
                              str(self.error) if self.error else None)

    # ------------------------------------------------------------- internals
    def _create(self, match: "Match") -> Path:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        if self._fixed_path is not None:
            self._fixed_path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self._fixed_path, flags, 0o644)
            return self._fixed_path
        self.directory.mkdir(parents=True, exist_ok=True)
        stem = self.name_hint or match.scenario.name
        base = replay_name(stem, match.seed)
        for k in range(1, 1000):
            name = base if k == 1 else base.replace(".jsonl", f"-{k}.jsonl")
            path = self.directory / name
            try:
                self._fd = os.open(path, flags, 0o644)
                return path
            except FileExistsError:
                continue
        raise OSError(errno.EEXIST, "too many replays with the same name")

    def _write(self, line: str) -> bool:
        data = line.encode("utf-8")
        try:
            view = memoryview(data)
            while view:  # a regular file takes it all at once unless the disk is full
                n = os.write(self._fd, view)
                view = view[n:]
        except OSError as exc:
            try:  # take back a partly written line: the file stays whole lines
                os.ftruncate(self._fd, self.bytes_written)
            except OSError:
                pass
            self._fail(f"cannot write {self.path}: {_why(exc)}")
            return False
        self.bytes_written += len(data)
        return True

    def _sync(self) -> None:
        self._since_sync = 0
        try:
            os.fsync(self._fd)
        except OSError as exc:
            self._fail(f"cannot sync {self.path}: {_why(exc)}")

    def _close(self, state: str) -> None:
        self._sync()
        if self._state == "failed":
            return
        try:
            os.close(self._fd)
        except OSError as exc:
            self._fail(f"cannot close {self.path}: {_why(exc)}")
            return
        self._fd = None
        self._state = state

    def _fail(self, message: str) -> None:
        """Stop recording; report the first failure once."""
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None
        self._state = "failed"
        if self.error is not None:
            return
        self.error = ReplayError(f"replay: {message}; recording stopped")
        if self.on_error is not None:
            self.on_error(self.error)
        else:
            raise self.error


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


# ----------------------------------------------------------------- encoding
def _r(x: float, nd: int) -> float:
    return round(float(x), nd)


def header_for(match: "Match", scenario_source: str | None = None,
               record_trees: int = 0) -> HeaderLine:
    from .. import __version__
    from ..native import core_version
    from ..sim.controller import SearchController

    scenario = match.scenario
    game = match.world.game
    players = []
    for c in match.controllers:
        cfg = scenario.players[c.player]
        search = c.settings.model_dump(mode="json") if isinstance(c, SearchController) else None
        players.append(PlayerHeader(
            player=c.player, name=c.name, controller=c.kind, agents=list(c.agents),
            search=search, budget=match.budget_for(c.player).model_dump(mode="json"),
            seed=scenario.player_seed(c.player, match.seed),
            color=tuple(cfg.color) if cfg.color is not None else None))
    budget = match.budget_override or scenario.budget
    return HeaderLine(
        app_version=__version__, core_version=core_version(),
        created=datetime.now().astimezone().isoformat(timespec="seconds"),
        scenario=scenario.model_dump(mode="json"), scenario_source=scenario_source,
        seed=match.seed, budget=budget.model_dump(mode="json"), max_turns=match.max_turns,
        game=game.kind, game_params=game.params, num_agents=game.num_agents,
        names=list(match.names), players=players, start_turn=game.turn,
        initial_state=game.export().tolist(), initial_hash=hash_hex(game.state_hash()),
        initial_alive=list(game.alive), record_trees=record_trees,
        branched_from=getattr(match, "branched_from", None))


def turn_line(record: "TurnRecord") -> TurnLine:
    players = []
    for p in record.players:
        agents = []
        for a in sorted(p.moves):
            tree = p.trees.get(a)
            agents.append(AgentTurn(
                # a free move decided: none here (the turn's `free` holds what was played)
                agent=a, move=p.moves[a] if isinstance(p.moves[a], int) else None,
                nodes=p.tree_nodes.get(a),
                root=[RootMove(move=s.move, visits=s.visits, mean=_r(s.mean, 6),
                               prob=_r(s.prob, 6), policy=_r(s.policy, 6))
                      for s in p.root_stats.get(a, ())],
                tree=TreeColumns.from_snapshot(tree) if tree is not None else None,
                chosen_by=p.chosen_by.get(a)))
        players.append(PlayerTurnLine(
            player=p.player, controller=p.controller, iterations=p.iterations,
            sim_turns=p.sim_turns, search_ms=_r(p.search_ms, 3), wall_ms=_r(p.wall_ms, 3),
            stop_reason=p.stop_reason, agents=agents,
            changes=[SettingsChangeLine(player=ch.player, turn=ch.turn, iteration=ch.iteration,
                                        changes={k: (_plain(o), _plain(n))
                                                 for k, (o, n) in ch.changes.items()})
                     for ch in p.changes],
            bot=_bot_line(p.bot)))
    joint, free = split_free(record.joint)
    return TurnLine(
        turn=record.turn, joint=joint, players=players, free=free,
        hash=hash_hex(record.state_hash), scores=[_r(x, SCORE_DECIMALS) for x in record.scores],
        alive=list(record.alive), eliminated=list(record.eliminated),
        rewards=[_r(x, 6) for x in record.rewards],
        state=list(record.state) if record.state is not None else None,
        divergence=([_r(x, 3) for x in record.divergence] if record.divergence is not None
                    else None),
        forfeits=list(record.forfeits))


def _bot_line(info) -> BotLine | None:
    """A process player's turn (sandbox.bots.external.BotTurnInfo)."""
    if info is None:
        return None
    return BotLine(latency_ms=None if info.latency_ms is None else _r(info.latency_ms, 3),
                   failures=[BotFailureLine(agent=f.agent, kind=f.kind, detail=f.detail)
                             for f in info.failures],
                   debug=dict(info.debug) if info.debug else None)


def split_free(joint) -> tuple[list, FreeMovesLine | None]:
    """A played joint action as the turn line holds it: table moves in
    `joint`, free moves (FreeMove) in `free` with null in joint."""
    from ..native import FreeMove
    if not any(isinstance(m, FreeMove) for m in joint):
        return list(joint), None
    moves = [FreeMoveLine(**m.to_json()) if isinstance(m, FreeMove) else None for m in joint]
    return ([None if isinstance(m, FreeMove) else m for m in joint],
            FreeMovesLine(version=FREE_VERSION, moves=moves))


def _plain(value):
    """Settings values as JSON scalars (numpy scalars, enums ...)."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if hasattr(value, "item"):
        return value.item()
    return str(value)


def result_line(result: "MatchResult") -> ResultLine:
    return ResultLine(turns=result.turns, ranking=list(result.ranking), winner=result.winner,
                      final_hash=hash_hex(result.final_hash), terminal=result.terminal,
                      names=list(result.names))


def recorder_for(scenario: "Scenario", args: Any = None, *, enabled: bool | None = None,
                 directory: str | os.PathLike | None = None, name_hint: str | None = None,
                 on_error: Callable[[ReplayError], None] | None = None) -> Recorder | None:
    """A Recorder as the scenario's [record] table asks, or None when
    recording is off. `args` (the CLI's argparse namespace) may override it
    with --no-record and --replay-dir and names the file after the scenario
    file; the keywords override both."""
    cfg = scenario.record
    if args is not None:
        if enabled is None and getattr(args, "no_record", False):
            enabled = False
        if directory is None:
            directory = getattr(args, "replay_dir", None)
        if name_hint is None:
            name_hint = _scenario_stem(getattr(args, "scenario", None))
    if not (cfg.enabled if enabled is None else enabled):
        return None
    if directory is None:
        # a scenario's own [record] dir wins; else $SBX_REPLAY_DIR, else replays/
        from .library import default_replay_dir
        directory = cfg.dir if "dir" in cfg.model_fields_set else default_replay_dir()
    return Recorder(directory, name_hint=name_hint,
                    record_trees=cfg.tree_nodes if cfg.record_trees else 0,
                    fsync_every=cfg.fsync_every, on_error=on_error)


def _scenario_stem(name_or_path: Any) -> str | None:
    from ..native import SandboxError
    try:
        return find_scenario(name_or_path).stem
    except SandboxError:
        return None
