"""Official game state ↔ our snakes state (the export words of
native/include/sbx.h, decoded by ..view).

Cells cross unchanged: both put (0, 0) bottom-left with "up" = y + 1, and
our move ids 0..3 are up, down, left, right (schema.MOVES). Agent a is
board.snakes[a]. The official object lists only the snakes still in the
game, so a position read from it has only live snakes; a served game keeps
its own agent numbers across turns (served.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...games.snakes.params import SnakesGameParams
from ...games.snakes.view import EXPORT_VERSION, EXPORT_VERSION_HAZARDS, SnakesView
from .schema import MAX_HEALTH, GameState, Unsupported, check_supported, move_name


# maps whose progress our state keeps in its four map words (sbx.h)
ORIGIN_MAPS = ("hz_spiral", "hz_expand_box", "hz_expand_scatter")
NO_HAZARD_MAPS = ("standard", "empty")


def has_hazards(ruleset: str, map_name: str) -> bool:
    """Whether our state of this game keeps hazards (export version 2)."""
    return ruleset == "royale" or map_name not in NO_HAZARD_MAPS


def map_words(ruleset: str, map_name: str, width: int, height: int,
              hazards: Sequence[tuple[int, int]]) -> tuple[int, int, int, int]:
    """The map's progress, read back from the hazards the official engine
    lists (in the order it placed them): royale's safe zone is what the
    hazards leave free; a spiral's or expanding box's origin is the first
    hazard placed; a growing box is the box the hazards fill."""
    if ruleset == "royale" or map_name == "royale":
        if not hazards:
            return (0, width - 1, 0, height - 1)
        taken = set(hazards)
        free = [(x, y) for x in range(width) for y in range(height) if (x, y) not in taken]
        if not free:
            return (1, 0, 1, 0)                  # no zone left: all hazard
        xs, ys = [c[0] for c in free], [c[1] for c in free]
        return (min(xs), max(xs), min(ys), max(ys))
    if map_name in ORIGIN_MAPS:
        return (hazards[0][0], hazards[0][1], 0, 0) if hazards else (-1, -1, 0, 0)
    if map_name == "hz_grow_box":
        if not hazards:
            return (-1, -1, -1, -1)
        xs, ys = [c[0] for c in hazards], [c[1] for c in hazards]
        return (min(xs), max(xs), min(ys), max(ys))
    return (0, 0, 0, 0)


def hazard_words(ruleset: str, map_name: str, width: int, height: int,
                 hazards: Sequence[tuple[int, int]]) -> list[int]:
    """The export's hazard part (sbx.h, version 2): the cells with their
    stacks (a cell listed k times is k layers), then the four map words."""
    stacks: dict[tuple[int, int], int] = {}
    for c in hazards:
        stacks[c] = stacks.get(c, 0) + 1
    w = [len(stacks)]
    for (x, y) in sorted(stacks, key=lambda c: c[1] * width + c[0]):
        w += [x, y, stacks[(x, y)]]
    return w + list(map_words(ruleset, map_name, width, height, hazards))


@dataclass(frozen=True)
class Position:
    """A game state as our game: its parameters (for SnakesGameParams) and
    the export words to import; `you` is the agent the request is for."""
    game_params: dict[str, Any]
    words: tuple[int, ...]
    you: int
    ids: tuple[str, ...]
    names: tuple[str, ...]


def game_params(st: GameState) -> dict[str, Any]:
    """Our parameters of the game the state is from: its ruleset and map,
    the food and hazard rules from the ruleset's settings (no turn limit:
    the official engine has none)."""
    return {"ruleset": st.rules, "map": st.map, "width": st.width, "height": st.height,
            "snakes": len(st.snakes), "food_spawn_chance": int(st.food_spawn_chance),
            "minimum_food": int(st.minimum_food), "hazard_damage": int(st.hazard_damage),
            "shrink_every": int(st.shrink_every), "max_health": MAX_HEALTH, "max_turns": 0}


def state_words(st: GameState) -> tuple[int, ...]:
    """The export words of the state (layout: sbx.h): every snake alive, its
    body head first, food in the order received (the import accepts any
    order; the export sorts it), then, in a game with hazards, the hazards
    and the map's progress (version 2)."""
    hz = has_hazards(st.rules, st.map)
    w = [EXPORT_VERSION_HAZARDS if hz else EXPORT_VERSION, st.width, st.height,
         len(st.snakes), st.turn, len(st.food)]
    for x, y in st.food:
        w += [x, y]
    for s in st.snakes:
        w += [1, s.health, len(s.body), -1, 0]
        for x, y in s.body:
            w += [x, y]
    if hz:
        w += hazard_words(st.rules, st.map, st.width, st.height, st.hazards)
    return tuple(w)


