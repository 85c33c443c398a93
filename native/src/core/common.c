/* common.c — error messages, clock and parameter-string parsing. */
#include "common.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One message per OS thread: cffi calls C on the caller's thread, so the
 * Python wrapper reads the message of its own failed call. */
static _Thread_local char last_error[512];

int sbx_fail(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return code;
}

const char *sbx_last_error(void) { return last_error; }

const char *sbx_version(void) { return "0.1.0"; }

double sbx_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int is_sep(char c) {
    return c == ' ' || c == ',' || c == ';' || c == '\t' || c == '\n' ||
           c == '\r';
}

int sbx_parse_kv(const char *text, sbx_kv_fn fn, void *ctx) {
    if (text == NULL) return SBX_OK;
    /* A value can be a matrix payoff row: 16 numbers of up to 24 characters
     * ("-1.2345678901234567e-300") and 15 '/' = 399 characters; a list of
     * 16 action names takes 255. */
    char key[64], value[512];
    const char *p = text;
    for (;;) {
        while (*p && is_sep(*p)) p++;
        if (!*p) return SBX_OK;
        const char *k0 = p;
        while (*p && *p != '=' && !is_sep(*p)) p++;
        size_t klen = (size_t)(p - k0);
        if (*p != '=') {
            return sbx_fail(SBX_ERR_ARGUMENT,
                            "parameter '%.*s': expected key=value",
                            (int)(klen < 60 ? klen : 60), k0);
        }
        if (klen == 0 || klen >= sizeof key) {
            return sbx_fail(SBX_ERR_ARGUMENT, "parameter name empty or too long");
        }
        memcpy(key, k0, klen);
        key[klen] = 0;
        p++; /* '=' */
        const char *v0 = p;
        while (*p && !is_sep(*p)) p++;
        size_t vlen = (size_t)(p - v0);
        if (vlen == 0 || vlen >= sizeof value) {
            return sbx_fail(SBX_ERR_ARGUMENT, "%s: value empty or too long", key);
        }
        memcpy(value, v0, vlen);
        value[vlen] = 0;
        int rc = fn(ctx, key, value);
        if (rc != SBX_OK) return rc;
    }
}

int sbx_kv_int(const char *key, const char *value, long lo, long hi, int *out) {
    char *end = NULL;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: expected an integer (got '%s')",
                        key, value);
    }
    if (v < lo || v > hi) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: must be in %ld..%ld (got %ld)",
                        key, lo, hi, v);
    }
    *out = (int)v;
    return SBX_OK;
}

int sbx_kv_double(const char *key, const char *value, double lo, double hi,
                  double *out) {
    char *end = NULL;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || end == value || *end || !isfinite(v)) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: expected a number (got '%s')",
                        key, value);
    }
    if (v < lo || v > hi) {
        return sbx_fail(SBX_ERR_ARGUMENT, "%s: must be in %g..%g (got %g)", key,
                        lo, hi, v);
    }
    *out = v;
    return SBX_OK;
}
