#define _GNU_SOURCE
/*
 * gcmkit-ossl's EVP runner: every AES-GCM / AES-GCM-SIV stanza of an OpenSSL EVP test
 * file through EVP with the cipher fetched explicitly from one provider
 * (EVP_CIPHER_fetch(libctx, name, "provider=<p>")), AAD and data fed in random pieces,
 * in place or not, with an EVP_CIPHER_CTX_copy (dupctx) finishing a second copy of each
 * GCM message. Expected failures (Result = ...) must fail at decryption.
 *
 *   evp_runner -p DIR -P gcmkit|default [-s SEED] [-b] FILE...
 *     -b: the bad-input checks (misuse of the API) instead of files; prints one line per
 *         check with its return codes and error reasons, for comparison between providers.
 * Exit status 0 only if every stanza passed and at least one ran.
 */
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

static OSSL_LIB_CTX *libctx;
static char propq[64];
static unsigned long long rng = 88172645463325252ULL;

static unsigned rnd(unsigned n) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return n ? (unsigned)(rng % n) : 0;
}

typedef struct { unsigned char *p; size_t n; int set; } buf_t;
typedef struct {
    char cipher[64], result[64], op[16], title[256];
    buf_t key, iv, aad, tag, pt, ct;
    int line;
} stanza_t;

static void buf_free(buf_t *b) { free(b->p); memset(b, 0, sizeof(*b)); }

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

static int parse_hex(const char *s, buf_t *b) {
    size_t len = strlen(s);
    while (len && isspace((unsigned char)s[len - 1])) len--;
    if (len % 2) return 0;
    b->p = malloc(len / 2 + 1);
    b->n = len / 2;
    b->set = 1;
    for (size_t i = 0; i < b->n; i++) {
        int h = hexval(s[2 * i]), l = hexval(s[2 * i + 1]);
        if (h < 0 || l < 0) return 0;
        b->p[i] = (unsigned char)(h << 4 | l);
    }
    return 1;
}

static int is_siv(const char *c) { return strcasestr(c, "gcm-siv") != NULL; }
static int is_gcm(const char *c) {
    return strcasestr(c, "-gcm") != NULL || strcasestr(c, "gcm-siv") != NULL;
}

/* Feeds `in` (n bytes) to EVP_CipherUpdate in random pieces (one piece for SIV data). */
static int feed(EVP_CIPHER_CTX *c, unsigned char *out, const unsigned char *in, size_t n,
                int one_piece, size_t *total) {
    size_t off = 0;
    int outl;
    *total = 0;
    do {
        size_t k = one_piece ? n - off : (n - off == 0 ? 0 : 1 + rnd((unsigned)(n - off)));
        if (!one_piece && rnd(4) == 0 && k > 16) k = 1 + rnd(16);
        if (!EVP_CipherUpdate(c, out ? out + *total : NULL, &outl, in + off, (int)k))
            return 0;
        off += k;
        *total += (size_t)outl;
    } while (off < n);
    return 1;
}

/* Feeds AAD in random non-empty pieces (GCM-SIV clears its AAD on an empty one). */
static int feed_aad(EVP_CIPHER_CTX *c, const buf_t *aad, int siv) {
    size_t off = 0;
    int outl;
    if (!aad->set) return 1;
    if (aad->n == 0)
        return siv ? 1 : EVP_CipherUpdate(c, NULL, &outl, aad->p, 0);
    while (off < aad->n) {
        size_t k = 1 + rnd((unsigned)(aad->n - off));
        if (!EVP_CipherUpdate(c, NULL, &outl, aad->p + off, (int)k)) return 0;
        off += k;
    }
    return 1;
}

static EVP_CIPHER *fetch(const char *name) {
    return EVP_CIPHER_fetch(libctx, name, propq);
}

static int set_ivlen(EVP_CIPHER_CTX *c, size_t n) {
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &n),
                        OSSL_PARAM_END };
    return EVP_CIPHER_CTX_set_params(c, p);
}

