"""The pymunk world of a pods race (scenario `physics = "pymunk"`).

With `physics = "csb"` (the default) the C model is the world: a match steps
pods.c and a replay re-simulates exactly. With "pymunk" the motion of the
race is a pymunk (Chipmunk2D) simulation while the planners keep searching
the C model: each turn the match imports this world's state into its C game
before the searches run, so the search plans from where the pods really are.

What pymunk does and what C does, per turn:
- C decides the pod's side of the rules. The turn is first stepped in a
  clone of the C game (the *prediction*); from it the world takes each pod's
  new heading (rotation cap, first-turn facing), its thrust (shield and boost
  timing: `last_thrust`, 650 for a boost, 0 under a shield), whether it
  raised the shield, and the counters that do not depend on the motion
  (shield turns left, boost used, flags).
- pymunk does the motion: one dynamic circle body (radius 400) per pod, mass
  1, or 10 on the turn it raises the shield; the thrust is an impulse of
  mass x thrust along the new heading (a velocity change of `thrust`); pod
  shapes are perfectly elastic (elasticity 1, no friction), so contacts
  exchange momentum along the centre line like the referee's bounce, but
  without its minimum impulse of 120 and with Chipmunk's discrete contact
  solving. One game turn is SUBSTEPS pymunk steps of 1/SUBSTEPS time unit
  (a pod at boost speed moves ~80 units a substep, a fifth of its radius:
  no pod passes through another).
- Checkpoints are sensor shapes on the static body. A sensor circle of
  radius 600 - 400 = 200 touches a pod's circle exactly when the pod's centre
  is within 600 of the checkpoint (RULES §3's test), so a sensor's `begin`
  is a pass when it is the pod's next checkpoint (and its team is still in).
- Friction (the 0.85 damping) is applied at the end of the turn, as the
  referee applies it, and the state is put on the referee's integer grid
  (positions rounded half up, velocities truncated): Space.damping would
  spread the damping over the turn and move a pod ~7% less than the rules.
  The quantised state is the world's state, so the C import is lossless.
- The race bookkeeping follows pods.c: a pass restarts the player's clock,
  a clock that runs out puts the player out, the first pod to complete its
  last lap (earliest substep) wins; another team's pod reaching the finish
  later in the same turn does not count it (one winner: pods.c's import
  refuses a finished pod of a team that did not win).

The divergence of a turn is, per pod, the distance between the world's new
position and the C prediction's (both integers): what the planner's model
got wrong about the turn. In free flight it is 0 (tests/games/
test_pods_world.py); contacts make it grow.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

import pymunk

from ..base import WorldTurn
from .view import CP_RADIUS, POD_RADIUS, PodsView, decode_pods, encode_pods

SUBSTEPS = 20
FRICTION = 0.85
POD_TYPE = 1
CP_TYPE = 2


def divergence(world: PodsView, predicted: PodsView) -> tuple[float, ...]:
    """Per pod: the distance between the two states' positions."""
    return tuple(math.hypot(a.x - b.x, a.y - b.y) for a, b in zip(world.pods, predicted.pods))


def _round_half_up(v: float) -> int:
    return math.floor(v + 0.5)


