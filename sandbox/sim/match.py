"""Match: the turn loop. Every controller decides (concurrently, each on its
own budget), the world steps with the joint action, every search re-roots on
the move actually played, and a TurnRecord is appended (and handed to the
recorder, if any)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from ..config import Budget, Scenario
from ..native import FreeMove, InvalidArgument, InvalidState
from ..config.scenario import POLICY_CONTROLLERS
from ..games import plugin as game_plugin
from ..bots.players import make_outside_controller
from .controller import (BotController, Controller, HumanController, PolicyController,
                         RandomController, SearchController, TreeRequest)
from .records import MatchResult, PlayerTurn, TurnRecord, forfeit_ranking
from .world import World, make_world


THINK_MODES = ("together", "in_turn")


class RecorderLike(Protocol):
    def begin(self, match: "Match") -> None: ...
    def append(self, record: TurnRecord) -> None: ...
    def end(self, result: MatchResult) -> None: ...


def make_controller(scenario: Scenario, i: int, world: World, match_seed: int) -> Controller:
    p = scenario.players[i]
    agents = scenario.player_agents(i)
    seed = scenario.player_seed(i, match_seed)
    name = p.name or f"P{i}"
    if p.controller == "smitsimax":
        return SearchController(i, agents, world.game, p.search, seed, name,
                                weights=p.weights, base_params=scenario.game_params)
    if p.controller == "random":
        return RandomController(i, agents, seed, name)
    if p.controller == "bot":
        return BotController(i, agents, name)
    if p.controller == "human":
        return HumanController(i, agents, name)
    if p.controller in POLICY_CONTROLLERS:
        policy = game_plugin(scenario.game).make_policy(p.controller, scenario.game_params, seed)
        return PolicyController(i, agents, policy, p.controller, name)
    # a program outside the sandbox (a process, a server): sandbox.bots
    return make_outside_controller(scenario, i, match_seed)


@dataclass(frozen=True)
class StartState:
    """Where a match starts instead of the scenario's first state: a state of
    the same game (Game.export words) imported into the world before any
    search is built, and where it came from (the replay header's
    branched_from: file, turn, hash), recorded in the match's header."""
    words: tuple[int, ...]
    origin: Mapping[str, Any] = field(default_factory=dict)