/* One direction. Returns 1 pass, 0 fail; *stage says where a failure happened. */
static int run_dir(const stanza_t *s, int enc, const char **stage) {
    EVP_CIPHER *ciph = fetch(s->cipher);
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new(), *dup = NULL;
    int siv = is_siv(s->cipher), ok = 0, outl = 0;
    const buf_t *in = enc ? &s->pt : &s->ct, *want = enc ? &s->ct : &s->pt;
    size_t n = in->n, total = 0, total2 = 0;
    unsigned char *out = calloc(n + 32, 1), *out2 = calloc(n + 32, 1), *src = NULL;
    unsigned char tag[16];
    *stage = "fetch";
    if (ciph == NULL || c == NULL) goto done;
    *stage = "init";
    if (!EVP_CipherInit_ex2(c, ciph, NULL, NULL, enc, NULL)) goto done;
    if (s->iv.n != 12 && !siv && !set_ivlen(c, s->iv.n)) goto done;
    if (!EVP_CipherInit_ex2(c, NULL, s->key.p, s->iv.p, enc, NULL)) goto done;
    if (!enc && s->tag.set &&
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)s->tag.n, s->tag.p)) goto done;
    *stage = "aad";
    if (!feed_aad(c, &s->aad, siv)) goto done;
    /* In place (input copied into the output first) or from a separate buffer. */
    int inplace = rnd(2);
    if (inplace) { if (n) memcpy(out, in->p, n); src = out; }
    else src = in->p ? in->p : (unsigned char *)"";
    /* A copy of the context made at a random point finishes the same message. */
    size_t cut = n ? rnd((unsigned)n + 1) : 0;
    *stage = "update";
    if (siv) {
        if (!feed(c, out, src, n, 1, &total)) goto done;
    } else {
        if (!feed(c, out, src, cut, 0, &total)) goto done;
        dup = EVP_CIPHER_CTX_new();
        if (dup == NULL || !EVP_CIPHER_CTX_copy(dup, c)) { *stage = "dupctx"; goto done; }
        memcpy(out2, out, total);
        unsigned char *src2 = inplace ? out2 + cut : src + cut;
        if (inplace && n > cut) memcpy(out2 + cut, in->p + cut, n - cut);
        size_t t1 = 0, t2 = 0;
        if (!feed(c, out + cut, inplace ? out + cut : src + cut, n - cut, 0, &t1)) goto done;
        if (!feed(dup, out2 + cut, src2, n - cut, 0, &t2)) { *stage = "dup update"; goto done; }
        total += t1;
        total2 = total - t1 + t2;
    }
    *stage = "final";
    if (!EVP_CipherFinal_ex(c, out + total, &outl)) goto done;
    total += (size_t)outl;
    if (dup != NULL) {
        *stage = "dup final";
        if (!EVP_CipherFinal_ex(dup, out2 + total2, &outl)) goto done;
        total2 += (size_t)outl;
        if (total2 != total || memcmp(out, out2, total) != 0) goto done;
    }
    *stage = "output";
    if (want->set && (total != want->n || memcmp(out, want->p, total) != 0)) goto done;
    if (enc && s->tag.set) {
        *stage = "tag";
        if (!EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)s->tag.n, tag)) goto done;
        if (memcmp(tag, s->tag.p, s->tag.n) != 0) goto done;
        if (dup != NULL) {
            if (!EVP_CIPHER_CTX_ctrl(dup, EVP_CTRL_AEAD_GET_TAG, (int)s->tag.n, tag)) goto done;
            if (memcmp(tag, s->tag.p, s->tag.n) != 0) goto done;
        }
    }
    ok = 1;
    *stage = "ok";
done:
    EVP_CIPHER_CTX_free(c);
    EVP_CIPHER_CTX_free(dup);
    EVP_CIPHER_free(ciph);
    free(out);
    free(out2);
    ERR_clear_error();
    return ok;
}

