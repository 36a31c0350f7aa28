/*
 * The OpenSSL provider's speed guard (make test-provider): gcmkit's AES-GCM through EVP as
 * a ratio of OpenSSL's own (the default provider), both fetched into one library context
 * and timed in one process, interleaved. Not a timing: the ratio of the two sides' fastest
 * samples (many short ones, taken in turn), so the machine's clock and neighbours cancel
 * out. Each check's floor is half of the lowest ratio measured for it (the table `rows`
 * below, the ratios beside the floors): on this CPU if the table names it, else on any CPU,
 * so that gcmkit made twice as slow fails it; a kernel compiled without its target
 * features (the 70x slowdown of 56b812f..699da11) fails every check.
 *
 * GCMKIT_SPEED_GUARD_SLOWDOWN=2 makes gcmkit's side seal every message twice: the guard's
 * own demonstration that a gcmkit twice as slow fails it (AMD Zen 4, family 25 model 17,
 * 2026-12-04: docs/tuning.md, "speed guards", has the command and the failing rows).
 *
 * The call timed is a TLS-style message: a new 12-byte IV on the initialised key, 13 bytes
 * of AAD, one EVP_EncryptUpdate over the data in place, EVP_EncryptFinal_ex and the tag,
 * at 1500 B and 16 KiB, for AES-128-GCM and AES-256-GCM. AES-GCM-SIV is not compared:
 * OpenSSL 3.0's default provider has none (it came in 3.2).
 *
 *   speed_guard -p PROVIDER_DIR
 * Exit status 0 only if every check is at or above its floor.
 */
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SAMPLES 41

/* One CPU's measured ratio for a check (OpenSSL's time over gcmkit's): "perf" is
 * docs/perf/provider.md (`make bench-provider`: `openssl speed -evp`, whole messages
 * without AAD; 16 KiB only); "guard" this guard's own runs there, the lowest of five
 * (amd-f25-m17, AMD Zen 4: 2026-12-04, under flock /tmp/gcmkit-timing.lock; docs/tuning.md,
 * "speed guards"); "est" an estimate for a size docs/perf lacks on that CPU: its 16 KiB
 * figure times the 1500 B / 16 KiB factor measured here (1.54/2.71 for AES-128-GCM,
 * 1.43/2.45 for AES-256-GCM). */
typedef struct {
    const char *cpu; /* as docs/perf names its per-CPU pages: vendor-fFAMILY-mMODEL */
    double ratio;
    const char *source;
} seen_t;

typedef struct {
    const char *cipher;
    size_t key_len, len;
    double floor; /* half of the lowest ratio of `seen`, on any CPU (checked at start) */
    seen_t seen[4];
} row_t;

static const row_t rows[] = {
    { "AES-128-GCM", 16, 1500, 0.735, { { "amd-f25-m17", 1.54, "guard" }, { "intel-f6-m207", 1.47, "est" } } },
    { "AES-128-GCM", 16, 16384, 1.295, { { "intel-f6-m207", 2.59, "perf" }, { "amd-f25-m17", 2.71, "guard" } } },
    { "AES-256-GCM", 32, 1500, 0.710, { { "amd-f25-m17", 1.43, "guard" }, { "intel-f6-m207", 1.42, "est" } } },
    { "AES-256-GCM", 32, 16384, 1.215, { { "intel-f6-m207", 2.43, "perf" }, { "amd-f25-m17", 2.45, "guard" } } },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

typedef struct {
    EVP_CIPHER_CTX *ctx;
    unsigned char *buf;
    size_t len;
} sealer_t;

static void die(const char *what) {
    ERR_print_errors_fp(stderr);
    fprintf(stderr, "speed_guard: %s\n", what);
    exit(1);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static sealer_t sealer(OSSL_LIB_CTX *libctx, const char *cipher, const char *provider,
                       size_t key_len, size_t len) {
    char propq[64];
    unsigned char key[32];
    snprintf(propq, sizeof(propq), "provider=%s", provider);
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, cipher, propq);
    if (!c) die("cannot fetch the cipher");
    if ((size_t)EVP_CIPHER_get_key_length(c) != key_len) die("unexpected key length");
    memset(key, 7, sizeof(key));
    sealer_t s = { EVP_CIPHER_CTX_new(), malloc(len), len };
    if (!s.ctx || !s.buf) die("out of memory");
    memset(s.buf, 1, len);
    if (!EVP_EncryptInit_ex2(s.ctx, c, key, NULL, NULL)) die("EVP_EncryptInit_ex2 (key)");
    EVP_CIPHER_free(c); /* the context keeps its own reference */
    return s;
}

/* One message: fresh IV, AAD, the data in place, the tag. */
static void seal(sealer_t *s, unsigned counter) {
    unsigned char iv[12] = { 3 }, aad[13] = { 23, 3, 3 }, tag[16];
    int outl;
    memcpy(iv + 8, &counter, sizeof(counter));
    if (!EVP_EncryptInit_ex2(s->ctx, NULL, NULL, iv, NULL)
        || !EVP_EncryptUpdate(s->ctx, NULL, &outl, aad, sizeof(aad))
        || !EVP_EncryptUpdate(s->ctx, s->buf, &outl, s->buf, (int)s->len)
        || !EVP_EncryptFinal_ex(s->ctx, s->buf + outl, &outl)
        || !EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_GET_TAG, sizeof(tag), tag))
        die("sealing failed");
}

