/*
 * netfile.c — reading a network file (sbx.h section 7 gives the format).
 *
 * Everything in a file is checked before it is used: the header's ranges,
 * the exact length the header implies, the checksum, and that every weight
 * is finite. A refusal says what is wrong; nothing is allocated from an
 * unchecked size.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/common.h"
#include "../games/game.h"
#include "net.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "the file's words are read with memcpy: little-endian hosts only");

#define MAGIC "SBXNET01"
#define HEADER_WORDS 16
#define KIND_BYTES 32
#define PREFIX_BYTES (8 + 4 * HEADER_WORDS + KIND_BYTES)
#define MAX_META 65536
/* 1 GiB of float32: far beyond a "small" net, and a bound on what a header
 * can make the loader allocate. */
#define MAX_PARAMETERS (1LL << 28)

static uint64_t fnv1a(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

typedef struct shape {
    int32_t w[HEADER_WORDS];
    int64_t params;             /* floats of all tensors                      */
    int32_t x_width, head_in, value_slots;
} shape;

enum { H_VERSION, H_PLAYERS, H_MOVES, H_SLOTS, H_FEATURES, H_PLANES, H_HEIGHT, H_WIDTH,
       H_CONV, H_KERNEL, H_CHANNELS, H_DENSE, H_HIDDEN, H_META, H_ZERO1, H_ZERO2 };

static int range_check(const char *name, int32_t v, int32_t lo, int32_t hi) {
    if (v < lo || v > hi) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: %s %d out of range %d..%d", name,
                        (int)v, (int)lo, (int)hi);
    }
    return SBX_OK;
}

/* The header's words checked one by one, then the tensor sizes they imply. */
static int check_header(shape *s) {
    const int32_t *w = s->w;
    int rc;
    if (w[H_VERSION] != SBX_NET_VERSION) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: version %d, this core reads "
                        "version %d", (int)w[H_VERSION], SBX_NET_VERSION);
    }
    if ((rc = range_check("players", w[H_PLAYERS], 1, SBX_MAX_AGENTS)) ||
        (rc = range_check("moves", w[H_MOVES], 1, SBX_MAX_MOVES)) ||
        (rc = range_check("slots", w[H_SLOTS], 0, 65536)) ||
        (rc = range_check("features", w[H_FEATURES], 1, 1 << 20)) ||
        (rc = range_check("planes", w[H_PLANES], 0, 1 << 20)) ||
        (rc = range_check("height", w[H_HEIGHT], 0, 1 << 20)) ||
        (rc = range_check("width", w[H_WIDTH], 0, 1 << 20)) ||
        (rc = range_check("conv_layers", w[H_CONV], 0, SBX_NET_MAX_LAYERS)) ||
        (rc = range_check("dense_layers", w[H_DENSE], 0, SBX_NET_MAX_LAYERS)) ||
        (rc = range_check("meta_bytes", w[H_META], 0, MAX_META))) {
        return rc;
    }
    if (w[H_ZERO1] != 0 || w[H_ZERO2] != 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: the reserved header words are "
                        "not 0");
    }
    const int64_t planes = w[H_PLANES], height = w[H_HEIGHT], width = w[H_WIDTH];
    const int none = planes == 0 && height == 0 && width == 0;
    const int some = planes > 0 && height > 0 && width > 0;
    if (!none && !some) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: planes x height x width %dx%dx%d: "
                        "all three 0 or all at least 1", (int)planes, (int)height,
                        (int)width);
    }
    const int64_t cells = height * width, plane_floats = planes * cells;
    if (plane_floats > w[H_FEATURES]) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: %lld plane values but only %d "
                        "features", (long long)plane_floats, (int)w[H_FEATURES]);
    }
    const int conv = w[H_CONV], dense = w[H_DENSE];
    if (conv > 0) {
        if (!some) {
            return sbx_fail(SBX_ERR_ARGUMENT, "network file: convolutions need board planes");
        }
        if ((rc = range_check("kernel", w[H_KERNEL], 1, 9)) ||
            (rc = range_check("channels", w[H_CHANNELS], 1, 256))) {
            return rc;
        }
        if (w[H_KERNEL] % 2 == 0) {
            return sbx_fail(SBX_ERR_ARGUMENT, "network file: kernel %d is even (odd sizes "
                            "keep the board's shape)", (int)w[H_KERNEL]);
        }
    } else if (w[H_KERNEL] != 0 || w[H_CHANNELS] != 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: kernel and channels must be 0 "
                        "without convolutions");
    }
    if (dense > 0) {
        if ((rc = range_check("hidden", w[H_HIDDEN], 1, 4096))) return rc;
    } else if (w[H_HIDDEN] != 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: hidden must be 0 without dense "
                        "layers");
    }
    const int64_t k = w[H_KERNEL], ch = w[H_CHANNELS], hidden = w[H_HIDDEN];
    const int64_t players = w[H_PLAYERS], slots = w[H_SLOTS];
    const int64_t vslots = slots > 0 ? slots : 1;
    int64_t params = 0, in = planes;
    for (int i = 0; i < conv; i++) {
        params += ch * in * k * k + ch;
        in = ch;
    }
    const int64_t x_width = (conv > 0 ? ch * cells : plane_floats) +
                            (w[H_FEATURES] - plane_floats) + players * slots;
    int64_t cur = x_width;
    for (int i = 0; i < dense; i++) {
        params += cur * hidden + hidden;
        cur = hidden;
        if (params > MAX_PARAMETERS) break;
    }
    params += cur * players * vslots + players * vslots;
    params += cur * players * w[H_MOVES] + players * w[H_MOVES];
    if (params > MAX_PARAMETERS || x_width > (1 << 24) || cur * players * vslots > MAX_PARAMETERS) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: more than %lld parameters (a "
                        "small net is the point)", (long long)MAX_PARAMETERS);
    }
    s->params = params;
    s->x_width = (int32_t)x_width;
    s->head_in = (int32_t)cur;
    s->value_slots = (int32_t)vslots;
    return SBX_OK;
}

