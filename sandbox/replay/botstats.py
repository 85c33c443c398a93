"""An external player's figures over one replay (docs/bots.md): its
answers, their latency, its failures by kind and its forfeit, for `replay
stats`. An external player is one whose turn lines carry a bot record: a
process player, a game's remote player (a Battlesnake server)."""
from __future__ import annotations

from typing import Any

from .reader import Replay


def bot_stats(replay: Replay) -> dict[str, dict[str, Any]]:
    """Per external player (by name): answers, latency median and 95th
    percentile (ms), failed turns and failures by kind, forfeit turn."""
    h = replay.header
    with_bot = {pt.player for line in replay.turns for pt in line.players if pt.bot is not None}
    players = {p.player: p for p in h.players if p.player in with_bot}
    acc: dict[int, dict[str, Any]] = {
        pl: {"answers": 0, "latencies": [], "failed_turns": 0, "failures": {},
             "forfeited_turn": None} for pl in players}
    for line in replay.turns:
        for pt in line.players:
            a = acc.get(pt.player)
            if a is None or pt.bot is None:
                continue
            if pt.bot.latency_ms is not None:
                a["answers"] += 1
                a["latencies"].append(pt.bot.latency_ms)
            if pt.bot.failures:
                a["failed_turns"] += 1
                for f in pt.bot.failures:
                    a["failures"][f.kind] = a["failures"].get(f.kind, 0) + 1
        for ag in line.forfeits:
            for pl, p in players.items():
                if ag in p.agents and acc[pl]["forfeited_turn"] is None:
                    acc[pl]["forfeited_turn"] = line.turn
    out = {}
    for pl, a in acc.items():
        lat = sorted(a.pop("latencies"))
        a["latency_median_ms"] = lat[len(lat) // 2] if lat else None
        a["latency_p95_ms"] = lat[min(len(lat) - 1, int(len(lat) * 0.95))] if lat else None
        out[players[pl].name] = a
    return out


def bot_lines(stats: dict[str, dict[str, Any]]) -> list[str]:
    out = []
    for name, a in stats.items():
        lat = ("" if a["latency_median_ms"] is None else
               f", latency median {a['latency_median_ms']:.1f} ms, p95 "
               f"{a['latency_p95_ms']:.1f} ms")
        fails = (", ".join(f"{k} {v}" for k, v in sorted(a["failures"].items()))
                 if a["failures"] else "none")
        line = (f"bot {name}: {a['answers']} answers{lat}; failed turns "
                f"{a['failed_turns']} ({fails})")
        if a["forfeited_turn"] is not None:
            line += f"; forfeited at turn {a['forfeited_turn']}"
        out.append(line)
    return out
