"""Our pods engine against turns of real Coders Strike Back games, logged
from CodinGame's referee (replay files in the format of the public CSB
simulator test suite: CHECKPOINTS, then per round the four pods' state IN,
their commands MOV and the referee's next state OUT).

    python tools/csb_referee.py REPLAY.txt ...              # how many pod-turns are exact
    python tools/csb_referee.py REPLAY.txt ... --extract F  # keep some turns as test data

Each round is replayed through the public API: Game("pods",
{"checkpoints": [...]}), the IN state imported, the commands stepped as free
moves; a pod-turn is exact when position, velocity, next checkpoint, shield
and boost all equal the referee's and the angle agrees to 1e-6 degrees.
--extract writes the turns tests/games/test_pods_referee.py replays (every
turn with a collision, a boost or a shield, every 10th other one, and each
game's start) as gzipped JSON."""
from __future__ import annotations

import argparse
import gzip
import json
import math
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox.native import FreeMove, Game  # noqa: E402


def parse(path: Path) -> dict:
    """A replay file -> {"name", "checkpoints", "rounds": [{"tags", "in",
    "mov", "out", "passed"}]}; `passed` counts each pod's checkpoints so far
    (from the changes of its next checkpoint)."""
    cps, rounds, cur = None, [], None
    for ln in path.read_text().splitlines():
        t = ln.split()
        if not t:
            continue
        if t[0] == "CHECKPOINTS":
            v = [int(x) for x in t[1:]]
            cps = [[v[i], v[i + 1]] for i in range(0, len(v), 2)]
        elif t[0] == "Round":
            cur = {"tags": [], "in": [], "mov": [], "out": []}
            rounds.append(cur)
        elif t[0] == "tags:":
            cur["tags"] = t[1:]
        elif t[0] in ("IN", "OUT"):
            cur[t[0].lower()].append([int(t[1]), int(t[2]), int(t[3]), int(t[4]), float(t[5]),
                                      int(t[6]), int(t[7]), int(t[8])])
        elif t[0] == "MOV":
            cur["mov"].append([int(t[1]), int(t[2]), t[3]])
    if cps is None:
        raise SystemExit(f"{path}: no CHECKPOINTS line (an older replay without them)")
    passed = [0, 0, 0, 0]
    for r, rd in enumerate(rounds):
        if r:
            for k in range(4):
                passed[k] += rounds[r - 1]["in"][k][5] != rd["in"][k][5]
        rd["passed"] = list(passed)
    return {"name": path.stem, "checkpoints": cps, "rounds": rounds}


def state_words(template: list[int], turn: int, pods: list, passed: list[int],
                n_cp: int) -> list[int]:
    """The pods export (sbx.h) of a logged state, on the game's template."""
    w = list(template)
    w[5] = turn
    p = 14 + 2 * n_cp + 4
    for k, (x, y, vx, vy, a, nc, sh, bo) in enumerate(pods):
        lo, hi = struct.unpack("<ii", struct.pack("<d", a))
        w[p:p + 12] = [x, y, vx, vy, lo, hi, nc, passed[k], sh, bo, 0, 0]
        p += 12
    return w


def free_move(m: list) -> FreeMove:
    x, y, c = m
    if c == "BOOST":
        return FreeMove.boost(x, y)
    if c == "SHIELD":
        return FreeMove.shield(x, y)
    return FreeMove(x, y, int(c))


def replay_turn(g: Game, template: list[int], n_cp: int, turn: int, rd: dict
                ) -> list[tuple[bool, float]]:
    """Per pod: (exact, position error in units)."""
    g.import_state(state_words(template, turn, rd["in"], rd["passed"], n_cp))
    g.step([free_move(m) for m in rd["mov"]])
    out = [int(x) for x in g.export()]
    p = 14 + 2 * n_cp + 4
    res = []
    for k, want in enumerate(rd["out"]):
        got = out[p + 12 * k:p + 12 * k + 12]
        angle = struct.unpack("<d", struct.pack("<ii", got[4], got[5]))[0]
        same = ((got[0], got[1], got[2], got[3], got[6], got[8], got[9])
                == (want[0], want[1], want[2], want[3], want[5], want[6], want[7])
                and abs((angle - want[4] + 180.0) % 360.0 - 180.0) < 1e-6)
        res.append((same, math.hypot(got[0] - want[0], got[1] - want[1])))
    return res


def game_of(checkpoints: list) -> Game:
    return Game("pods", {"checkpoints": checkpoints, "max_turns": 100_000}, seed=0)


def check(games: list[dict]) -> tuple[int, int, list]:
    total = exact = 0
    misses = []
    for gm in games:
        n = len(gm["checkpoints"])
        with game_of(gm["checkpoints"]) as g:
            template = [int(x) for x in g.export()]
            for rd in gm["rounds"]:
                turn = rd.get("turn", gm["rounds"].index(rd))
                for k, (same, err) in enumerate(replay_turn(g, template, n, turn, rd)):
                    total += 1
                    exact += same
                    if not same:
                        misses.append((gm["name"], turn + 1, k, round(err, 1)))
    return total, exact, misses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("replays", nargs="+", type=Path)
    ap.add_argument("--extract", type=Path, help="write the test turns here (.json.gz)")
    a = ap.parse_args()
    games = [parse(p) for p in a.replays]
    for gm in games:
        for r, rd in enumerate(gm["rounds"]):
            rd["turn"] = r
    total, exact, misses = check(games)
    print(f"{exact:,} of {total:,} pod-turns exact ({len(games)} games)")
    for m in misses[:20]:
        print(f"  {m[0]} round {m[1]} pod {m[2]}: off by {m[3]}")
    if a.extract:
        keep = []
        for gm in games:
            rounds = [rd for r, rd in enumerate(gm["rounds"])
                      if r == 0 or r % 10 == 0 or any("COLLISION" in t or t in
                                                     ("BOOST", "SHIELD") for t in rd["tags"])]
            keep.append({"name": gm["name"], "checkpoints": gm["checkpoints"],
                         "start": gm["rounds"][0]["in"],
                         "rounds": [{k: rd[k] for k in ("turn", "tags", "in", "mov", "out",
                                                        "passed")} for rd in rounds]})
        with gzip.open(a.extract, "wt") as f:
            json.dump(keep, f, separators=(",", ":"))
        print(f"kept {sum(len(g['rounds']) for g in keep)} rounds in {a.extract}")


if __name__ == "__main__":
    main()
