/*
 * The OpenSSL provider's speed guard (make test-provider): gcmkit's AES-GCM through EVP as
 * a ratio of OpenSSL's own (the default provider), both fetched into one library context
 * and timed in one process, interleaved. Not a timing: the machine's clock and neighbours
 * cancel out of the ratio. Fails when gcmkit runs at under FLOOR (0.5) of OpenSSL, so a 2x
 * regression fails and noise does not; a kernel compiled without its target features (the
 * 70x slowdown of 56b812f..699da11) fails every check.
 *
 * The call timed is a TLS-style message: a new 12-byte IV on the initialised key, 13 bytes
 * of AAD, one EVP_EncryptUpdate over the data in place, EVP_EncryptFinal_ex and the tag,
 * at 1500 B and 16 KiB, for AES-128-GCM and AES-256-GCM. AES-GCM-SIV is not compared:
 * OpenSSL 3.0's default provider has none (it came in 3.2).
 *
 *   speed_guard -p PROVIDER_DIR
 * Exit status 0 only if every check is at least FLOOR.
 */
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 15
#define FLOOR 0.5

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

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median over rounds of (OpenSSL's time / gcmkit's time) for `calls` messages each. */
static double race(sealer_t *g, sealer_t *o, int calls) {
    double ratios[ROUNDS];
    unsigned counter = 0;
    for (int i = 0; i < calls; i++) { seal(g, counter++); seal(o, counter++); }
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        for (int i = 0; i < calls; i++) seal(g, counter++);
        double t1 = now();
        for (int i = 0; i < calls; i++) seal(o, counter++);
        double t2 = now();
        ratios[r] = (t2 - t1) / (t1 - t0);
    }
    qsort(ratios, ROUNDS, sizeof(double), by_value);
    return ratios[ROUNDS / 2];
}

int main(int argc, char **argv) {
    if (argc != 3 || strcmp(argv[1], "-p")) {
        fprintf(stderr, "usage: %s -p PROVIDER_DIR\n", argv[0]);
        return 2;
    }
    OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(libctx, argv[2]);
    OSSL_PROVIDER *gp = OSSL_PROVIDER_load(libctx, "gcmkit");
    OSSL_PROVIDER *dp = OSSL_PROVIDER_load(libctx, "default");
    if (!gp || !dp) die("cannot load the gcmkit and default providers");
    const struct { const char *name; size_t key_len; } ciphers[] = {
        { "AES-128-GCM", 16 }, { "AES-256-GCM", 32 },
    };
    const size_t sizes[] = { 1500, 16384 };
    int checked = 0, failed = 0;
    for (size_t c = 0; c < sizeof(ciphers) / sizeof(ciphers[0]); c++) {
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
            size_t len = sizes[k];
            sealer_t g = sealer(libctx, ciphers[c].name, "gcmkit", ciphers[c].key_len, len);
            sealer_t o = sealer(libctx, ciphers[c].name, "default", ciphers[c].key_len, len);
            /* About 0.5 ms of work per side and round at 1 GB/s. */
            int calls = (int)(512 * 1024 / len) > 8 ? (int)(512 * 1024 / len) : 8;
            double ratio = race(&g, &o, calls);
            int ok = ratio >= FLOOR;
            printf("%-4s %-11s EVP encrypt %5zu B: %5.2fx OpenSSL's default provider\n",
                   ok ? "ok" : "FAIL", ciphers[c].name, len, ratio);
            checked++;
            failed += !ok;
            EVP_CIPHER_CTX_free(g.ctx); EVP_CIPHER_CTX_free(o.ctx);
            free(g.buf); free(o.buf);
        }
    }
    OSSL_PROVIDER_unload(gp);
    OSSL_PROVIDER_unload(dp);
    OSSL_LIB_CTX_free(libctx);
    if (failed) {
        fprintf(stderr, "provider speed guard: %d of %d checks under %.1fx OpenSSL\n", failed,
                checked, FLOOR);
        return 1;
    }
    printf("provider speed guard: %d checks, every one at least %.1fx OpenSSL\n", checked, FLOOR);
    return 0;
}
