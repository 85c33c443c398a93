"""Training a net: self-play into the replay buffer, then optax steps on
minibatches from its sliding window, then the weights file and a PNG of the
losses. Everything lives in a work folder beside the output, so the same
command run again resumes: games already in the buffer are not played
again, and training goes on from its last checkpoint.

    <out>.work/buffer.sbxbuf    the replay buffer (sandbox/learn/buffer.py)
    <out>.work/checkpoint.npz   the parameters, the optimizer's state, the
                                step and the losses so far (written whole
                                and renamed into place)

Seeds: game g of the run is the match seed seed + g; the net's first
weights come from `seed`; the minibatch of step k from (seed, k). With
iteration budgets (and one thread per search) the same command gives the
same buffer and the same weights."""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..native import SandboxError
from .buffer import ReplayBuffer
from .netfile import (NetSpec, default_architecture, spec_for, weights_digest,
                      write_atomically, write_net)
from .selfplay import MAX_SOLVES_PER_TURN, QUERY_STEPS, SelfPlayJob, game_dims, play_selfplay


class TrainError(SandboxError):
    """A training run that cannot go on (one line)."""


@dataclass(frozen=True)
class TrainConfig:
    scenario: dict[str, Any]          # Scenario.model_dump(mode="json"), budgets applied
    scenario_name: str
    out: str
    work: str
    games: int = 100
    max_turns: int | None = None
    seed: int = 1
    steps: int = 2000
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    window: int = 100_000
    outcome_weight: float = 0.5
    size: str = "small"
    dense_layers: int | None = None   # None: the size's (--dense)
    hidden: int | None = None         # None: the size's (--hidden)
    checkpoint_every: int = 500
    command: str = ""
    targets: str = "solve"            # "solve": query solving; "search": the players' roots
    solve_iterations: int = 2000
    solve_depth: int | None = None    # the solver's max_depth (None: player 0's)
    queries: int = 4
    query_source: str = "tree"        # "tree": the solver's frontier; "walk": random joint actions on
    recursive: float = 0.1            # tree: the chance of each recursive query
    query_ranges: str = "current"     # hidden information: "current" or "average" (SelfPlayJob)
    generations: int = 1
    net: str | None = None            # the previous generation's net, inside every search
    net_hash: str = ""                # its weights' hash: another net is another buffer

    def selfplay_key(self) -> dict[str, Any]:
        """What the buffer's positions depend on: another value is another
        run's buffer."""
        scenario = self.scenario
        if self.net:
            # the previous generation's net by its weights' hash (below), not
            # by where its file is: a moved work folder still resumes
            scenario = json.loads(json.dumps(scenario))
            for p in scenario["players"]:
                if p.get("search", {}).get("value_net") == self.net:
                    p["search"]["value_net"] = "<net>"
        key = {"scenario": scenario, "max_turns": self.max_turns, "seed": self.seed}
        if self.targets != "search":     # the keys of buffers written before query solving
            solver = dict(self.solver() or {})
            if self.net and solver.get("value_net") == self.net:
                solver["value_net"] = "<net>"
            key.update(targets=self.targets, solver=solver,
                       solve_iterations=self.solve_iterations, queries=self.queries,
                       query_steps=QUERY_STEPS)
            if self.query_source != "walk":   # (walk buffers keep the keys they had)
                key.update(query_source=self.query_source, recursive=self.recursive,
                           max_solves=MAX_SOLVES_PER_TURN)
            if solver.get("algorithm") == "pubcfr" and self.query_ranges != "average":
                # (buffers of average-range queries keep the keys they had)
                key.update(query_ranges=self.query_ranges)
        if self.net:
            key["net"] = self.net_hash
        return key

    def solver(self) -> dict[str, Any] | None:
        """The solver's settings: player 0's search settings under GT-CFR
        (pubcfr with hidden information), at --solve-depth if given."""
        if self.targets != "solve":
            return None
        from .solve import solver_params
        p = solver_params(self.scenario["players"][0]["search"], self.net)
        if self.solve_depth is not None:
            p["max_depth"] = self.solve_depth
        return p

    def train_key(self) -> dict[str, Any]:
        """What the checkpoint depends on besides the buffer."""
        return {k: getattr(self, k) for k in ("seed", "batch", "lr", "weight_decay", "window",
                                               "outcome_weight", "size")}