def position(st: GameState) -> Position:
    """Unsupported / MalformedState (schema) for a game we do not model,
    including a board or snake count its map does not take (C says which)."""
    check_supported(st)
    params = game_params(st)
    try:
        SnakesGameParams.model_validate(params)
    except ValueError as exc:
        raise Unsupported(_first_line(exc)) from None
    return Position(params, state_words(st), st.you_index,
                    tuple(s.id for s in st.snakes), tuple(s.name for s in st.snakes))


def _first_line(exc: Exception) -> str:
    """A pydantic error's message: the line after the field's name."""
    lines = [x.strip() for x in str(exc).splitlines() if x.strip()]
    for x in lines:
        if x.startswith("Value error, "):
            return x[len("Value error, "):].split(" [type=")[0]
    return lines[-1] if lines else str(exc)


# ------------------------------------------------------------ ours → official
def point(p: Sequence[int]) -> dict[str, int]:
    return {"x": int(p[0]), "y": int(p[1])}


def snake_json(view: SnakesView, agent: int, sid: str, name: str, latency_ms: float | None = None,
               shout: str = "", color: str = "#888888") -> dict[str, Any]:
    """A snake as the official engine sends it; latency "0" before its first
    answer, as the engine's command line sends it."""
    s = view.snakes[agent]
    return {"id": sid, "name": name, "health": int(s.health),
            "body": [point(p) for p in s.body], "head": point(s.body[0]),
            "length": int(s.length),
            "latency": "0" if latency_ms is None else str(int(round(latency_ms))),
            "shout": shout, "squad": "",
            "customizations": {"color": color, "head": "default", "tail": "default"}}


def settings_json(game_params: Mapping[str, Any]) -> dict[str, Any]:
    """The ruleset's settings object, every field the official engine sends
    (its deprecated hazardMap fields and the squad object included)."""
    return {"foodSpawnChance": int(game_params.get("food_spawn_chance", 15)),
            "minimumFood": int(game_params.get("minimum_food", 1)),
            "hazardDamagePerTurn": int(game_params.get("hazard_damage", 14)),
            "hazardMap": "", "hazardMapAuthor": "",
            "royale": {"shrinkEveryNTurns": int(game_params.get("shrink_every", 25))},
            "squad": {"allowBodyCollisions": False, "sharedElimination": False,
                      "sharedHealth": False, "sharedLength": False}}


def state_json(view: SnakesView, you: int, ids: Sequence[str], names: Sequence[str], *,
               game_id: str, timeout_ms: int, game_params: Mapping[str, Any] | None = None,
               latencies: Mapping[int, float] | None = None,
               shouts: Mapping[int, str] | None = None, source: str = "custom",
               colors: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The official game-state object of our state, for agent `you`. Snakes
    out of the game are left off board.snakes, as the official engine does;
    a hazard of k layers is listed k times, as the engine lists them."""
    gp = dict(game_params or {})
    lat, sh, col = latencies or {}, shouts or {}, colors or {}
    live = [a for a, s in enumerate(view.snakes) if s.alive]

    def one(a: int) -> dict[str, Any]:
        return snake_json(view, a, ids[a], names[a], lat.get(a), sh.get(a, ""),
                          col.get(a, "#888888"))
    hazards = [point((x, y)) for x, y, k in view.hazards for _ in range(k)]
    # snail_mode's tails to come, where the official engine keeps them
    hazards += [point((x, y + view.height)) for x, y, k in view.pending for _ in range(k)]
    return {
        "game": {"id": game_id,
                 "ruleset": {"name": gp.get("ruleset", "standard"), "version": "v1.2.3",
                             "settings": settings_json(gp)},
                 "map": gp.get("map") or "standard", "timeout": int(timeout_ms),
                 "source": source},
        "turn": int(view.turn),
        "board": {"height": view.height, "width": view.width,
                  "food": [point(f) for f in view.food], "hazards": hazards,
                  "snakes": [one(a) for a in live]},
        "you": one(you),
    }


__all__ = ["Position", "game_params", "has_hazards", "hazard_words", "map_words", "move_name",
           "point", "position", "settings_json", "snake_json", "state_json", "state_words"]
