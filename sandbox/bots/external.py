"""What every controller driven by a program outside the sandbox shares: a
bot over a pipe (sandbox.bots.controller), or over the network.

Such a controller may fail in ways a search cannot: it is late, it dies, it
answers nonsense. ExternalController turns each failure into a move the
world can play (the game's default move: GamePlugin.default_move where it
gives a legal one, else the first legal move) or, with on_failure =
"eliminate", forfeits the player: its agents are out of the match from that
turn (see `forfeits`). Every failure is kept for the turn's record (agent,
kind, detail), with the answer's latency and the bot's debug object.

Forfeits: the C games have no general way to take an agent out, and a
replay must re-simulate from the moves alone. So a forfeited agent stays in
the world and plays its default move every turn (the replay records those
moves like any other), and the match result ranks it below every agent that
did not forfeit, earlier forfeits lower (sim.records.forfeit_ranking); the
turn lines record who forfeited when, so `replay verify` re-derives the
same ranking.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..sim.controller import Controller

# "internal": a bug of the sandbox's while handling the turn (never the bot's)
FAILURE_KINDS = ("timeout", "exit", "garbage", "illegal", "missing", "extra", "too_long",
                 "spawn", "write", "internal")
ON_FAILURE = ("default", "eliminate")


@dataclass(frozen=True)
class BotFailure:
    agent: int
    kind: str           # FAILURE_KINDS (a plugin's protocol may add its own)
    detail: str


@dataclass(frozen=True)
class BotTurnInfo:
    """One turn of an external player, for the record and the app."""
    turn: int
    latency_ms: float | None                  # send to full reply; None: no reply
    failures: tuple[BotFailure, ...] = ()
    debug: Mapping[str, Any] | None = None
    forfeited: tuple[int, ...] = ()           # agents this turn took out of the match


@dataclass
class BotStats:
    """Running figures for the app's panel."""
    turns: int = 0
    failures: int = 0
    latencies: list[float] = field(default_factory=list)
    recent_failures: list[tuple[int, BotFailure]] = field(default_factory=list)


def default_move(plugin: Any, view: Any, agent: int, legal: Sequence[int]) -> int | None:
    """The move played for an agent whose bot failed: the plugin's default
    move where it is legal, else the first legal move (None: no move)."""
    if not legal:
        return None
    try:
        m = plugin.default_move(view, agent)
    except Exception:      # a view the plugin cannot read: the rule below still holds
        m = None
    return int(m) if m is not None and m in legal else int(legal[0])


