"""Cheap consistency checks of a replay's recorded figures, for `replay
stats`, `export` and `plot` (which read the figures but, unlike `verify`, do
not re-simulate the match).

The reader already refuses what cannot be used (a header inconsistent in
itself, lines that disagree with it about agents and players). What is left
is a file whose figures can be shown but contradict each other or are
nonsense: a result line whose winner is not the one its ranking ranks first,
a NaN score, a negative iteration count, an agent alive again after it was
out. Each kind of problem becomes one warning line (its first turn, and how
many more turns have it), and the figures are shown all the same.

Bounds that call a figure absurd rather than merely large:
  iterations or sim_turns per turn  > 10^12   (minutes at a billion per second)
  search_ms per turn                > 10^8    (more than a day of search)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..native import SandboxError
from .errors import ReplayError
from ..sim.records import forfeit_ranking
from .reader import Replay

MAX_ITERATIONS = 10**12
MAX_SEARCH_MS = 1e8
MAX_WARNINGS = 8


@dataclass
class _Problem:
    text: str          # the first occurrence, worded in full
    count: int = 1     # turn lines with this kind of problem


def consistency_warnings(replay: Replay) -> list[str]:
    """One line per kind of problem, at most MAX_WARNINGS (then a summary)."""
    found: dict[str, _Problem] = {}

    def note(key: str, text: str) -> None:
        if key in found:
            found[key].count += 1
        else:
            found[key] = _Problem(text)

    h = replay.header
    n = h.num_agents
    # the first thing verify does: can this build rebuild the recorded game?
    try:
        replay.new_game(check=True).close()
    except ReplayError as exc:
        note("game", str(exc).removeprefix(f"{replay.path}: "))
    if not replay.turns:
        note("no_turns", "no turn is recorded (the match never played a turn here)")
    alive = list(h.initial_alive)
    for line in replay.turns:
        t = line.turn
        for name in ("scores", "rewards"):
            bad = [a for a, x in enumerate(getattr(line, name)) if not math.isfinite(x)]
            if bad:
                note(name, f"turn {t}: {name} of agent {bad[0]} is "
                           f"{getattr(line, name)[bad[0]]} (not a finite number)")
        for a in range(n):
            if line.alive[a] and not alive[a]:
                note("revived", f"turn {t}: agent {a} is alive again after being out")
        alive = list(line.alive)
        for p in line.players:
            who = f"turn {t}: player {p.player}"
            for name in ("iterations", "sim_turns"):
                v = getattr(p, name)
                if v < 0 or v > MAX_ITERATIONS:
                    note(name, f"{who}: {name} {v} is absurd (expected 0..10^12)")
            for name in ("search_ms", "wall_ms"):
                v = getattr(p, name)
                if not math.isfinite(v) or v < 0:
                    note(name, f"{who}: {name} is {v} (expected a time >= 0)")
            if math.isfinite(p.search_ms) and p.search_ms > MAX_SEARCH_MS:
                note("search_ms_big", f"{who}: search_ms {p.search_ms:g} is absurd "
                                      f"(more than a day)")
            elif (math.isfinite(p.search_ms) and math.isfinite(p.wall_ms) and p.wall_ms >= 0
                  and p.search_ms > p.wall_ms * 1.01 + 1.0):
                # time inside C is part of the thinking time, never more
                note("search_gt_wall", f"{who}: search_ms {p.search_ms:g} exceeds its whole "
                                       f"thinking time wall_ms {p.wall_ms:g}")
            for at in p.agents:
                if at.nodes is not None and at.nodes < 0:
                    note("nodes", f"{who}: agent {at.agent} has {at.nodes} tree nodes")
                for m in at.root:
                    if m.visits < 0 or not (math.isfinite(m.prob) and -1e-6 <= m.prob <= 1 + 1e-6) \
                            or (m.visits > 0 and not math.isfinite(m.mean)):
                        note("root", f"{who}: agent {at.agent}'s root move {m.move} has visits "
                                     f"{m.visits}, mean {m.mean}, prob {m.prob}")
                        break

    r = replay.result
    if r is not None:
        ranks = list(r.ranking)
        stray = [a for a, k in enumerate(ranks) if not 0 <= k < n]
        if stray:
            note("rank_range", f"result line: agent {stray[0]} ranked {ranks[stray[0]]}, "
                               f"outside 0..{n - 1}")
        elif 0 not in ranks:
            note("rank_best", f"result line: ranking {ranks} ranks no agent first (0)")
        best = [a for a, k in enumerate(ranks) if k == 0]
        expected = best[0] if len(best) == 1 else None
        if r.winner != expected and not stray:
            said = "none" if r.winner is None else f"agent {r.winner}"
            first = ("no agent" if not best else f"agent {best[0]}" if len(best) == 1
                     else "agents " + ", ".join(str(a) for a in best) + " (a tie)")
            note("winner", f"result line: winner is {said}, but its ranking {ranks} puts "
                           f"{first} first")
        if list(r.names) != list(h.names):
            note("names", f"result line: names {list(r.names)} differ from the header's "
                          f"{list(h.names)}")
        last = replay.turns[-1] if replay.turns else None
        played = last.turn + 1 if last is not None else h.start_turn
        # with lines dropped the file may lack its last turns; fewer turns than
        # recorded is a contradiction either way
        if r.turns < played or (r.turns > played and not replay.dropped):
            note("turns", f"result line: {r.turns} turns, but the turn lines end after turn "
                          f"{played}")
        elif last is not None and r.turns == played and r.final_hash != last.hash:
            note("final_hash", f"result line: final hash {r.final_hash} is not turn "
                               f"{last.turn}'s state hash {last.hash}")
        elif not {"winner", "rank_range", "rank_best"} & set(found) and not replay.missing_turns:
            why = _replayed_ranking_differs(replay)
            if why:
                note("replayed_ranking", why)

    out = []
    for p in found.values():
        more = f" (and {p.count - 1} more turn{'s' if p.count > 2 else ''})" if p.count > 1 else ""
        out.append(p.text + more)
    if len(out) > MAX_WARNINGS:
        out = out[:MAX_WARNINGS - 1] + [f"and {len(out) - MAX_WARNINGS + 1} more kinds of "
                                        "problem"]
    return out


def _replayed_ranking_differs(replay: Replay) -> str | None:
    """The recorded moves played again to the end: does the game rank the
    agents as the result line says? A winner and ranking edited together
    agree with each other and with nothing else (stats printed them without
    a word; verify re-simulates every turn and refuses them). A replay this
    build cannot play to the end says nothing here: verify reports it."""
    r = replay.result
    try:
        g = replay.state_at(replay.end_turn)
    except (ReplayError, SandboxError):
        return None
    with g:
        ranking = g.ranking()
    # a bot that forfeited ranks below the rest, as the match and verify rank it
    forfeits: dict[int, int] = {}
    for line in replay.turns:
        for a in line.forfeits:
            forfeits.setdefault(a, line.turn)
    if forfeits:
        ranking = list(forfeit_ranking(ranking, forfeits))
    if list(r.ranking) == ranking:
        return None
    best = [a for a, k in enumerate(ranking) if k == 0]
    who = f"agent {best[0]}" if len(best) == 1 else "nobody (a tie)"
    return (f"result line: ranking {list(r.ranking)}, but the recorded moves, played again, "
            f"rank {ranking} ({who} first): the result line was edited or belongs to "
            f"another match")


__all__ = ["MAX_ITERATIONS", "MAX_SEARCH_MS", "consistency_warnings"]
