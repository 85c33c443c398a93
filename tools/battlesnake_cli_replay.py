"""A game logged by the official Battlesnake command-line tool (`battlesnake
play ... --output FILE`), replayed turn by turn through our snakes engine.

    python tools/battlesnake_cli_replay.py FILE.jsonl ...

The file holds the game, then one request body per turn (every live snake,
food, hazards), then the result. Each turn is imported into our engine
(the public import path, as a served position is) and stepped with the
moves the heads show; a snake the engine removed shows no move, so each of
its four moves is tried and one of them must give the logged result. A turn
is exact when the live snakes' bodies and health, who was removed, the food
that stays (all food in constrictor games is new each turn) and, where the
map decides them without chance, the hazards all equal the log's next
turn. Prints "N of M turns exact" per file."""
from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox.bots.battlesnake.convert import game_params, position  # noqa: E402
from sandbox.bots.battlesnake.schema import read_state  # noqa: E402
from sandbox.games.snakes.params import SnakesGameParams  # noqa: E402
from sandbox.games.snakes.view import decode_snakes  # noqa: E402
from sandbox.native import Game  # noqa: E402

DELTAS = ((0, 1), (0, -1), (-1, 0), (1, 0))
RANDOM_HAZARDS = ("royale", "hz_spiral", "hz_scatter", "hz_grow_box", "hz_expand_box",
                  "hz_expand_scatter", "healing_pools")


def turns_of(path: Path) -> list[dict]:
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    game = lines[0]
    out = []
    for ln in lines[1:]:
        if "board" not in ln:
            continue
        # the tool logs `you` as any one snake, maybe one already out
        you = ln["board"]["snakes"][0] if ln["board"]["snakes"] else ln["you"]
        out.append({**ln, "game": game, "you": you})
    return out


def step_to(before: dict, after: dict) -> tuple[bool, str]:
    st = read_state(before)
    if not after["board"]["snakes"]:
        after = {**after, "board": {**after["board"], "snakes": []}}
    st2 = read_state(after)
    pos = position(st)
    params = SnakesGameParams.model_validate(game_params(st)).c_params()
    W, H = st.width, st.height
    wrapped = st.rules in ("wrapped", "wrapped_constrictor")
    after_by_id = {s.id: s for s in st2.snakes}
    joint, unknown = [], []
    for a, s in enumerate(st.snakes):
        nxt = after_by_id.get(s.id)
        if nxt is None:
            joint.append(0)
            unknown.append(a)
            continue
        d = (nxt.head[0] - s.head[0], nxt.head[1] - s.head[1])
        if wrapped:
            d = tuple(-1 if v > 1 else 1 if v < -1 else v for v in d)
        if d not in DELTAS:
            return False, f"snake {s.id} moved {d}"
        joint.append(DELTAS.index(d))
    why = "no move of the removed snakes gives the logged turn"
    for trial in itertools.product(range(4), repeat=len(unknown)):
        for a, m in zip(unknown, trial):
            joint[a] = m
        with Game("snakes", params, seed=1) as g:
            g.import_state(pos.words)
            g.step(joint)
            v = decode_snakes(g.export())
        ok, why = same(st, st2, v, wrapped)
        if ok:
            return True, ""
    return False, why


def same(st, st2, v, wrapped) -> tuple[bool, str]:
    live = {st.snakes[a].id: s for a, s in enumerate(v.snakes) if s.alive}
    want = {s.id: s for s in st2.snakes}
    if set(live) != set(want):
        return False, f"alive {sorted(live)} vs {sorted(want)}"
    for sid, s in live.items():
        if tuple(s.body) != want[sid].body or s.health != want[sid].health:
            return False, f"snake {sid}: {s.body} {s.health} vs {want[sid].body} " \
                          f"{want[sid].health}"
    old = set(st.food) if "constrictor" not in st.rules else set()
    if set(v.food) & old != set(st2.food) & old:
        return False, "food kept"
    if st.map == "empty" and (v.food or st2.food):
        return False, "food on the empty map"
    if st.rules != "royale" and st.map not in RANDOM_HAZARDS:
        ours = sorted([(x, y) for x, y, k in v.hazards for _ in range(k)]
                      + [(x, y + v.height) for x, y, k in v.pending for _ in range(k)])
        if ours != sorted(st2.hazards):
            return False, "hazards"
    return True, ""


def main() -> None:
    for name in sys.argv[1:]:
        turns = turns_of(Path(name))
        exact, bad = 0, []
        for before, after in zip(turns, turns[1:]):
            ok, why = step_to(before, after)
            exact += ok
            if not ok:
                bad.append((before["turn"], why))
        print(f"{name}: {exact} of {len(turns) - 1} turns exact")
        for t, why in bad[:5]:
            print(f"  turn {t}: {why}")


if __name__ == "__main__":
    main()
