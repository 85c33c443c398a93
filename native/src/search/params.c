/*
 * params.c — every search knob declared once: name, type, range, default and
 * a one-line doc. sbx_search_params_default/validate and the Python mirror
 * (sandbox/native/params.py, tested against sbx_search_param_info) all read
 * this table.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "../core/common.h"

typedef struct param_def {
    sbx_param_info info;
    size_t offset;
} param_def;

#define DEF(field, type, lo, hi, dflt, doc) \
    {{#field, type, lo, hi, dflt, doc}, offsetof(sbx_search_params, field)}

static const param_def DEFS[] = {
    DEF(c, SBX_PARAM_FLOAT, 0.0, 10.0, 0.7,
        "UCB family: exploration constant C (ucb1: C*sqrt(ln N/n); ucb1_tuned: "
        "C*sqrt(ln N/n * min(1/4, V))); exp3/rm/rm_plus: unused"),
    DEF(gamma, SBX_PARAM_FLOAT, 0.01, 1.0, 0.97,
        "discount per step from the leaf toward the root (1 = none)"),
    DEF(death_penalty_value, SBX_PARAM_FLOAT, 0.0, 100.0, 1.0,
        "amount taken off a doomed child's UCB value (normalised units); UCB "
        "family only"),
    DEF(reuse_decay, SBX_PARAM_FLOAT, 0.0, 1.0, 1.0,
        "tree reuse: the kept subtree's visits and totals are scaled by this "
        "at each re-root (1 = kept as they are; old turns' visits were "
        "gathered against opponent moves that were not played); ucb1_tuned's "
        "sum of squares scales like the totals, exp3's reward estimates, "
        "rm's regrets and the average strategies by this factor; a power-mean "
        "value is kept"),
    DEF(max_depth, SBX_PARAM_INT, 1, SBX_MAX_DEPTH, 10,
        "simulated turns per iteration"),
    DEF(random_threshold, SBX_PARAM_INT, 0, 1000000, 10,
        "UCB family: parent visits below which a child is picked uniformly "
        "at random; exp3/rm/rm_plus always sample their own strategy"),
    DEF(depth_normalize, SBX_PARAM_BOOL, 0, 1, 0,
        "divide the leaf score by the depth reached (score per turn); for "
        "scores that accumulate over turns. With a state-value evaluation "
        "it also shrinks distant outcomes: a death at depth 10 costs a "
        "tenth of one at depth 1"),
    DEF(bounds, SBX_PARAM_CHOICE, SBX_BOUNDS_LEAF, SBX_BOUNDS_DEPTH,
        SBX_BOUNDS_LEAF,
        "UCB's score normalisation: 0 leaf (the range of leaf scores, the "
        "tutorial's), 1 depth (the range of the discounted scores backed up "
        "at each depth, so gamma < 1 does not weaken exploitation near the "
        "root). It scales UCB's means and ucb1_tuned's variance; exp3/rm's "
        "rewards and the power mean, which need values in [0, 1], always use "
        "the range of the values backed up at their own depth"),
    DEF(elimination, SBX_PARAM_CHOICE, SBX_ELIM_PASS, SBX_ELIM_FREEZE,
        SBX_ELIM_PASS,
        "eliminated agent: 0 pass-through nodes, 1 freeze its tree"),
    DEF(death_penalty, SBX_PARAM_BOOL, 0, 1, 0,
        "UCB family: penalise children whose every visit was fatal (certain "
        "death); exp3/rm/rm_plus: unused"),
    DEF(death_min_visits, SBX_PARAM_INT, 1, 1000000, 3,
        "visits, all fatal, before a child counts as certain death"),
    DEF(rollout, SBX_PARAM_BOOL, 0, 1, 0,
        "grow each tree by one node per iteration, random moves below it"),
    DEF(tree_reuse, SBX_PARAM_BOOL, 0, 1, 1,
        "keep the subtree of the move played between turns"),
    DEF(node_cap, SBX_PARAM_INT, 1024, 1 << 26, 1 << 21,
        "nodes per agent tree (32 bytes each, 48 under exp3/rm/rm_plus); "
        "the search stops when full"),
    DEF(time_check_interval, SBX_PARAM_INT, 1, 1 << 20, 32,
        "most iterations between clock reads under a time budget (fewer when iterations are slow)"),
    DEF(exploration, SBX_PARAM_FLOAT, 0.0, 1.0, 0.05,
        "exp3/rm/rm_plus: share gamma of the sampling distribution spread "
        "uniformly, p = (1-gamma) sigma + gamma/K, which bounds the "
        "importance weights x/p by K/gamma; exp3's learning rate is "
        "gamma/K. The reported average strategy is the average of p (the "
        "empirical play frequencies). 0.05 scanned best for rm/rm_plus "
        "among 0.01-0.1. UCB family: unused"),
    DEF(power_p, SBX_PARAM_FLOAT, 1.0, 64.0, 2.0,
        "backup=power (ucb1): exponent p of the power mean of the children's "
        "values and of the playouts that ended at the node, weighted by "
        "visits (1 = the visit-weighted mean, large = toward the best "
        "child); unused otherwise"),
    DEF(algorithm, SBX_PARAM_CHOICE, SBX_ALGO_SMITSIMAX, SBX_ALGO_PUBCFR,
        SBX_ALGO_SMITSIMAX,
        "0 smitsimax (decoupled trees), 1 suct (sequential UCT, agents "
        "serialised), 2 joint (a child per joint action), 3 random, 4 greedy "
        "(one ply vs random opponents), 5 mcgs (Monte-Carlo graph search, "
        "two players), 6 uct (textbook sequential UCT, untuned: win/loss "
        "rollouts to the game's end; reads c, lead, node_cap only; its c is "
        "2 in the Python settings when none is named, C's table has one "
        "default for every algorithm), 7 gtcfr (growing-tree CFR, Student of "
        "Games' search without a network, two players; its final_move is "
        "sample in the Python settings when none is named), 8 pubcfr (CFR+ "
        "over public states with ranges, two players, runs on hidden-"
        "information games; reads max_depth, node_cap, final_move, "
        "temperature, tree_reuse, info_seat); a change takes effect at the next turn"),
    DEF(policy, SBX_PARAM_CHOICE, SBX_POLICY_UCB1, SBX_POLICY_RM_PLUS,
        SBX_POLICY_UCB1,
        "Smitsimax selection: 0 ucb1, 1 ucb1_tuned (variance-aware bonus), 2 "
        "exp3 (softmax of importance-weighted reward estimates), 3 rm (regret "
        "matching: actual returns where a step ends every line, see "
        "counterfactual; elsewhere outcome-sampling estimates with the "
        "children's means as control variate, VR-MCCFR), 4 rm_plus (regrets floored at "
        "0); a change takes effect at the next turn (fresh trees). Final "
        "move: most visited for ucb1/ucb1_tuned, from the average strategy "
        "for the others (final_move). SUCT: ucb1 or ucb1_tuned (the sampling "
        "policies fall back to ucb1)"),
    DEF(final_move, SBX_PARAM_CHOICE, SBX_FINAL_ARGMAX, SBX_FINAL_SAMPLE,
        SBX_FINAL_ARGMAX,
        "Smitsimax's move to play: exp3/rm/rm_plus 0 argmax of the average "
        "strategy, 1 a draw from it; ucb1/ucb1_tuned 0 the most visited "
        "root child, 1 a draw from the root's visit shares (a mixed "
        "strategy an opponent cannot read off); a draw is a hash of the "
        "search's RNG word and iteration counts, the same however often it "
        "is asked, shaped by temperature"),
    DEF(avg_weight, SBX_PARAM_CHOICE, SBX_AVG_AUTO, SBX_AVG_LINEAR, SBX_AVG_AUTO,
        "exp3/rm/rm_plus: weight of each selection's sampling distribution in "
        "the average strategy, t = the parent's visits then: 0 auto (sqrt for "
        "rm_plus, uniform for exp3 and rm), 1 uniform, 2 sqrt(t), 3 t (CFR+'s "
        "linear average). RM+'s later strategies are the better ones; under "
        "sampling noise sqrt(t) measured best (NashConv after 100k self-play "
        "iterations, 30 seeds, mean/worst: RPS 0.0054/0.0094, biased RPS "
        "0.0071/0.0082; uniform 0.0045/0.0078 and 0.0096/0.0107; linear "
        "0.0064/0.0115 and 0.0063/0.0075), while it made exp3 and rm worse. "
        "Only the reported average changes (the search never reads it); a "
        "change applies from the next selection. UCB family: unused"),
    DEF(backup, SBX_PARAM_CHOICE, SBX_BACKUP_MEAN, SBX_BACKUP_POWER,
        SBX_BACKUP_MEAN,
        "node value: 0 mean of backed-up scores, 1 power mean of the "
        "children's values (Dam et al.), used by selection in place of the "
        "mean; power works with policy ucb1 only (it keeps the value in the "
        "bytes the other policies use)"),
    DEF(lead, SBX_PARAM_INT, -1, SBX_MAX_AGENTS - 1, -1,
        "SUCT, UCT: the agent serialised first (the others see its move: give it "
        "the seat that must not peek); -1: the seat the search plays for, "
        "filled in by the match's controller (agent 0 for a bare search); "
        "refused past the game's agents when SUCT or UCT is asked for"),
    DEF(c_puct, SBX_PARAM_FLOAT, 0.0, 100.0, 1.5,
        "MCGS: PUCT constant, score = Q + c_puct * prior * sqrt(N) / (1 + n), "
        "in the units of the game's evaluation (prior: see priors)"),
    DEF(fpu_offset, SBX_PARAM_FLOAT, 0.0, 100.0, 0.1,
        "MCGS: first-play urgency, an unvisited outcome's Q is the node's Q "
        "minus this (evaluation units)"),
    DEF(temperature, SBX_PARAM_FLOAT, 0.01, 100.0, 1.0,
        "final_move=sample: MCGS and Smitsimax under ucb1/ucb1_tuned draw the "
        "move from the (marginal) visit distribution raised to 1/temperature, "
        "gtcfr, pubcfr and Smitsimax under exp3/rm/rm_plus from the root's "
        "average strategy raised to it (small: near the argmax)"),
    DEF(rollout_steps, SBX_PARAM_INT, 0, 1000, 0,
        "MCGS: uniformly random turns played from a new node before its "
        "evaluation (0 = evaluate at once)"),
    DEF(short_circuit, SBX_PARAM_BOOL, 0, 1, 0,
        "MCGS: when an edge's child has more visits than the edge (found "
        "through other parents), count the edge and stop instead of "
        "descending (KataGo)"),
    DEF(transpositions, SBX_PARAM_BOOL, 0, 1, 1,
        "MCGS: look states up in the transposition table, so one reached by "
        "two move orders is one node (0 = a tree; a change starts afresh)"),
    DEF(priors, SBX_PARAM_CHOICE, SBX_PRIORS_UNIFORM, SBX_PRIORS_NET,
        SBX_PRIORS_UNIFORM,
        "MCGS, gtcfr, pubcfr's growing tree: PUCT priors, 0 "
        "uniform (1/outcomes), 1 heuristic (softmax of "
        "the game's move scores / prior_temperature, summed over the moves "
        "an outcome collapses; maze: minus the turns to the nearest cheese; "
        "a game without move scores is refused), 2 net (the value net's "
        "policy head, softmax over the legal moves; uniform while no net is "
        "attached); MCGS: a change starts afresh"),
    DEF(prior_temperature, SBX_PARAM_FLOAT, 0.01, 100.0, 1.0,
        "MCGS priors=heuristic: softmax temperature over the move scores "
        "(small = the best-scored move only, large = uniform); a change "
        "starts afresh"),
    DEF(threads, SBX_PARAM_INT, 1, SBX_MAX_THREADS, 1,
        "Smitsimax or MCGS with parallel != serial: C threads inside one run (at most "
        "this machine's cores); results with more than one are not "
        "bit-reproducible (threads interleave differently each run)"),
    DEF(parallel, SBX_PARAM_CHOICE, SBX_PAR_SERIAL, SBX_PAR_LEAF, SBX_PAR_SERIAL,
        "Smitsimax parallel search: 0 serial, 1 wu_uct (shared trees; each "
        "node counts its in-flight simulations O and the mean uses completed "
        "ones only while the exploration term counts N+O, Liu et al. 2020), "
        "2 tree (shared trees with virtual loss), 3 root (a tree set per "
        "thread, merged at the root), 4 leaf (one selection, a rollout per "
        "thread; needs rollout). Modes other than serial need policy ucb1 "
        "(root: ucb1 or ucb1_tuned) and backup mean. MCGS runs wu_uct and "
        "tree on its shared graph and refuses root and leaf; other algorithms "
        "run serially"),
    DEF(virtual_loss, SBX_PARAM_FLOAT, 0.0, 100.0, 1.0,
        "parallel=tree: each in-flight simulation counts as this many visits "
        "scoring the worst normalised value (0: in-flight visits ignored)"),
    DEF(counterfactual, SBX_PARAM_CHOICE, SBX_CF_OFF, SBX_CF_LAST_STEP, SBX_CF_TERMINAL,
        "rm/rm_plus: where a node's regrets use the actual return of every "
        "move it could have picked against the others' actual moves: the "
        "state before the step stepped again with each alternative (the "
        "others' moves and the state's RNG kept) and evaluated as the leaf "
        "is, R_a += u(a, b) - sum_j p_j u(j, b) (tutorial §11's u(a, b) - "
        "u(a_t, b), the played return replaced by its expectation under "
        "p). Used only where every alternative's line ends at that step as "
        "the picked one did, so the evaluation is what the search would "
        "back up for it; a node with an alternative that would have gone on "
        "keeps the sampled estimates. 0 off (sampled estimates everywhere: "
        "outcome sampling with a control variate), 1 terminal (a step that "
        "ends the game), 2 last_step (also the step at max_depth, on the "
        "evaluation; costs K-1 steps and evaluations per agent per "
        "iteration). NashConv after 100k self-play iterations on the "
        "one-shot games, 30 seeds, mean/worst: rm RPS 0.0036/0.0056, biased "
        "RPS 0.0011/0.0023; rm_plus 0.0033/0.0081, 0.0020/0.0025 (off: rm "
        "0.0120/0.0326, 0.0046/0.0182; rm_plus 0.0054/0.0094, "
        "0.0071/0.0082). Exp3 and the UCB family: unused"),
    DEF(expansions_per_update, SBX_PARAM_FLOAT, 0.01, 100.0, 1.0,
        "gtcfr: c of SoG(s, c), expansion simulations per regret update (one "
        "search iteration is one expansion; 0.1 runs 10 CFR+ updates of the "
        "whole tree per expansion, 4 one update every 4 expansions, with a "
        "virtual loss on each of the batch's moves)"),
    DEF(expand_children, SBX_PARAM_CHOICE, SBX_EXPAND_ONE, SBX_EXPAND_ALL, SBX_EXPAND_ALL,
        "gtcfr: what expanding a leaf adds to the tree (the paper's k): 0 one "
        "(the joint action of the highest prior product; the other children "
        "are valued, and join when a simulation picks them), 1 all"),
    DEF(alternating, SBX_PARAM_BOOL, 0, 1, 1,
        "gtcfr: alternating CFR+ updates (player 0's pass, then player 1's "
        "against the updated strategy: two passes) instead of the paper's "
        "simultaneous ones (one pass). NashConv of biased RPS after 10,000 "
        "updates: 0.0021 alternating, 0.045 simultaneous"),
    DEF(leaf_rollouts, SBX_PARAM_INT, 1, 1024, 1,
        "gtcfr, rollout on: random rollouts averaged into a frontier leaf's "
        "value (each from the leaf, chance drawn afresh): one rollout of a "
        "long game is a noisy value that CFR then treats as exact"),
    DEF(expand_after, SBX_PARAM_INT, 1, 1 << 20, 1,
        "gtcfr: the simulation that reaches a frontier leaf for the n-th "
        "time expands it; the n-1 before it each add a leaf value (rollout "
        "on: leaf_rollouts more rollouts) to the leaf's mean and end there. "
        "1 (the paper's): expand at the first visit, the leaf valued once"),
    DEF(grow_tree, SBX_PARAM_BOOL, 0, 1, 0,
        "pubcfr: grow the public tree as growing-tree CFR does (each iteration "
        "expansions_per_update's share of CFR+ iterations, then one simulation "
        "by 1/2 PUCT + 1/2 the average strategy that expands the first "
        "frontier public node it meets) instead of building it breadth-first, "
        "a round at a time, before the first iteration"),
    DEF(info_seat, SBX_PARAM_INT, -1, SBX_MAX_AGENTS - 1, -1,
        "hidden-information games (goofspiel imp_info=1): the seat whose "
        "information the search may use; each iteration starts from a state "
        "drawn from that seat's information set (determinization); -1: the "
        "seat the search plays for, filled in by the match's controller "
        "(agent 0 for a bare search)"),
    DEF(exploration_decay, SBX_PARAM_FLOAT, 0.0, 10.0, 2.0,
        "exp3/rm/rm_plus: a node's uniform share starts high and decays with "
        "its visits n, gamma = max(exploration, min(1, exploration_decay * "
        "sqrt(K / n))), so a move the node turned away from early keeps "
        "being sampled often enough for its subtree to learn (with a fixed "
        "share its value could stay behind for good); 0: the fixed share "
        "`exploration` only. Exp3's learning rate stays exploration / K. "
        "UCB family: unused"),
    DEF(safe_moves, SBX_PARAM_BOOL, 0, 1, 1,
        "skip the moves the game knows lose at once whatever the others play "
        "(snakes: off the board, into a body that stays, starving) wherever "
        "the search picks a move -- selection, random picks, untried "
        "children, rollouts -- while some other move is left; a game "
        "without such moves is unchanged. Off: every move is tried, as the "
        "Smitsimax tutorial does, and a tree reads the other's needless "
        "deaths as its own wins"),
    DEF(resolve_mix, SBX_PARAM_FLOAT, 0.0, 1.0, 0.5,
        "pubcfr, continual re-solving (tree_reuse on): the opponent's range in "
        "the re-solved subgame is resolve_mix x the range the gadget's follow "
        "decisions make + (1 - resolve_mix) x its range in the previous search "
        "(Student of Games' alpha, 0.5 there). 1: the gadget alone, the safe "
        "re-solve: no opponent information state gets more than its best "
        "response to the previous solution, which the gadget offers it as the "
        "value of terminating. Below 1 that guarantee is gone, but measured on "
        "hidden-bid goofspiel-4 (exact NashConv at 1,000 iterations a search) "
        "0.5 scores 0.0000187 against the gadget alone's 0.0000597"),
    DEF(relative_scores, SBX_PARAM_BOOL, 0, 1, 0,
        "smitsimax, mcgs, suct, joint: each agent's score is its evaluation minus the "
        "mean of the other agents' evaluations, so every tree (or each "
        "player of MCGS's graph) values what it gains over the others (in a "
        "duel: the zero-sum view of the win the match counts). Off: each "
        "maximises its own evaluation, which the game may make general-sum "
        "(the snake evaluation credits a snake's own length and space, not "
        "the opponent's loss) or make grow with the turns played (the maze's "
        "credits both explorers' progress)"),
};
#define NUM_DEFS ((int)(sizeof DEFS / sizeof DEFS[0]))

int sbx_search_param_count(void) { return NUM_DEFS; }

int sbx_search_param_info(int index, sbx_param_info *out) {
    if (index < 0 || index >= NUM_DEFS || out == NULL) {
        return sbx_fail(SBX_ERR_ARGUMENT, "param index %d out of range", index);
    }
    *out = DEFS[index].info;
    return SBX_OK;
}

static double get(const sbx_search_params *p, const param_def *d) {
    const char *base = (const char *)p + d->offset;
    if (d->info.type == SBX_PARAM_FLOAT) {
        double v;
        memcpy(&v, base, sizeof v);
        return v;
    }
    int32_t v;
    memcpy(&v, base, sizeof v);
    return (double)v;
}

void sbx_search_params_default(sbx_search_params *out) {
    if (out == NULL) return;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < NUM_DEFS; i++) {
        char *base = (char *)out + DEFS[i].offset;
        if (DEFS[i].info.type == SBX_PARAM_FLOAT) {
            double v = DEFS[i].info.default_value;
            memcpy(base, &v, sizeof v);
        } else {
            int32_t v = (int32_t)DEFS[i].info.default_value;
            memcpy(base, &v, sizeof v);
        }
    }
}

/* Cross-field rules of the parallel modes (mirrored in SearchParams). The
 * shared-tree modes update node statistics with atomics that UCB1's mean
 * and counts have; the sampling policies' per-sibling sums and the power
 * mean are recomputed from several nodes at once, so they stay serial.
 * Smitsimax's rules: the policy and the backup are its own. */
