"""A served game as a replay: the states the official engine sent, one turn
line per step, stored (scenario physics = "battlesnake") rather than
re-simulated, since the engine spawns food its own way. The replay path
that pods' pymunk races use reads and verifies it: each turn line carries
the joint action (inferred from how the heads moved) and the received state
after it; `replay verify` plays the joint on the C game, imports the stored
state and checks its hash, alive flags and scores.

Agent numbers are fixed at the first state seen (board.snakes order). The
official object lists only live snakes; a snake missing from the next state
was eliminated by the engine. It is recorded dead with the body C gives it
when C's step of the inferred moves kills it too (with C's cause), else
with its last body and a cause inferred from what we saw (out of health,
off the board, else a collision).
"""
from __future__ import annotations

import os
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Sequence

from ...native import Game, SandboxError, core_version
from ...safetext import unsafe_char
from ...replay.format import (AgentTurn, HeaderLine, PlayerHeader, PlayerTurnLine, ResultLine,
                               TurnLine, hash_hex)
from ...games.snakes.params import SnakesGameParams
from ...games.snakes.view import CAUSES, SnakesView, decode_snakes
from .convert import game_params, has_hazards, hazard_words
from .schema import WRAPPED, GameState

PHYSICS = "battlesnake"       # the header's scenario physics: states received, not stepped
SCORE_DECIMALS = 6
DELTAS = ((0, 1), (0, -1), (-1, 0), (1, 0))


def _shown(text: str) -> str:
    """`text` with every character a terminal or the app must not show
    (control, bidi: sandbox.safetext) replaced by "?"."""
    return "".join("?" if unsafe_char(c) else c for c in text)


def _slug(text: str) -> str:
    keep = "".join(c if c.isalnum() or c in "-_" else "-" for c in text)
    return keep.strip("-")[:40] or "game"


