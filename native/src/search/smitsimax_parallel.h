/* smitsimax_parallel.h — Smitsimax's parallel modes, its vtable's
 * run_parallel (smitsimax_parallel.c). */
#ifndef SBX_SMITSIMAX_PARALLEL_H
#define SBX_SMITSIMAX_PARALLEL_H

#include "smitsimax_tree.h"

int smx_run_parallel(sbx_search *s, int64_t max_iterations, double max_ms, double t0,
                     int64_t *iterations, int64_t *turns, int *reason);

#endif