static int check_kind(const uint8_t *p, char *kind) {
    const void *nul = memchr(p, 0, KIND_BYTES);
    if (nul == NULL || nul == (const void *)p) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: the game kind is empty or not "
                        "NUL-terminated within %d bytes", KIND_BYTES);
    }
    for (const uint8_t *c = p; c < (const uint8_t *)nul; c++) {
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')) {
            return sbx_fail(SBX_ERR_ARGUMENT, "network file: the game kind holds a byte "
                            "0x%02x (a-z, 0-9 and _ only)", (unsigned)*c);
        }
    }
    memcpy(kind, p, KIND_BYTES);
    return SBX_OK;
}

void sbx_net_free(sbx_net *net) {
    if (net == NULL) return;
    for (int i = 0; i < SBX_NET_MAX_LAYERS; i++) free(net->conv_wt[i]);
    free(net->meta);
    free(net->weights);
    free(net);
}

/* Points the tensor pointers into net->weights, in file order. */
static void lay_out(sbx_net *net, const shape *s) {
    const int32_t *w = s->w;
    const float *p = net->weights;
    int64_t in = w[H_PLANES];
    const int64_t k = w[H_KERNEL], ch = w[H_CHANNELS], hidden = w[H_HIDDEN];
    for (int i = 0; i < w[H_CONV]; i++) {
        net->conv_w[i] = p;
        p += ch * in * k * k;
        net->conv_b[i] = p;
        p += ch;
        in = ch;
    }
    int64_t cur = s->x_width;
    for (int i = 0; i < w[H_DENSE]; i++) {
        net->dense_w[i] = p;
        p += cur * hidden;
        net->dense_b[i] = p;
        p += hidden;
        cur = hidden;
    }
    const int64_t nv = (int64_t)w[H_PLAYERS] * s->value_slots;
    const int64_t np = (int64_t)w[H_PLAYERS] * w[H_MOVES];
    net->value_w = p;
    p += cur * nv;
    net->value_b = p;
    p += nv;
    net->policy_w = p;
    p += cur * np;
    net->policy_b = p;
}

