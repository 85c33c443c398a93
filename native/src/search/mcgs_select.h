/* mcgs_select.h — MCGS's selection, backup and serial playout (mcgs_select.c). */
#ifndef SBX_MCGS_SELECT_H
#define SBX_MCGS_SELECT_H

#include "mcgs_graph.h"

/* Node nd's Q per player recomputed from its edges (idempotent). */
void mcgs_recompute_q(mcgs *x, mcgs_node *nd);
/* Player a's marginal at nd: visits per outcome (mv) and Option D's Q (mq;
 * the FPU for an unvisited outcome). */
void mcgs_marginal(const mcgs *x, const mcgs_node *nd, int a, double fpu_offset,
                   uint32_t *mv, double *mq);
/* The parallel run's: Q recomputed with atomic loads and stores, and player
 * a's PUCT pick counting the in-flight simulations (infl, per edge). */
void mcgs_par_recompute_q(mcgs *x, mcgs_node *nd);
int mcgs_select_outcome_ex(const mcgs *x, const mcgs_node *nd, int a,
                           const sbx_search_params *p, uint64_t *rng, const uint32_t *infl);
/* One serial playout with its backup (tr: the step view's trace, or NULL);
 * SBX_STOP_NONE, or SBX_STOP_NODE_CAP when it found no room. */
int mcgs_playout(sbx_search *s, int64_t *turns, sbx_trace *tr);

#endif
