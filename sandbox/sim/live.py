"""LiveMatch: a Match paced for watching, driven by explicit time steps.

The simulation advances in whole turns (fixed steps); the clock only decides
WHEN the next turn is played. A turn is played when (a) every controller has
finished thinking for it and (b) the turn period for the chosen speed has
passed since the previous turn (no wait in "as fast as search allows" mode).
Thinking for the next turn starts as soon as a turn is played, paused or
not; pausing only holds the next turn back. Renderers interpolate between the
previous and current state with `alpha`.

No pygame here: the app's arena scene calls update(dt_ms) once per frame and
turns UI events into the commands below; tests do the same with explicit dt.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from ..config import Budget, Scenario
from ..native import FreeMove, InvalidState, SearchParams
from .controller import HumanController, SearchController, TreeRequest
from .match import Match, RecorderLike, StartState
from .records import MatchResult, TurnRecord

BASE_TURN_MS = 400.0            # one turn per 0.4 s at speed x1
SPEEDS: tuple[float | None, ...] = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, None)  # None: as fast as search allows
# Search threads run a little below the UI thread: on a 2-core machine four
# searches would otherwise delay the frame that shows them.
WORKER_NICE = 5
MIN_VISUAL_MS = 60.0            # interpolation time in "as fast as search allows"


class LiveMatch:
    def __init__(self, scenario: Scenario, seed: int | None = None, budget: Budget | None = None,
                 recorder_factory: Callable[[], RecorderLike | None] | None = None,
                 tree_request: TreeRequest | None = None, paused: bool = False,
                 speed: float | None = 1.0, start: StartState | None = None,
                 player_budgets: Mapping[int, Budget] | None = None) -> None:
        self.scenario = scenario
        # a match branched from a replay's turn starts there (its first match
        # only: a restart plays the scenario from its beginning)
        self.start = start
        self.budget = budget
        self.recorder_factory = recorder_factory
        self.tree_request = tree_request
        self.paused = paused
        self.speed = speed
        self.human: dict[int, int] = {}          # agent -> move the person chose
        self.human_agents: set[int] = set()
        # A person's agent waits for their key each turn (a turn-based game
        # for whoever plays by hand); off: it does what the game's plugin says
        # an unsteered agent does (a snake keeps its direction) and the match
        # goes on at the chosen speed. Games with no such default always wait.
        self.wait_for_humans = True
        self._human_fresh: set[int] = set()      # pressed a key since the last turn
        self.last_record: TurnRecord | None = None
        self.on_turn: list[Callable[[TurnRecord], None]] = []
        self._pending_steps = 0
        self._new_match(scenario.seed if seed is None else seed, player_budgets)

    # ------------------------------------------------------------ lifecycle
    def _new_match(self, seed: int, player_budgets: Mapping[int, Budget] | None = None) -> None:
        self._adopt(self._make_match(seed, player_budgets))

    def _make_match(self, seed: int, player_budgets: Mapping[int, Budget] | None = None) -> Match:
        recorder = self.recorder_factory() if self.recorder_factory else None
        return Match(self.scenario, seed=seed, budget=self.budget, recorder=recorder,
                     player_budgets=player_budgets, start=self.start)

    def _adopt(self, match: Match) -> None:
        self.match = match
        self.match.set_tree_request(self.tree_request)
        for c in self.match.controllers:
            if isinstance(c, SearchController):
                c.worker_nice = WORKER_NICE
            elif isinstance(c, HumanController):   # the scenario's own human players
                # a person drives one agent of their team at a time (the app
                # switches which); the controller plays the others
                self.human_agents.add(c.agents[0])
        self._human_fresh.clear()
        self.last_record = None      # nothing of the last match on screen
        self.view = self.match.world.view()
        self.prev_view = None
        self.since_turn_ms = 0.0
        self.turn_ms = 0.0      # how long the last turn took (wall, incl. waiting)
        self._start_thinking()

    def _start_thinking(self) -> None:
        if not self.match.over:
            self.match.start_turn()

    def restart(self, seed: int | None = None, scenario: Scenario | None = None) -> None:
        """A new match: on the same scenario with every player's current
        settings and live budget, or on a new scenario as it is."""
        budgets: dict[int, Budget] = {}
        before = self.scenario
        if scenario is None:
            self.scenario = self.scenario_as_played()
            budgets = dict(self.match.player_budgets)
        else:
            self.scenario = scenario
        next_seed = self.match.seed + 1 if seed is None else seed
        start, self.start = self.start, None
        # the new match is built before the running one is closed: one that
        # cannot be built (C refuses its game) leaves the running one as it was
        try:
            match = self._make_match(next_seed, budgets)
        except BaseException:
            self.scenario, self.start = before, start
            raise
        self.match.close()
        if scenario is not None:
            self.human_agents.clear()
        self.human.clear()
        self._pending_steps = 0
        self._adopt(match)

    def scenario_as_played(self) -> Scenario:
        """The scenario with each search player's current settings: the next
        match starts from what the user set, and its replay header says so
        (the controllers are built from it, not patched afterwards)."""
        players = list(self.scenario.players)
        for c in self.match.controllers:
            if isinstance(c, SearchController):
                players[c.player] = players[c.player].model_copy(
                    update={"search": c.settings, "weights": c.weights_asked or None})
        return self.scenario.model_copy(update={"players": players})

    def close(self) -> None:
        self.match.close()

    # ------------------------------------------------------------ controls
    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self._pending_steps = 0

    def step(self) -> None:
        """While paused: play exactly one more turn (as soon as it is decided)."""
        if not self.paused:
            self.paused = True
        self._pending_steps += 1

    def set_speed(self, speed: float | None) -> None:
        self.speed = speed

    @property
    def turn_period_ms(self) -> float:
        if self.speed is None:
            return 0.0
        return BASE_TURN_MS / self.speed

    def take_over(self, agent: int, on: bool = True) -> None:
        if on:
            self.human_agents.add(agent)
        else:
            self.human_agents.discard(agent)
            self.human.pop(agent, None)

    def choose(self, agent: int, move: "int | FreeMove") -> None:
        """A person's move for `agent` this turn (a FreeMove where the game
        takes them: a pods pod steered to a clicked point)."""
        self.human[agent] = move if isinstance(move, FreeMove) else int(move)
        self._human_fresh.add(agent)

    @property
    def fresh_human(self) -> frozenset[int]:
        """Agents whose person picked a move since the last turn."""
        return frozenset(self._human_fresh)

    def waiting_for_human(self) -> bool:
        """The turn is decided but waits for a person's key."""
        if not self.human_agents:
            return False
        game = self.match.world.game
        plugin = self.match.world.plugin
        for a in self.human_agents:
            if a in self._human_fresh or not game.is_alive(a):
                continue
            if self.wait_for_humans or plugin.default_move(self.view, a) is None:
                return True
        return False

    def update_settings(self, player: int, **changes: Any) -> SearchParams:
        c = self.match.controllers[player]
        if not isinstance(c, SearchController):
            raise InvalidState(f"player {player} has no search to tune")
        new = c.settings.replace(**changes)
        c.update_settings(new, turn=self.match.turn)
        return new

    def set_tree_request(self, request: TreeRequest | None) -> None:
        self.tree_request = request
        self.match.set_tree_request(request)

    # ------------------------------------------------------------ clock
    @property
    def alpha(self) -> float:
        """Interpolation between prev_view and view, 0..1."""
        if self.prev_view is None:
            return 1.0
        period = self.turn_period_ms if self.speed is not None else max(MIN_VISUAL_MS, self.turn_ms)
        return 1.0 if period <= 0 else min(1.0, self.since_turn_ms / period)

    def update(self, dt_ms: float) -> TurnRecord | None:
        """Advance the clock; plays (at most) one turn. Returns its record."""
        self.since_turn_ms += dt_ms
        m = self.match
        if m.over or not m.thinking:
            return None
        if self.paused and self._pending_steps == 0:
            return None
        if not self.paused and self.since_turn_ms < self.turn_period_ms:
            return None
        if not m.turn_ready() or self.waiting_for_human():
            return None
        return self._play()

    def _play(self) -> TurnRecord:
        m = self.match
        mine = [a for a in sorted(self.human_agents) if m.world.game.is_alive(a)]
        overrides = {a: self._human_move(a) for a in mine}
        # recorded as the person's move, or the game's default where they
        # pressed no key this turn (a snake kept its direction)
        chosen_by = {a: "person" if a in self._human_fresh and self.human.get(a) == overrides[a]
                     else "default" for a in mine}
        record = m.complete_turn(overrides=overrides, chosen_by=chosen_by)
        self._human_fresh.clear()
        if self._pending_steps:
            self._pending_steps -= 1
        self.prev_view, self.view = self.view, m.world.view()
        self.turn_ms = self.since_turn_ms
        self.since_turn_ms = 0.0
        self.last_record = record
        for fn in self.on_turn:
            fn(record)
        self._start_thinking()
        return record

    def _human_move(self, agent: int) -> "int | FreeMove":
        """The person's key of this turn, else what the game does with an
        unsteered agent; never an illegal move."""
        legal = self.match.world.game.legal_moves(agent)
        picked = self.human.get(agent) if agent in self._human_fresh else None
        if isinstance(picked, FreeMove) and legal:
            return picked                   # C checks it when the turn is played
        for move in (picked,
                     self.match.world.plugin.default_move(self.view, agent)):
            if move is not None and move in legal:
                return move
        return legal[0]

    # ------------------------------------------------------------ reading
    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def result(self) -> MatchResult | None:
        return self.match.result() if self.match.over else None

    def snapshots(self) -> Mapping[int, Any]:
        return {c.player: c.latest for c in self.match.controllers}