class Match:
    def __init__(self, scenario: Scenario, seed: int | None = None,
                 budget: Budget | None = None, max_turns: int | None = None,
                 recorder: RecorderLike | None = None, record_trees: int = 0,
                 player_budgets: Mapping[int, Budget] | None = None,
                 start: StartState | None = None, think: str = "together") -> None:
        if think not in THINK_MODES:
            raise InvalidArgument(f"think must be one of {', '.join(THINK_MODES)}, "
                                  f"got {think!r}")
        # "together": every controller searches at once (the live app: the
        # players share the machine, as bots on one server would);
        # "in_turn": one after another, each search alone on the machine,
        # so a search with threads > 1 gets its cores (strength at equal
        # wall time, `series --think in_turn`)
        self.think = think
        self.scenario = scenario
        self.seed = scenario.seed if seed is None else int(seed)
        self.budget_override = budget
        # budgets set live per player (they outrank the override and the
        # scenario); given here, a restarted match records them in its header
        self.player_budgets: dict[int, Budget] = dict(player_budgets or {})
        self.max_turns = scenario.max_turns if max_turns is None else int(max_turns)
        self.world = make_world(scenario.game, scenario.game_param_string(), self.seed,
                                scenario.physics)
        # a branched match: the world takes the branch state before the
        # searches are built on it (their trees root there)
        self.branched_from: dict[str, Any] | None = None
        if start is not None:
            try:
                self.world.import_state(start.words)
            except BaseException:
                self.world.close()
                raise
            self.branched_from = dict(start.origin) or None
        self.controllers: list[Controller] = []
        # close() may run from here on (a controller C refuses, e.g. MCGS's
        # heuristic priors on a game without move scores)
        self._closed = False
        self.recorder = None
        try:
            for i in range(len(scenario.players)):
                self.controllers.append(make_controller(scenario, i, self.world, self.seed))
        except BaseException:
            self.close()
            raise
        n = self.world.num_agents
        self.owner = [0] * n                      # agent -> player
        for c in self.controllers:
            for a in c.agents:
                self.owner[a] = c.player
        self.names = tuple(self.controllers[self.owner[a]].name for a in range(n))
        self.history: list[TurnRecord] = []
        self.recorder = recorder
        # > 0: each PlayerTurn keeps its search's own trees (at most this many
        # nodes each), taken before the searches re-root. A recorder may set it
        # in begin().
        self.record_trees = int(record_trees)
        self._thinking = False
        self._closed = False
        # agent -> the turn its player forfeited (a bot's failure with
        # on_failure = "eliminate"; sim.records.forfeit_ranking)
        self.forfeits: dict[int, int] = {}
        if recorder is not None:
            try:
                recorder.begin(self)
            except BaseException:
                self.close()
                raise
        for c in self.controllers:     # a bot's stderr log goes beside the replay
            attach = getattr(c, "attach_log", None)
            if attach is not None:
                attach(getattr(recorder, "path", None))

    # ------------------------------------------------------------------ state
    @property
    def turn(self) -> int:
        return self.world.turn

    @property
    def over(self) -> bool:
        return self.world.is_terminal or (self.max_turns > 0 and self.turn >= self.max_turns)

    @property
    def thinking(self) -> bool:
        return self._thinking

    def budget_for(self, player: int) -> Budget:
        """A budget set live for this player, else the match-wide override,
        else the scenario's."""
        return (self.player_budgets.get(player) or self.budget_override
                or self.scenario.player_budget(player))

    def set_player_budget(self, player: int, budget: Budget) -> None:
        """Takes effect from the next turn's thinking; recorded with this
        turn's settings changes, like a search setting."""
        old = self.budget_for(player)
        self.player_budgets[player] = budget
        diff = {f"budget_{k}": (getattr(old, k), getattr(budget, k))
                for k in ("ms", "iterations") if getattr(old, k) != getattr(budget, k)}
        if diff:
            self.controllers[player].record_change(self.turn, diff)

    def set_tree_request(self, request: TreeRequest | None) -> None:
        for c in self.controllers:
            c.tree_request = request

    # ------------------------------------------------------------------ turns
    def start_turn(self) -> None:
        """Every controller starts deciding (non-blocking for search players)."""
        if self._closed:
            raise InvalidState("the match is closed")
        if self._thinking:
            raise InvalidState("a turn is already in progress")
        if self.over:
            raise InvalidState("the match is over")
        self._thinking = True
        for c in self.controllers:
            c.start(self.turn, self.world.game, self.budget_for(c.player))
            if self.think == "in_turn":
                c.wait()

    def turn_ready(self) -> bool:
        return self._thinking and all(c.done for c in self.controllers)

    def interrupt(self) -> None:
        """Make every thinking controller move now with what it knows."""
        for c in self.controllers:
            c.interrupt()

    def complete_turn(self, overrides: dict[int, int] | None = None,
                      chosen_by: Mapping[int, str] | None = None) -> TurnRecord:
        """Wait for every decision, play the joint action, re-root searches.
        `overrides` (agent -> move) replaces decisions, e.g. a human's key;
        a controller's or an override's move may be a FreeMove (a game that
        takes free moves: pods), recorded in the turn line's `free`;
        `chosen_by` (agent -> a CHOOSERS name) says who chose each override
        (default "person"), and is recorded with the turn."""
        if not self._thinking:
            raise InvalidState("no turn in progress")
        # a player driven from outside (sandbox.bots.external) runs its turn
        # on the thread that waits for it; with several, all but the last
        # go to their own threads first, so their programs think at once
        handing = [c for c in self.controllers if hasattr(c, "hand_off")]
        for c in handing[:-1]:
            c.hand_off()
        if handing:
            handing[-1].wait()            # the one this thread runs, while the rest think
        for c in self.controllers:
            c.wait()
        for c in self.controllers:
            if isinstance(c, SearchController):
                c.raise_if_failed()
        n = self.world.num_agents
        joint: list[int | FreeMove | None] = [None] * n
        for c in self.controllers:
            for a, m in c.moves().items():
                joint[a] = m
        for a, m in (overrides or {}).items():
            joint[a] = m
        turn = self.turn
        alive_before = self.world.game.alive
        by = {a: (chosen_by or {}).get(a, "person") for a in (overrides or {})}
        players = tuple(self._player_turn(c, turn, by) for c in self.controllers)
        new_forfeits = tuple(sorted(a for c in self.controllers
                                    for a, t in getattr(c, "forfeits", {}).items()
                                    if a not in self.forfeits))
        self.forfeits.update({a: turn for a in new_forfeits})
        rewards = self.world.step(joint)
        for c in self.controllers:
            c.finish(joint, self.world.game)
        self._thinking = False
        game = self.world.game
        alive = tuple(game.alive)
        record = TurnRecord(
            turn=turn, joint=tuple(joint), players=players, state_hash=game.state_hash(),
            scores=tuple(float(x) for x in game.evaluate()), alive=alive,
            eliminated=tuple(a for a in range(n) if alive_before[a] and not alive[a]),
            rewards=tuple(float(x) for x in rewards), state=_tuple(self.world.recorded_state()),
            divergence=_tuple(self.world.last_divergence), forfeits=new_forfeits)
        self.history.append(record)
        if self.recorder is not None:
            self.recorder.append(record)
            if self.over:
                self.recorder.end(self.result())
        if self.over:
            self._tell_end()
        return record

    def _tell_end(self) -> None:
        """Players that are programs get the result (sandbox.bots)."""
        res = self.result()
        scores = tuple(float(x) for x in self.world.game.evaluate())
        for c in self.controllers:
            end = getattr(c, "end", None)
            if end is not None:
                end(res.ranking, scores)

    def _player_turn(self, c: Controller, turn: int,
                     overridden: Mapping[int, str]) -> PlayerTurn:
        snap = c.latest
        mine = snap is not None and snap.turn == turn
        trees = {}
        if self.record_trees > 0 and mine and isinstance(c, SearchController):
            trees = {a: c.search.snapshot(a, self.record_trees) for a in c.agents}
        return PlayerTurn(
            player=c.player, controller=c.kind, moves=c.moves(),
            iterations=snap.iterations if mine else 0,
            sim_turns=snap.sim_turns if mine else 0,
            search_ms=snap.search_ms if mine else 0.0,
            wall_ms=snap.wall_ms if mine else 0.0,
            stop_reason=snap.stop_reason if mine else "none",
            root_stats={a: snap.root_stats[a] for a in c.agents} if mine else {},
            tree_nodes={a: snap.tree_nodes[a] for a in c.agents} if mine else {},
            changes=tuple(c.drain_changes()), trees=trees,
            chosen_by={a: overridden.get(a, c.chooser(a)) if hasattr(c, "chooser")
                       else overridden.get(a, controller_chooser(c)) for a in c.agents},
            bot=getattr(c, "turn_info", lambda t: None)(turn))

    def play_turn(self) -> TurnRecord:
        self.start_turn()
        return self.complete_turn()

    def play(self, on_turn: Callable[[TurnRecord], None] | None = None) -> MatchResult:
        while not self.over:
            record = self.play_turn()
            if on_turn is not None:
                on_turn(record)
        return self.result()

    def result(self) -> MatchResult:
        game = self.world.game
        ranking = tuple(game.ranking())
        if self.forfeits:
            ranking = forfeit_ranking(ranking, self.forfeits)
        best = [a for a, r in enumerate(ranking) if r == 0]
        return MatchResult(turns=self.turn, ranking=ranking,
                           winner=best[0] if len(best) == 1 else None,
                           final_hash=game.state_hash(), terminal=game.is_terminal,
                           names=self.names)

    # --------------------------------------------------------------- lifetime
    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for c in self.controllers:
            c.close()
        self.world.close()
        close = getattr(self.recorder, "close", None)
        if close is not None:   # the file's descriptor, not just its data, is done
            close()

    def __enter__(self) -> "Match":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _tuple(values):
    return None if values is None else tuple(values)


def controller_chooser(c: Controller) -> str:
    """Who chooses a controller's own moves (records.CHOOSERS)."""
    if isinstance(c, SearchController):
        return "search"
    if isinstance(c, RandomController):
        return "random"
    if isinstance(c, BotController):
        return "bot"
    return "person"


def joint_names(world: World, joint: Sequence["int | FreeMove | None"]) -> list[str]:
    """Move names; a free move as its line ('8000 4500 100')."""
    return ["-" if m is None else f"'{m.text()}'" if isinstance(m, FreeMove)
            else world.game.move_name(a, m) for a, m in enumerate(joint)]