static int counts[3]; /* ran, passed, skipped */

static void run_stanza(stanza_t *s) {
    const char *stage;
    if (!s->cipher[0]) return;
    if (!is_gcm(s->cipher)) { counts[2]++; return; }
    counts[0]++;
    int pass;
    if (s->result[0]) {
        /* An expected failure: decryption must fail (at Final for a wrong tag; anywhere
         * for Wycheproof's invalid vectors), and honest encryption must not reproduce the
         * given tag. */
        pass = !run_dir(s, 0, &stage);
        const char *want = !strcmp(s->result, "ANY_ERROR") ? NULL : "final";
        if (pass && want && strcmp(stage, want) != 0 && strcmp(stage, "output") != 0) pass = 0;
        if (pass && want && s->pt.set && s->tag.set) {
            const char *st2;
            stanza_t e = *s;
            e.ct.set = 0; /* the given ciphertext may be the tampered one */
            pass = !run_dir(&e, 1, &st2) && !strcmp(st2, "tag");
            if (!pass) stage = "encrypt reproduced the bad tag";
        }
    } else {
        pass = 1;
        if (strcasecmp(s->op, "DECRYPT") != 0 && !run_dir(s, 1, &stage)) pass = 0;
        if (pass && strcasecmp(s->op, "ENCRYPT") != 0 && !run_dir(s, 0, &stage)) pass = 0;
    }
    if (pass) counts[1]++;
    else fprintf(stderr, "FAIL line %d: %s (%s) at %s\n", s->line, s->cipher, s->title, stage);
}

static void stanza_clear(stanza_t *s) {
    buf_free(&s->key); buf_free(&s->iv); buf_free(&s->aad);
    buf_free(&s->tag); buf_free(&s->pt); buf_free(&s->ct);
    s->cipher[0] = s->result[0] = s->op[0] = 0;
}

static int run_file(const char *path) {
    FILE *f = fopen(path, "r");
    char line[1 << 16];
    stanza_t s;
    int ln = 0, skip = 0;
    if (!f) { perror(path); return 0; }
    memset(&s, 0, sizeof(s));
    while (fgets(line, sizeof(line), f)) {
        ln++;
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (line[0] == '#') continue;
        if (line[0] == 0) {
            if (!skip) run_stanza(&s);
            stanza_clear(&s);
            skip = 0;
            continue;
        }
        char *eq = strchr(line, '=');
        if (!eq) continue;
        char *k = line, *v = eq + 1;
        *eq = 0;
        for (char *e = eq - 1; e >= k && isspace((unsigned char)*e); e--) *e = 0;
        while (*v == ' ') v++;
        if (!s.line) s.line = ln;
        if (!strcmp(k, "Cipher")) { snprintf(s.cipher, sizeof(s.cipher), "%s", v); s.line = ln; }
        else if (!strcmp(k, "Title")) snprintf(s.title, sizeof(s.title), "%s", v);
        else if (!strcmp(k, "Result")) snprintf(s.result, sizeof(s.result), "%s", v);
        else if (!strcmp(k, "Operation")) snprintf(s.op, sizeof(s.op), "%s", v);
        else if (!strcmp(k, "Availablein")) skip = strcmp(v, "default") != 0;
        else {
            buf_t *b = !strcmp(k, "Key") ? &s.key : !strcmp(k, "IV") ? &s.iv
                     : !strcmp(k, "AAD") ? &s.aad : !strcmp(k, "Tag") ? &s.tag
                     : !strcmp(k, "Plaintext") ? &s.pt : !strcmp(k, "Ciphertext") ? &s.ct : NULL;
            if (b && !parse_hex(v, b)) {
                fprintf(stderr, "%s:%d: bad hex\n", path, ln);
                fclose(f);
                return 0;
            }
        }
    }
    if (!skip) run_stanza(&s);
    stanza_clear(&s);
    fclose(f);
    return 1;
}