@dataclass
class TrainReport:
    out: str
    png: str | None
    games_played: int
    games_in_buffer: int
    positions: int
    steps: int
    value_loss: float
    policy_loss: float
    selfplay_seconds: float
    train_seconds: float
    dropped_records: int = 0
    generations: int = 1
    losses: list[tuple[int, float, float]] = field(default_factory=list)

    def text(self) -> str:
        return (f"wrote {self.out}: {self.steps} steps on {self.positions} positions from "
                f"{self.games_in_buffer} games ({self.games_played} played now, "
                f"{self.selfplay_seconds:.1f} s; training {self.train_seconds:.1f} s); last "
                f"value loss {self.value_loss:.4f}, policy loss {self.policy_loss:.4f}"
                + (f"; loss curve {self.png}" if self.png else "")
                + (f" ({self.generations} generations)" if self.generations > 1 else ""))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("losses")
        return d


def _hash(d: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def selfplay(cfg: TrainConfig, buf: ReplayBuffer, executor,
             on_game: Callable[[int], None] | None = None) -> int:
    """Plays the run's games the buffer lacks; returns how many."""
    from concurrent.futures import FIRST_COMPLETED, wait
    seeds = [cfg.seed + g for g in range(cfg.games)]
    todo = [s for s in seeds if s not in buf.games]
    pending: dict[Any, int] = {}
    it = iter(todo)
    played = 0
    try:
        while True:
            while len(pending) < 4:
                s = next(it, None)
                if s is None:
                    break
                job = SelfPlayJob(f"game-{s}", cfg.scenario, s, cfg.max_turns, cfg.targets,
                                  cfg.solver(), cfg.solve_iterations, cfg.queries,
                                  cfg.query_source, cfg.recursive, cfg.query_ranges)
                pending[executor.submit(play_selfplay, job)] = s
            if not pending:
                return played
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            # in seed order within what finished, so a run's buffer is reproducible
            for f in sorted(done, key=lambda f: pending[f]):
                s = pending.pop(f)
                try:
                    res = f.result()
                except SandboxError as exc:
                    raise TrainError(f"self-play game (seed {s}): {exc}") from None
                buf.append_game(np.frombuffer(res["records"], dtype=buf.dtype["payload"]))
                played += 1
                if on_game is not None:
                    on_game(1)
    finally:
        for f in pending:
            f.cancel()


def _batch_arrays(recs: np.ndarray) -> dict[str, np.ndarray]:
    return {k: np.ascontiguousarray(recs[k], dtype=np.float32)
            for k in ("features", "ranges", "value", "value_mask", "outcome", "policy",
                      "policy_mask", "legal")}


def _save_checkpoint(path: Path, key: str, step: int, params, opt_state,
                     losses: list[tuple[int, float, float]]) -> None:
    import jax
    leaves = jax.tree_util.tree_leaves(opt_state)
    arrays = {f"p_{k}": np.asarray(v) for k, v in params.items()}
    arrays.update({f"o_{i}": np.asarray(v) for i, v in enumerate(leaves)})
    arrays["losses"] = np.asarray(losses, dtype=np.float64).reshape(-1, 3)
    arrays["meta"] = np.frombuffer(json.dumps({"key": key, "step": step}).encode(), dtype=np.uint8)
    try:
        write_atomically(path, lambda f: np.savez(f, **arrays))
    except OSError as exc:
        raise TrainError(f"{path}: cannot write the checkpoint: {exc.strerror or exc}") from None


def _load_checkpoint(path: Path, key: str, params, opt_state):
    """(step, params, opt_state, losses), or None without a checkpoint of
    these settings (it exists to resume an interrupted run of the same
    command; another run overwrites it)."""
    import jax
    import jax.numpy as jnp
    if not path.exists():
        return None
    try:
        with np.load(path) as z:
            meta = json.loads(bytes(z["meta"]).decode())
            if meta.get("key") != key:
                return None      # other settings or more games: this run starts afresh
            new_params = {k: jnp.asarray(z[f"p_{k}"]) for k in params}
            leaves, tree = jax.tree_util.tree_flatten(opt_state)
            new_leaves = [jnp.asarray(z[f"o_{i}"]) for i in range(len(leaves))]
            losses = [(int(s), float(v), float(p)) for s, v, p in z["losses"]]
    except (OSError, ValueError, KeyError) as exc:
        raise TrainError(f"{path}: not a usable checkpoint ({exc}); delete it to train "
                         "afresh") from None
    return int(meta["step"]), new_params, jax.tree_util.tree_unflatten(tree, new_leaves), losses


def training_positions(buffers: Sequence[ReplayBuffer], window: int) -> np.ndarray:
    """The last `window` positions of the buffers, in the order of their
    games' match seeds: several workers append games in the order they
    finish, and the minibatches must not depend on that."""
    recs = np.concatenate([b.records for b in buffers]) if len(buffers) > 1 else buffers[0].records
    return recs[np.argsort(recs["game"], kind="stable")][-window:]


def train(cfg: TrainConfig, spec: NetSpec, buf: ReplayBuffer,
          on_step: Callable[[int], None] | None = None, earlier: Sequence[ReplayBuffer] = ()):
    """Runs the steps the checkpoint lacks; returns (params as numpy, losses).
    `earlier`: earlier generations' buffers, before this one in the window."""
    import jax.numpy as jnp
    import optax

    from .model import init_params, make_step, to_numpy
    if len(buf) == 0:
        raise TrainError("the replay buffer is empty: nothing to train on (--games 0?)")
    params = init_params(spec, cfg.seed)
    optimizer = optax.adamw(cfg.lr, weight_decay=cfg.weight_decay)
    opt_state = optimizer.init(params)
    ckpt = Path(cfg.work) / "checkpoint.npz"
    key = _hash({"train": cfg.train_key(), "spec": spec.to_dict(),
                 "buffer": cfg.selfplay_key(), "games": cfg.games})
    step, losses = 0, []
    got = _load_checkpoint(ckpt, key, params, opt_state)
    if got is not None:
        step, params, opt_state, losses = got
        if on_step is not None and step:
            on_step(min(step, cfg.steps))
    data = training_positions([*earlier, buf], cfg.window)
    run = make_step(spec, optimizer, cfg.outcome_weight)
    n = len(data)
    while step < cfg.steps:
        rng = np.random.default_rng([cfg.seed, step])
        idx = rng.integers(0, n, size=min(cfg.batch, n))
        batch = {k: jnp.asarray(v) for k, v in _batch_arrays(data[idx]).items()}
        params, opt_state, (vl, pl) = run(params, opt_state, batch)
        step += 1
        losses.append((step, float(vl), float(pl)))
        if on_step is not None:
            on_step(1)
        if step % cfg.checkpoint_every == 0 or step == cfg.steps:
            _save_checkpoint(ckpt, key, step, params, opt_state, losses)
    return to_numpy(params), losses


def run_training(cfg: TrainConfig, executor, progress: Callable[[str, int, int], Any] | None = None
                 ) -> TrainReport:
    """The whole run. progress(stage, advance, total) after each game and
    step (a progress bar)."""
    from ..config.scenario import scenario_from_dict
    from ..native import Game, InvalidState
    scenario = scenario_from_dict(cfg.scenario, source=cfg.scenario_name)
    with Game(scenario.game, scenario.game_param_string(), scenario.seed) as g:
        try:
            layout = g.features_layout()
            dims = game_dims(g)
            if dims.slots:
                g.private_slot(g.private_state(0))
        except InvalidState as exc:
            raise TrainError(f"{cfg.scenario_name}: {exc}") from None
        except SandboxError as exc:
            raise TrainError(f"{cfg.scenario_name}: a net cannot be trained on it: {exc}") from None
        if cfg.targets == "solve":
            _check_solvable(cfg, scenario, dims)
    spec = spec_for(scenario.game, layout,
                    default_architecture(layout, cfg.size, cfg.dense_layers, cfg.hidden))
    if cfg.generations == 1:
        return _one_generation(cfg, scenario, spec, dims, executor, progress, [])[0]
    return _generations(cfg, scenario, spec, dims, executor, progress)


def _check_solvable(cfg: TrainConfig, scenario, dims) -> None:
    """Query solving's conditions (one line each): two players; with
    hidden information every player a pubcfr search (their beliefs are the
    public belief states solved, and pubcfr is the solver) and queries from
    the solver's tree (a random walk has no beliefs)."""
    name = cfg.scenario_name
    if dims.players != 2:
        raise TrainError(f"{name}: query solving (--targets solve) solves two-player games; "
                         "use --targets search")
    # the searching players (a bot, a random player or a process has no search)
    searching = [p.search.algorithm for p in scenario.players if p.controller == "smitsimax"]
    if dims.slots:
        if not searching or any(a != "pubcfr" for a in searching):
            raise TrainError(f"{name}: with hidden information, query solving solves the "
                             "public belief states of pubcfr players' searches: set every "
                             "searching player's algorithm to pubcfr (now "
                             f"{', '.join(searching) or 'none'}), or use --targets search")
        if cfg.query_source != "tree":
            raise TrainError(f"{name}: with hidden information the queries come from the "
                             "solver's tree (--queries-from tree): a random walk's states "
                             "have no beliefs")
    elif scenario.players[0].search.algorithm == "pubcfr":
        raise TrainError(f"{name}: the game has no hidden information: query solving solves "
                         "it with gtcfr; make player 0's algorithm another search")


NET_SEARCHES = ("gtcfr", "pubcfr", "mcgs")   # the searches that read value_net


def with_net(scenario: dict[str, Any], path: str) -> dict[str, Any]:
    """The scenario with `path` as every net-reading search's value_net."""
    out = json.loads(json.dumps(scenario))
    for p in out["players"]:
        if p.get("search", {}).get("algorithm") in NET_SEARCHES:
            p["search"]["value_net"] = path
    return out


def _generations(cfg: TrainConfig, scenario, spec: NetSpec, dims, executor, progress
                 ) -> TrainReport:
    """Generation g (1..G) plays its games (match seeds seed + (g-1) * games
    onwards) with generation g-1's net inside the searches and the solver,
    and trains a net on its own and the earlier generations' positions (the
    window's last positions); each in <work>/gen-g/, so a run resumes where
    it stopped. The last generation's net is --out."""
    from dataclasses import replace
    earlier: list[ReplayBuffer] = []
    prev: str | None = None
    total = [0, 0.0, 0.0]
    for g in range(1, cfg.generations + 1):
        gdir = Path(cfg.work) / f"gen-{g}"
        gcfg = replace(cfg, work=str(gdir), generations=1, seed=cfg.seed + (g - 1) * cfg.games,
                       out=cfg.out if g == cfg.generations else str(gdir / "net.sbxnet"))
        if prev is not None:
            # absolute: a relative value_net is looked up beside the scenario file
            prev = str(Path(prev).resolve())
            gcfg = replace(gcfg, scenario=with_net(cfg.scenario, prev), net=prev,
                           net_hash=weights_digest(prev))
        report, buf = _one_generation(gcfg, scenario, spec, dims, executor, progress, earlier,
                                      label=f"generation {g}/{cfg.generations}: ")
        earlier.append(buf)
        prev = gcfg.out
        total[0] += report.games_played
        total[1] += report.selfplay_seconds
        total[2] += report.train_seconds
    report.games_played = total[0]
    report.games_in_buffer = sum(len(b.games) for b in earlier)
    report.positions = sum(len(b) for b in earlier)
    report.selfplay_seconds, report.train_seconds = round(total[1], 2), round(total[2], 2)
    report.generations = cfg.generations
    return report


def _one_generation(cfg: TrainConfig, scenario, spec: NetSpec, dims, executor, progress,
                    earlier: list[ReplayBuffer], label: str = ""
                    ) -> tuple[TrainReport, ReplayBuffer]:
    header = {"game": scenario.game, "params": scenario.game_param_string(),
              "selfplay": _hash(cfg.selfplay_key()), "scenario": cfg.scenario_name}
    buf = ReplayBuffer(Path(cfg.work) / "buffer.sbxbuf", header, dims)
    t0 = time.perf_counter()
    played = selfplay(cfg, buf, executor,
                      on_game=(lambda k: progress(label + "self-play games", k, cfg.games))
                      if progress else None)
    t1 = time.perf_counter()
    params, losses = train(cfg, spec, buf, on_step=(lambda k: progress(label + "training steps",
                                                                        k, cfg.steps))
                           if progress else None, earlier=earlier)
    t2 = time.perf_counter()
    meta = json.dumps({"trained_by": cfg.command, "scenario": cfg.scenario_name,
                       "game_params": scenario.game_param_string(), "games": cfg.games,
                       "positions": len(buf), "steps": cfg.steps,
                       "architecture": spec.arch.text(), "seed": cfg.seed,
                       "targets": cfg.targets}, sort_keys=True)
    write_net(cfg.out, spec, params, meta)
    png = None
    if losses:
        from .plot import loss_png
        png = str(loss_png(losses, Path(cfg.out).with_suffix(".png"),
                           f"{cfg.scenario_name}: {spec.arch.text()}, {len(buf):,} positions"))
    last = losses[-1] if losses else (0, float("nan"), float("nan"))
    return TrainReport(out=str(cfg.out), png=png, games_played=played,
                       games_in_buffer=len(buf.games), positions=len(buf), steps=cfg.steps,
                       value_loss=last[1], policy_loss=last[2],
                       selfplay_seconds=round(t1 - t0, 2), train_seconds=round(t2 - t1, 2),
                       dropped_records=buf.dropped, losses=losses), buf