class PodsWorld:
    """A pymunk space holding the pods and the checkpoints of one race."""

    def __init__(self, start: PodsView, substeps: int = SUBSTEPS) -> None:
        if not 1 <= int(substeps) <= 1000:
            raise ValueError(f"substeps: {substeps} is not in 1..1000")
        self.substeps = int(substeps)
        self.space = pymunk.Space()
        self.space.gravity = (0.0, 0.0)
        self.space.damping = 1.0
        self.bodies: list[pymunk.Body] = []
        for i, q in enumerate(start.pods):
            body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0.0, POD_RADIUS))
            body.position = (q.x, q.y)
            body.velocity = (q.vx, q.vy)
            shape = pymunk.Circle(body, POD_RADIUS)
            shape.elasticity = 1.0
            shape.friction = 0.0
            shape.collision_type = POD_TYPE
            shape.pod = i
            self.space.add(body, shape)
            self.bodies.append(body)
        for k, (x, y) in enumerate(start.checkpoints):
            cp = pymunk.Circle(self.space.static_body, CP_RADIUS - POD_RADIUS, offset=(x, y))
            cp.sensor = True
            cp.collision_type = CP_TYPE
            cp.cp = k
            self.space.add(cp)
        self.space.on_collision(POD_TYPE, CP_TYPE, begin=self._touch)
        self._turn: _TurnBook | None = None

    def _touch(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data) -> None:
        book = self._turn
        pod_shape, cp_shape = arbiter.shapes
        if pod_shape.collision_type != POD_TYPE:
            pod_shape, cp_shape = cp_shape, pod_shape
        if book is not None:
            book.touch(pod_shape.pod, cp_shape.cp)

    def advance(self, start: PodsView, predicted: PodsView) -> WorldTurn:
        """Plays one turn from `start` (the state both the world and the C
        game hold) with the headings, thrusts and shields of `predicted` (the
        C model's step of the same joint action); returns the world's new
        state as pods export words."""
        n = len(start.pods)
        if len(predicted.pods) != n or predicted.turn != start.turn + 1:
            raise ValueError("the prediction is not the next turn of the start state")
        for i, (q, nq, body) in enumerate(zip(start.pods, predicted.pods, self.bodies)):
            body.mass = 10.0 if nq.shielded else 1.0
            body.position = (q.x, q.y)
            body.velocity = (q.vx, q.vy)
            if nq.last_thrust:
                r = math.radians(nq.angle)
                body.apply_impulse_at_world_point(
                    (body.mass * nq.last_thrust * math.cos(r),
                     body.mass * nq.last_thrust * math.sin(r)), body.position)
        book = _TurnBook(start)
        self._turn = book
        try:
            for k in range(self.substeps):
                book.substep = k
                self.space.step(1.0 / self.substeps)
        finally:
            self._turn = None
        pods = []
        for i, (q, nq, body) in enumerate(zip(start.pods, predicted.pods, self.bodies)):
            x, y = body.position
            vx, vy = body.velocity
            pods.append(replace(nq, x=_round_half_up(x), y=_round_half_up(y),
                                vx=int(vx * FRICTION), vy=int(vy * FRICTION),
                                passed=book.passed[i], next_cp=book.next_cp[i]))
        clock, out = list(start.clock), list(start.out_turn)
        for p in range(start.players):
            if out[p] >= 0:
                continue
            if any(book.now[p * start.per_player + k] for k in range(start.per_player)):
                clock[p] = start.timeout
            else:
                clock[p] -= 1
                if clock[p] <= 0:
                    clock[p] = 0
                    out[p] = start.turn + 1
        winner = start.winner
        if winner < 0 and book.finish is not None:
            winner = start.player_of(book.finish[1])
        world = replace(predicted, pods=tuple(pods), clock=tuple(clock), out_turn=tuple(out),
                        winner=winner)
        return WorldTurn(encode_pods(world), tuple(float(k) for k in book.now),
                         divergence(world, predicted))


class _TurnBook:
    """The checkpoint passes of one turn."""

    def __init__(self, start: PodsView) -> None:
        self.start = start
        self.passed = [q.passed for q in start.pods]
        self.next_cp = [q.next_cp for q in start.pods]
        self.now = [0] * len(start.pods)
        self.substep = 0
        self.finish: tuple[int, int] | None = None     # (substep, pod)

    def touch(self, pod: int, cp: int) -> None:
        s = self.start
        if s.out_turn[s.player_of(pod)] >= 0 or self.passed[pod] >= s.total_cps:
            return
        if cp != self.next_cp[pod]:
            return
        if (self.passed[pod] + 1 == s.total_cps and self.finish is not None
                and s.player_of(self.finish[1]) != s.player_of(pod)):
            # another team finished earlier this turn: one winner (pods.c's
            # import refuses a finished pod whose team did not win)
            return
        self.passed[pod] += 1
        self.now[pod] += 1
        # a pod that finishes stays at checkpoint 0 (pods.c, as the referee)
        self.next_cp[pod] = 0 if self.passed[pod] == s.total_cps \
            else (cp + 1) % len(s.checkpoints)
        if self.passed[pod] == s.total_cps and (self.finish is None
                                                or self.substep < self.finish[0]):
            self.finish = (self.substep, pod)


def advance_words(world: PodsWorld, start: Sequence[int], predicted: Sequence[int]) -> WorldTurn:
    return world.advance(decode_pods(start), decode_pods(predicted))