static int check_parallel(const sbx_search_params *p) {
    static const char *const MODES[] = {"serial", "wu_uct", "tree", "root", "leaf"};
    static const char *const NAMES[] = {"ucb1", "ucb1_tuned", "exp3", "rm", "rm_plus"};
    const int cores = sbx_cores();
    if (p->threads > cores) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "threads: %d is more than this machine's %d cores",
                        p->threads, cores);
    }
    if (p->parallel == SBX_PAR_SERIAL) return SBX_OK;
    const char *mode = MODES[p->parallel];
    if (p->parallel == SBX_PAR_LEAF && !p->rollout) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "parallel: leaf runs several rollouts from one leaf and "
                        "needs rollout on");
    }
    /* policy and backup are Smitsimax's (MCGS, the other algorithm with
     * parallel modes, has neither; mcgs_check has its own rule) */
    if (p->algorithm != SBX_ALGO_SMITSIMAX) return SBX_OK;
    const int root = p->parallel == SBX_PAR_ROOT;
    if (p->policy != SBX_POLICY_UCB1 && !(root && p->policy == SBX_POLICY_UCB1_TUNED)) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "parallel: %s works with policy ucb1%s (got policy %s)", mode,
                        root ? " or ucb1_tuned" : "", NAMES[p->policy]);
    }
    if (p->backup != SBX_BACKUP_MEAN && !root) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "parallel: %s works with backup mean (got power)", mode);
    }
    return SBX_OK;
}

