"""Smitsimax in plain Python: one decoupled tree per agent.

A slow, readable mirror of native/src/search/smitsimax.c and api.c
(smitsimax-tutorial.txt §5–§7, §12–§13). Given the same game state, search
seed and SearchParams, it builds the same trees as the C core: the same node
ids, visits, totals (bit for bit), flags and score bounds, and it draws the
search's random numbers in the same order.

One iteration:
  1. copy the root state, reseed its chance events with the search RNG;
  2. for each depth up to max_depth, every agent (in agent order) descends
     its OWN tree: expand the node the first time it is reached (children in
     legal-move order), pick a child uniformly at random while the node has
     fewer than random_threshold visits, by UCB1 on normalised scores after;
     the picks form the joint action that steps the shared state;
  3. an eliminated agent walks through pass nodes (elimination="pass") or
     has its tree frozen with the score it had when it died ("freeze");
  4. at the end (max depth or terminal) each agent's score is backed up its
     own path, multiplied by gamma per step toward the root.

Selection policies (params.policy, the one in force is `self.policy`: a
change waits for the next advance/reset, or applies at once with fresh trees
while the turn has no iterations, as in C's api.c): ucb1 and ucb1_tuned
pick by an index; exp3, rm and rm_plus sample from a strategy and update
per-child statistics after the iteration. C keeps those in the node's 8
spare bytes as one double (`aux`: ucb1_tuned's sum of squares,
backup=power's value), and the sampling policies' two sums (exp3/rm: `p0`,
`p1`) as doubles in a side array beside the nodes.

Nodes live in one list per agent, addressed by index like C's arena: index 0
is the root, children of a node are contiguous, and every node comes after
its parent. The node_cap check is kept so that a search that fills its C
arena stops at the same iteration here.

The search works with any object offering the reference game interface:
num_agents, max_moves, kind, params, clone(), reseed(seed), legal_moves(a),
step(joint), is_alive(a), is_terminal (property), evaluate().
"""
from __future__ import annotations

import math
import time
from typing import Any, Mapping, Sequence

import numpy as np

from sandbox.native.errors import InvalidArgument, InvalidState
from sandbox.native.params import SearchParams
from sandbox.native.search import MoveStat, RunResult, SearchStats, Trace

from .rng import SplitMix64
from .tree import explore_share

SQRT2 = 1.4142135623730951   # C's SQRT2, the same double as math.sqrt(2)
from .tree import (MOVE_NONE, FLAG_PASS, FLAG_DIED, FLAG_SURVIVED, FLAG_DOOMED, PICK_NONE,
                   PICK_RANDOM, PICK_UCB, PICK_PASS, PICK_ROLLOUT, PICK_SAMPLE, SAMPLING, STOP_NONE,
                   STOP_ITERATIONS, STOP_NODE_CAP, STOP_TERMINAL, avg_weight, rng_unit, norm_at,
                   norm_values, strategy, Node, Tree)


