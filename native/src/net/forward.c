/*
 * forward.c — the network's pass (sbx.h section 7) and its public entries.
 *
 * Per block of up to SBX_NET_BLOCK states: each state's convolutions, one at
 * a time, into its row of X; then every dense layer and head for the whole
 * block, reading each weight row once per block (the rows are what does
 * not fit in L1). Sums run in a fixed order (the bias, then input 0, 1, ...),
 * so a state's outputs do not depend on the batch it came in.
 *
 * Scratch, in floats: the convolutions' patches (height x width x
 * max(planes, channels) x kernel^2) and two cell-major activation buffers,
 * then X[block][x_width], then two [block][hidden] buffers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/common.h"
#include "../games/game.h"
#include "net.h"

/* The convolutions' scratch: a patch per cell (im2col) and two
 * cell-major activation buffers. */
static int64_t conv_floats(const sbx_net *net) {
    const sbx_net_info *in = &net->info;
    if (in->conv_layers == 0) return 0;
    const int64_t c = in->planes > in->channels ? in->planes : in->channels;
    const int64_t hw = (int64_t)in->height * in->width;
    return hw * c * in->kernel * in->kernel + 2 * hw * c;
}

size_t sbx_net_scratch_floats(const sbx_net *net) {
    const int64_t hidden = net->info.hidden > 0 ? net->info.hidden : 1;
    return (size_t)(conv_floats(net) + SBX_NET_BLOCK * ((int64_t)net->x_width + 2 * hidden));
}

/* Is any of the 8 floats at x nonzero (either sign of zero counts as zero,
 * as with `x == 0.0f`)? Their bits ORed as four 64-bit words, the sign bits
 * masked off: four loads and no branch, where testing each float branched
 * on every input. */
static inline uint64_t any_nonzero8(const float *x) {
    uint64_t u[4];
    memcpy(u, x, sizeof u);
    return (u[0] | u[1] | u[2] | u[3]) & 0x7fffffff7fffffffull;
}

/* One state's out += x W over its first `tiled` columns (a multiple of
 * DENSE_TILE), a tile at a time: the tile's sums stay in registers (a
 * constant width the compiler unrolls) while the state's nonzero inputs are
 * added in order, instead of a load and a store of every output per input,
 * each waiting on the last (that chain was most of the snakes net's pass).
 * The nonzero inputs are gathered DENSE_CHUNK at a time, once for all the
 * tiles; each output still adds its inputs in order. */
#define DENSE_TILE 16
#define DENSE_CHUNK 256
static inline __attribute__((always_inline)) void dense_tiles(
    const float *x, int64_t in_w, const float *wt, int64_t out_w, int64_t tiled, float *o) {
    int32_t idx[DENSE_CHUNK];
    for (int64_t c0 = 0; c0 < in_w; c0 += DENSE_CHUNK) {
        const int64_t c1 = c0 + DENSE_CHUNK < in_w ? c0 + DENSE_CHUNK : in_w;
        int m = 0;
        int64_t k = c0;
        for (; k + 8 <= c1; k += 8) {
            if (!any_nonzero8(x + k)) continue;
            for (int i = 0; i < 8; i++) {
                idx[m] = (int32_t)(k + i);
                m += x[k + i] != 0.0f;
            }
        }
        for (; k < c1; k++) {
            idx[m] = (int32_t)k;
            m += x[k] != 0.0f;
        }
        for (int64_t j0 = 0; j0 < tiled; j0 += DENSE_TILE) {
            float acc[DENSE_TILE];
            memcpy(acc, o + j0, sizeof acc);
            for (int i = 0; i < m; i++) {
                const float xv = x[idx[i]];
                const float *row = wt + (int64_t)idx[i] * out_w + j0;
                for (int j = 0; j < DENSE_TILE; j++) acc[j] += xv * row[j];
            }
            memcpy(o + j0, acc, sizeof acc);
        }
    }
}

/* out[s] = in[s] W + b for the nb states of a block (ReLU if relu). A zero
 * input (most of a one-hot or a ReLU's output) adds nothing and is skipped;
 * eight inputs that are zero in every state of a pass are skipped at once
 * (a board's one-hot planes are mostly such runs: the test per input was
 * about a third of the snakes net's pass). Either way each state's sum runs
 * over its inputs in order, so the outputs are the same bits. */