/* ---- bad input: each check prints "name rc... reason" for comparison ---- */
static void show(const char *name, int rc) {
    unsigned long e = ERR_peek_last_error();
    printf("%-34s rc=%d err=%s\n", name, rc, e ? ERR_reason_error_string(e) : "-");
    ERR_clear_error();
}

static int bad_input(const char *cname) {
    EVP_CIPHER *ciph = fetch(cname);
    unsigned char key[32] = {1}, iv[128] = {2}, buf[64] = {3}, tag[17] = {0};
    int outl, siv = is_siv(cname), kl;
    if (!ciph) { fprintf(stderr, "cannot fetch %s\n", cname); return 0; }
    kl = EVP_CIPHER_get_key_length(ciph);
    printf("== %s\n", cname);
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    /* Update and Final with neither key nor IV. */
    show("init no key no iv", EVP_EncryptInit_ex2(c, ciph, NULL, NULL, NULL));
    show("update without key", EVP_EncryptUpdate(c, buf, &outl, buf, 16));
    show("final without key", EVP_EncryptFinal_ex(c, buf, &outl));
    /* Key but no IV: OpenSSL's GCM generates one when encrypting. */
    EVP_CIPHER_CTX_reset(c);
    show("init key only (enc)", EVP_EncryptInit_ex2(c, ciph, key, NULL, NULL));
    show("update key only (enc)", EVP_EncryptUpdate(c, buf, &outl, buf, 16));
    show("final key only (enc)", EVP_EncryptFinal_ex(c, buf, &outl));
    EVP_CIPHER_CTX_reset(c);
    show("init key only (dec)", EVP_DecryptInit_ex2(c, ciph, key, NULL, NULL));
    show("update key only (dec)", EVP_DecryptUpdate(c, buf, &outl, buf, 16));
    /* Wrong key length through the keylen param. */
    EVP_CIPHER_CTX_reset(c);
    EVP_EncryptInit_ex2(c, ciph, NULL, NULL, NULL);
    show("set keylen wrong", EVP_CIPHER_CTX_set_key_length(c, kl + 1));
    /* IV lengths. */
    EVP_CIPHER_CTX_reset(c);
    EVP_EncryptInit_ex2(c, ciph, NULL, NULL, NULL);
    show("set ivlen 0", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 0, NULL));
    show("set ivlen 129", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 129, NULL));
    show("set ivlen 128", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 128, NULL));
    show("set ivlen 1", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 1, NULL));
    show("get ivlen", EVP_CIPHER_CTX_get_iv_length(c));
    /* Tags of wrong lengths, in the wrong direction, before the message ends. */
    EVP_CIPHER_CTX_reset(c);
    EVP_EncryptInit_ex2(c, ciph, key, iv, NULL);
    show("enc: set tag", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag));
    show("enc: get tag before final", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag));
    show("enc: update", EVP_EncryptUpdate(c, buf, &outl, buf, 20));
    show("enc: update NULL input, 0", EVP_EncryptUpdate(c, buf, &outl, NULL, 0));
    show("enc: update 0 bytes", EVP_EncryptUpdate(c, buf, &outl, buf, 0));
    show("enc: final", EVP_EncryptFinal_ex(c, buf, &outl));
    show("enc: get tag 0", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 0, tag));
    show("enc: get tag 17", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 17, tag));
    show("enc: get tag 4", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 4, tag));
    show("enc: get tag 16", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag));
    show("enc: update after final", EVP_EncryptUpdate(c, buf, &outl, buf, 16));
    show("enc: aad after final", EVP_EncryptUpdate(c, NULL, &outl, buf, 16));
    show("enc: final after final", EVP_EncryptFinal_ex(c, buf, &outl));
    show("enc: re-init iv only", EVP_EncryptInit_ex2(c, NULL, NULL, iv, NULL));
    show("enc: update NULL input, 16", EVP_EncryptUpdate(c, buf, &outl, NULL, 16));
    show("enc: re-init iv only", EVP_EncryptInit_ex2(c, NULL, NULL, iv, NULL));
    show("enc: update after re-init", EVP_EncryptUpdate(c, buf, &outl, buf, 16));
    show("enc: aad after data", EVP_EncryptUpdate(c, NULL, &outl, buf, 16));
    show("enc: final after re-init", EVP_EncryptFinal_ex(c, buf, &outl));
    EVP_CIPHER_CTX_reset(c);
    EVP_DecryptInit_ex2(c, ciph, key, iv, NULL);
    show("dec: set tag 0", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 0, tag));
    show("dec: set tag 17", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 17, tag));
    show("dec: set tag 3", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 3, tag));
    show("dec: get tag", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag));
    show("dec: update", EVP_DecryptUpdate(c, buf, &outl, buf, 20));
    show("dec: final without tag", EVP_DecryptFinal_ex(c, buf, &outl));
    EVP_CIPHER_CTX_reset(c);
    EVP_DecryptInit_ex2(c, ciph, key, iv, NULL);
    show("dec: set tag 16", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, tag));
    show("dec: update", EVP_DecryptUpdate(c, buf, &outl, buf, 20));
    show("dec: final wrong tag", EVP_DecryptFinal_ex(c, buf, &outl));
    /* Parameters of the wrong type. */
    {
        int i = 12;
        char s[] = "12";
        OSSL_PARAM p1[2] = { OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_AEAD_IVLEN, s, 0),
                             OSSL_PARAM_END };
        OSSL_PARAM p2[2] = { OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_AEAD_TAG, &i),
                             OSSL_PARAM_END };
        OSSL_PARAM p3[2] = { OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, &i),
                             OSSL_PARAM_END };
        OSSL_PARAM p4[2] = { OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, &i),
                             OSSL_PARAM_END };
        OSSL_PARAM p5[2] = { OSSL_PARAM_construct_int(OSSL_CIPHER_PARAM_IVLEN, &i),
                             OSSL_PARAM_END };
        show("param ivlen as utf8", EVP_CIPHER_CTX_set_params(c, p1));
        show("param tag as int", EVP_CIPHER_CTX_set_params(c, p2));
        show("param tlsaad as int", EVP_CIPHER_CTX_set_params(c, p3));
        show("param tlsivfixed as int", EVP_CIPHER_CTX_set_params(c, p4));
        show("param ivlen as int", EVP_CIPHER_CTX_set_params(c, p5));
        size_t ivl = 0;
        OSSL_PARAM g1[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivl),
                             OSSL_PARAM_END };
        show("get ivlen param", EVP_CIPHER_CTX_get_params(c, g1));
        printf("  ivlen=%zu\n", ivl);
        OSSL_PARAM g2[2] = { OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_KEYLEN, s, sizeof(s)),
                             OSSL_PARAM_END };
        show("get keylen as utf8", EVP_CIPHER_CTX_get_params(c, g2));
        unsigned char small[4];
        OSSL_PARAM g3[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, small, sizeof(small)),
                             OSSL_PARAM_END };
        show("get iv too small", EVP_CIPHER_CTX_get_params(c, g3));
    }
    /* TLS 1.2 parameters misused. */
    if (!siv) {
        unsigned char aad[13] = {0}, rec[64] = {0};
        EVP_CIPHER_CTX_reset(c);
        EVP_EncryptInit_ex2(c, ciph, key, NULL, NULL);
        show("tlsivfixed 3", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_FIXED, 3, iv));
        show("tlsivfixed 4", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_FIXED, 4, iv));
        aad[11] = 0; aad[12] = 7;
        show("tlsaad short record", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
        aad[12] = 40;
        show("tlsaad 12 bytes", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 12, aad));
        show("tlsaad ok", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
        show("tls record not in place", EVP_Cipher(c, buf, rec, 40));
        show("tlsaad again", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
        show("tls record too short", EVP_Cipher(c, rec, rec, 20));
        show("tlsaad again", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
        show("tls record", EVP_Cipher(c, rec, rec, 40));
        /* A known record: the whole IV restored (-1), then one record printed. */
        show("tlsivfixed -1", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_FIXED, -1, iv));
        show("tlsaad again", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
        memset(rec, 0x11, sizeof(rec));
        show("tls record known", EVP_Cipher(c, rec, rec, 40));
        printf("  record:");
        for (int i = 0; i < 40; i++) printf("%02x", rec[i]);
        printf("\n");
        show("tlsaad next", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
        memset(rec, 0x11, sizeof(rec));
        show("tls record next", EVP_Cipher(c, rec, rec, 40));
        printf("  record:");
        for (int i = 0; i < 40; i++) printf("%02x", rec[i]);
        printf("\n");
        show("tlsivinv when encrypting", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_INV, 8, iv));
        unsigned char gen[8];
        show("tlsivgen", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_IV_GEN, 8, gen));
        EVP_CIPHER_CTX_reset(c);
        EVP_DecryptInit_ex2(c, ciph, key, NULL, NULL);
        show("dec tlsivgen without fixed", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_IV_GEN, 8, gen));
        show("dec tlsivinv without fixed", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_INV, 8, iv));
        show("dec tlsivfixed 4", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IV_FIXED, 4, iv));
        aad[12] = 20;
        show("dec tlsaad shorter than tag", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
        aad[12] = 40;
        show("dec tlsaad", EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
        memset(rec, 0x5a, sizeof(rec));
        show("dec tls record bad tag", EVP_Cipher(c, rec, rec, 40));
        int zero = 1;
        for (int i = 8; i < 24; i++) zero &= rec[i] == 0;
        printf("  payload cleansed: %d\n", zero);
    }
    EVP_CIPHER_CTX_free(c);
    EVP_CIPHER_free(ciph);
    return 1;
}

