/* smitsimax_view.h — Smitsimax's inspection entries for its vtable
 * (smitsimax_view.c). */
#ifndef SBX_SMITSIMAX_VIEW_H
#define SBX_SMITSIMAX_VIEW_H

#include "smitsimax_tree.h"

void smx_best_moves(sbx_search *s, int32_t *out);
int smx_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap, int *n_out);
void smx_fill_stats(sbx_search *s, sbx_search_stats *out);
int smx_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes, int min_visits,
                 sbx_snapshot_node *out, int *n_out);
int smx_find_path(sbx_search *s, int agent, const uint8_t *path, int steps, int stride,
                  int32_t *node_out);
int64_t smx_node_count(sbx_search *s);

#endif
