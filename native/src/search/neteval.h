/*
 * neteval.h — a value-and-policy network inside a search (sbx.h section 7,
 * the `value_net` setting): what every algorithm shares to ask one. A
 * search queues states (their features built by the game's `features`
 * entry, canonical view, then the ranges a public-state search fills in),
 * runs the batch in one pass and reads each state's values and priors.
 *
 * One evaluator per thread that asks (the search's own for a serial run; a
 * parallel MCGS worker makes its own): it owns the pass's scratch and the
 * batch buffers, grown by doubling, never per state. The net itself is
 * shared and read-only.
 *
 *   sbx_neteval_clear(e);
 *   float *ranges = sbx_neteval_push(e, vt, cfg, state);   (per state)
 *   sbx_neteval_run(e);
 *   const float *v = sbx_neteval_values(e, i);             ([players][value_slots])
 *   sbx_neteval_priors(e, i, player, moves, k, out);       (softmax over moves)
 */
#ifndef SBX_NETEVAL_H
#define SBX_NETEVAL_H

#include <stddef.h>
#include <stdint.h>

#include "../games/game.h"
#include "../net/net.h"

typedef struct sbx_neteval {
    const sbx_net *net;   /* NULL: none attached                          */
    float *scratch;       /* the pass's (sbx_net_scratch_floats)          */
    float *in, *values, *logits;
    int n, cap;           /* states queued, states the buffers hold       */
    int input, features, players, slots, value_slots, moves;
    int64_t *count;       /* the search's meter of states valued (summed
                             atomically: helper threads share it)         */
} sbx_neteval;

/* Takes net (NULL: none) for e, freeing what the last one needed; each pass
 * adds its states to *count (the search's net_states). SBX_OK or
 * SBX_ERR_MEMORY (e then has no net). */
int sbx_neteval_attach(sbx_neteval *e, const sbx_net *net, int64_t *count);
void sbx_neteval_free(sbx_neteval *e);

static inline void sbx_neteval_clear(sbx_neteval *e) { e->n = 0; }

/* Queues state's features (canonical view) and returns the state's ranges
 * (players * slots floats, zeroed; the caller may fill them), or NULL when
 * the buffers cannot grow (out of memory). */
float *sbx_neteval_push(sbx_neteval *e, const sbx_game_vt *vt, const void *cfg,
                        const void *state);

/* The pass over the queued states. */
void sbx_neteval_run(sbx_neteval *e);

/* State i's values [players][value_slots] and logits [players][moves]. */
static inline const float *sbx_neteval_values(const sbx_neteval *e, int i) {
    return e->values + (size_t)i * e->players * e->value_slots;
}
static inline const float *sbx_neteval_logits(const sbx_neteval *e, int i) {
    return e->logits + (size_t)i * e->players * e->moves;
}

/* Player p's value of state i, for a game without private states (value
 * slot 0). */
static inline double sbx_neteval_value(const sbx_neteval *e, int i, int p) {
    return sbx_neteval_values(e, i)[(size_t)p * e->value_slots];
}

/* Player p's policy prior at state i over its k legal moves (move ids):
 * the softmax of its policy head's logits over those moves alone. */
void sbx_neteval_priors(const sbx_neteval *e, int i, int p, const uint8_t *moves, int k,
                        double *out);

#endif
