/* registry.c — the games built into this core, by name (sbx.h §1: kinds,
 * sbx_game_new, the per-kind questions, sbx_simd_paths). The one file that
 * names the games: it sits above them, and a game never calls back into it
 * (each depends only on game.h, emit.h and core). A new game adds its
 * vtable here; the table's order is the kind order Python lists. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../core/common.h"
#include "game.h"

extern const sbx_game_vt sbx_snakes_vt;
extern const sbx_game_vt sbx_goofspiel_vt;
extern const sbx_game_vt sbx_matrix_vt;
extern const sbx_game_vt sbx_depthbias_vt;
extern const sbx_game_vt sbx_maze_vt;
extern const sbx_game_vt sbx_pods_vt;

static const sbx_game_vt *const registry[] = {
    &sbx_snakes_vt,
    &sbx_goofspiel_vt,
    &sbx_matrix_vt,
    &sbx_depthbias_vt,
    &sbx_maze_vt,
    &sbx_pods_vt,
};
#define NUM_GAMES ((int)(sizeof registry / sizeof registry[0]))

const char *sbx_game_kind_name(int index) {
    return (index >= 0 && index < NUM_GAMES) ? registry[index]->name : NULL;
}

static const sbx_game_vt *find_kind(const char *kind) {
    if (kind == NULL) return NULL;
    for (int i = 0; i < NUM_GAMES; i++) {
        if (strcmp(registry[i]->name, kind) == 0) return registry[i];
    }
    return NULL;
}

const char *sbx_game_kind_params_doc(const char *kind) {
    const sbx_game_vt *vt = find_kind(kind);
    return vt ? vt->params_doc : NULL;
}

int sbx_game_new(const char *kind, const char *params, uint64_t seed,
                 sbx_game **out) {
    if (out == NULL) return sbx_fail(SBX_ERR_ARGUMENT, "out is NULL");
    *out = NULL;
    const sbx_game_vt *vt = find_kind(kind);
    if (vt == NULL) {
        return sbx_fail(SBX_ERR_ARGUMENT, "unknown game kind '%s'",
                        kind ? kind : "(null)");
    }
    return sbx_game_make(vt, params, seed, out);
}

int sbx_game_has_free_moves(const char *kind) {
    const sbx_game_vt *vt = find_kind(kind);
    return vt != NULL && vt->step_free != NULL;
}

int sbx_game_has_bot(const char *kind) {
    const sbx_game_vt *vt = find_kind(kind);
    return vt != NULL && vt->bot_move != NULL;
}

/* What the games run on this machine beyond plain C (sbx.h): each game
 * with a vector path, "<name> <path>", separated by "; ". */
static char paths[256];
static void fill_paths(void) {
    size_t n = 0;
    paths[0] = '\0';
    for (int i = 0; i < NUM_GAMES && n < sizeof paths; i++) {
        if (!registry[i]->simd_path) continue;
        n += (size_t)snprintf(paths + n, sizeof paths - n, "%s%s %s", n ? "; " : "",
                              registry[i]->name, registry[i]->simd_path());
    }
}

const char *sbx_simd_paths(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill_paths);
    return paths;
}