class ServedGame:
    """One game's recording. `observe(state, our_move)` for each received
    state in turn order; `end(state)` at /end. Failures stop the recording
    (`error` says why) and never the server."""

    def __init__(self, st: GameState, directory: str | os.PathLike | None,
                 agent_name: str) -> None:
        self.game_id = st.game_id
        self.ids = tuple(s.id for s in st.snakes)
        # a snake's name is another server's free text: made safe to show
        self.names = tuple(_shown((s.name or s.id)[:40]) for s in st.snakes)
        self.you = st.you_index
        self.params = SnakesGameParams.model_validate(game_params(st))
        self.c_params = self.params.c_params()
        self.wrapped = st.rules in WRAPPED
        self.hazards = has_hazards(st.rules, st.map)
        self.last_seen = time.monotonic()
        self.error: str | None = None
        self.path: Path | None = None
        self.turns_written = 0
        self._fd: int | None = None
        self._words: tuple[int, ...] | None = None     # last stored state
        # (turn, snake id) -> the move we answered for it: the game id is the
        # same for every snake of a game, so one server may play several
        self._moves: dict[tuple[int, str], int] = {}
        # (turn, snake id) -> (iterations, ms, stop reason) of our search
        self._work: dict[tuple[int, str], tuple[int, float, str]] = {}
        self.agent_name = agent_name
        self.started = False             # had its /start (the server's expiry is longer)
        self._ended = False
        self._directory = Path(directory) if directory is not None else None
        # one request at a time per game from the engine, but nothing forces a
        # client to keep to that: the turns are written under a lock
        self._lock = threading.RLock()
        if self._directory is not None:
            self._start(st)

    # ------------------------------------------------------------ the file
    def _start(self, st: GameState) -> None:
        try:
            words = self._words_of(st, None)
            with Game("snakes", self.c_params, seed=0) as g:
                g.import_state(words)
                header = self._header(g, st)
            self._directory.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            base = f"{stamp}_battlesnake-{_slug(st.game_id)}"
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND
            for k in range(1, 100):
                p = self._directory / (f"{base}.jsonl" if k == 1 else f"{base}-{k}.jsonl")
                try:
                    self._fd = os.open(p, flags, 0o644)
                    self.path = p
                    break
                except FileExistsError:
                    continue
            else:
                raise OSError("too many replays of one name")
            self._write(header.model_dump_json())
            self._words = words
        except (OSError, SandboxError, ValueError) as exc:
            self._fail(f"cannot start the replay: {exc}")

    def _header(self, g: Game, st: GameState) -> HeaderLine:
        from ... import __version__
        n = len(self.ids)
        players = [PlayerHeader(player=a, name=self.names[a],
                                controller="smitsimax" if a == self.you else "battlesnake",
                                agents=[a], search=None, budget={"ms": float(st.timeout),
                                                                 "iterations": 0},
                                seed=0) for a in range(n)]
        scenario = {"name": f"battlesnake game {st.game_id}"[:80], "game": "snakes",
                    "game_params": self.params.model_dump(exclude_unset=True),
                    "seed": 0, "max_turns": 0, "physics": PHYSICS,
                    # what a match played on from a turn of this one uses: a
                    # search for every snake (the others were remote servers)
                    "players": [{"name": self.names[a]} for a in range(n)],
                    "description": f"served by {self.agent_name} as snake {self.ids[self.you]} "
                                   f"({st.source or 'unknown source'}, ruleset {st.ruleset} "
                                   f"{st.ruleset_version}, timeout {st.timeout} ms)"}
        return HeaderLine(
            app_version=__version__, core_version=core_version(),
            created=datetime.now().astimezone().isoformat(timespec="seconds"),
            scenario=scenario, scenario_source="battlesnake", seed=0,
            budget={"ms": float(st.timeout), "iterations": 0}, max_turns=0, game="snakes",
            game_params=g.params, num_agents=n, names=list(self.names), players=players,
            start_turn=g.turn, initial_state=[int(x) for x in g.export()],
            initial_hash=hash_hex(g.state_hash()), initial_alive=list(g.alive),
            # not a branch, but the first state is imported, not built from the seed
            branched_from={"file": f"battlesnake:{st.game_id}"[:200], "turn": st.turn,
                           "hash": hash_hex(g.state_hash())})

    def _write(self, line: str) -> None:
        data = (line + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]

    def _fail(self, why: str) -> None:
        if self.error is None:
            self.error = why
        self.close()

    def close(self) -> None:
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self._fd is not None:
            try:
                os.fsync(self._fd)
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    @property
    def recording(self) -> bool:
        return self._fd is not None

    # ------------------------------------------------------------ the turns
    def note_move(self, turn: int, snake_id: str, move: int, iterations: int = 0,
                  ms: float = 0.0, stop_reason: str = "none") -> None:
        with self._lock:
            self._moves[(turn, snake_id)] = int(move)
            self._work[(turn, snake_id)] = (int(iterations), float(ms), str(stop_reason))
            self.last_seen = time.monotonic()

    def observe(self, st: GameState) -> None:
        with self._lock:
            self._observe(st)

    def _observe(self, st: GameState) -> None:
        """A received state: the turn from the last stored state to it."""
        self.last_seen = time.monotonic()
        if not self.recording or self._words is None:
            return
        prev = decode_snakes(self._words)
        if st.turn == prev.turn:
            return                       # the same state again (a retried request)
        if st.turn < prev.turn:
            self._fail(f"turn {st.turn} came after turn {prev.turn}: the turns went backwards")
            return
        if st.turn != prev.turn + 1:
            self._fail(f"turn {st.turn} follows turn {prev.turn}: a state is missing")
            return
        try:
            line, words = self._turn(prev, st)
            self._write(line.model_dump_json())
            self._words = words
            self.turns_written += 1
        except (OSError, SandboxError, ValueError) as exc:
            self._fail(f"turn {prev.turn}: {exc}")

    def end(self, st: GameState) -> None:
        with self._lock:
            self._end(st)

    def _end(self, st: GameState) -> None:
        if self._ended:
            return
        self._ended = True
        if not self.recording or self._words is None:
            return
        last = decode_snakes(self._words).turn
        # The official engine finds a game over at the start of the turn
        # after the last one: nothing moves, but its map's after-turn step
        # runs once more and the turn counter goes on, and /end carries that
        # state. So a game over in the stored state gets no turn line; a
        # state two turns on is the last turn's result, one turn on from
        # ours (our snake was out and sent nothing in between). Any other
        # gap: the replay ends where we last saw the game.
        with Game("snakes", self.c_params, seed=0) as g:
            g.import_state(self._words)
            over = g.is_terminal
        if not over and st.turn == last + 2 and self._is_over(st):
            st = _with_turn(st, last + 1)
        if not over and st.turn == last + 1:
            self._observe(st)
        if not self.recording:
            return
        try:
            with Game("snakes", self.c_params, seed=0) as g:
                g.import_state(self._words)
                ranking = list(g.ranking())
                best = [a for a, r in enumerate(ranking) if r == 0]
                line = ResultLine(turns=g.turn, ranking=ranking,
                                  winner=best[0] if len(best) == 1 else None,
                                  final_hash=hash_hex(g.state_hash()), terminal=g.is_terminal,
                                  names=list(self.names))
            self._write(line.model_dump_json())
        except (OSError, SandboxError, ValueError) as exc:
            self._fail(f"result: {exc}")
        self.close()

    def _is_over(self, st: GameState) -> bool:
        """Whether a received state ends the game by our rules (one snake
        left, or none in a solo game)."""
        alive = len(st.snakes)
        solo = self.params.ruleset == "solo" or len(self.ids) < 2
        return alive == 0 if solo else alive <= 1

    def _words_of(self, st: GameState, stepped: SnakesView | None,
                  prev: SnakesView | None = None, joint: Sequence[int | None] = ()
                  ) -> tuple[int, ...]:
        """Our state words of a received state, in this game's agent order."""
        by_id = {s.id: s for s in st.snakes}
        w = [2 if self.hazards else 1, st.width, st.height, len(self.ids), st.turn,
             len(st.food)]
        for x, y in st.food:
            w += [x, y]
        for a, sid in enumerate(self.ids):
            s = by_id.get(sid)
            if s is not None:
                w += [1, s.health, len(s.body), -1, 0]
                for x, y in s.body:
                    w += [x, y]
                continue
            if prev is None or stepped is None:
                raise ValueError(f"snake {sid!r} is not on the first state's board")
            before, after = prev.snakes[a], stepped.snakes[a]
            if not before.alive:                     # out before this turn: as it was
                rec = (before.health, before.body, before.death_turn, before.cause)
            elif not after.alive:                    # C's step kills it too
                rec = (after.health, after.body, after.death_turn, after.cause)
            else:                                    # the engine's call, not C's
                rec = (before.health - 1, before.body, st.turn,
                       _cause(before, joint[a], st.width, st.height))
            health, body, death_turn, cause = rec
            w += [0, health, len(body), death_turn, CAUSES.index(cause)]
            for x, y in body:
                w += [x, y]
        if self.hazards:
            w += hazard_words(st.rules, st.map, st.width, st.height, st.hazards)
        return tuple(w)

    def _turn(self, prev: SnakesView, st: GameState) -> tuple[TurnLine, tuple[int, ...]]:
        joint = self._joint(prev, st)
        with Game("snakes", self.c_params, seed=0) as g:
            g.import_state(self._words)
            alive_before = list(g.alive)
            rewards = g.step(joint)
            stepped = decode_snakes(g.export())
            words = self._words_of(st, stepped, prev, joint)
            g.import_state(words)
            alive = list(g.alive)
            players = []
            for a, sid in enumerate(self.ids):
                ours = (prev.turn, sid) in self._moves
                its, ms, why = self._work.get((prev.turn, sid), (0, 0.0, "none"))
                players.append(PlayerTurnLine(
                    player=a, controller="smitsimax" if ours or a == self.you else "battlesnake",
                    iterations=its, sim_turns=0, search_ms=round(ms, 3),
                    wall_ms=round(ms, 3), stop_reason=why,
                    agents=[AgentTurn(agent=a, move=joint[a],
                                      chosen_by="search" if ours else "external")]))
            line = TurnLine(
                turn=prev.turn, joint=list(joint), players=players,
                hash=hash_hex(g.state_hash()),
                scores=[round(float(x), SCORE_DECIMALS) for x in g.evaluate()], alive=alive,
                eliminated=[a for a in range(len(alive)) if alive_before[a] and not alive[a]],
                rewards=[round(float(x), 6) for x in rewards], state=[int(x) for x in words])
        return line, words

    def _joint(self, prev: SnakesView, st: GameState) -> list[int | None]:
        """Each live snake's move, from where its head went; a snake the
        engine removed: the move we sent if we played it, else the one C
        says kills it (its heading first), else its heading."""
        by_id = {s.id: s for s in st.snakes}
        joint: list[int | None] = []
        for a, sid in enumerate(self.ids):
            before = prev.snakes[a]
            if not before.alive:
                joint.append(None)
                continue
            s = by_id.get(sid)
            hx, hy = before.body[0]
            if s is not None:
                d = (s.head[0] - hx, s.head[1] - hy)
                if self.wrapped:          # over an edge: a step the other way
                    d = tuple(-1 if v > 1 else 1 if v < -1 else v for v in d)
                if d not in DELTAS:
                    raise ValueError(f"snake {sid!r} moved from {(hx, hy)} to {s.head}, "
                                     "not one step")
                joint.append(DELTAS.index(d))
            elif (prev.turn, sid) in self._moves:       # one of ours: what we sent
                joint.append(self._moves[(prev.turn, sid)])
            else:
                joint.append(None)       # chosen below, once the others are known
        for a, m in enumerate(joint):
            if m is None and prev.snakes[a].alive:
                joint[a] = self._fatal_move(prev, joint, a)
        return joint

    def _fatal_move(self, prev: SnakesView, joint: list[int | None], a: int) -> int:
        heading = prev.snakes[a].direction
        order = ([heading] if heading is not None else []) + [m for m in range(4)
                                                             if m != heading]
        for m in order:
            trial = [0 if (j is None and prev.snakes[b].alive) else j
                     for b, j in enumerate(joint)]
            trial[a] = m
            with Game("snakes", self.c_params, seed=0) as g:
                g.import_state(self._words)
                g.step(trial)
                if not g.alive[a]:
                    return m
        return order[0]


def _with_turn(st: GameState, turn: int) -> GameState:
    from dataclasses import replace
    return replace(st, turn=turn)


def _cause(before, move: int | None, width: int, height: int) -> str:
    if before.health <= 1:
        return "starved"
    if move is not None:
        x, y = before.body[0][0] + DELTAS[move][0], before.body[0][1] + DELTAS[move][1]
        if not (0 <= x < width and 0 <= y < height):
            return "out of bounds"
    return "body collision"