int sbx_search_params_validate(const sbx_search_params *p) {
    if (p == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "params is NULL");
    for (int i = 0; i < NUM_DEFS; i++) {
        const sbx_param_info *in = &DEFS[i].info;
        double v = get(p, &DEFS[i]);
        if (!isfinite(v) || v < in->min_value || v > in->max_value) {
            return sbx_fail(SBX_ERR_ARGUMENT, "%s: must be in %g..%g (got %g)",
                            in->name, in->min_value, in->max_value, v);
        }
    }
    /* Cross-field rule: the power mean is a UCB-family backup, and it keeps
     * each node's value in the 8 bytes UCB1-Tuned needs for its sum of
     * squares and Exp3 / RM for their per-child statistics (32-byte nodes). */
    if (p->backup == SBX_BACKUP_POWER && p->policy != SBX_POLICY_UCB1) {
        static const char *const NAMES[] = {"ucb1", "ucb1_tuned", "exp3", "rm", "rm_plus"};
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "backup: power works with policy ucb1 only (got policy %s); "
                        "use backup=mean with policy %s",
                        NAMES[p->policy], NAMES[p->policy]);
    }
    /* Smitsimax's priors are decoupled PUCT in place of UCB1: the prior
     * lives in the side-array slot the sampling policies use, and the
     * shared-tree parallel modes expand without them. */
    if (p->algorithm == SBX_ALGO_SMITSIMAX && p->priors != SBX_PRIORS_UNIFORM) {
        static const char *const PRI[] = {"uniform", "heuristic", "net"};
        static const char *const NAMES[] = {"ucb1", "ucb1_tuned", "exp3", "rm", "rm_plus"};
        static const char *const MODES[] = {"serial", "wu_uct", "tree", "root", "leaf"};
        if (p->policy != SBX_POLICY_UCB1) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "priors: %s makes Smitsimax's UCB1 a PUCT and works with policy "
                            "ucb1 only (got policy %s)", PRI[p->priors], NAMES[p->policy]);
        }
        if (p->parallel != SBX_PAR_SERIAL && p->parallel != SBX_PAR_ROOT) {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "priors: %s works with parallel serial or root in Smitsimax "
                            "(got %s)", PRI[p->priors], MODES[p->parallel]);
        }
    }
    /* SUCT's prior takes the bytes of UCB1-Tuned's sum of squares. */
    if (p->algorithm == SBX_ALGO_SUCT && p->priors != SBX_PRIORS_UNIFORM &&
        p->policy == SBX_POLICY_UCB1_TUNED) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "priors: SUCT's PUCT replaces its UCB and does not work with policy "
                        "ucb1_tuned (use ucb1, or priors=uniform)");
    }
    /* Regret matching with no exploration at all judges a move it stopped
     * playing by its old average forever (its subtree never learns). */
    if (p->algorithm == SBX_ALGO_SMITSIMAX &&
        (p->policy == SBX_POLICY_RM || p->policy == SBX_POLICY_RM_PLUS) &&
        p->exploration == 0.0 && p->exploration_decay == 0.0) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "exploration: 0 with exploration_decay 0 starves policy %s (a "
                        "move it stops playing is judged by its old average forever); "
                        "give either one a share",
                        p->policy == SBX_POLICY_RM ? "rm" : "rm_plus");
    }
    return check_parallel(p);
}
