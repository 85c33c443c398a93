/* registry.h — the algorithm table (registry.c), read by api.c. */
#ifndef SBX_SEARCH_REGISTRY_H
#define SBX_SEARCH_REGISTRY_H

#include "search.h"

/* The algorithm behind an SBX_ALGO_* id; NULL if it is not built in. */
const sbx_algo_vt *sbx_algo_for(int algorithm);

#endif