class ExternalController(Controller):
    """Base for a player whose moves come from outside. Subclasses decide
    one turn in `_exchange` (on this controller's worker thread) and return
    (moves, latency_ms, debug) or raise an exception with `.kind` and
    `.detail` (BotIOError, ReplyError)."""

    kind = "external"

    def __init__(self, player: int, agents: Sequence[int], name: str, kind_name: str,
                 on_failure: str = "default") -> None:
        super().__init__(player, agents, name)
        from ..games import plugin
        self.plugin = plugin(kind_name)
        self.on_failure = on_failure
        self.forfeits: dict[int, int] = {}        # agent -> turn it forfeited
        self.stats = BotStats()
        self.last_info: BotTurnInfo | None = None
        self.gone = ""                            # why the bot is no longer asked ("": it is)
        self._lock = threading.Lock()
        self._job: tuple | None = None
        self._handed = False                      # the job is the worker's to run
        self._cv = threading.Condition(self._lock)
        self._closing = False
        self._thread = threading.Thread(target=self._loop, daemon=True,
                                        name=f"external-{player}")
        self._thread.start()

    # -------------------------------------------------------------- turns
    def start(self, turn: int, game: Any, budget: Any) -> None:
        # what the bot needs is read here, on the match's thread, so the
        # worker never touches the live game
        view = self.plugin.decode(game.export())
        legal = {a: tuple(game.legal_moves(a)) for a in self.agents}
        self._done.clear()
        self._prepare(turn, game, view)
        # not handed to the worker yet: a caller that blocks on the answer
        # (wait() without a timeout: headless play) runs it on its own thread,
        # and waking the worker for nothing costs that caller a context
        # switch a turn (p50 0.20 -> 0.17 ms in `bench`). The first look at
        # `done` (the arena's poll) or a wait with a timeout hands it over.
        with self._cv:
            self._job = (turn, view, legal)
            self._handed = False

    def hand_off(self) -> None:
        """Give the started turn to the worker thread now (Match.complete_turn
        does for all external players but one, so several bots think at once)."""
        with self._cv:
            if self._job is not None and not self._handed:
                self._handed = True
                self._cv.notify_all()

    @property
    def done(self) -> bool:
        if self._done.is_set():
            return True
        self.hand_off()
        return False

    def _loop(self) -> None:
        while True:
            with self._cv:
                # only a turn handed over: one the caller will run itself is not ours
                while (self._job is None or not self._handed) and not self._closing:
                    self._cv.wait()
                if self._closing:
                    return
                job, self._job = self._job, None
            self._run(job)

    def wait(self, timeout: float | None = None) -> bool:
        """A caller that blocks on the answer anyway (headless play) runs a
        turn the worker has not picked up yet itself: two thread hand-offs
        fewer per turn, which is most of a quick bot's overhead."""
        if timeout is None:
            with self._cv:
                job = None
                if not self._handed:
                    job, self._job = self._job, None
            if job is not None:
                self._run(job)
        else:
            self.hand_off()
        return self._done.wait(timeout)

    def _run(self, job: tuple) -> None:
        # Exception, not BaseException: a Ctrl-C or SIGTERM raised in this
        # wait (the caller's thread runs the turn) is the user's, not a
        # failure of the bot's, and must end the command
        try:
            self._moves = self._decide_turn(*job)
        except Exception as exc:       # never leave the match waiting
            turn, view, legal = job
            self._moves = {a: default_move(self.plugin, view, a, legal[a]) for a in self.agents}
            self.last_info = BotTurnInfo(turn, None, tuple(
                BotFailure(a, "internal", f"{type(exc).__name__}: {exc}")
                for a in self.agents if legal[a]))
        self._done.set()

    def _decide_turn(self, turn: int, view: Any,
                     legal: Mapping[int, tuple[int, ...]]) -> dict[int, Any]:
        alive = {a: m for a, m in legal.items() if m}
        defaults = {a: default_move(self.plugin, view, a, legal[a]) for a in self.agents}
        if self.forfeits or not alive:
            self.last_info = BotTurnInfo(turn, None)
            return defaults
        if self.gone:
            info = BotTurnInfo(turn, None, tuple(BotFailure(a, "exit", self.gone)
                                                 for a in alive))
            self._note(info)
            return defaults
        try:
            moves, latency, debug = self._exchange(turn, view, alive)
        except Exception as exc:
            kind = getattr(exc, "kind", "internal")
            detail = getattr(exc, "detail", str(exc))
            failures = tuple(BotFailure(a, kind, detail) for a in alive)
            forfeited: tuple[int, ...] = ()
            if self.on_failure == "eliminate":
                forfeited = tuple(self.agents)
                self.forfeits.update({a: turn for a in self.agents})
                self._stop(f"eliminated at turn {turn} ({kind})")
            elif kind in ("exit", "spawn", "write"):
                self._stop(f"{kind} at turn {turn}: {detail}")
            self._note(BotTurnInfo(turn, None, failures, None, forfeited))
            return defaults
        out = dict(defaults)
        out.update(moves)
        self._note(BotTurnInfo(turn, latency, (), debug))
        return out

    def _note(self, info: BotTurnInfo) -> None:
        self.last_info = info
        s = self.stats
        s.turns += 1
        if info.latency_ms is not None:
            s.latencies.append(info.latency_ms)
            if len(s.latencies) > 4096:
                del s.latencies[:2048]
        if info.failures:
            s.failures += 1
            s.recent_failures += [(info.turn, f) for f in info.failures]
            del s.recent_failures[:-20]

    def turn_info(self, turn: int) -> BotTurnInfo | None:
        info = self.last_info
        return info if info is not None and info.turn == turn else None

    def chooser(self, agent: int) -> str:
        """Who chose the agent's last move: the bot, or the default rule
        (a failure, a forfeit)."""
        info = self.last_info
        if info is None or self.forfeits or info.latency_ms is None:
            return "default"
        return "process"

    # -------------------------------------------------------- subclasses
    def _prepare(self, turn: int, game: Any, view: Any) -> None:
        """On the match's thread before the turn is handed to the worker
        (a subclass starts its bot here on the first turn)."""

    def _exchange(self, turn: int, view: Any, legal: Mapping[int, tuple[int, ...]]
                  ) -> tuple[dict[int, Any], float, dict | None]:
        raise NotImplementedError

    def _stop(self, why: str) -> None:
        """The bot is not asked again (it exited, or its player forfeited)."""
        self.gone = why

    def end(self, ranking: Sequence[int], scores: Sequence[float]) -> None:
        """The match is over: tell the bot if it is still there."""

    def close(self) -> None:
        with self._cv:
            self._closing = True
            self._cv.notify_all()
        self._thread.join(timeout=5)
