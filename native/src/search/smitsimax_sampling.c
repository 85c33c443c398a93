/*
 * smitsimax_sampling.c — RM's counterfactual returns (smitsimax_sampling.h):
 * what every alternative move would have earned at a step that ends the
 * iteration.
 */
#include "smitsimax_sampling.h"

#include <string.h>

void smx_counterfactuals(const sbx_search *s, smx *x, const smx_tree *trees,
                         uint32_t (*path)[SBX_MAX_DEPTH + 1], const int *plen,
                         const uint32_t *step_node, const uint8_t *joint, int depth,
                         int at_limit, double (*cfv)[SBX_MAX_MOVES], int *cf_k) {
    const int n = s->num_agents;
    for (int a = 0; a < n; a++) {
        cf_k[a] = 0;
        if (!step_node[a]) continue;
        /* determinized: another seat's siblings come from an earlier sample
         * and may be illegal in this one; its node keeps sampled estimates */
        if (s->hidden && a != sbx_info_seat(&s->p)) continue;
        const smx_node *parent = &trees[a].nodes[path[a][plen[a] - 2]];
        const smx_node *ch = &trees[a].nodes[parent->first_child];
        uint8_t alt[SBX_MAX_AGENTS];
        memcpy(alt, joint, (size_t)n);
        int ends = 1;
        for (int i = 0; ends && i < parent->nchildren; i++) {
            cfv[a][i] = 0.0;
            if (parent->first_child + (uint32_t)i == step_node[a]) continue;
            memcpy(x->cf_alt, x->cf_pre, s->state_size);
            alt[a] = ch[i].move;
            s->vt->step(s->cfg, x->cf_alt, alt, NULL);
            ends = at_limit || s->vt->is_terminal(s->cfg, x->cf_alt);
            if (!ends) break; /* this line goes on: the node keeps its estimates */
            double sc[SBX_MAX_AGENTS];
            sbx_search_evaluate(s, x->cf_alt, sc); /* as the leaf is */
            cfv[a][i] = s->p.depth_normalize ? sc[a] / (double)(depth > 1 ? depth : 1) : sc[a];
        }
        if (ends) cf_k[a] = plen[a] - 1;
    }
}

