/*
 * net.h — internal: a loaded value-and-policy network (sbx.h section 7).
 *
 * netfile.c parses and checks a file into this struct; forward.c runs it.
 * A net is never written after loading, so threads share one freely; the
 * pass writes only the caller's scratch.
 *
 * For the searches (they evaluate frontier states in batches):
 *   float *scratch = malloc(sbx_net_scratch_floats(net) * sizeof(float));
 *   sbx_net_run(net, inputs, n, scratch, values, logits);
 * with inputs[n][input_size] built by the game's `features` entry (game.h)
 * and the ranges after them.
 */
#ifndef SBX_NET_H
#define SBX_NET_H

#include <stddef.h>
#include <stdint.h>

#include "sbx.h"
#include "../games/game.h"

#define SBX_NET_MAX_LAYERS 8
/* States per block of the dense layers: each weight row is read once per
 * block instead of once per state. */
#define SBX_NET_BLOCK 8

struct sbx_net {
    sbx_net_info info;
    char *meta;                 /* NUL-terminated                             */
    float *weights;             /* every tensor, in file order                */
    const float *conv_w[SBX_NET_MAX_LAYERS], *conv_b[SBX_NET_MAX_LAYERS];
    /* each convolution's weights as a [in*kernel*kernel][channels] matrix
     * (im2col: the pass multiplies every cell's patch by it) */
    float *conv_wt[SBX_NET_MAX_LAYERS];
    const float *dense_w[SBX_NET_MAX_LAYERS], *dense_b[SBX_NET_MAX_LAYERS];
    const float *value_w, *value_b, *policy_w, *policy_b;
    int32_t x_width;            /* x after the convolutions                   */
    int32_t head_in;            /* the heads' input width                     */
};

/* sbx_net_check_game's check from a game's vtable and configuration (a
 * search holds those, not a game object). */
int sbx_net_check_config(const sbx_net *net, const sbx_game_vt *vt, const void *cfg);

/* Floats of scratch sbx_net_run needs, whatever n. */
size_t sbx_net_scratch_floats(const sbx_net *net);
/* The pass over n >= 1 states; values / logits may be NULL. No checks. */
void sbx_net_run(const sbx_net *net, const float *inputs, int n, float *scratch,
                 float *values, float *logits);

#endif
