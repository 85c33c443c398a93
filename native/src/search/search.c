/*
 * search.c — what every algorithm shares beyond search.h's inline helpers:
 * the search's reusable scratch buffer, the root-only snapshot, a value
 * net's leaf values for the searches that score one state at a time, and
 * PUCT priors (the game's move scores or the net's policy heads). With
 * search.h it sits below the algorithms, which call it, and so below
 * registry.c and api.c, which sit above them.
 */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"

void *sbx_search_scratch(sbx_search *s, size_t bytes) {
    if (bytes > s->scratch_cap) {
        void *p = realloc(s->scratch, bytes);
        if (!p) return NULL;
        s->scratch = p;
        s->scratch_cap = bytes;
    }
    return s->scratch;
}

int sbx_root_only_snapshot(sbx_search *s, uint32_t top, const char *why,
                           sbx_snapshot_node *out, int *n_out) {
    memset(&out[0], 0, sizeof out[0]);
    if (top != 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "snapshot: node %u: %s %s", top, s->algo_vt->name,
                        why);
    }
    out[0].parent = -1;
    out[0].prob = 1.0f;
    out[0].move = SBX_MOVE_NONE;
    out[0].agent = -1;
    memset(out[0].joint, SBX_MOVE_NONE, sizeof out[0].joint);
    *n_out = 1;
    return SBX_OK;
}

/* Agent a's private state's slot in `state` (a full state: a serial
 * search's determinized simulation holds every seat's hidden record), or
 * -1 when the game cannot say. */
static int own_slot(const sbx_search *s, const void *state, int a) {
    uint32_t id;
    double w;
    if (!s->vt->private_states || !s->vt->private_slot) return -1;
    if (s->vt->private_states(s->cfg, state, a, a, &id, &w, 1) != 1) return -1;
    return s->vt->private_slot(s->cfg, state, id);
}

/* Fills ranges (the last state pushed on ev) with each seat's own hand, as
 * a determinized state knows every hand, and each agent's slot in slot[];
 * 0 when a hand has no slot in the net (the caller then does without it). */
static int own_ranges(const sbx_search *s, const sbx_neteval *ev, const void *state,
                      float *ranges, int *slot) {
    for (int a = 0; a < s->num_agents; a++) {
        slot[a] = 0;
        if (ev->slots <= 0) continue;
        const int sl = own_slot(s, state, a);
        if (sl < 0 || sl >= ev->slots) return 0;
        slot[a] = sl;
        ranges[(size_t)a * ev->slots + sl] = 1.0f;
    }
    return 1;
}

void sbx_search_net_evaluate(const sbx_search *s, sbx_neteval *ev, const void *state,
                             double *scores) {
    sbx_neteval_clear(ev);
    float *ranges = sbx_neteval_push(ev, s->vt, s->cfg, state);
    /* A net for hidden information values each private state from the
     * seats' beliefs. In a determinized state every hand is known: each
     * seat's belief is its own hand, and each agent reads the value of its
     * own slot (pubcfr reads the same heads from real beliefs). Out of
     * memory, or a hand the net has no slot for: the game's evaluation. */
    int slot[SBX_MAX_AGENTS];
    if (!ranges || !own_ranges(s, ev, state, ranges, slot)) {
        s->vt->evaluate(s->cfg, state, scores);
        return;
    }
    sbx_neteval_run(ev);
    const float *v = sbx_neteval_values(ev, 0);
    for (int a = 0; a < s->num_agents; a++) scores[a] = v[(size_t)a * ev->value_slots + slot[a]];
}

int sbx_priors_check(const sbx_search_params *p, const sbx_game_vt *game) {
    if (p->priors == SBX_PRIORS_HEURISTIC && !game->move_scores) {
        return sbx_fail(SBX_ERR_ARGUMENT,
                        "priors: heuristic needs a game with move scores (%s has none); "
                        "use priors=uniform or net", game->name);
    }
    return SBX_OK;
}

void sbx_search_move_priors(const sbx_search *s, const void *state, int agent, int k,
                            double *out) {
    double sc[SBX_MAX_MOVES];
    if (s->p.priors == SBX_PRIORS_HEURISTIC && s->vt->move_scores && k > 1 &&
        s->vt->move_scores(s->cfg, state, agent, sc) == k) {
        double mx = -INFINITY, sum = 0.0;
        for (int i = 0; i < k; i++) mx = sc[i] > mx ? sc[i] : mx;
        for (int i = 0; i < k; i++) {
            out[i] = isfinite(sc[i]) ? exp((sc[i] - mx) / s->p.prior_temperature) : 0.0;
            sum += out[i];
        }
        if (sum > 0.0 && isfinite(sum)) {
            for (int i = 0; i < k; i++) out[i] /= sum;
            return;
        }
    }
    for (int i = 0; i < k; i++) out[i] = 1.0 / k;
}

int sbx_search_net_pass(const sbx_search *s, sbx_neteval *ev, const void *state) {
    if (!s->net) return 0;
    sbx_neteval_clear(ev);
    float *ranges = sbx_neteval_push(ev, s->vt, s->cfg, state);
    int slot[SBX_MAX_AGENTS];
    if (!ranges || !own_ranges(s, ev, state, ranges, slot)) return 0;
    sbx_neteval_run(ev);
    return 1;
}

void sbx_search_agent_priors(const sbx_search *s, const sbx_neteval *ev, int have_pass,
                             const void *state, int agent, int k, const uint8_t *moves,
                             double *out) {
    if (k == 1 && moves[0] == SBX_MOVE_NONE) {
        out[0] = 1.0;
    } else if (s->p.priors == SBX_PRIORS_NET && have_pass) {
        sbx_neteval_priors(ev, 0, agent, moves, k, out);
    } else { /* uniform, heuristic, or a net that cannot answer for the state */
        sbx_search_move_priors(s, state, agent, k, out);
    }
}

void sbx_search_priors(const sbx_search *s, sbx_neteval *ev, const void *state,
                       const int *k, const uint8_t (*moves)[SBX_MAX_MOVES],
                       double (*out)[SBX_MAX_MOVES]) {
    const int pass = s->p.priors == SBX_PRIORS_NET && sbx_search_net_pass(s, ev, state);
    for (int a = 0; a < s->num_agents; a++) {
        sbx_search_agent_priors(s, ev, pass, state, a, k[a], moves[a], out[a]);
    }
}