int main(int argc, char **argv) {
    const char *dir = NULL, *prov = "gcmkit";
    int bad = 0, i;
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-p") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "-P") && i + 1 < argc) prov = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) rng = strtoull(argv[++i], NULL, 0) | 1;
        else if (!strcmp(argv[i], "-b")) bad = 1;
        else { fprintf(stderr, "usage: %s -p DIR -P PROVIDER [-s SEED] [-b] FILE...\n", argv[0]); return 2; }
    }
    libctx = OSSL_LIB_CTX_new();
    if (dir) OSSL_PROVIDER_set_default_search_path(libctx, dir);
    OSSL_PROVIDER *p = OSSL_PROVIDER_load(libctx, prov);
    if (!p) { ERR_print_errors_fp(stderr); fprintf(stderr, "cannot load provider %s\n", prov); return 1; }
    snprintf(propq, sizeof(propq), "provider=%s", prov);
    if (bad) {
        const char *names[] = { "AES-128-GCM", "id-aes256-GCM", "AES-128-GCM-SIV", "AES-256-GCM-SIV" };
        for (unsigned k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
            if (is_siv(names[k]) && !strcmp(prov, "default")) continue;
            bad_input(names[k]);
        }
    } else {
        for (; i < argc; i++)
            if (!run_file(argv[i])) return 1;
        printf("%s: %d AES-GCM/GCM-SIV stanzas, %d passed, %d failed (%d other ciphers skipped)\n",
               prov, counts[0], counts[1], counts[0] - counts[1], counts[2]);
    }
    OSSL_PROVIDER_unload(p);
    OSSL_LIB_CTX_free(libctx);
    if (bad) return 0;
    return counts[0] > 0 && counts[0] == counts[1] ? 0 : 1;
}
