"""Hand-written official game-state objects (the documented schema: game,
turn, board, you) for the Battlesnake tests."""
from __future__ import annotations

import copy
import json
from typing import Any


def snake(sid: str, body, health: int = 90, name: str | None = None) -> dict[str, Any]:
    return {"id": sid, "name": name or sid, "health": health,
            "body": [{"x": x, "y": y} for x, y in body],
            "head": {"x": body[0][0], "y": body[0][1]}, "length": len(body),
            "latency": "12", "shout": "", "squad": "",
            "customizations": {"color": "#ff0000", "head": "default", "tail": "default"}}


def state(snakes, you: int = 0, food=((5, 5),), turn: int = 3, width: int = 11,
          height: int = 11, ruleset: str = "standard", game_id: str = "g-1",
          timeout: int = 500, hazards=(), gmap: str = "standard") -> dict[str, Any]:
    return {"game": {"id": game_id,
                     "ruleset": {"name": ruleset, "version": "v1.2.3",
                                 "settings": {"foodSpawnChance": 15, "minimumFood": 1,
                                              "hazardDamagePerTurn": 14}},
                     "map": gmap, "timeout": timeout, "source": "custom"},
            "turn": turn,
            "board": {"height": height, "width": width,
                      "food": [{"x": x, "y": y} for x, y in food],
                      "hazards": [{"x": x, "y": y} for x, y in hazards],
                      "snakes": copy.deepcopy(list(snakes))},
            "you": copy.deepcopy(snakes[you])}


def duel(**kw) -> dict[str, Any]:
    """Two snakes: A (you) heading up at (2,3), B heading left at (8,8)."""
    a = snake("a", [(2, 3), (2, 2), (2, 1)], health=80, name="A")
    b = snake("b", [(8, 8), (9, 8), (10, 8), (10, 7)], health=55, name="B")
    return state([a, b], **kw)


def body(obj) -> bytes:
    return json.dumps(obj).encode()


def ended_by(proc, sig: int, status: int, within_s: float = 2.5) -> str:
    """Sends `sig` to a `python -m sandbox` process and checks it ends with
    `status` within `within_s` and no traceback; returns its stderr."""
    import signal
    import time
    proc.send_signal(sig)
    t0 = time.monotonic()
    try:
        rc = proc.wait(timeout=15)
    except Exception:
        proc.kill()
        proc.wait()
        raise AssertionError(f"still running 15 s after {signal.Signals(sig).name}")
    seconds = time.monotonic() - t0
    err = proc.stderr.read()
    assert rc == status and seconds < within_s, (rc, seconds, err)
    assert "Traceback" not in err, err
    return err