static inline __attribute__((always_inline)) void dense_body(
    const float *in, int64_t in_w, int nb, const float *wt, const float *b, int64_t out_w,
    float *out, int64_t out_stride, int relu) {
    for (int s = 0; s < nb; s++) memcpy(out + s * out_stride, b, (size_t)out_w * sizeof *b);
    /* states per pass over W: their output rows must stay in L1 (a wide
     * head, a value per private state, takes one at a time) */
    const int64_t fit = 4096 / (out_w > 0 ? out_w : 1);
    const int sub = fit < 1 ? 1 : fit < nb ? (int)fit : nb;
    /* a state at a time (the searches that value one leaf an iteration):
     * whole tiles in registers, the last columns, if any, below. Only for
     * weights that stay in cache (256 KB): each tile reads its own column
     * strip of every row, and for a wide layer (goofspiel-13's hidden-bid
     * ranges, 892 KB) those strided passes cost more than they saved. */
    const int64_t tiled =
        nb == 1 && in_w * out_w <= (1 << 16) ? out_w / DENSE_TILE * DENSE_TILE : 0;
    if (tiled) dense_tiles(in, in_w, wt, out_w, tiled, out);
    for (int s0 = 0; s0 < nb && tiled < out_w; s0 += sub) {
        const int s1 = s0 + sub < nb ? s0 + sub : nb;
        for (int64_t k0 = 0; k0 < in_w; k0 += 8) {
            const int64_t k1 = k0 + 8 < in_w ? k0 + 8 : in_w;
            if (k1 - k0 == 8) {
                uint64_t any = 0;
                for (int s = s0; s < s1; s++) any |= any_nonzero8(in + s * in_w + k0);
                if (!any) continue;
            }
            for (int64_t k = k0; k < k1; k++) {
                const float *restrict row = wt + k * out_w;
                for (int s = s0; s < s1; s++) {
                    const float x = in[s * in_w + k];
                    if (x == 0.0f) continue;
                    float *restrict o = out + s * out_stride;
                    for (int64_t j = tiled; j < out_w; j++) o[j] += x * row[j];
                }
            }
        }
    }
    if (relu) {
        for (int s = 0; s < nb; s++) {
            float *o = out + s * out_stride;
            for (int64_t j = 0; j < out_w; j++) o[j] = o[j] > 0.0f ? o[j] : 0.0f;
        }
    }
}

#define DENSE_ARGS                                                                   \
    const float *in, int64_t in_w, int nb, const float *wt, const float *b, int64_t out_w, \
        float *out, int64_t out_stride, int relu
#define DENSE_PASS in, in_w, nb, wt, b, out_w, out, out_stride, relu

static void dense_plain(DENSE_ARGS) { dense_body(DENSE_PASS); }

/* The same loops compiled for AVX2 (eight floats an instruction where SSE2
 * has four), taken where the CPU has it: the same multiplies and adds in
 * the same order (no fused multiply-add: -ffp-contract=off), so the same
 * bits. The snakes net's pass at a state a time: about 1.1x. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) static void dense_avx2(DENSE_ARGS) { dense_body(DENSE_PASS); }
#else
static void dense_avx2(DENSE_ARGS) { dense_body(DENSE_PASS); }
#endif

/* Once per process (SBX_NO_AVX2 as for the snakes territory fill). */
static int avx2_on;
static char path_name[64] = "dense: scalar";

static void path_decide(void) {
    const char *why;
    avx2_on = sbx_avx2_usable(&why);
    snprintf(path_name, sizeof path_name, "dense: %s", why);
}

static pthread_once_t path_once = PTHREAD_ONCE_INIT;

const char *sbx_net_simd_path(void) {
    pthread_once(&path_once, path_decide);
    return path_name;
}

/* path_once has run (sbx_net_run sees to it) */
static void dense(DENSE_ARGS) {
    if (avx2_on) dense_avx2(DENSE_PASS);
    else dense_plain(DENSE_PASS);
}

