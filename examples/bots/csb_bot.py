#!/usr/bin/env python3
"""A Coders Strike Back bot as written for the contest: it reads the
referee's lines on stdin and writes one command per pod on stdout, and knows
nothing of the sandbox. Both pods race: each aims at its next checkpoint
corrected for its drift (3 turns of its velocity), thrusts full unless the
target is behind it or it would orbit the checkpoint, boosts once on the
longest leg, and its second pod raises its shield when an opponent is about
to hit it hard. Run it in the sandbox with the "codingame-csb" protocol
(docs/bots.md#coders-strike-back-bots)."""
import math
import sys


def read_ints():
    return [int(v) for v in sys.stdin.readline().split()]


def main():
    laps = read_ints()[0]
    count = read_ints()[0]
    cps = [tuple(read_ints()) for _ in range(count)]
    # the longest leg ends at this checkpoint: the place to boost
    legs = [math.dist(cps[i - 1], cps[i]) for i in range(count)]
    boost_cp = legs.index(max(legs))
    boosted = [False, False]
    passed, last = [0, 0], [1, 1]           # checkpoints passed; each pod starts for cp 1
    turn = 0
    while True:
        pods = []
        for _ in range(4):
            line = sys.stdin.readline()
            if not line:
                return                      # the match is over
            pods.append([int(v) for v in line.split()])
        for i in range(2):
            x, y, vx, vy, angle, nxt = pods[i]
            if nxt != last[i]:
                passed[i], last[i] = passed[i] + 1, nxt
            cx, cy = cps[nxt]
            tx, ty = cx - 3 * vx, cy - 3 * vy
            want = math.degrees(math.atan2(ty - y, tx - x))
            heading = want if angle == -1 else angle       # -1: the first turn
            diff = (want - heading + 180) % 360 - 180
            dist = math.hypot(cx - x, cy - y)
            speed = math.hypot(vx, vy)
            thrust = 200
            if abs(diff) > 90 or (abs(diff) > 18 and dist < 8 * speed):
                thrust = 0
            command = str(thrust)
            if (not boosted[i] and turn > 0 and nxt == boost_cp and abs(diff) < 10
                    and dist > 4000):
                command, boosted[i] = "BOOST", True
            if i == 1:
                for ox, oy, ovx, ovy, _, _ in pods[2:]:
                    near = math.hypot(ox + ovx - x - vx, oy + ovy - y - vy)
                    if near < 850 and math.hypot(ovx - vx, ovy - vy) > 500:
                        command = "SHIELD"
            lap = min(laps, passed[i] // count + 1)
            print(f"{round(tx)} {round(ty)} {command} lap {lap}/{laps} cp {nxt}", flush=True)
        turn += 1


if __name__ == "__main__":
    main()