int sbx_net_from_bytes(const uint8_t *data, size_t len, sbx_net **out) {
    if (out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "out is NULL");
    *out = NULL;
    if (data == NULL && len > 0) return sbx_fail(SBX_ERR_ARGUMENT, "data is NULL");
    if (len < 8 || memcmp(data, MAGIC, 8) != 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "not a network file (it does not start with "
                        "\"%s\")", MAGIC);
    }
    if (len < PREFIX_BYTES) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: truncated (%zu bytes, the header "
                        "alone takes %d)", len, PREFIX_BYTES);
    }
    shape s;
    memset(&s, 0, sizeof s);
    memcpy(s.w, data + 8, sizeof s.w);
    int rc = check_header(&s);
    if (rc) return rc;
    char kind[KIND_BYTES];
    rc = check_kind(data + 8 + 4 * HEADER_WORDS, kind);
    if (rc) return rc;
    const size_t meta_len = (size_t)s.w[H_META];
    const size_t want = PREFIX_BYTES + meta_len + (size_t)s.params * 4 + 8;
    if (len != want) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: %zu bytes, the header says %zu (%s)",
                        len, want, len < want ? "truncated" : "trailing bytes");
    }
    uint64_t sum;
    memcpy(&sum, data + want - 8, 8);
    if (fnv1a(data, want - 8) != sum) {
        return sbx_fail(SBX_ERR_ARGUMENT, "network file: the checksum does not match (a "
                        "damaged file)");
    }
    sbx_net *net = calloc(1, sizeof *net);
    if (net) {
        net->meta = malloc(meta_len + 1);
        net->weights = malloc((size_t)s.params * sizeof(float) + 1);
    }
    if (!net || !net->meta || !net->weights) {
        sbx_net_free(net);
        return sbx_fail(SBX_ERR_MEMORY, "out of memory loading a network (%lld parameters)",
                        (long long)s.params);
    }
    memcpy(net->meta, data + PREFIX_BYTES, meta_len);
    net->meta[meta_len] = 0;
    memcpy(net->weights, data + PREFIX_BYTES + meta_len, (size_t)s.params * sizeof(float));
    for (int64_t i = 0; i < s.params; i++) {
        if (!isfinite(net->weights[i])) {
            sbx_net_free(net);
            return sbx_fail(SBX_ERR_ARGUMENT, "network file: parameter %lld is not a finite "
                            "number", (long long)i);
        }
    }
    sbx_net_info *in = &net->info;
    in->version = s.w[H_VERSION];
    in->players = s.w[H_PLAYERS];
    in->moves = s.w[H_MOVES];
    in->slots = s.w[H_SLOTS];
    in->value_slots = s.value_slots;
    in->features = s.w[H_FEATURES];
    in->planes = s.w[H_PLANES];
    in->height = s.w[H_HEIGHT];
    in->width = s.w[H_WIDTH];
    in->conv_layers = s.w[H_CONV];
    in->kernel = s.w[H_KERNEL];
    in->channels = s.w[H_CHANNELS];
    in->dense_layers = s.w[H_DENSE];
    in->hidden = s.w[H_HIDDEN];
    in->input_size = s.w[H_FEATURES] + s.w[H_PLAYERS] * s.w[H_SLOTS];
    in->parameters = s.params;
    memcpy(in->kind, kind, KIND_BYTES);
    net->x_width = s.x_width;
    net->head_in = s.head_in;
    lay_out(net, &s);
    /* the convolutions' weights transposed for the pass (forward.c) */
    int cin = in->planes;
    const int kk = in->kernel * in->kernel, ch = in->channels;
    for (int l = 0; l < in->conv_layers; l++) {
        float *t = malloc((size_t)cin * kk * ch * sizeof *t);
        if (!t) {
            sbx_net_free(net);
            return sbx_fail(SBX_ERR_MEMORY, "out of memory loading a network");
        }
        for (int c = 0; c < ch; c++) {
            for (int j = 0; j < cin * kk; j++) t[(size_t)j * ch + c] = net->conv_w[l][(size_t)c * cin * kk + j];
        }
        net->conv_wt[l] = t;
        cin = ch;
    }
    *out = net;
    return SBX_OK;
}