/* One convolution, zero padding, stride 1, then ReLU, as a product: every
 * cell's patch (its in x kernel x kernel neighbourhood, zeros off the
 * board) times the [in*k*k][channels] weights, through dense() (the rows
 * a patch's zeros would add are skipped there). Activations are cell-major
 * ([cell][channel]) between layers. */
static void conv(const float *in, int cin, int h, int w, const float *wt, const float *b,
                 int cout, int k, float *patches, float *out) {
    const int r = (k - 1) / 2, kk = k * k, width = cin * kk;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float *pa = patches + (size_t)(y * w + x) * width;
            for (int dy = 0; dy < k; dy++) {
                const int yy = y + dy - r;
                for (int dx = 0; dx < k; dx++) {
                    const int xx = x + dx - r;
                    const int on = yy >= 0 && yy < h && xx >= 0 && xx < w;
                    const float *src = in + (size_t)(yy * w + xx) * cin;
                    for (int i = 0; i < cin; i++) pa[i * kk + dy * k + dx] = on ? src[i] : 0.0f;
                }
            }
        }
    }
    dense(patches, width, h * w, wt, b, cout, out, cout, 1);
}

void sbx_net_run(const sbx_net *net, const float *inputs, int n, float *scratch,
                 float *values, float *logits) {
    pthread_once(&path_once, path_decide);
    const sbx_net_info *in = &net->info;
    const int64_t hw = (int64_t)in->height * in->width, plane_floats = in->planes * hw;
    const int64_t input = in->input_size, xw = net->x_width;
    const int64_t hidden = in->hidden > 0 ? in->hidden : 1;
    const int64_t nv = (int64_t)in->players * in->value_slots;
    const int64_t np = (int64_t)in->players * in->moves;
    const int64_t maxc = in->planes > in->channels ? in->planes : in->channels;
    float *patches = scratch, *act = scratch + hw * maxc * in->kernel * in->kernel;
    float *X = scratch + conv_floats(net);
    float *H1 = X + SBX_NET_BLOCK * xw, *H2 = H1 + SBX_NET_BLOCK * hidden;
    for (int s0 = 0; s0 < n; s0 += SBX_NET_BLOCK) {
        const int nb = n - s0 < SBX_NET_BLOCK ? n - s0 : SBX_NET_BLOCK;
        for (int s = 0; s < nb; s++) {
            const float *x = inputs + (int64_t)(s0 + s) * input;
            float *row = X + s * xw;
            if (in->conv_layers == 0) {
                memcpy(row, x, (size_t)input * sizeof *x);
                continue;
            }
            /* the planes, cell-major */
            float *a = act, *b = act + hw * maxc;
            for (int64_t c = 0; c < in->planes; c++) {
                for (int64_t p = 0; p < hw; p++) a[p * in->planes + c] = x[c * hw + p];
            }
            int cin = in->planes;
            for (int l = 0; l < in->conv_layers; l++) {
                conv(a, cin, in->height, in->width, net->conv_wt[l], net->conv_b[l],
                     in->channels, in->kernel, patches, b);
                float *t = a;
                a = b;
                b = t;
                cin = in->channels;
            }
            /* back to channel-major for the dense layers (sbx.h's order) */
            for (int64_t c = 0; c < in->channels; c++) {
                for (int64_t p = 0; p < hw; p++) row[c * hw + p] = a[p * in->channels + c];
            }
            const int64_t conv_out = (int64_t)in->channels * hw;
            memcpy(row + conv_out, x + plane_floats,
                   (size_t)(input - plane_floats) * sizeof *x);
        }
        const float *h = X;
        int64_t width = xw;
        for (int l = 0; l < in->dense_layers; l++) {
            float *o = l % 2 == 0 ? H1 : H2;
            dense(h, width, nb, net->dense_w[l], net->dense_b[l], in->hidden, o, in->hidden, 1);
            h = o;
            width = in->hidden;
        }
        if (values) {
            dense(h, width, nb, net->value_w, net->value_b, nv, values + (int64_t)s0 * nv, nv, 0);
        }
        if (logits) {
            dense(h, width, nb, net->policy_w, net->policy_b, np, logits + (int64_t)s0 * np, np,
                  0);
        }
    }
}

