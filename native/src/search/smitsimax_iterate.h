/* smitsimax_iterate.h — Smitsimax's serial iteration (smitsimax_iterate.c). */
#ifndef SBX_SMITSIMAX_ITERATE_H
#define SBX_SMITSIMAX_ITERATE_H

#include "smitsimax_tree.h"

/* One serial iteration on a tree set with a worker's RNG, state and value
 * net evaluator: the search's own (smx_iterate), or root parallelism's per
 * thread. */
int smx_iterate_on(sbx_search *s, smx_tree *trees, uint64_t *rng, void *sim, sbx_neteval *ev,
                   int64_t *turns);
/* The vtable's iterate and iterate_traced (the step view's trace). */
int smx_iterate(sbx_search *s, int64_t *turns);
int smx_iterate_traced(sbx_search *s, int64_t *turns, sbx_trace *tr);

#endif
