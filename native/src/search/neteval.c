/*
 * neteval.c — a search's batches for its value net (neteval.h).
 */
#include "neteval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"

void sbx_neteval_free(sbx_neteval *e) {
    free(e->scratch);
    free(e->in);
    free(e->values);
    free(e->logits);
    memset(e, 0, sizeof *e);
}

int sbx_neteval_attach(sbx_neteval *e, const sbx_net *net, int64_t *count) {
    if (e->net != net) sbx_neteval_free(e);
    e->count = count;
    if (!net || e->net == net) return SBX_OK;
    const sbx_net_info *in = &net->info;
    e->scratch = malloc(sbx_net_scratch_floats(net) * sizeof(float));
    if (!e->scratch) {
        sbx_neteval_free(e);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory for the value net's pass");
    }
    e->net = net;
    e->input = in->input_size;
    e->features = in->features;
    e->players = in->players;
    e->slots = in->slots;
    e->value_slots = in->value_slots;
    e->moves = in->moves;
    return SBX_OK;
}

static int reserve(sbx_neteval *e, int n) {
    if (n <= e->cap) return 1;
    int cap = e->cap ? e->cap : 16;
    while (cap < n) cap *= 2;
    float *in = realloc(e->in, (size_t)cap * e->input * sizeof *in);
    if (!in) return 0;
    e->in = in;
    float *v = realloc(e->values, (size_t)cap * e->players * e->value_slots * sizeof *v);
    if (!v) return 0;
    e->values = v;
    float *l = realloc(e->logits, (size_t)cap * e->players * e->moves * sizeof *l);
    if (!l) return 0;
    e->logits = l;
    e->cap = cap;
    return 1;
}

float *sbx_neteval_push(sbx_neteval *e, const sbx_game_vt *vt, const void *cfg,
                        const void *state) {
    if (!e->net || !reserve(e, e->n + 1)) return NULL;
    float *row = e->in + (size_t)e->n * e->input;
    vt->features(cfg, state, SBX_VIEW_CANONICAL, row);
    float *ranges = row + e->features;
    memset(ranges, 0, (size_t)(e->input - e->features) * sizeof *ranges);
    e->n++;
    return ranges;
}

void sbx_neteval_run(sbx_neteval *e) {
    if (!e->net || e->n <= 0) return;
    sbx_net_run(e->net, e->in, e->n, e->scratch, e->values, e->logits);
    if (e->count) __atomic_fetch_add(e->count, (int64_t)e->n, __ATOMIC_RELAXED);
}

void sbx_neteval_priors(const sbx_neteval *e, int i, int p, const uint8_t *moves, int k,
                        double *out) {
    const float *lg = sbx_neteval_logits(e, i) + (size_t)p * e->moves;
    double mx = -INFINITY, sum = 0.0;
    for (int j = 0; j < k; j++) {
        const double v = moves[j] < e->moves ? lg[moves[j]] : -INFINITY;
        mx = v > mx ? v : mx;
    }
    for (int j = 0; j < k; j++) {
        const double v = moves[j] < e->moves ? lg[moves[j]] : -INFINITY;
        out[j] = isfinite(mx) ? exp(v - mx) : 1.0;
        sum += out[j];
    }
    for (int j = 0; j < k; j++) out[j] = sum > 0.0 ? out[j] / sum : 1.0 / k;
}
