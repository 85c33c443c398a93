"""SearchParams: the pydantic mirror of C's flat `sbx_search_params`.

Ranges and defaults are declared once in C (native/src/search/params.c); this
model repeats them so that scenario files and the UI get validation and
documentation without a C call, and tests/native/test_params.py checks that
the two agree field by field.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from ._lib import check, ffi, lib, pystr

ELIMINATION = {"pass": 0, "freeze": 1}
ELIMINATION_NAMES = {v: k for k, v in ELIMINATION.items()}
BOUNDS = {"leaf": 0, "depth": 1}
BOUNDS_NAMES = {v: k for k, v in BOUNDS.items()}
ALGORITHM = {"smitsimax": 0, "suct": 1, "joint": 2, "random": 3, "greedy": 4, "mcgs": 5,
             "uct": 6, "gtcfr": 7, "pubcfr": 8}
POLICY = {"ucb1": 0, "ucb1_tuned": 1, "exp3": 2, "rm": 3, "rm_plus": 4}
FINAL_MOVE = {"argmax": 0, "sample": 1}
AVG_WEIGHT = {"auto": 0, "uniform": 1, "sqrt": 2, "linear": 3}
COUNTERFACTUAL = {"off": 0, "terminal": 1, "last_step": 2}
BACKUP = {"mean": 0, "power": 1}
PRIORS = {"uniform": 0, "heuristic": 1, "net": 2}
PARALLEL = {"serial": 0, "wu_uct": 1, "tree": 2, "root": 3, "leaf": 4}
EXPAND_CHILDREN = {"one": 0, "all": 1}


# SearchParams fields C's struct does not hold (the Search applies them).
PYTHON_ONLY = ("value_net",)


def _names(table: dict[str, int]) -> dict[int, str]:
    return {v: k for k, v in table.items()}


# choice fields: Python name <-> C integer
CHOICES = {name: (table, _names(table)) for name, table in {
    "elimination": ELIMINATION, "bounds": BOUNDS, "algorithm": ALGORITHM,
    "policy": POLICY, "final_move": FINAL_MOVE, "avg_weight": AVG_WEIGHT, "backup": BACKUP,
    "priors": PRIORS, "parallel": PARALLEL, "counterfactual": COUNTERFACTUAL,
    "expand_children": EXPAND_CHILDREN}.items()}
ALGORITHM_NAMES = _names(ALGORITHM)
POLICY_NAMES = _names(POLICY)


def _not_bool(value: Any) -> Any:
    # pydantic's lax mode reads true as 1 and "0.7" as 0.7: `max_depth = true`
    # in a scenario would search one turn deep without a word, and a quoted
    # number was taken while true was refused. A number field wants a number.
    if isinstance(value, bool):
        raise ValueError(f"expected a number, not {str(value).lower()}")
    if isinstance(value, str):
        raise ValueError("expected a number, not a string (write it without quotes)")
    return value


NoBool = BeforeValidator(_not_bool)
Int = Annotated[int, NoBool]
Float = Annotated[float, NoBool]


# uct's exploration constant when the settings name none: OpenSpiel's
# convention for returns in [-1, 1]. The yardstick keeps the textbook's
# value rather than the project's shared default (tuned for its own searches).
UCT_DEFAULT_C = 2.0


def default_c(algorithm: str) -> float:
    """The c an algorithm gets when the settings do not name one."""
    return UCT_DEFAULT_C if algorithm == "uct" else SearchParams.model_fields["c"].default


def default_final_move(algorithm: str) -> str:
    """The final_move an algorithm gets when the settings do not name one."""
    return "sample" if algorithm in ("gtcfr", "pubcfr") else "argmax"


class SearchParams(BaseModel):
    """Every Smitsimax knob. Immutable: change with `model_copy(update=...)`
    or `params.replace(c=1.2)`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    c: Float = Field(0.7, ge=0.0, le=10.0, description="UCB1 exploration constant C")
    gamma: Float = Field(0.97, ge=0.01, le=1.0,
                         description="discount per step from the leaf toward the root (1 = none)")
    death_penalty_value: Float = Field(1.0, ge=0.0, le=100.0,
                                       description="amount taken off a doomed child's UCB value")
    reuse_decay: Float = Field(1.0, ge=0.0, le=1.0,
                               description="tree reuse: the kept subtree's statistics are scaled "
                                           "by this at each re-root (1 = kept as they are)")
    max_depth: Int = Field(10, ge=1, le=64, description="simulated turns per iteration (gtcfr: "
                                                        "a rollout's turns; pubcfr: rounds "
                                                        "in its public tree)")
    random_threshold: Int = Field(10, ge=0, le=1_000_000,
                                  description="parent visits below which a child is picked at random")
    depth_normalize: bool = Field(
        False, description="divide the leaf score by the depth reached (score per turn); with a "
                           "state-value evaluation this shrinks distant outcomes: a death at depth "
                           "10 costs a tenth of one at depth 1")
    bounds: Literal["leaf", "depth"] = Field(
        "leaf", description="UCB's normalisation: the range of leaf scores (the Smitsimax "
                            "tutorial's) or, per depth, of the discounted scores node means "
                            "are made of; Exp3 / RM and the power mean always use their own "
                            "depth's range")
    elimination: Literal["pass", "freeze"] = Field(
        "pass", description="eliminated agent: pass-through nodes or frozen tree")
    death_penalty: bool = Field(False, description="penalise children of certain death")
    death_min_visits: Int = Field(3, ge=1, le=1_000_000,
                                  description="visits, all fatal, before a child counts as certain death")
    rollout: bool = Field(False, description="one new node per tree per iteration, random moves "
                                             "below (gtcfr: a new leaf valued after random turns)")
    tree_reuse: bool = Field(True, description="keep the played subtree between turns (gtcfr: "
                                               "its regrets and averages too; off: its nodes "
                                               "only; pubcfr: re-solve from the previous "
                                               "search's ranges and values with the gadget, "
                                               "off: from the uniform-play range)")
    node_cap: Int = Field(1 << 21, ge=1024, le=1 << 26,
                          description="nodes per agent tree (pubcfr: histories in its tree)")
    time_check_interval: Int = Field(32, ge=1, le=1 << 20,
                                     description="most iterations between clock reads "
                                                 "(fewer when iterations are slow)")
    exploration: Float = Field(0.05, ge=0.0, le=1.0,
                               description="Exp3 / RM: share of the sampling distribution spread "
                                           "uniformly (Exp3's gamma)")
    power_p: Float = Field(2.0, ge=1.0, le=64.0,
                           description="backup=power: exponent of the power mean (1 = mean)")
    algorithm: Literal["smitsimax", "suct", "joint", "random", "greedy", "mcgs", "uct",
                       "gtcfr", "pubcfr"] = Field(
        "smitsimax", description="the search: decoupled trees (smitsimax), sequential UCT, "
                                 "joint-action MCTS, uniform random, greedy one-ply, "
                                 "Monte-Carlo graph search (two players), textbook UCT "
                                 "(uct: the untuned yardstick; reads c, lead, node_cap), "
                                 "growing-tree CFR (gtcfr: Student of Games' search "
                                 "without a network, two players), CFR+ over "
                                 "public states (pubcfr: hidden-information games, "
                                 "two players); a "
                                 "change takes effect at the next turn")
    policy: Literal["ucb1", "ucb1_tuned", "exp3", "rm", "rm_plus"] = Field(
        "ucb1", description="Smitsimax selection policy; a change takes effect at the next "
                            "turn, with fresh trees")
    final_move: Literal["argmax", "sample"] = Field(
        "argmax", description="Exp3 / RM, gtcfr, pubcfr: play the average strategy's argmax "
                            "or a sample of it (gtcfr, pubcfr: sample unless set); Smitsimax "
                            "under UCB: the most visited move or a draw from the visit shares")
    avg_weight: Literal["auto", "uniform", "sqrt", "linear"] = Field(
        "auto", description="Exp3 / RM: weight of each selection in the average strategy, "
                            "t = the parent's visits then: 1 (uniform), sqrt(t), t (linear, "
                            "CFR+'s); auto = sqrt for rm_plus, uniform for exp3 and rm")
    backup: Literal["mean", "power"] = Field(
        "mean", description="node value: mean of backed-up scores or power mean of the children")
    lead: Int = Field(-1, ge=-1, le=7,
                      description="SUCT, UCT: agent serialised first, the one that cannot peek "
                                  "(-1: the seat the search plays for, given by the match's "
                                  "controller; agent 0 for a bare Search)")
    c_puct: Float = Field(1.5, ge=0.0, le=100.0,
                          description="MCGS: PUCT constant (evaluation units; see priors); "
                                      "gtcfr and pubcfr's growing tree: its expansion's "
                                      "PUCT (Q on [0, 1]); joint, SUCT and Smitsimax with priors: "
                                      "each agent's decoupled PUCT (Q on [0, 1])")
    fpu_offset: Float = Field(0.1, ge=0.0, le=100.0,
                              description="MCGS: an unvisited outcome's Q = the node's Q minus this; "
                                          "joint, SUCT and Smitsimax with priors: an untried move's Q = the "
                                          "tried moves' mean minus this (Q on [0, 1])")
    temperature: Float = Field(1.0, ge=0.01, le=100.0,
                               description="final_move=sample: MCGS and Smitsimax (UCB) draw "
                                           "from visits^(1/T), gtcfr, pubcfr and Smitsimax "
                                           "(Exp3 / RM) from the average strategy^(1/T)")
    rollout_steps: Int = Field(0, ge=0, le=1000,
                               description="MCGS: random turns before a new node's evaluation "
                                           "(0 = evaluate at once)")
    short_circuit: bool = Field(False, description="MCGS: a child better known than its edge "
                                                   "(a new link to a known node too): count "
                                                   "the edge without descending")
    transpositions: bool = Field(True, description="MCGS: states reached by two move orders "
                                                   "share one node (off = a tree)")
    priors: Literal["uniform", "heuristic", "net"] = Field(
        "uniform", description="MCGS, gtcfr, pubcfr's growing tree: PUCT priors, uniform, a "
                               "softmax of the game's move scores (heuristic; maze: minus the "
                               "turns to the nearest cheese; a game without move scores is "
                               "refused) or the softmax of value_net's policy head over the "
                               "legal moves (net; uniform while no net is set); MCGS, joint, "
                               "Smitsimax, SUCT: a change starts afresh; joint, SUCT (not with "
                               "ucb1_tuned) and Smitsimax (policy ucb1, parallel serial or "
                               "root): heuristic or net turn UCB1 into PUCT on each agent's "
                               "own prior (Smitsimax and SUCT then skip the random warm-up, "
                               "joint keeps it)")
    prior_temperature: Float = Field(1.0, ge=0.01, le=100.0,
                                     description="MCGS, gtcfr, joint, Smitsimax priors=heuristic: "
                                                 "softmax temperature "
                                                 "(small = best-scored move, large = uniform)")
    threads: Int = Field(1, ge=1, le=64,
                         description="Smitsimax or MCGS with parallel != serial: C threads "
                                     "inside one run (at most this machine's cores, checked by "
                                     "the core); "
                                     "more than one is not bit-reproducible")
    parallel: Literal["serial", "wu_uct", "tree", "root", "leaf"] = Field(
        "serial", description="Smitsimax parallel search: wu_uct (shared trees, in-flight "
                              "counts in the exploration term), tree (shared trees, virtual "
                              "loss), root (a tree set per thread, merged at the root), leaf "
                              "(a rollout per thread from one selection; needs rollout). "
                              "MCGS: wu_uct or tree on its one shared graph")
    virtual_loss: Float = Field(1.0, ge=0.0, le=100.0,
                                description="parallel=tree: visits of the worst value each "
                                            "in-flight simulation counts as; gtcfr: each "
                                            "simulation of a batch (c > 1) until the update")
    counterfactual: Literal["off", "terminal", "last_step"] = Field(
        "terminal", description="RM / RM+: where regrets use the exact return of every "
                                "alternative move (the state re-stepped with it, the others' "
                                "moves kept: regret matching's u(a, b)): at a step that ends the "
                                "game, also at max_depth (last_step), or nowhere (off: sampled "
                                "estimates everywhere)")

    expansions_per_update: Float = Field(
        1.0, ge=0.01, le=100.0,
        description="gtcfr: c of SoG(s, c), expansion simulations (iterations) per CFR+ "
                    "update of the whole tree; below 1 several updates per expansion, "
                    "above 1 a batch with virtual losses (pubcfr with grow_tree: the same "
                    "c, without virtual losses)")
    expand_children: Literal["one", "all"] = Field(
        "all", description="gtcfr: what expanding a leaf adds (the paper's k): the joint "
                           "action of the highest prior product, or every child")
    alternating: bool = Field(True, description="gtcfr: alternating CFR+ updates (two passes, "
                                                "converge much faster) or the paper's "
                                                "simultaneous ones (one pass)")
    leaf_rollouts: Int = Field(1, ge=1, le=1024,
                               description="gtcfr, rollout on: random rollouts averaged into "
                                           "a frontier leaf's value (one rollout of a long "
                                           "game is a noisy value that CFR takes as exact)")
    expand_after: Int = Field(1, ge=1, le=1 << 20,
                              description="gtcfr: the n-th simulation that reaches a frontier "
                                          "leaf expands it; each one before refines the "
                                          "leaf's value with more rollouts (1: expand at once, "
                                          "the leaf valued once)")
    grow_tree: bool = Field(False, description="pubcfr: grow the public tree as GT-CFR does "
                                              "(each iteration 1/expansions_per_update CFR+ "
                                              "iterations, then one simulation by 1/2 PUCT + "
                                              "1/2 average strategy that expands the public "
                                              "node it ends at) instead of building it "
                                              "breadth-first before the first iteration")
    info_seat: Int = Field(-1, ge=-1, le=7,
                           description="hidden-information games: the seat whose information "
                                       "a determinized search or pubcfr uses (-1: the seat the "
                                       "search plays for, given by the match's controller; agent 0 "
                                       "for a bare Search)")
    exploration_decay: Float = Field(2.0, ge=0.0, le=10.0,
                                     description="Exp3 / RM: a node's uniform share starts "
                                                 "high and decays with its visits n, max("
                                                 "exploration, exploration_decay*sqrt(K/n)), "
                                                 "so every move's subtree keeps learning "
                                                 "(0: the fixed share only)")
    safe_moves: bool = Field(True, description="skip the moves the game knows lose at once "
                                               "whatever the others play (snakes: a wall, a "
                                               "body that stays, starving) wherever a move is "
                                               "picked, while another is left (off: the "
                                               "tutorial's every-move search)")

    resolve_mix: Float = Field(0.5, ge=0.0, le=1.0,
                               description="pubcfr, continual re-solving: the share of the "
                                           "gadget's range in the opponent's range of the "
                                           "re-solved subgame, the rest its range in the "
                                           "previous search (Student of Games' alpha; 1: the "
                                           "gadget alone, the safe re-solve)")
    relative_scores: bool = Field(False, description="smitsimax, mcgs, suct, joint: score each agent as its "
                                                     "evaluation minus the mean of the others' "
                                                     "(a duel's zero-sum view); off: each "
                                                     "maximises its own evaluation")

    # Not in C's struct (which holds numbers): the Search loads the file,
    # once per process whatever the number of searches, and attaches it.
    value_net: str = Field("", description="gtcfr, pubcfr, mcgs, smitsimax, suct, joint: a value-and-policy network "
                                           "file (`python -m sandbox train` writes one; a relative path is "
                                           "looked up beside the scenario or agent file "
                                           "first, then from the working directory; \"\": none) whose "
                                           "values replace the frontier's evaluation and "
                                           "rollouts (pubcfr: per information state, from "
                                           "both seats' ranges; mcgs: a new node's value; "
                                           "smitsimax, suct, joint: a leaf's scores) and "
                                           "whose policy heads give the PUCT priors with "
                                           "priors = net; it must have been trained for this "
                                           "game and its parameters; a change takes effect at "
                                           "the next iteration (mcgs, smitsimax, suct, joint: "
                                           "start afresh)")

    @field_validator("value_net")
    @classmethod
    def _path_has_no_nul(cls, value: str) -> str:
        if "\0" in value:
            raise ValueError("must not contain a NUL character")
        return value

    @model_validator(mode="before")
    @classmethod
    def _uct_default_c(cls, data: Any) -> Any:
        """uct asked for without a c takes its own default (default_c);
        gtcfr and pubcfr asked for without a final_move play a draw from their
        average strategy (CFR's equilibrium is mixed; its argmax is
        exploitable)."""
        if isinstance(data, dict) and data.get("algorithm") == "uct" and "c" not in data:
            return {**data, "c": UCT_DEFAULT_C}
        if (isinstance(data, dict) and data.get("algorithm") in ("gtcfr", "pubcfr")
                and "final_move" not in data):
            return {**data, "final_move": "sample"}
        return data

    @model_validator(mode="after")
    def _rm_needs_exploration(self) -> "SearchParams":
        """C's rule (params.c): regret matching without any exploration
        judges a move it stopped playing by its old average forever."""
        if (self.algorithm == "smitsimax" and self.policy in ("rm", "rm_plus")
                and self.exploration == 0 and self.exploration_decay == 0):
            raise ValueError(f"exploration: 0 with exploration_decay 0 starves policy "
                             f"{self.policy} (a move it stops playing is judged by its old "
                             f"average forever); give either one a share")
        return self

    @model_validator(mode="after")
    def _power_needs_ucb1(self) -> "SearchParams":
        """C's cross-field rule (params.c): the power mean is a UCB1 backup
        and keeps its value in the bytes the other policies use."""
        if self.backup == "power" and self.policy != "ucb1":
            raise ValueError(f"backup: power works with policy ucb1 only (got policy "
                             f"{self.policy}); use backup=mean with policy {self.policy}")
        return self

    @property
    def ucb_takes_priors(self) -> bool:
        """Whether `priors` (other than uniform) turn this search's UCB1 into
        decoupled PUCT: Smitsimax with UCB1, serial or root-parallel; SUCT
        but with UCB1-Tuned; joint-action MCTS (the combinations the
        validator below lets through; MCGS and GT-CFR read priors their own
        way). The views ask it to offer the priors and PUCT's knobs."""
        if self.algorithm == "smitsimax":
            return self.policy == "ucb1" and self.parallel in ("serial", "root")
        if self.algorithm == "suct":
            return self.policy != "ucb1_tuned"
        return self.algorithm == "joint"

    @model_validator(mode="after")
    def _smitsimax_priors(self) -> "SearchParams":
        """C's rules (params.c): Smitsimax's priors turn UCB1 into decoupled
        PUCT; the prior takes the side-array slot of the sampling policies,
        and the shared-tree parallel modes expand without priors. SUCT's
        prior takes UCB1-Tuned's bytes."""
        if self.algorithm == "suct" and self.priors != "uniform" and self.policy == "ucb1_tuned":
            raise ValueError("priors: SUCT's PUCT replaces its UCB and does not work with "
                             "policy ucb1_tuned (use ucb1, or priors=uniform)")
        if self.algorithm != "smitsimax" or self.priors == "uniform":
            return self
        if self.policy != "ucb1":
            raise ValueError(f"priors: {self.priors} makes Smitsimax's UCB1 a PUCT and works "
                             f"with policy ucb1 only (got policy {self.policy})")
        if self.parallel not in ("serial", "root"):
            raise ValueError(f"priors: {self.priors} works with parallel serial or root in "
                             f"Smitsimax (got {self.parallel})")
        return self

    @model_validator(mode="after")
    def _parallel_rules(self) -> "SearchParams":
        """C's parallel cross-field rules (params.c check_parallel); the
        core count is checked by C alone (it is the machine's, not the
        file's)."""
        mode = self.parallel
        if mode == "serial":
            return self
        if self.algorithm == "mcgs" and mode in ("root", "leaf"):  # mcgs.c's check
            raise ValueError(f"parallel: mcgs runs serial, wu_uct or tree (got {mode}); root "
                             "and leaf parallelism are smitsimax's")
        if mode == "leaf" and not self.rollout:
            raise ValueError("parallel: leaf runs several rollouts from one leaf and needs "
                             "rollout on")
        if self.algorithm != "smitsimax":   # policy and backup are Smitsimax's
            return self
        root = mode == "root"
        if self.policy != "ucb1" and not (root and self.policy == "ucb1_tuned"):
            raise ValueError(f"parallel: {mode} works with policy ucb1"
                             f"{' or ucb1_tuned' if root else ''} (got policy {self.policy})")
        if self.backup != "mean" and not root:
            raise ValueError(f"parallel: {mode} works with backup mean (got power)")
        return self

    def replace(self, **changes: Any) -> "SearchParams":
        """A validated copy with some fields changed. A c still at the old
        algorithm's default follows a change of algorithm to the new one's
        (uct's is its own, see default_c); a c set apart from it stays."""
        new_algo = changes.get("algorithm", self.algorithm)
        if (new_algo != self.algorithm and "c" not in changes
                and self.c == default_c(self.algorithm)):
            changes = {**changes, "c": default_c(new_algo)}
        if (new_algo != self.algorithm and "final_move" not in changes
                and self.final_move == default_final_move(self.algorithm)):
            changes = {**changes, "final_move": default_final_move(new_algo)}
        return SearchParams.model_validate({**self.model_dump(), **changes})

    # -- C conversion -------------------------------------------------------
    def to_c(self, out=None):
        p = out if out is not None else ffi.new("sbx_search_params *")
        for name, value in self.model_dump().items():
            if name in PYTHON_ONLY:
                continue
            if name in CHOICES:
                value = CHOICES[name][0][value]
            elif isinstance(value, bool):
                value = int(value)
            setattr(p, name, value)
        return p

    @classmethod
    def from_c(cls, p, **python_only: Any) -> "SearchParams":
        """From C's struct; the PYTHON_ONLY fields from `python_only` (else
        their defaults)."""
        values: dict[str, Any] = dict(python_only)
        for name, field in cls.model_fields.items():
            if name in PYTHON_ONLY:
                continue
            raw = getattr(p, name)
            if name in CHOICES:
                values[name] = CHOICES[name][1][raw]
            elif field.annotation is bool:
                values[name] = bool(raw)
            else:
                values[name] = raw
        return cls.model_validate(values)

    @classmethod
    def coerce(cls, value: "SearchParams | dict[str, Any] | None") -> "SearchParams":
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        return cls.model_validate(value)


def c_param_table() -> list[dict[str, Any]]:
    """The C core's declaration of every search parameter (for tests and docs)."""
    info = ffi.new("sbx_param_info *")
    kinds = {0: "float", 1: "int", 2: "bool", 3: "choice"}
    rows = []
    for i in range(lib.sbx_search_param_count()):
        check(lib.sbx_search_param_info(i, info))
        rows.append({
            "name": pystr(info.name),
            "type": kinds[info.type],
            "min": info.min_value,
            "max": info.max_value,
            "default": info.default_value,
            "doc": pystr(info.doc),
        })
    return rows


def c_default_params() -> SearchParams:
    p = ffi.new("sbx_search_params *")
    lib.sbx_search_params_default(p)
    return SearchParams.from_c(p)
