/* mcgs_select.h — MCGS's selection, backup and serial playout (mcgs_select.c). */
#ifndef SBX_MCGS_SELECT_H
#define SBX_MCGS_SELECT_H

#include "../core/common.h"
#include "mcgs_graph.h"

/* One step of the argmax both selections make: a higher score wins, an equal
 * one replaces the best with probability 1/ties (uniform among equal scores,
 * reservoir sampling). One copy, so that the serial and the parallel loop
 * draw from the RNG alike (threads = 1 must give the serial graph). */
static inline void mcgs_keep_best(double v, int i, double *best_v, int *best, int *ties,
                                  uint64_t *rng) {
    if (v > *best_v) {
        *best_v = v;
        *best = i;
        *ties = 1;
    } else if (v == *best_v && sbx_rng_below(rng, (uint32_t)++*ties) == 0) {
        *best = i;
    }
}

/* Node nd's Q per player recomputed from its edges (idempotent). */
void mcgs_recompute_q(mcgs *x, mcgs_node *nd);
/* Player a's marginal at nd: visits per outcome (mv) and Option D's Q (mq;
 * the FPU for an unvisited outcome). */
void mcgs_marginal(const mcgs *x, const mcgs_node *nd, int a, double fpu_offset,
                   uint32_t *mv, double *mq);
/* One serial playout with its backup (tr: the step view's trace, or NULL);
 * SBX_STOP_NONE, or SBX_STOP_NODE_CAP when it found no room. */
int mcgs_playout(sbx_search *s, int64_t *turns, sbx_trace *tr);

#endif
