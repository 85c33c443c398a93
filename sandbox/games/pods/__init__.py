"""`pods` (docs/games.md, Pods, modelled on Coders Strike Back / Mad Pod Racing).

The rules are native/src/games/pods.c: 1-4 players race 1-2 pods each
around a loop of checkpoints (radius 600, crossed along the motion) for
`laps` laps on a 16000x9000 map; per turn a pod rotates (at most 18°, none
on the first turn), thrusts (0..max, or BOOST 650 once) or raises its SHIELD
(mass x10, no thrust for 4 turns); pods collide elastically with the
minimum impulse 120; friction 0.85, velocities truncated, positions rounded.
A player whose pods pass no checkpoint for `timeout` turns is out.

Agents are pods: agent a is pod a % pods_per_player of player
a // pods_per_player, and both pods of a player get the same (team) score,
so a scenario gives each [[players]] entry `agents = [2p, 2p+1]` and one
Smitsimax search plans both pods with one tree each.

This package holds the parameter model (params.py), the export decoder and
the move table (view.py) and the board (render.py). A person drives a pod
with the arrow keys (left / right: turn 18° at full thrust, up: straight at
full thrust, down: coast), 1 / 2 / 3 for straight at no / half / full
thrust, b to boost, s to shield, or a click: a target point; in the app,
Tab switches which pod of the team the person drives.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..base import AgentFacts, AgentStatus, BenchCase, GamePlugin, KeyResult
from .blocking import blocking_turns
from .params import PodsGameParams
from .view import (BOOST_MOVE, SHIELD_MOVE, Pod, PodsView, decode_pods, encode_pods, find_move,
                   move_table)
from .bot import bot_view as _bot_view

# key -> (rotation, thrust as a share of max, or "boost" / "shield")
_KEYS: dict[str, tuple[float, Any]] = {
    "left": (-18.0, 2), "right": (18.0, 2), "up": (0.0, 2), "down": (0.0, 0),
    "1": (0.0, 0), "2": (0.0, 1), "3": (0.0, 2), "b": (0.0, BOOST_MOVE), "s": (0.0, SHIELD_MOVE),
}


class PodsPlugin(GamePlugin):
    kind = "pods"
    title = "Pods — Coders Strike Back racing: checkpoints, laps, boost, shield, 1–4 teams"
    Params = PodsGameParams
    keys_hint = ("arrows: left/right turn 18° at full thrust, up full thrust, down coast; "
                 "1/2/3 thrust 0/half/full; b boost; s shield; click: steer to a point; "
                 "right click: exactly to it, thrust by distance; "
                 "Tab: drive your other pod")
    keys = tuple(_KEYS)
    bench = (
        BenchCase(label="pods 2x2 (csb), smitsimax depth 6, one thread",
                  game_params={}, search={"max_depth": 6},
                  match_turns=10, match_iterations=10_000, quick_turns=3,
                  quick_iterations=2_000, first_move=(1_000, 10_000),
                  agent_turns_target=5_000_000, scenario="pods_race_2v2"),
    )
    examples = ({"max_turns": 60},
                {"players": 1, "pods_per_player": 1, "map": "hairpin", "laps": 1,
                 "max_turns": 80},
                {"players": 4, "map": "star", "timeout": 30, "max_turns": 100},
                {"players": 3, "pods_per_player": 1, "map": "zigzag", "rotations": 1,
                 "thrusts": 2, "boost": 0, "max_thrust": 100, "max_turns": 50})

    # emergent blocking (blocking.py): per team, the share of turns its
    # trailing pod is closer to the opponent leader than to its next checkpoint
    turn_stats = ("blocking",)

    def turn_shares(self, views: Sequence[PodsView]) -> dict[str, list[tuple[int, int]]]:
        if not views:
            return {"blocking": []}
        per = views[0].per_player
        teams = blocking_turns(views)
        return {"blocking": [teams[a // per] for a in range(views[0].num_pods)]}

    def decode(self, words: Sequence[int]) -> PodsView:
        return decode_pods(words)

    def num_agents(self, view: PodsView) -> int:
        return view.num_pods

    def status(self, view: PodsView, agent: int) -> AgentStatus:
        out = view.out_turn[view.player_of(agent)]
        if out < 0:
            return AgentStatus(True)
        return AgentStatus(False, out, "timeout: no checkpoint in time")

    def facts(self, view: PodsView, agent: int) -> AgentFacts:
        q = view.pods[agent]
        p = view.player_of(agent)
        lap = min(view.laps, view.lap(agent))
        detail = f"next cp {q.next_cp}"
        if view.winner == p:
            detail = "won the race"
        elif view.out_turn[p] < 0:
            detail += f" · clock {view.clock[p]}"
        if q.shield:
            detail += f" · shield {q.shield}"
        return AgentFacts(summary=f"lap {lap}/{view.laps}",
                          bar=min(1.0, q.passed / view.total_cps),
                          bar_label=f"{q.passed}/{view.total_cps}", detail=detail.strip())

    def bot_view(self, view) -> dict[str, Any]:
        return _bot_view(view)

    def summary(self, view: PodsView) -> dict[str, Any]:
        return {"turn": view.turn, "winner": view.winner,
                "positions": [[q.x, q.y] for q in view.pods],
                "velocities": [[q.vx, q.vy] for q in view.pods],
                "passed": [q.passed for q in view.pods], "clock": list(view.clock)}

    def key_move(self, view: PodsView, agent: int, key: str, char: str = "") -> KeyResult | None:
        spec = _KEYS.get(key)
        if spec is None:
            return None
        if view.over:
            return KeyResult(None, "the race is over")
        if view.out_turn[view.player_of(agent)] >= 0:
            return KeyResult(None, "this pod's team timed out")
        rot, thrust = spec
        if isinstance(thrust, int):
            thrust = (0, view.max_thrust // 2, view.max_thrust)[thrust]
        move = find_move(view, rot, thrust)
        if move is None:
            return KeyResult(None, f"no such move in this race's move set ({key})")
        return KeyResult(move)

    # physics = "pymunk": the race moves in a pymunk space (world.py)
    worlds = ("pymunk",)

    def physics_world(self, physics: str, view: PodsView):
        if physics != "pymunk":
            return super().physics_world(physics, view)
        from .world import PodsWorld
        return PodsWorld(view)

    def renderer(self, colors, names, move_names=None):
        from .render import PodsRenderer
        return PodsRenderer(colors, names, move_names)


PLUGIN = PodsPlugin()

__all__ = ["PLUGIN", "Pod", "PodsPlugin", "PodsView", "decode_pods", "encode_pods", "move_table"]
