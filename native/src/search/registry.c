/*
 * registry.c — the algorithms built into this core, by SBX_ALGO_* id. The
 * one file that names them: it sits above them (api.c asks it), and an
 * algorithm never calls back into it or into api.c (each depends only on
 * search.h, search.c's helpers, the games' contract and core). A new
 * algorithm adds its vtable here and its id in sbx.h.
 */
#include "registry.h"

extern const sbx_algo_vt sbx_smitsimax_vt;
extern const sbx_algo_vt sbx_suct_vt;
extern const sbx_algo_vt sbx_joint_vt;
extern const sbx_algo_vt sbx_random_vt;
extern const sbx_algo_vt sbx_greedy_vt;
extern const sbx_algo_vt sbx_mcgs_vt;
extern const sbx_algo_vt sbx_uct_vt;
extern const sbx_algo_vt sbx_gtcfr_vt;
extern const sbx_algo_vt sbx_pubcfr_vt;

/* One entry per SBX_ALGO_*, in id order. */
static const sbx_algo_vt *const ALGOS[] = {
    [SBX_ALGO_SMITSIMAX] = &sbx_smitsimax_vt,
    [SBX_ALGO_SUCT] = &sbx_suct_vt,
    [SBX_ALGO_JOINT] = &sbx_joint_vt,
    [SBX_ALGO_RANDOM] = &sbx_random_vt,
    [SBX_ALGO_GREEDY] = &sbx_greedy_vt,
    [SBX_ALGO_MCGS] = &sbx_mcgs_vt,
    [SBX_ALGO_UCT] = &sbx_uct_vt,
    [SBX_ALGO_GTCFR] = &sbx_gtcfr_vt,
    [SBX_ALGO_PUBCFR] = &sbx_pubcfr_vt,
};

const sbx_algo_vt *sbx_algo_for(int algorithm) {
    if (algorithm < 0 || algorithm >= (int)(sizeof ALGOS / sizeof ALGOS[0])) return NULL;
    return ALGOS[algorithm];
}
