/* mcgs_parallel.h — MCGS's parallel run, its vtable's run_parallel
 * (mcgs_parallel.c). */
#ifndef SBX_MCGS_PARALLEL_H
#define SBX_MCGS_PARALLEL_H

#include "mcgs_graph.h"

int mcgs_run_parallel(sbx_search *s, int64_t max_iterations, double max_ms, double t0,
                      int64_t *iterations, int64_t *turns, int *reason);

#endif
