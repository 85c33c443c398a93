/* emit.c — export and hash from one writer (emit.h: sbx_emit): every game
 * writes its export through these. Below the games and the registry that
 * lists them (registry.c -> a game -> emit.c, no way back). */
#include "emit.h"

#include "../core/common.h"

int sbx_export_with(sbx_export_writer write, const void *cfg, const void *state,
                    int32_t *buf, int cap) {
    sbx_emitter e = {buf, cap, 0, SBX_HASH_INIT};
    write(cfg, state, &e);
    if (e.n > cap) {
        return sbx_fail(SBX_ERR_ARGUMENT, "export needs %d words, buffer has %d",
                        e.n, cap);
    }
    return e.n;
}

uint64_t sbx_hash_with(sbx_export_writer write, const void *cfg,
                       const void *state) {
    sbx_emitter e = {NULL, 0, 0, SBX_HASH_INIT};
    write(cfg, state, &e);
    return sbx_hash_finish(e.h);
}
