"""Re-search a recorded turn: "what would this search have done here with
other settings?"

research() rebuilds one player's search as it stood when it decided at turn
K, then runs it again on that exact state (imported from the replay) with the
recorded settings plus any changes, and compares the new root with the
recorded one.

Where the search's randomness comes from: a search draws every random number
from one generator, seeded once when the match starts (the header's player
seed, Scenario.player_seed) and advanced by every iteration of every turn
before K. The replay does not store the generator's state per turn; it
stores everything that moved it: the seed, the settings and every change
with the iteration it landed at, each turn's iteration count and the joint
action played. So the player's search is replayed turn by turn (the same C
calls in the same order as its controller made: run the recorded iterations,
apply each settings change at its recorded iteration, advance on the move
played with the recorded next state) up to the start of turn K. That costs
what the player's search cost in the match up to K (the iterations, not the
waiting), and reproduces the generator's state exactly.

At turn K the what-if starts from a fresh tree on the recorded state (the
search's generator as it was), unless keep_tree: then from the tree the
recorded search kept from earlier turns (tree reuse on). Re-searched with the
recorded settings and iteration count, the fresh tree reproduces the recorded
root visits exactly when the match had tree reuse off; with reuse on the
recorded search began from a kept tree, and only keep_tree reproduces it.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Mapping, Sequence

import numpy as np

from ..native import Game, SandboxError, Search, SearchParams, TreeSnapshot
from ..native.search import params_arg
from ..games import plugin
from ..settings.seat import params_for_seat, player_game, weighted_params
from ..settings.doc import search_label, setting_is_read
from .errors import ReplayError
from .stats import json_clean
from .format import SettingsChangeLine, hash_hex
from .branch import unrecorded_note
from .reader import Replay
from .stats import chosen_by, root_value

NAN = float("nan")
WEIGHTS = "weights."       # a settings change's key for a player's evaluation weight


@dataclass(frozen=True)
class MoveRow:
    move: int
    name: str
    recorded_visits: int | None        # None: the recorded root had no such child
    recorded_share: float
    recorded_mean: float
    recorded_policy: float             # the policy's probability (older files: visit share)
    visits: int | None                 # the new search (None: no such child)
    share: float
    mean: float
    policy: float
    share_change: float                # share - recorded_share (NaN where one side lacks it)


@dataclass(frozen=True)
class ResearchReport:
    file: str
    turn: int
    agent: int
    name: str
    player: int
    settings: dict[str, Any]           # what the re-search ran with
    changes: dict[str, tuple[Any, Any]]  # --set: field -> (recorded, new)
    budget: dict[str, Any]             # {"iterations": N} or {"ms": T}
    iterations: int                    # the re-search's
    recorded_iterations: int
    recorded_stop: str
    search: str                        # algorithm (/ policy) in force in the re-search
    from_kept_tree: bool               # the what-if began from the recorded search's kept tree
    recorded_kept_tree: bool           # the recorded search began from a kept tree
    rows: tuple[MoveRow, ...]
    recorded_value: float
    value: float
    recorded_move: int | None          # what the recorded search decided
    recorded_move_name: str
    played_move: int | None            # what was played (a person may have overridden it)
    played_by: str
    move: int | None                   # what the re-search decides
    move_name: str
    move_changed: bool
    identical: bool                    # the new root visits equal the recorded ones
    replayed_iterations: int           # the player's search replayed to reach turn K
    notes: tuple[str, ...] = field(default_factory=tuple)
    # the top of the re-search's tree for the agent (tree_nodes > 0), for
    # the replay scene's tree view; not part of the JSON report
    tree: TreeSnapshot | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return json_clean(asdict(replace(self, tree=None)))

    def difference(self) -> str:
        """One line on what changed against the recorded search: the move
        decided, else the move whose share of the root visits moved most, by
        how much (what the replay scene highlights)."""
        moved = [r for r in self.rows if not math.isnan(r.share_change)]
        big = max(moved, key=lambda r: abs(r.share_change), default=None)
        shift = ""
        if big is not None and round(abs(big.share_change), 3) > 0:
            shift = (f"{big.name} {big.share_change * 100:+.0f}% of the visits "
                     f"({big.recorded_share * 100:.0f}% → {big.share * 100:.0f}%)")
        value = f"value {self.recorded_value:.3f} → {self.value:.3f}"
        if self.move_changed and self.fresh_vs_kept:
            head = (f"move differs: {self.recorded_move_name} → {self.move_name} (this re-search "
                    "began from a fresh tree, the recorded one from its kept tree)")
        elif self.move_changed:
            head = f"move CHANGED: {self.recorded_move_name} → {self.move_name}"
        elif self.identical:
            return f"same move ({self.move_name}); root visits identical to the recorded search"
        else:
            head = f"same move ({self.move_name})"
        return "; ".join(x for x in (head, shift, value) if x)

    @property
    def fresh_vs_kept(self) -> bool:
        """The re-search began from a fresh tree where the recorded one began
        from its kept tree, with no setting changed: a different move then
        says nothing about settings."""
        return self.recorded_kept_tree and not self.from_kept_tree and not self.changes

    def text(self) -> str:
        budget = (f"{self.budget['iterations']:,} iterations" if "iterations" in self.budget
                  else f"{self.budget['ms']:g} ms")
        out = [f"re-search: {self.file}, turn {self.turn}, agent {self.agent} ({self.name}, "
               f"player {self.player})",
               f"budget: {budget} ({self.iterations:,} run; recorded {self.recorded_iterations:,}"
               f", stopped on {self.recorded_stop})",
               f"search: {self.search}",
               "settings: " + (", ".join(f"{k} {_v(o)}→{_v(n)}"
                                         for k, (o, n) in self.changes.items())
                               if self.changes else "as recorded"),
               "start: " + ("the recorded search's kept tree" if self.from_kept_tree
                            else "a fresh tree on the recorded state"),
               "",
               f"{'move':<8} {'rec visits':>10} {'share':>7} {'mean':>7} {'policy':>7}   "
               f"{'new visits':>10} {'share':>7} {'mean':>7} {'policy':>7}  {'Δshare':>7}"]
        for r in self.rows:
            out.append(f"{r.name[:8]:<8} {_n(r.recorded_visits):>10} {_f(r.recorded_share):>7} "
                       f"{_f(r.recorded_mean):>7} {_f(r.recorded_policy):>7}   "
                       f"{_n(r.visits):>10} {_f(r.share):>7} {_f(r.mean):>7} "
                       f"{_f(r.policy):>7}  {_f(r.share_change, sign=True):>7}")
        out.append(f"value: recorded {_f(self.recorded_value)}, new {_f(self.value)} "
                   f"({_f(self.value - self.recorded_value, sign=True)})")
        played = ""
        if self.played_move != self.recorded_move and self.played_move is not None:
            played = f" (played: {self.played_by}'s {self._name(self.played_move)})"
        if self.move_changed and self.fresh_vs_kept:
            out.append(f"move: differs, {self.recorded_move_name} → {self.move_name}{played} "
                       "(a fresh tree against the recorded kept one: not a change the settings "
                       "made; --keep-tree compares like with like)")
        elif self.move_changed:
            out.append(f"move: CHANGED {self.recorded_move_name} → {self.move_name}{played}")
        else:
            out.append(f"move: {self.move_name}, as recorded{played}")
        out.append("root visits: " + ("identical to the recorded search" if self.identical
                                      else "differ from the recorded search"))
        out.extend(f"note: {n}" for n in self.notes)
        return "\n".join(out)

    def _name(self, move: int) -> str:
        return next((r.name for r in self.rows if r.move == move), str(move))


def _v(x: Any) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _n(x: int | None) -> str:
    return "-" if x is None else f"{x:,}"


def _f(x: float, sign: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    x = round(x, 3) + 0.0              # no "-0.000"
    return f"{x:+.3f}" if sign else f"{x:.3f}"


# ------------------------------------------------------------------ settings
def parse_assignments(items: Sequence[str]) -> dict[str, Any]:
    """["c=1.2", "policy=exp3"] -> {"c": 1.2, "policy": "exp3"}: each value
    read as TOML (a bare word is a string), as `--set` reads scenario paths."""
    from ..config.scenario import setting_value
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ReplayError(f"--set {item!r}: expected FIELD=VALUE, e.g. c=1.2")
        if key.startswith("search."):
            key = key[len("search."):]
        if key.startswith(WEIGHTS):      # an evaluation weight: checked against the game
            pass
        elif key not in SearchParams.model_fields:
            raise ReplayError(f"--set {key}: not a search setting (one of: "
                              f"{', '.join(SearchParams.model_fields)})")
        try:
            out[key] = setting_value(raw)
        except ValueError as e:
            raise ReplayError(f"--set {key}: {e}") from None
    return out


def _weight_changes(changes: Sequence[SettingsChangeLine]) -> dict[str, float]:
    """{weight: new} of a turn's recorded changes (weights.NAME): the
    controller applies them between that turn and the next."""
    return {k[len(WEIGHTS):]: n for ch in changes for k, (_, n) in ch.changes.items()
            if k.startswith(WEIGHTS)}


def _search_changes(changes: Sequence[SettingsChangeLine]) -> list[tuple[int, dict[str, Any]]]:
    """(iteration, {field: new}) per recorded change, search fields only (a
    budget change is recorded with them but is no search setting)."""
    out = []
    for ch in changes:
        new = {k: n for k, (_, n) in ch.changes.items() if k in SearchParams.model_fields}
        if new:
            out.append((ch.iteration, new))
    return sorted(out, key=lambda x: x[0])


# ------------------------------------------------------------------ research
def research(replay: Replay, turn: int, agent: int, changes: Mapping[str, Any] | None = None,
             iterations: int | None = None, ms: float | None = None,
             keep_tree: bool = False, tree_nodes: int = 0) -> ResearchReport:
    """`tree_nodes` > 0: the report keeps the top of the re-search's tree for
    the agent (at most that many nodes)."""
    h = replay.header
    for name, v in (("turn", turn), ("agent", agent), ("iterations", iterations)):
        if (v is not None or name != "iterations") and (
                isinstance(v, bool) or not isinstance(v, (int, np.integer))):
            raise ReplayError(f"{name}: expected a whole number (got {v!r})")
    if isinstance(tree_nodes, bool) or not isinstance(tree_nodes, (int, np.integer)) \
            or not 0 <= tree_nodes <= 1_000_000:
        raise ReplayError(f"tree_nodes: expected a node count 0..1000000 (got {tree_nodes!r})")
    if ms is not None and (isinstance(ms, bool) or not isinstance(ms, (int, float))
                           or not math.isfinite(ms)):
        raise ReplayError(f"ms: expected a number of milliseconds (got {ms!r})")
    if changes is not None and not isinstance(changes, Mapping):
        raise ReplayError(f"changes: expected a mapping of search settings (got {changes!r})")
    turn, agent = int(turn), int(agent)
    if not 0 <= agent < h.num_agents:
        raise ReplayError(f"--agent {agent}: this match has agents 0..{h.num_agents - 1}")
    ph = next(p for p in h.players if agent in p.agents)
    if ph.search is None:
        raise ReplayError(f"agent {agent} ({h.names[agent]}) is played by a {ph.controller} "
                          "player: there is no search to re-run")
    line = replay.by_turn.get(turn)
    if line is None or not replay.start_turn <= turn < replay.end_turn:
        last = replay.end_turn - 1
        raise ReplayError(f"--turn {turn}: no decision recorded there (turns "
                          f"{replay.start_turn}..{last} can be re-searched)")
    pt = next((p for p in line.players if p.player == ph.player), None)
    at = line.agent(agent)
    if pt is None or at is None or at.move is None:
        raise ReplayError(f"--turn {turn}: agent {agent} made no decision there (out of the "
                          "game)")
    if iterations is not None and iterations < 1:
        raise ReplayError("--iterations must be >= 1")
    if ms is not None and not ms > 0:
        raise ReplayError("--ms must be > 0")
    if iterations is None and ms is None:
        if pt.iterations < 1:
            raise ReplayError(f"--turn {turn}: the recorded search ran no iteration; give "
                              "--iterations N")
        iterations = pt.iterations

    try:
        settings = SearchParams(**ph.search)
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"the header's settings of player {ph.player} do not load: "
                          f"{str(exc).splitlines()[0]}") from None
    seat = ph.agents
    game = replay.state_at(replay.start_turn)
    hidden = game.hidden_info

    def to_c(p: SearchParams) -> SearchParams:
        # as the live controller gives them to C (sandbox.settings.seat)
        return params_for_seat(p, seat, hidden)

    notes: list[str] = []
    missing = unrecorded_note(ph.player, ph.search)
    if missing:
        notes.append(missing)
    # a player with evaluation weights of its own searched on a copy of the
    # state in a game with them (settings.seat.player_game), as here
    scn_players = h.scenario.get("players") or []
    weights = dict((scn_players[ph.player].get("weights") if ph.player < len(scn_players)
                    and isinstance(scn_players[ph.player], dict) else None) or {})
    gp = h.scenario.get("game_params")
    base_params = dict(gp) if isinstance(gp, dict) else {}
    replayed = 0
    own: list[Game | None] = [None]

    def root_for(w: Mapping[str, float]) -> Game:
        """The game the search roots on with weights `w` (its own copy of
        the state, or the replay's game)."""
        if not w:
            return game
        return player_game(h.game, weighted_params(h.game, base_params, w), game.export())

    try:
        own[0] = root_for(weights) if weights else None
        search = Search(own[0] or game, to_c(settings), seed=ph.seed)
    except SandboxError as exc:
        if own[0] is not None:
            own[0].close()
        game.close()
        raise ReplayError(f"cannot rebuild player {ph.player}'s search: {exc}") from None

    def take_weights(w: Mapping[str, float]) -> None:
        new = root_for(w) if w else None
        search.set_game(new or game)
        if own[0] is not None:
            own[0].close()
        own[0] = new

    with game, search:
        # -------- the player's search, turn by turn, up to the start of turn K
        for t in range(replay.start_turn, turn):
            tl = replay.by_turn[t]
            tp = next((p for p in tl.players if p.player == ph.player), None)
            done = 0
            total = tp.iterations if tp is not None else 0
            for at_it, new in _search_changes(tp.changes if tp is not None else ()):
                if at_it > done:
                    done += _run(search, at_it - done)
                settings = params_arg(None, base=settings, changes=new)
                search.set_params(to_c(settings))
            if total > done:
                done += _run(search, total - done)
            replayed += done
            new_weights = _weight_changes(tp.changes if tp is not None else ())
            try:
                replay.play_line(game, tl)
            except SandboxError as exc:
                raise ReplayError(f"turn {t}: cannot replay the recorded moves: {exc}") from None
            if hash_hex(game.state_hash()) != tl.hash:
                raise ReplayError(f"turn {t}: state hash differs from the recording")
            if new_weights:       # in force from the next turn, as the controller does
                weights = {**weights, **new_weights}
                take_weights(weights)
            if own[0] is not None:
                own[0].import_state(game.export())
            if tl.free is not None:     # free moves have no subtree: afresh, as played
                search.reset(own[0] or game)
            else:
                search.advance(tl.joint, new_root=own[0] or game)

        # -------- turn K: the recorded settings (changes made before its search)
        mid = []
        for at_it, new in _search_changes(pt.changes):
            if at_it == 0:
                settings = params_arg(None, base=settings, changes=new)
                search.set_params(to_c(settings))
            elif at_it < pt.iterations:
                mid.append((at_it, new))
            # else: made after this turn's search, not in force in it
        if mid:
            notes.append("the recorded search changed settings during this turn (after "
                         f"{mid[0][0]:,} iterations): the re-search keeps the settings it began "
                         "with")
        recorded_settings = settings
        asked = dict(changes or {})
        new_w = {k[len(WEIGHTS):]: v for k, v in asked.items() if k.startswith(WEIGHTS)}
        try:
            new_settings = params_arg(None, base=settings,
                                      changes={k: v for k, v in asked.items()
                                               if not k.startswith(WEIGHTS)})
            search.check_params(to_c(new_settings))
            if new_w:
                defaults = plugin(h.game).params(base_params)
                weighted_params(h.game, base_params, {**weights, **new_w})   # checked first
        except SandboxError as exc:
            raise ReplayError(f"--set: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise ReplayError(f"--set: {str(exc).splitlines()[0]}") from None
        diff = {k: (getattr(recorded_settings, k), getattr(new_settings, k))
                for k in SearchParams.model_fields
                if getattr(recorded_settings, k) != getattr(new_settings, k)}
        for k, v in new_w.items():
            old = weights.get(k, getattr(defaults, k))
            if old != v:
                diff[f"{WEIGHTS}{k}"] = (old, float(v))
        inert = [k for k in diff if not k.startswith(WEIGHTS)
                 and not setting_is_read(new_settings, k)]
        if inert:
            notes.append(f"{', '.join(inert)}: not read by {search_label(new_settings)}, so "
                         f"{'this change has' if len(inert) == 1 else 'these changes have'} "
                         "no effect on the re-search")
        if new_w:
            weights = {**weights, **new_w}
            take_weights(weights)
        search.set_params(to_c(new_settings))
        if not keep_tree:
            search.reset(own[0] or game)   # a fresh tree; the generator as it was
        reused = (recorded_settings.tree_reuse and turn > replay.start_turn
                  and replayed > 0)
        if reused and not keep_tree:
            notes.append("the recorded search began from a kept tree (tree reuse on): its "
                         "root visits include earlier turns', so a fresh tree's need not "
                         "match them (--keep-tree starts from that kept tree)")
        if any(p.threads > 1 and p.parallel != "serial" and p.algorithm == "smitsimax"
               for p in (recorded_settings, new_settings)):
            notes.append("a parallel search (threads > 1) is not bit-reproducible: its threads "
                         "interleave differently each run, so neither the replayed turns nor "
                         "this re-search repeat the recorded statistics exactly")
        if ms is not None:
            r = search.run(ms=ms)
            ran = r.iterations
            notes.append("a time budget: the iteration count depends on this machine")
        else:
            ran = _run(search, iterations)
        if ph.budget.get("ms") and not ph.budget.get("iterations"):
            notes.append("the match had a time budget: its searches are reproduced by their "
                         "recorded iteration counts")
        new_root = search.root_stats(agent)
        new_move = search.best_moves()[agent]
        tree = search.snapshot(agent, int(tree_nodes)) if tree_nodes > 0 else None
        if own[0] is not None:
            own[0].close()

    namer = _namer(replay)
    rows = _rows(at.root, new_root, lambda m: namer(agent, m))
    recorded_visits = {m.move: m.visits for m in at.root}
    identical = recorded_visits == {s.move: s.visits for s in new_root}
    played = line.joint[agent]
    return ResearchReport(
        file=str(replay.path), turn=turn, agent=agent, name=h.names[agent], player=ph.player,
        search=search_label(new_settings),
        settings=new_settings.model_dump(mode="json"),
        changes={k: (_plain(o), _plain(n)) for k, (o, n) in diff.items()},
        budget={"ms": ms} if ms is not None else {"iterations": iterations},
        iterations=ran, recorded_iterations=pt.iterations, recorded_stop=pt.stop_reason,
        from_kept_tree=keep_tree and reused, recorded_kept_tree=reused, rows=rows,
        recorded_value=root_value(at.root), value=root_value(new_root),
        recorded_move=at.move, recorded_move_name=namer(agent, at.move),
        played_move=played, played_by=chosen_by(replay, line, agent),
        move=new_move, move_name=namer(agent, new_move) if new_move is not None else "-",
        move_changed=new_move != at.move, identical=identical, replayed_iterations=replayed,
        notes=tuple(notes), tree=tree)


def _run(search: Search, n: int) -> int:
    """Run n iterations (fewer if the tree fills or the game ends, as the
    recorded search did); the number run."""
    r = search.run(iterations=n)
    return r.iterations


def _plain(v):
    return v.item() if hasattr(v, "item") else v


def _rows(recorded, new, name) -> tuple[MoveRow, ...]:
    rec = {m.move: m for m in recorded if m.move >= 0}
    now = {s.move: s for s in new if s.move >= 0}
    rt = sum(m.visits for m in rec.values())
    nt = sum(s.visits for s in now.values())
    out = []
    for move in sorted(set(rec) | set(now)):
        r, s = rec.get(move), now.get(move)
        rs = r.visits / rt if r is not None and rt > 0 else NAN
        ns = s.visits / nt if s is not None and nt > 0 else NAN
        out.append(MoveRow(
            move=move, name=name(move),
            recorded_visits=r.visits if r is not None else None, recorded_share=rs,
            recorded_mean=r.mean if r is not None else NAN,
            recorded_policy=(r.policy if r is not None and r.policy is not None else rs),
            visits=s.visits if s is not None else None, share=ns,
            mean=float(s.mean) if s is not None else NAN,
            policy=float(s.policy) if s is not None else NAN,
            share_change=ns - rs))
    return tuple(out)


def _namer(replay: Replay):
    """(agent, move) -> the move's name, as the arena names it (from C)."""
    from ..games import move_namer, move_names
    h = replay.header
    try:
        with Game(h.game, h.game_params, seed=0) as g:
            names = move_names(g)
    except SandboxError:
        return lambda a, m: "-" if m is None else str(m)
    namers = [move_namer(names, a) for a in range(h.num_agents)]
    return lambda a, m: "-" if m is None else namers[a](m)


__all__ = ["MoveRow", "ResearchReport", "parse_assignments", "research"]
