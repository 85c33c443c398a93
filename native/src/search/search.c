/*
 * search.c — what every algorithm shares beyond search.h's inline helpers:
 * the search's reusable scratch buffer and the root-only snapshot. With
 * search.h it sits below the algorithms, which call it, and so below
 * registry.c and api.c, which sit above them.
 */
#include "search.h"

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