int sbx_net_load(const char *path, sbx_net **out) {
    if (out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "out is NULL");
    *out = NULL;
    if (path == NULL || !*path) return sbx_fail(SBX_ERR_ARGUMENT, "no network file named");
    /* O_NONBLOCK: a FIFO must not hang the open; only regular files pass. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: cannot open: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: not a regular file", path);
    }
    const size_t cap = (size_t)PREFIX_BYTES + MAX_META + (size_t)MAX_PARAMETERS * 4 + 8;
    if ((uint64_t)st.st_size > cap) {
        close(fd);
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: %lld bytes, larger than any network file", path,
                        (long long)st.st_size);
    }
    const size_t len = (size_t)st.st_size;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        close(fd);
        return sbx_fail(SBX_ERR_MEMORY, "%s: out of memory reading %zu bytes", path, len);
    }
    size_t got = 0;
    while (got < len) {
        ssize_t r = read(fd, buf + got, len - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    if (got != len) {
        free(buf);
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: read %zu of %zu bytes", path, got, len);
    }
    int rc = sbx_net_from_bytes(buf, len, out);
    free(buf);
    if (rc != SBX_OK) {
        /* the message names the file */
        char msg[512];
        strncpy(msg, sbx_last_error(), sizeof msg - 1);
        msg[sizeof msg - 1] = 0;
        return sbx_fail(rc, "%s: %s", path, msg);
    }
    return SBX_OK;
}

int sbx_net_get_info(const sbx_net *net, sbx_net_info *out) {
    if (!net || !out) return sbx_fail(SBX_ERR_ARGUMENT, "net or out is NULL");
    *out = net->info;
    return SBX_OK;
}

const char *sbx_net_meta(const sbx_net *net) {
    return net ? net->meta : "";
}

int sbx_net_check_game(const sbx_net *net, const sbx_game *game) {
    if (!net || !game) return sbx_fail(SBX_ERR_ARGUMENT, "net or game is NULL");
    return sbx_net_check_config(net, game->vt, game->cfg);
}

int sbx_net_check_config(const sbx_net *net, const sbx_game_vt *vt, const void *cfg) {
    const sbx_net_info *in = &net->info;
    if (strcmp(in->kind, vt->name) != 0) {
        return sbx_fail(SBX_ERR_ARGUMENT, "the network is for %s, the game is %s", in->kind,
                        vt->name);
    }
    sbx_features_layout lay;
    int rc = sbx_game_vt_layout(vt, cfg, &lay);
    if (rc) return rc;
    const struct { const char *name; int32_t net, game; } pairs[] = {
        {"features", in->features, lay.size},   {"planes", in->planes, lay.planes},
        {"height", in->height, lay.height},     {"width", in->width, lay.width},
        {"players", in->players, lay.players},  {"moves", in->moves, lay.moves},
        {"slots", in->slots, lay.slots},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        if (pairs[i].net != pairs[i].game) {
            char params[512];
            vt->describe(cfg, params, sizeof params);
            return sbx_fail(SBX_ERR_ARGUMENT, "the network takes %d %s, this game (%s) has "
                            "%d: it was trained for other parameters", (int)pairs[i].net,
                            pairs[i].name, params, (int)pairs[i].game);
        }
    }
    return SBX_OK;
}
