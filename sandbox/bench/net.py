"""`python -m sandbox bench --net [FILE]`: the network's pass in C,
evaluations per second on one thread, a state at a time and in batches of
64 (the frontier batches a search would send), and from games (features
built in C, then the pass; through Python, once per batch).

Without FILE: a net of the default architecture (sandbox/learn/netfile.py)
with random weights for every game its bench cases name (BenchCase.net);
with FILE: that net, on the game its meta text names. The inputs are the
features of states reached by random play (ranges uniform where the game
has slots)."""
from __future__ import annotations

import json
import time
from typing import Any

import numpy as np

from ..native import Game, InvalidArgument, Net

STATES = 256
BATCH = 64


def _states(kind: str, params: Any, n: int, seed: int = 1) -> list[Game]:
    """n states from random play: a game's turns, then a new game."""
    rng = np.random.default_rng(seed)
    out: list[Game] = []
    g = Game(kind, params, seed)
    while len(out) < n:
        if g.is_terminal:
            g = Game(kind, params, seed + len(out))
        out.append(g.clone())
        g.step([int(rng.choice(m)) if (m := g.legal_moves(a)) else None
                for a in range(g.num_agents)])
    return out


def _rate(net: Net, x: np.ndarray, batch: int, seconds: float) -> float:
    """Evaluations per second, repeats grown until the run takes `seconds`."""
    repeats = 1
    while True:
        ms = net.time_ms(x, batch, repeats)
        if ms >= seconds * 1000 or repeats >= 1 << 20:
            return len(x) * repeats / (ms / 1000)
        repeats *= max(2, min(16, int(seconds * 1000 / max(ms, 1e-3))))


def measure(net: Net, kind: str, params: Any, label: str, quick: bool) -> dict[str, Any]:
    games = _states(kind, params, STATES)
    net.check_game(games[0])
    i = net.info
    ranges = None
    if i.slots:
        ranges = np.full((len(games), i.players * i.slots), 1.0 / i.slots, dtype=np.float32)
    feats = np.stack([g.features() for g in games])
    x = feats if ranges is None else np.concatenate([feats, ranges], axis=1)
    seconds = 0.05 if quick else 0.4
    row = {"label": label, "kind": kind, "input_size": i.input_size,
           "parameters": i.parameters,
           "architecture": (f"{i.conv_layers} conv {i.kernel}x{i.kernel}x{i.channels}, "
                            if i.conv_layers else "") + f"{i.dense_layers} dense x {i.hidden}",
           "evals_per_s_batch1": _rate(net, x, 1, seconds),
           f"evals_per_s_batch{BATCH}": _rate(net, x, BATCH, seconds)}
    # from games: features in C, then the pass (one Python call per batch)
    t0, done = time.perf_counter(), 0
    while time.perf_counter() - t0 < seconds:
        for s in range(0, len(games), BATCH):
            net.evaluate(games[s:s + BATCH], ranges=None if ranges is None else ranges[s:s + BATCH])
            done += len(games[s:s + BATCH])
    row[f"evals_per_s_games_batch{BATCH}"] = done / (time.perf_counter() - t0)
    for g in games:
        g.close()
    return row


def collect(quick: bool = False, path: str | None = None, game: str | None = None
            ) -> dict[str, Any]:
    from ..games import plugins
    from ..learn.netfile import default_architecture, net_bytes, random_params, spec_for
    rows = []
    if path:
        net = Net(path)
        try:
            meta = json.loads(net.meta) if net.meta else {}
        except json.JSONDecodeError:
            meta = {}
        params = meta.get("game_params") if isinstance(meta, dict) else None
        if not isinstance(params, str):
            raise InvalidArgument(f"{path}: its meta text names no game parameters (a net "
                                  "written by `python -m sandbox train` does)")
        rows.append(measure(net, net.info.kind, params, f"{path}", quick))
        return {"rows": rows, "file": path}
    for pl in plugins():
        kind = pl.kind
        if game is not None and kind != game:
            continue
        for case in pl.bench:
            for label, params in case.net:
                with Game(kind, dict(params), 1) as g:
                    layout = g.features_layout()
                spec = spec_for(kind, layout, default_architecture(layout))
                net = Net.from_bytes(net_bytes(spec, random_params(spec, 1, bias=0.01)))
                rows.append(measure(net, kind, dict(params), label, quick))
                net.close()
    return {"rows": rows}


def print_report(res: dict[str, Any]) -> None:
    what = (f"the net in {res['file']}" if res.get("file")
            else "the default architecture, random weights")
    print(f"network pass: evaluations per second, one thread, C ({what}; inputs: states of "
          "random play)")
    print(f"  {'game':<42}{'architecture':<26}{'in':>6}{'params':>9}{'batch 1':>12}"
          f"{'batch 64':>12}{'games, 64':>12}")
    for r in res["rows"]:
        print(f"  {r['label'][:41]:<42}{r['architecture']:<26}{r['input_size']:>6}"
              f"{r['parameters']:>9,}{r['evals_per_s_batch1']:>12,.0f}"
              f"{r[f'evals_per_s_batch{BATCH}']:>12,.0f}"
              f"{r[f'evals_per_s_games_batch{BATCH}']:>12,.0f}")
    print("  batch 1 and 64: the pass alone on prepared inputs; games, 64: features built in "
          "C from 64 games, then the pass (one Python call per batch)")