/* `vendor-fFAMILY-mMODEL` from /proc/cpuinfo into `out`, or "unknown". */
static void cpu_id(char *out, size_t n) {
    char line[256], vendor[64] = "", family[16] = "", model[16] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(out, n, "unknown");
    if (!f) return;
    while (fgets(line, sizeof(line), f) && !(*vendor && *family && *model)) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        char *v = colon + 1 + strspn(colon + 1, " \t");
        v[strcspn(v, "\n")] = 0;
        if (!*vendor && !strncmp(line, "vendor_id", 9)) snprintf(vendor, sizeof(vendor), "%s", v);
        else if (!*family && !strncmp(line, "cpu family", 10)) snprintf(family, sizeof(family), "%s", v);
        else if (!*model && !strncmp(line, "model\t", 6)) snprintf(model, sizeof(model), "%s", v);
    }
    fclose(f);
    const char *short_vendor = !strcmp(vendor, "AuthenticAMD") ? "amd"
                               : !strcmp(vendor, "GenuineIntel") ? "intel" : NULL;
    if (short_vendor && *family && *model)
        snprintf(out, n, "%s-f%s-m%s", short_vendor, family, model);
}

/* The lowest ratio of `r` measured on `cpu` (0 if none), or with cpu NULL on any CPU. */
static double lowest(const row_t *r, const char *cpu) {
    double low = 0;
    for (size_t i = 0; i < sizeof(r->seen) / sizeof(r->seen[0]) && r->seen[i].cpu; i++)
        if ((!cpu || !strcmp(cpu, r->seen[i].cpu)) && (low == 0 || r->seen[i].ratio < low))
            low = r->seen[i].ratio;
    return low;
}

/* OpenSSL's fastest sample over gcmkit's, `calls` messages per sample, the sides sampled in
 * turn (order alternating); gcmkit's side seals each message `slowdown` times. */
static double race(sealer_t *g, sealer_t *o, int calls, int slowdown) {
    unsigned counter = 0;
    double best_g = 1e30, best_o = 1e30;
    for (int i = 0; i < calls; i++) { seal(g, counter++); seal(o, counter++); }
    for (int r = 0; r < SAMPLES; r++) {
        for (int side = 0; side < 2; side++) {
            int gcmkit_side = (side == 0) == (r % 2 == 0);
            double t0 = now();
            if (gcmkit_side)
                for (int i = 0; i < calls * slowdown; i++) seal(g, counter++);
            else
                for (int i = 0; i < calls; i++) seal(o, counter++);
            double t = now() - t0;
            if (gcmkit_side) { if (t < best_g) best_g = t; }
            else if (t < best_o) best_o = t;
        }
    }
    return best_o / best_g;
}

int main(int argc, char **argv) {
    if (argc != 3 || strcmp(argv[1], "-p")) {
        fprintf(stderr, "usage: %s -p PROVIDER_DIR\n", argv[0]);
        return 2;
    }
    int slowdown = 1;
    const char *sd = getenv("GCMKIT_SPEED_GUARD_SLOWDOWN");
    if (sd) {
        char *end;
        long v = strtol(sd, &end, 10);
        if (!*sd || *end || v < 1 || v > 100) {
            fprintf(stderr, "speed_guard: GCMKIT_SPEED_GUARD_SLOWDOWN must be a whole number from 1, not \"%s\"\n", sd);
            return 2;
        }
        slowdown = (int)v;
        printf("GCMKIT_SPEED_GUARD_SLOWDOWN=%d: gcmkit's side seals every message %d times\n",
               slowdown, slowdown);
    }
    for (size_t k = 0; k < NROWS; k++) {
        double low = lowest(&rows[k], NULL);
        if (low == 0 || rows[k].floor < low / 2 - 0.0051 || rows[k].floor > low / 2 + 0.0051) {
            fprintf(stderr, "speed_guard: the floor of %s %zu B (%.2f) is not half of its lowest ratio (%.2f)\n",
                    rows[k].cipher, rows[k].len, rows[k].floor, low);
            return 2;
        }
    }
    char cpu[96];
    cpu_id(cpu, sizeof(cpu));
    OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(libctx, argv[2]);
    OSSL_PROVIDER *gp = OSSL_PROVIDER_load(libctx, "gcmkit");
    OSSL_PROVIDER *dp = OSSL_PROVIDER_load(libctx, "default");
    if (!gp || !dp) die("cannot load the gcmkit and default providers");
    int checked = 0, failed = 0;
    for (size_t k = 0; k < NROWS; k++) {
        const row_t *row = &rows[k];
        size_t len = row->len;
        sealer_t g = sealer(libctx, row->cipher, "gcmkit", row->key_len, len);
        sealer_t o = sealer(libctx, row->cipher, "default", row->key_len, len);
        /* About 256 KiB of data per sample: a quarter of a millisecond at 1 GB/s. */
        int calls = (int)(256 * 1024 / len) > 8 ? (int)(256 * 1024 / len) : 8;
        double ratio = race(&g, &o, calls, slowdown);
        double own = lowest(row, cpu);
        double floor = own > 0 ? own / 2 : row->floor;
        int ok = ratio >= floor;
        printf("%-4s %-11s EVP encrypt %5zu B: %5.2fx OpenSSL's default provider (floor %.2f, %s; CPU %s)\n",
               ok ? "ok" : "FAIL", row->cipher, len, ratio, floor,
               own > 0 ? "this CPU's" : "any CPU", cpu);
        checked++;
        failed += !ok;
        EVP_CIPHER_CTX_free(g.ctx); EVP_CIPHER_CTX_free(o.ctx);
        free(g.buf); free(o.buf);
    }
    OSSL_PROVIDER_unload(gp);
    OSSL_PROVIDER_unload(dp);
    OSSL_LIB_CTX_free(libctx);
    if (failed) {
        fprintf(stderr, "provider speed guard: %d of %d checks under their floors\n", failed, checked);
        return 1;
    }
    printf("provider speed guard: %d checks, every one at or above its floor\n", checked);
    return 0;
}
