/* mcgs_view.h — MCGS's inspection entries for its vtable (mcgs_view.c). */
#ifndef SBX_MCGS_VIEW_H
#define SBX_MCGS_VIEW_H

#include "mcgs_graph.h"

void mcgs_best_moves(sbx_search *s, int32_t *out);
int mcgs_root_stats(sbx_search *s, int agent, sbx_move_stat *out, int cap, int *n_out);
void mcgs_fill_stats(sbx_search *s, sbx_search_stats *out);
int mcgs_root_matrix(sbx_search *s, sbx_root_matrix *out);
int mcgs_snapshot_links(sbx_search *s, const sbx_snapshot_node *rows, int n_rows,
                        int32_t *pairs, uint8_t *joints, int cap, int *n_out);
int mcgs_snapshot(sbx_search *s, int agent, uint32_t top, int max_nodes, int min_visits,
                  sbx_snapshot_node *out, int *n_out);
int mcgs_find_path(sbx_search *s, int agent, const uint8_t *path, int steps, int stride,
                   int32_t *node_out);
int64_t mcgs_node_count(sbx_search *s);

#endif