int sbx_net_forward(const sbx_net *net, const float *inputs, int n, float *values,
                    float *logits) {
    if (!net || !inputs) return sbx_fail(SBX_ERR_ARGUMENT, "net or inputs is NULL");
    if (n < 1 || n > SBX_NET_MAX_BATCH) {
        return sbx_fail(SBX_ERR_ARGUMENT, "batch of %d states (1..%d)", n, SBX_NET_MAX_BATCH);
    }
    float *scratch = malloc(sbx_net_scratch_floats(net) * sizeof(float));
    if (!scratch) return sbx_fail(SBX_ERR_MEMORY, "out of memory for the network's pass");
    sbx_net_run(net, inputs, n, scratch, values, logits);
    free(scratch);
    return SBX_OK;
}

int sbx_net_evaluate(const sbx_net *net, sbx_game *const *games, int n, int view,
                     const float *ranges, float *values, float *logits) {
    if (!net || !games) return sbx_fail(SBX_ERR_ARGUMENT, "net or games is NULL");
    if (n < 1 || n > SBX_NET_MAX_BATCH) {
        return sbx_fail(SBX_ERR_ARGUMENT, "batch of %d states (1..%d)", n, SBX_NET_MAX_BATCH);
    }
    const sbx_net_info *in = &net->info;
    if (view != SBX_VIEW_CANONICAL && (view < 0 || view >= in->players)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "view %d is not -1 (canonical) or an agent 0..%d",
                        view, in->players - 1);
    }
    for (int i = 0; i < n; i++) {
        if (!games[i]) return sbx_fail(SBX_ERR_ARGUMENT, "game %d is NULL", i);
        int rc = sbx_net_check_game(net, games[i]);
        if (rc) return rc;
    }
    const int64_t input = in->input_size, nr = (int64_t)in->players * in->slots;
    float *x = malloc((size_t)(input * n) * sizeof *x);
    if (!x) return sbx_fail(SBX_ERR_MEMORY, "out of memory for %d network inputs", n);
    for (int i = 0; i < n; i++) {
        float *row = x + (int64_t)i * input;
        games[i]->vt->features(games[i]->cfg, games[i]->state, view, row);
        if (nr == 0) continue;
        if (ranges) memcpy(row + in->features, ranges + (int64_t)i * nr, (size_t)nr * sizeof *x);
        else memset(row + in->features, 0, (size_t)nr * sizeof *x);
    }
    int rc = sbx_net_forward(net, x, n, values, logits);
    free(x);
    return rc;
}

int sbx_net_time(const sbx_net *net, const float *inputs, int n, int batch, int repeats,
                 double *ms_out) {
    if (!net || !inputs || !ms_out) return sbx_fail(SBX_ERR_ARGUMENT, "NULL argument");
    if (n < 1 || n > SBX_NET_MAX_BATCH || batch < 1 || batch > n || repeats < 1) {
        return sbx_fail(SBX_ERR_ARGUMENT, "states %d, batch %d, repeats %d: need 1 <= batch "
                        "<= states <= %d and repeats >= 1", n, batch, repeats,
                        SBX_NET_MAX_BATCH);
    }
    const sbx_net_info *in = &net->info;
    float *scratch = malloc(sbx_net_scratch_floats(net) * sizeof(float));
    float *values = malloc((size_t)batch * (size_t)(in->players * in->value_slots) * sizeof(float));
    float *logits = malloc((size_t)batch * (size_t)(in->players * in->moves) * sizeof(float));
    if (!scratch || !values || !logits) {
        free(scratch);
        free(values);
        free(logits);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory for the network's pass");
    }
    const double t0 = sbx_now_ms();
    for (int r = 0; r < repeats; r++) {
        for (int s = 0; s < n; s += batch) {
            const int k = n - s < batch ? n - s : batch;
            sbx_net_run(net, inputs + (int64_t)s * in->input_size, k, scratch, values, logits);
        }
    }
    *ms_out = sbx_now_ms() - t0;
    free(scratch);
    free(values);
    free(logits);
    return SBX_OK;
}