class Smitsimax:
    """A Smitsimax search over a copy of `game`'s state (sandbox.native.Search
    in slow motion: run, step_traced, advance, best_moves, root_stats,
    stats)."""

    def __init__(self, game: Any, params: SearchParams | Mapping[str, Any] | None = None,
                 seed: int = 0) -> None:
        if not 0 <= int(seed) < 2**64:
            raise InvalidArgument(f"seed: must be in 0..2^64-1 (got {seed})")
        self.params = SearchParams.coerce(params)
        self.root = game.clone()
        self.num_agents: int = game.num_agents
        self.rng = SplitMix64(int(seed))
        self.trees = [Tree() for _ in range(self.num_agents)]
        self.iterations = 0
        self.sim_turns = 0
        self.iterations_root = 0
        self.last_stop = STOP_NONE
        self.policy: str = self.params.policy   # in force

    @property
    def power(self) -> bool:
        """backup=power in force: under UCB1 only (C's power_on)."""
        return self.policy == "ucb1" and self.params.backup == "power"

    def _sync_policy(self) -> None:
        """A requested policy takes over with fresh trees (api.c sync_active)."""
        if self.params.policy != self.policy:
            self.policy = self.params.policy
            for t in self.trees:
                t.clear()

    # -- parameters -----------------------------------------------------------
    def set_params(self, params: SearchParams | Mapping[str, Any]) -> None:
        """Applied at once (C applies them from its next iteration, which is
        the same thing for a single-threaded caller). A smaller node_cap that
        a tree no longer fits in clears that tree."""
        new = SearchParams.coerce(params)
        need = new.max_depth * (self.root.max_moves + 1) + 1
        if new.node_cap < need:
            raise InvalidArgument(f"node_cap: {new.node_cap} nodes cannot hold one iteration "
                                  f"at max_depth {new.max_depth} (needs {need})")
        if new.depth_normalize != self.params.depth_normalize or new.bounds != self.params.bounds:
            # scores per turn and raw scores live on different scales (§13)
            for t in self.trees:
                t.reset_bounds()
        if (self.policy == "ucb1" and new.backup == "power"
                and self.params.backup != "power"):
            # power switched on mid-search: every value starts as the mean
            for t in self.trees:
                for nd in t.nodes:
                    nd.aux = nd.total / nd.visits if nd.visits else 0.0
        if new.node_cap != self.params.node_cap:
            for t in self.trees:
                if t.used > new.node_cap:
                    t.clear()
        self.params = new
        if self.iterations_root == 0:
            self._sync_policy()

    def update_params(self, **changes: Any) -> SearchParams:
        self.set_params(self.params.replace(**changes))
        return self.params

    # -- selection --------------------------------------------------------------
    def _is_doomed(self, node: Node) -> bool:
        """Certain death: marked doomed, or every visit so far was fatal and
        there were at least death_min_visits of them."""
        if node.flags & FLAG_DOOMED:
            return True
        died_only = (node.flags & (FLAG_DIED | FLAG_SURVIVED)) == FLAG_DIED
        return died_only and node.visits >= self.params.death_min_visits

    def _select_child(self, tree: Tree, node: Node, fatal: int = 0) -> tuple[int, str]:
        """Tutorial §7 selectChild. `node.visits` already counts this visit.
        `fatal`: safe_moves' mask of the moves that lose at once (bit m:
        move m; 0 when every move does): such a child is neither picked at
        random, nor tried, nor chosen by UCB."""
        p = self.params
        children = list(node.children())

        def is_fatal(c: int) -> bool:
            return bool(fatal >> tree.nodes[c].move & 1)

        if node.visits < p.random_threshold:
            if p.death_penalty or fatal:
                # the safe children not doomed; else the safe ones; else all
                safe = [c for c in children if not is_fatal(c)]
                ok = [c for c in safe if not (p.death_penalty and self._is_doomed(tree.nodes[c]))]
                for pool in (ok, safe):
                    if 0 < len(pool) < len(children):
                        return pool[self.rng.below(len(pool))], PICK_RANDOM
            return children[self.rng.below(len(children))], PICK_RANDOM
        if fatal:
            untried = [c for c in children if not is_fatal(c) and tree.nodes[c].visits == 0]
            if untried:
                return untried[self.rng.below(len(untried))], PICK_UCB

        # UCB1 on the normalised mean (mean - lo) / (hi - lo), [lo, hi] the
        # leaf scores' range or that of the children's depth (bounds=depth).
        lo, scale = norm_at(tree, p.bounds, node.depth + 1)
        # C*sqrt(ln N / n) written as (C*sqrt(ln N)) * (1/sqrt(n)), in this
        # order of operations, exactly as the C core computes it.
        inv_scale = 1.0 / scale
        tuned = self.policy == "ucb1_tuned"
        power = self.power
        explore = 0.0 if tuned else p.c * math.sqrt(math.log(node.visits))
        s_ln = math.sqrt(math.log(node.visits)) if tuned else 0.0
        best, best_v, ties = children[0], -math.inf, 1
        for j, c in enumerate(children):
            child = tree.nodes[c]
            if fatal and is_fatal(c):
                continue
            if child.visits == 0:
                # a uniformly random untried child, drawn among those from
                # here on (none before this one is untried), as the C core
                rest = [d for d in children[j:] if tree.nodes[d].visits == 0]
                return rest[self.rng.below(len(rest))], PICK_UCB
            if tuned:
                # UCB1-Tuned: C*sqrt(ln N / n * min(1/4, var/scale^2 + sqrt(2 ln N / n))),
                # spelled as C spells it: sqrt(ln N) and 1/sqrt(n), 1/n = its square
                r = 1.0 / math.sqrt(child.visits)
                inv_n = r * r
                mean = child.total * inv_n
                var = child.aux * inv_n - mean * mean
                if var < 0.0:
                    var = 0.0
                bonus = s_ln * r
                vb = var * inv_scale * inv_scale + SQRT2 * bonus
                if vb > 0.25:
                    vb = 0.25
                v = (mean - lo) * inv_scale + p.c * bonus * math.sqrt(vb)
            else:
                value = child.aux if power else child.total / child.visits
                v = ((value - lo) * inv_scale
                     + explore * (1.0 / math.sqrt(child.visits)))
            if p.death_penalty and self._is_doomed(child):
                v -= p.death_penalty_value
            if v == best_v:
                # an exact tie: a reservoir draw, as the C core (sbx_keep_max_fair)
                ties += 1
                if self.rng.below(ties) == 0:
                    best = c
            elif v > best_v:
                best, best_v, ties = c, v, 1
        return best, PICK_UCB

    def _select_sample(self, tree: Tree, node: Node) -> tuple[int, float]:
        """Exp3 / RM: sample from (1 - gamma) sigma + gamma / K; that sampling
        distribution, times avg_weight, is added to each child's
        average-strategy sum. Returns the child and its sampling probability."""
        p = self.params
        children = list(node.children())
        nodes = [tree.nodes[c] for c in children]
        k = len(children)
        gx = explore_share(p, k, node.visits)
        sigma = strategy(nodes, p.exploration, self.policy)
        mix = gx / k
        w = avg_weight(p.avg_weight, self.policy, node.visits)
        u = rng_unit(self.rng)
        acc = 0.0
        chosen, pc = -1, 0.0
        for i, nd in enumerate(nodes):
            pi = (1.0 - gx) * sigma[i] + mix
            nd.p1 = nd.p1 + w * pi
            acc += pi
            if chosen < 0 and u < acc:
                chosen, pc = i, pi
        if chosen < 0:
            chosen = k - 1
            pc = (1.0 - gx) * sigma[k - 1] + mix
        return children[chosen], pc

    def _update_sampling(self, tree: Tree, path: list[int], psel: dict[int, float],
                         vals: dict[int, float], prev_total: dict[int, float],
                         cf: tuple[int, list[float]] | None = None) -> None:
        """Exp3: G_picked += x / p. RM: every sibling i gets xhat_i = b_i +
        [i picked] (x - b_picked) / p_picked, b = the child's mean before this
        iteration (normalised, clamped; 0.5 unvisited), then R_i += xhat_i -
        sum_j p_j xhat_j (p the sampling distribution), RM+ floored at 0.
        x = the backed-up value normalised by the range of the values backed
        up at its depth (norm_values: whatever `bounds` says; the range holds
        x, so no clamp). At cf's path index (a step where every sibling's
        line ended, see _counterfactuals) xhat_i is sibling i's own return,
        normalised the same way, instead."""
        p = self.params
        for k in range(len(path) - 1, 0, -1):
            pk = psel.get(k, 0.0)
            if pk <= 0.0:
                continue
            lo, scale = norm_values(tree, k)
            x = (vals[k] - lo) / scale
            c = tree.nodes[path[k]]
            if self.policy == "exp3":
                c.p0 = c.p0 + x / pk
            else:
                parent = tree.nodes[path[k - 1]]
                kids = [tree.nodes[i] for i in parent.children()]
                gx = explore_share(p, len(kids), parent.visits)
                sigma = strategy(kids, p.exploration, self.policy)
                mix = gx / len(kids)
                xhat = []
                ev = 0.0
                for j, (i, ch) in enumerate(zip(parent.children(), kids)):
                    picked = i == path[k]
                    if cf is not None and cf[0] == k:   # exact returns
                        xh = x if picked else (cf[1][j] - lo) / scale
                        xhat.append(xh)
                        ev += ((1.0 - gx) * sigma[j] + mix) * xh
                        continue
                    n = ch.visits - 1 if picked else ch.visits
                    b = 0.5
                    if n > 0:
                        b = ((prev_total[k] if picked else ch.total) / n - lo) / scale
                        b = min(max(b, 0.0), 1.0)
                    xh = b + (x - b) / pk if picked else b
                    xhat.append(xh)
                    ev += ((1.0 - gx) * sigma[len(xhat) - 1] + mix) * xh
                for ch, xh in zip(kids, xhat):
                    r = ch.p0 + (xh - ev)
                    if self.policy == "rm_plus" and r < 0.0:
                        r = 0.0
                    ch.p0 = r

    def _backup_power(self, tree: Tree, path: list[int]) -> None:
        """backup=power, bottom-up: the power mean over the visited children
        (weight: visits; value: gamma * theirs) and the playouts that ended
        at the node (weight: visits minus the children's; value: their mean,
        the total less gamma * the children's totals), all normalised to
        [0, 1] on the node's own depth's range (norm_values), mapped back; a
        node without visited children: its mean. p = 1 is the mean."""
        p = self.params
        inv_p = 1.0 / p.power_p
        for k in range(len(path) - 1, -1, -1):
            nd = tree.nodes[path[k]]
            lo, scale = norm_values(tree, k)
            num = den = child_total = 0.0
            kids = list(nd.children()) + ([nd.pass_child] if nd.pass_child else [])
            for i in kids:
                c = tree.nodes[i]
                if c.visits == 0:
                    continue
                x = min(max((p.gamma * c.aux - lo) / scale, 0.0), 1.0)
                num += float(c.visits) * math.pow(x, p.power_p)
                den += float(c.visits)
                child_total += c.total
            if den <= 0.0:
                nd.aux = nd.total / nd.visits
                continue
            ended = float(nd.visits) - den
            if ended > 0.0:
                x = min(max(((nd.total - p.gamma * child_total) / ended - lo) / scale, 0.0), 1.0)
                num += ended * math.pow(x, p.power_p)
                den += ended
            nd.aux = lo + math.pow(num / den, inv_p) * scale

    def _counterfactuals(self, pre: Any, joint: list[int], paths: list[list[int]],
                         step_node: list[int], depth: int,
                         at_limit: bool) -> list[tuple[int, list[float]] | None]:
        """RM / RM+ at a step that ended the game (or, last_step, at
        max_depth): for each agent whose move a node picked there, every
        sibling move's return against the others' actual moves (`pre`, the
        state before the step, stepped again with the alternative, its RNG
        kept, and evaluated as the leaf; tutorial §11's u(a, b_t)). Only
        where every alternative's line ends there too (its state terminal,
        or the depth limit under last_step): otherwise None, the sampled
        estimates. The picked child's slot is 0.0: its return is the
        iteration's own score."""
        p = self.params
        out: list[tuple[int, list[float]] | None] = [None] * self.num_agents
        for a in range(self.num_agents):
            if not step_node[a]:
                continue
            tree = self.trees[a]
            parent = tree.nodes[paths[a][-2]]
            returns = []
            ends = True
            for i in parent.children():
                if i == step_node[a]:
                    returns.append(0.0)
                    continue
                alt = list(joint)
                alt[a] = tree.nodes[i].move
                g = pre.clone()
                g.step(alt)
                if not (at_limit or g.is_terminal):
                    ends = False
                    break
                v = self._evaluate(g)[a]
                returns.append(v / float(max(depth, 1)) if p.depth_normalize else v)
            if ends:
                out[a] = (len(paths[a]) - 1, returns)
        return out

    def _evaluate(self, g) -> list[float]:
        """The leaf scores: the game's evaluation, or with relative_scores
        each agent's minus the mean of the others'."""
        v = [float(x) for x in g.evaluate()]
        n = len(v)
        if not self.params.relative_scores or n < 2:
            return v
        total = sum(v)
        return [(n * x - total) / (n - 1) for x in v]

    # -- one iteration ----------------------------------------------------------
    def _iterate(self, trace: dict | None = None) -> tuple[str, int]:
        """One iteration; returns (stop reason, simulated turns)."""
        p = self.params
        n = self.num_agents
        trees = self.trees
        need = p.max_depth * (self.root.max_moves + 1) + 1
        if any(p.node_cap - t.used < need for t in trees):
            return STOP_NODE_CAP, 0

        sim = self.root.clone()
        sim_seed = self.rng.next()
        sim.reseed(sim_seed)  # chance events differ between iterations
        freeze = p.elimination == "freeze"
        # safe_moves: only where the game knows its fatal moves
        safe = p.safe_moves and hasattr(sim, "fatal_moves")

        paths = [[0] for _ in range(n)]
        alive = [sim.is_alive(a) for a in range(n)]
        in_tree = [alive[a] or not freeze for a in range(n)]
        frozen = [False] * n          # tree frozen at its agent's death
        score = [0.0] * n
        leaf_depth = [0] * n
        for t in trees:
            t.nodes[0].visits += 1
        sampling = self.policy in SAMPLING
        psel: list[dict[int, float]] = [{} for _ in range(n)]   # path index -> p
        # RM / RM+: the last step's counterfactual returns, per agent
        # (path index, one return per sibling; see _counterfactuals)
        cf_on = self.policy in ("rm", "rm_plus") and p.counterfactual != "off"
        cf: list[tuple[int, list[float]] | None] = [None] * n
        rec_moves = [[] for _ in range(n)]
        rec_pick = [[] for _ in range(n)]
        rec_expanded = [[] for _ in range(n)]
        rec_alive = [[] for _ in range(n)]

        depth, terminal = 0, False
        for d in range(p.max_depth):
            joint = []
            step_node = [0] * n       # the child picked in the tree, 0: none
            for a in range(n):
                tree = trees[a]
                pick, expanded = PICK_NONE, False
                moves = sim.legal_moves(a) if alive[a] else []
                fatal = 0
                if moves and safe:
                    fatal = sim.fatal_moves(a)
                    if all(fatal >> m & 1 for m in moves):
                        fatal = 0       # every move loses: any may be picked
                if not moves:
                    move = MOVE_NONE
                    if in_tree[a]:  # eliminated: descend through a pass node
                        c = tree.pass_child(paths[a][-1])
                        tree.nodes[c].visits += 1
                        paths[a].append(c)
                        pick = PICK_PASS
                elif in_tree[a]:
                    cur = paths[a][-1]
                    if tree.nodes[cur].first_child == 0:
                        tree.expand(cur, moves)
                        expanded = True
                    if sampling:
                        c, psel[a][len(paths[a])] = self._select_sample(tree, tree.nodes[cur])
                        pick = PICK_SAMPLE
                    else:
                        c, pick = self._select_child(tree, tree.nodes[cur], fatal)
                    tree.nodes[c].visits += 1
                    move = tree.nodes[c].move
                    paths[a].append(c)
                    step_node[a] = c
                    if p.rollout and expanded:
                        in_tree[a] = False  # one new node per iteration
                else:  # rollout below the tree
                    ok = [m for m in moves if not fatal >> m & 1]
                    move = ok[self.rng.below(len(ok))]
                    pick = PICK_ROLLOUT
                joint.append(move)
                rec_moves[a].append(-1 if move == MOVE_NONE else move)
                rec_pick[a].append(pick)
                rec_expanded[a].append(expanded)

            pre = sim.clone() if cf_on and any(step_node) else None
            sim.step(joint)
            depth = d + 1
            newly_frozen = []
            for a in range(n):
                if not alive[a]:
                    rec_alive[a].append(False)
                    continue
                now = sim.is_alive(a)
                if step_node[a]:
                    trees[a].nodes[step_node[a]].flags |= FLAG_SURVIVED if now else FLAG_DIED
                rec_alive[a].append(now)
                if not now:
                    alive[a] = False
                    if freeze:
                        frozen[a] = True
                        in_tree[a] = False
                        leaf_depth[a] = depth
                        newly_frozen.append(a)
            if newly_frozen:
                # A frozen tree learns nothing after its death: its score is
                # the evaluation at the moment it died.
                at_death = self._evaluate(sim)
                for a in newly_frozen:
                    score[a] = at_death[a]
            ends = sim.is_terminal
            at_limit = p.counterfactual == "last_step" and depth == p.max_depth
            if cf_on and (ends or at_limit):
                cf = self._counterfactuals(pre, joint, paths, step_node, depth, at_limit)
            if ends:
                terminal = True
                break

        final_scores = self._evaluate(sim)
        for a in range(n):
            tree = trees[a]
            path = paths[a]
            if not frozen[a]:
                score[a] = final_scores[a]
                leaf_depth[a] = depth
            if p.depth_normalize:
                score[a] /= float(max(leaf_depth[a], 1))
            if score[a] < tree.smin:
                tree.smin = score[a]
            if score[a] > tree.smax:
                tree.smax = score[a]
            if cf[a] is not None:   # the alternatives' returns are leaf scores too
                k, returns = cf[a]
                for j, i in enumerate(tree.nodes[path[k - 1]].children()):
                    if i == path[k]:
                        continue
                    tree.smin = min(tree.smin, returns[j])
                    tree.smax = max(tree.smax, returns[j])
                    tree.dmin[k] = min(tree.dmin[k], returns[j])
                    tree.dmax[k] = max(tree.dmax[k], returns[j])

            # Discounted backpropagation (tutorial §13): the leaf gets the
            # full score, each step toward the root multiplies it by gamma.
            # A path that left the tree early (a rollout) is discounted for
            # the turns played below it as well: a score evaluated at depth
            # d reaches the root multiplied by gamma^d.
            v = score[a]
            for _ in range(leaf_depth[a] - tree.nodes[path[-1]].depth):
                v *= p.gamma
            vals: dict[int, float] = {}
            prev_total: dict[int, float] = {}   # path[k]'s total before this backup
            for k in range(len(path) - 1, -1, -1):   # path[k] is at depth k
                prev_total[k] = tree.nodes[path[k]].total
                tree.nodes[path[k]].total += v
                if self.policy == "ucb1_tuned":
                    tree.nodes[path[k]].aux += v * v
                vals[k] = v
                # per-depth ranges: UCB's with bounds=depth, the sampling
                # policies' and the power mean's always (norm_values)
                if p.bounds == "depth" or sampling or self.power:
                    tree.dmin[k] = min(tree.dmin[k], v)
                    tree.dmax[k] = max(tree.dmax[k], v)
                v *= p.gamma
            if sampling:
                self._update_sampling(tree, path, psel[a], vals, prev_total, cf[a])
            if self.power:
                self._backup_power(tree, path)

            # Certain death propagates up: a node all of whose children are
            # certain death is itself doomed (re-judged on every visit).
            for k in range(len(path) - 2, -1, -1):
                node = tree.nodes[path[k]]
                on_path = tree.nodes[path[k + 1]]
                doomed = node.nchildren > 0 and (
                    bool(on_path.flags & FLAG_PASS) or self._is_doomed(on_path))
                if doomed:
                    doomed = all(self._is_doomed(tree.nodes[c]) for c in node.children())
                if doomed:
                    node.flags |= FLAG_DOOMED
                else:
                    node.flags &= ~FLAG_DOOMED

            leaf = tree.nodes[path[-1]].depth
            tree.depth_reached = max(tree.depth_reached, leaf)

        if trace is not None:
            trace.update(
                depth=depth, terminal=terminal, sim_seed=sim_seed,
                paths=tuple(tuple(path) for path in paths),
                moves=np.array(rec_moves, dtype=np.int32).reshape(n, depth),
                picks=tuple(tuple(row) for row in rec_pick),
                expanded=np.array(rec_expanded, dtype=bool).reshape(n, depth),
                alive_after=np.array(rec_alive, dtype=bool).reshape(n, depth),
                scores=np.array(score, dtype=np.float64),
                norm_min=np.array([_shown(t.norm_range(p.bounds, 1))[0] for t in trees],
                                  dtype=np.float64),
                norm_max=np.array([_shown(t.norm_range(p.bounds, 1))[1] for t in trees],
                                  dtype=np.float64))
        return STOP_NONE, depth

    # -- running ----------------------------------------------------------------
    def run(self, iterations: int) -> RunResult:
        """Iterate `iterations` times, or until a tree is full or the root is
        terminal (sbx_search_run with an iteration budget)."""
        if int(iterations) <= 0:
            raise InvalidArgument("give iterations= (a positive iteration budget)")
        t0 = time.perf_counter()
        nodes0 = self.node_count()
        it = turns = 0
        reason = STOP_TERMINAL if self.root.is_terminal else STOP_NONE
        while reason == STOP_NONE:
            if it >= iterations:
                reason = STOP_ITERATIONS
                break
            r, t = self._iterate()
            if r != STOP_NONE:
                reason = r
                break
            turns += t
            it += 1
        self.iterations += it
        self.iterations_root += it
        self.sim_turns += turns
        self.last_stop = reason
        return RunResult(iterations=it, sim_turns=turns,
                         elapsed_ms=(time.perf_counter() - t0) * 1e3,
                         stop_reason=reason, nodes_added=self.node_count() - nodes0)

    def step_traced(self) -> Trace:
        """One iteration, traced like sbx_search_step_traced."""
        n = self.num_agents
        empty = dict(depth=0, terminal=False, sim_seed=0, paths=tuple(() for _ in range(n)),
                     moves=np.zeros((n, 0), dtype=np.int32),
                     picks=tuple(() for _ in range(n)),
                     expanded=np.zeros((n, 0), dtype=bool),
                     alive_after=np.zeros((n, 0), dtype=bool),
                     scores=np.zeros(n), norm_min=np.zeros(n), norm_max=np.zeros(n))
        if self.root.is_terminal:
            return Trace(stop_reason=STOP_TERMINAL, **empty)
        trace: dict = {}
        r, turns = self._iterate(trace)
        self.last_stop = r
        if r != STOP_NONE:
            return Trace(stop_reason=r, **empty)
        self.iterations += 1
        self.iterations_root += 1
        self.sim_turns += turns
        return Trace(stop_reason=r, **trace)

    def _check_joint(self, joint: Sequence[int | None]) -> list[int]:
        """Every live agent's move must be legal at the root; agents without
        moves get MOVE_NONE."""
        if len(joint) != self.num_agents:
            raise InvalidArgument(
                f"joint action needs {self.num_agents} moves, got {len(joint)}")
        out = []
        for a, m in enumerate(joint):
            m = MOVE_NONE if m is None or m < 0 else int(m)
            legal = self.root.legal_moves(a)
            if not legal:
                out.append(MOVE_NONE)
            elif m in legal:
                out.append(m)
            else:
                raise InvalidArgument(f"agent {a}: move {m} is not legal in this state")
        return out

    def _same_game(self, game: Any) -> bool:
        return (type(game) is type(self.root) and game.kind == self.root.kind
                and game.params == self.root.params)

    def advance(self, joint: Sequence[int | None], new_root: Any = None) -> None:
        """The real game played `joint`. Tree reuse: each tree re-roots on the
        child of its agent's move (the pass child for an agent without moves);
        without such a child, or with tree_reuse off, the tree starts afresh.
        Score bounds start afresh either way (one turn's search, §7). The root
        becomes new_root's state, or the old root stepped with a chance seed
        drawn from the search's RNG."""
        if new_root is not None and not self._same_game(new_root):
            raise InvalidArgument("new root is a different game or has other parameters")
        if self.root.is_terminal:
            raise InvalidState("the search's root state is terminal")
        joint8 = self._check_joint(joint)
        if new_root is not None:
            self.root = new_root.clone()
        else:
            self.root.reseed(self.rng.next())
            self.root.step(joint8)
        reuse = self.params.tree_reuse
        for a, tree in enumerate(self.trees):
            root = tree.nodes[0]
            target = 0
            if reuse:
                if joint8[a] == MOVE_NONE:
                    target = root.pass_child
                else:
                    for c in root.children():
                        if tree.nodes[c].move == joint8[a]:
                            target = c
            if target:
                tree.reroot(target, self.root.is_alive(a), self.params.gamma,
                            self.params.reuse_decay, self.policy)
                # a new root the joint does not lead to may have other legal
                # moves than the kept children: then the tree starts afresh
                root = tree.nodes[0]
                if root.nchildren and [tree.nodes[c].move for c in root.children()] != \
                        list(self.root.legal_moves(a)):
                    tree.clear()
            else:
                tree.clear()
            tree.reset_bounds()
        self.iterations_root = 0
        self.last_stop = STOP_NONE
        self._sync_policy()

    def reset(self, root: Any) -> None:
        """Drop every tree and take root's state."""
        if not self._same_game(root):
            raise InvalidArgument("root is a different game or has other parameters")
        self.root = root.clone()
        for t in self.trees:
            t.clear()
        self.iterations_root = 0
        self.last_stop = STOP_NONE
        self._sync_policy()

    def root_game(self) -> Any:
        return self.root.clone()

    # -- inspecting ---------------------------------------------------------------
    def best_moves(self) -> list[int | None]:
        """Per agent the most-visited root child (ties: the higher mean, then
        the earlier child); the first legal move if no child has a visit;
        None for an agent without moves."""
        out: list[int | None] = []
        for a, tree in enumerate(self.trees):
            legal = self.root.legal_moves(a)
            if not legal:
                out.append(None)
                continue
            root = tree.nodes[0]
            if self.policy in SAMPLING:
                i = self._average_pick(tree, a)
                out.append(tree.nodes[root.first_child + i].move if i >= 0 else legal[0])
                continue
            best = None
            for c in root.children():
                ch = tree.nodes[c]
                if ch.visits == 0:
                    continue
                if (best is None or ch.visits > best.visits
                        or (ch.visits == best.visits
                            and ch.total / ch.visits > best.total / best.visits)):
                    best = ch
            out.append(best.move if best is not None else legal[0])
        return out

    def _final_draw(self, agent: int) -> float:
        """final_move=sample's draw: a hash of the RNG word (not advanced)
        and the iteration counters (smitsimax_view.c final_draw)."""
        m = (1 << 64) - 1
        h = (self.rng.state ^ ((self.iterations * 0xD1B54A32D192ED03) & m)
             ^ ((self.iterations_root << 20) & m) ^ agent)
        return rng_unit(SplitMix64(h))

    def _average_pick(self, tree: Tree, agent: int) -> int:
        """Index of the root child played by Exp3 / RM: the average
        strategy's argmax (ties: earlier) or a draw from it; -1 if empty."""
        root = tree.nodes[0]
        kids = [tree.nodes[c] for c in root.children()]
        total, best = 0.0, -1
        for i, c in enumerate(kids):
            total += c.p1
            if c.p1 > 0.0 and (best < 0 or c.p1 > kids[best].p1):
                best = i
        if best < 0 or self.params.final_move == "argmax":
            return best
        u = self._final_draw(agent) * total
        acc = 0.0
        for i, c in enumerate(kids):
            acc += c.p1
            if c.p1 > 0.0 and u < acc:
                return i
        return best

    def root_stats(self, agent: int) -> list[MoveStat]:
        """The root's children in move order, then its pass child; prob is
        the share of the root's child visits."""
        if not 0 <= agent < self.num_agents:
            raise InvalidArgument(f"agent {agent} out of range 0..{self.num_agents - 1}")
        tree = self.trees[agent]
        root = tree.nodes[0]
        rows = list(root.children()) + ([root.pass_child] if root.pass_child else [])
        total = avg = 0.0
        for idx in rows:
            total += tree.nodes[idx].visits
        for idx in root.children():
            avg += tree.nodes[idx].p1
        sampling = self.policy in SAMPLING
        out = []
        for i, idx in enumerate(rows):
            c = tree.nodes[idx]
            share = c.visits / total if total > 0 else 0.0
            pol = share
            if sampling and i < root.nchildren:  # the average strategy
                pol = c.p1 / avg if avg > 0 else 0.0
            out.append(MoveStat(move=-1 if c.move == MOVE_NONE else c.move,
                                visits=c.visits, mean=c.mean(), prob=share, policy=pol))
        return out

    def node_count(self) -> int:
        return sum(t.used for t in self.trees)

    def stats(self) -> SearchStats:
        trees = self.trees
        return SearchStats(
            iterations=self.iterations, sim_turns=self.sim_turns,
            iterations_root=self.iterations_root, node_cap=self.params.node_cap,
            cap_reached=self.last_stop == STOP_NODE_CAP,
            node_bytes=0,  # no arena here; C reports sizeof(smx_node)
            algorithm="smitsimax", policy=self.policy, trees=self.num_agents,
            nodes=tuple(t.used for t in trees),
            root_visits=tuple(t.nodes[0].visits for t in trees),
            max_depth_reached=tuple(t.depth_reached for t in trees),
            norm_min=tuple(_shown(t.norm_range(self.params.bounds, 1))[0] for t in trees),
            norm_max=tuple(_shown(t.norm_range(self.params.bounds, 1))[1] for t in trees))


def _shown(bounds: tuple[float, float]) -> tuple[float, float]:
    """Bounds as stats and traces report them: (0, 0) before any score."""
    lo, hi = bounds
    return (lo, hi) if lo <= hi else (0.0, 0.0)
