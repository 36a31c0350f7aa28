"""Writes gcm_siv_2015_model_test.json and gcm64_model_test.json from model.py.

    python3 crates/gcmkit-vectors/data/model/generate.py          # (re)write both files
    python3 crates/gcmkit-vectors/data/model/generate.py --check  # regenerate, compare

Needs pyca/cryptography (requirements-test.txt). Inputs come from SHAKE-128 of fixed
labels, so the files regenerate byte for byte. Before writing, it checks:
- model.py reproduces every vector of ../gcm_siv_2015_test.json and ../gcm64_test.json
  (made by another implementation written apart from gcmkit), and its GHASH and
  multiply, run as AES-GCM, equal pyca's AESGCM;
- every valid vector decrypts back in the model and every invalid one is rejected by it;
- every valid GCM-SIV vector with a message tells its counter width k from k - 1 and
  k + 1 (an implementation with the neighbouring width gets another ciphertext or rejects
  the length), and each group has vectors where the forced bit 127 of the counter and the
  cleared bit 127 of S change the output;
- the GCM-64 wrap vectors really cross the 32-bit counter wrap.

Coverage (schemas: ../README.md). GCM-SIV (2015): one-, two- and three-key, every
counter width k = 1..32, K2 of 16 and 32 bytes; messages of 0, 1, 15..17 bytes and
several blocks, and the longest allowed (2^k - 1 blocks, last one full or partial) for
k <= 6 in every variant and k = 7, 8 in two-key. Invalid: tag bits inside and outside the
counter bits, ciphertexts flipped / cut / extended, AAD flipped / extended / dropped,
nonces flipped, nonces of 11 or 13 bytes, keys swapped or (one-key) not derived,
ciphertexts made with width k - 1 or k + 1, messages of 2^k blocks and of 2^k - 1 blocks
plus a byte (where the longest valid one is), and widths 0, 33 and 64. Widths 1, 2, 3, 8,
16, 31, 32 get every kind; the others the kinds that depend on k (tag bits 0 and 127, a
flipped ciphertext, the neighbouring widths, the length limit). GCM-64: TDEA and
Blowfish-128, every tag length 4..8, IVs of 1..32 bytes (the 4-byte rule and GHASH64),
messages and AAD of 0..100 bytes, the 32-bit counter wrap with 8- and 16-byte IVs solved
for Y0; invalid: tag, ciphertext, AAD, IV and key changes as above, an empty IV, tag
lengths 3 and 9.
"""
import argparse
import hashlib
import json
import os
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

import model as M

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
SIV_FILE = os.path.join(HERE, "gcm_siv_2015_model_test.json")
GCM64_FILE = os.path.join(HERE, "gcm64_model_test.json")
CONVENTIONS = "gcmkit seed conventions sec. 4 (GCM-SIV 2015) and sec. 5 (GCM-64)"


def det(label, n):
    """Deterministic bytes: SHAKE-128 of a label."""
    return hashlib.shake_128(("gcmkit-model/" + label).encode()).digest(n)


def flip(b, i, bit=0):
    b = bytearray(b)
    b[i] ^= 1 << bit
    return bytes(b)


# --- checks of the model against things it was not written from ----------------------

def check_model_against_known_vectors():
    """The model must reproduce the other implementation's vectors, and its GHASH must be
    GCM's (checked as AES-GCM against pyca)."""
    for n in (0, 1, 16, 17, 64):
        key, iv, aad, msg = det(f"gcm/{n}/k", 16), det(f"gcm/{n}/iv", 12), det(f"gcm/{n}/a", n // 2), det(f"gcm/{n}/m", n)
        h = int.from_bytes(M.aes(key, bytes(16)), "big")
        y = y0 = int.from_bytes(iv + b"\x00\x00\x00\x01", "big")
        ct = b""
        for chunk in M.blocks(msg, 16):
            y = M.incr32(y)
            ct += bytes(a ^ b for a, b in zip(chunk, M.aes(key, y.to_bytes(16, "big"))))
        ct = ct[:len(msg)]
        lens = (8 * len(aad)).to_bytes(8, "big") + (8 * len(ct)).to_bytes(8, "big")
        s = M.ghash_blocks(h, M.blocks(aad, 16) + M.blocks(ct, 16) + [lens], 128, M.R128)
        tag = (s ^ int.from_bytes(M.aes(key, y0.to_bytes(16, "big")), "big")).to_bytes(16, "big")
        assert ct + tag == AESGCM(key).encrypt(iv, msg, aad), "model GHASH is not GCM's"
    n = 0
    with open(os.path.join(DATA, "gcm_siv_2015_test.json")) as f:
        for g in json.load(f)["testGroups"]:
            for t in g["tests"]:
                keys = siv_keys_of(g["variant"], t)
                h = lambda f: bytes.fromhex(t[f])  # noqa: E731
                got = M.gcm_siv_2015_decrypt(g["variant"], g["counterBits"], keys, h("iv"), h("aad"), h("ct"), h("tag"))
                if t["result"] == "valid":
                    assert M.gcm_siv_2015_encrypt(g["variant"], g["counterBits"], keys, h("iv"), h("aad"), h("msg")) == (h("ct"), h("tag"))
                    assert got == h("msg")
                else:
                    assert got is None
                n += 1
    with open(os.path.join(DATA, "gcm64_test.json")) as f:
        for g in json.load(f)["testGroups"]:
            for t in g["tests"]:
                h = lambda f: bytes.fromhex(t[f])  # noqa: E731
                tl = t["tagSize"] // 8
                got = M.gcm64_decrypt(g["cipher"], h("key"), h("iv"), h("aad"), h("ct"), h("tag"), tl)
                if t["result"] == "valid":
                    assert M.gcm64_encrypt(g["cipher"], h("key"), h("iv"), h("aad"), h("msg"), tl) == (h("ct"), h("tag"))
                    assert got == h("msg")
                else:
                    assert got is None
                n += 1
    assert n == 70, n


# --- GCM-SIV (2015) ------------------------------------------------------------------

KEY_FIELDS = {"one-key": ("key",), "two-key": ("hashKey", "prfKey"), "three-key": ("hashKey", "prfKey", "ctrKey")}


def siv_keys_of(variant, t):
    h = lambda f: bytes.fromhex(t[f])  # noqa: E731
    if variant == "one-key":
        return M.gcm_siv_2015_keys(variant, key=h("key"))
    return M.gcm_siv_2015_keys(variant, hash_key=h("hashKey"), prf_key=h("prfKey"),
                               ctr_key=h("ctrKey") if variant == "three-key" else None)


def siv_key_material(variant, label, prf_len):
    if variant == "one-key":
        return {"key": det(label + "/K0", 16)}
    kf = {"hashKey": det(label + "/K1", 16), "prfKey": det(label + "/K2", prf_len)}
    if variant == "three-key":
        kf["ctrKey"] = det(label + "/K3", prf_len)
    return kf


def siv_keys(variant, kf):
    if variant == "one-key":
        return M.gcm_siv_2015_keys(variant, key=kf["key"])
    return M.gcm_siv_2015_keys(variant, hash_key=kf["hashKey"], prf_key=kf["prfKey"], ctr_key=kf.get("ctrKey"))


def neighbour_widths_differ(variant, k, keys, tag, msg):
    """Whether an implementation using width k - 1 or k + 1 would output something else
    for this message (another ciphertext, or a rejection of the length)."""
    nblocks = len(M.blocks(msg, 16))
    for other in (k - 1, k + 1):
        if other < 0 or nblocks > (1 << other) - 1 and other >= 1:
            continue  # width 0 is no replacement at all; a too-short width rejects
        if M.gcm_siv_2015_ctr(variant, other, keys[2], tag, msg) == M.gcm_siv_2015_ctr(variant, k, keys[2], tag, msg):
            return False
    return True


def counter_bit_matters(tag):
    """TAG bit 127 is 0, so the counter rule for bit 127 (set it, or for three-key leave
    it) changes every counter block."""
    return not tag[15] >> 7


def s_mask_matters(keys, nonce, aad, msg):
    """Bit 127 of hash xor nonce is 1, so clearing it (or, for three-key, not) changes S."""
    s = bytes(a ^ b for a, b in zip(M.gcm_siv_2015_hash(keys[0], aad, msg), nonce + bytes(4)))
    return bool(s[15] >> 7)


def siv_case(variant, k, label, prf_len, aad_len, msg_len, want_counter_bit=False, want_s_mask=False):
    """Inputs for one valid vector, redrawn until the vector tells k from its
    neighbours (for messages; the empty message has no counter) and, if asked, until the
    bit-127 rules of the counter and of S change the output."""
    for attempt in range(200):
        # Everything is redrawn: S's bit 127 does not depend on the nonce (bytes 0..11).
        draw = f"{label}/{attempt}"
        kf = siv_key_material(variant, draw, prf_len)
        keys = siv_keys(variant, kf)
        aad, msg, nonce = det(draw + "/A", aad_len), det(draw + "/M", msg_len), det(draw + "/N", 12)
        ct, tag = M.gcm_siv_2015_encrypt(variant, k, keys, nonce, aad, msg)
        if msg and not neighbour_widths_differ(variant, k, keys, tag, msg):
            continue
        if want_counter_bit and msg and not counter_bit_matters(tag):
            continue
        # (With no AAD and no message the hash is 0 and S is the nonce: bit 127 is 0.)
        if want_s_mask and (aad or msg) and not s_mask_matters(keys, nonce, aad, msg):
            continue
        return kf, keys, nonce, aad, msg, ct, tag
    raise AssertionError(f"no distinguishing nonce for {label}")


def siv_test(kf, nonce, aad, msg, ct, tag, result, comment, flags):
    t = {"tcId": 0, "comment": comment, "flags": flags}
    t.update({f: v.hex() for f, v in kf.items()})
    t.update({"iv": nonce.hex(), "aad": aad.hex(), "msg": msg.hex(), "ct": ct.hex(), "tag": tag.hex(), "result": result})
    return t


# Widths whose groups get every valid length and invalid kind: the smallest (where the
# block limit and the longest message are testable), a middle one, and the default 32 with
# its neighbour. The other widths get the vectors that depend on k.
FULL_K = {1, 2, 3, 8, 16, 31, 32}
SHORT_INVALID = ("tag bit 0", "tag bit 127", "ciphertext first", "ciphertext made with counter width", "message of")
LONGEST_K = 6  # longest allowed / too long messages for k <= 6 in every variant
LONGEST_K_TWO_KEY = 8  # and for k = 7, 8 in the two-key variant (4 KiB messages)


def siv_valid_lengths(variant, k, prf_len):
    """(aad, msg) byte lengths for a group of width k, all within 2^k - 1 blocks. A 32-byte
    K2 gets one (the key length does not interact with k)."""
    maxb = M.gcm_siv_2015_max_blocks(k)
    if prf_len == 16:
        pairs = [(0, 1), (17, 15), (1, 17), (20, 16 * 4 + 7)]
        if k in FULL_K:
            pairs += [(0, 0), (13, 0), (16, 16), (33, 31), (12, 32), (0, 16 * 9), (32, 16 * 17 + 1)]
        if k <= LONGEST_K or (variant == "two-key" and k <= LONGEST_K_TWO_KEY):
            pairs += [(7, 16 * maxb), (16, 16 * maxb - 1)]  # the longest message: last index 2^k - 2
    else:
        pairs = [(20, 16 * 4 + 7)] if maxb >= 5 else [(1, 16 * maxb)]
    pairs = [(a, m) for a, m in pairs if len(M.blocks(b"\0" * m, 16)) <= maxb]
    return sorted(set(pairs), key=lambda p: (p[1], p[0]))


def siv_invalid(variant, k, kf, keys, nonce, aad, msg, ct, tag, label):
    """(comment, flags, fields) of invalid vectors made from one valid one."""
    out = []

    def inv(comment, flag, **change):
        f = {"kf": kf, "nonce": nonce, "aad": aad, "msg": msg, "ct": ct, "tag": tag}
        f.update(change)
        out.append((comment, [flag], f))

    inv("tag bit 0 flipped (inside the k counter bits: same keystream)", "ModifiedTag", tag=flip(tag, 0))
    inv("tag bit 127 flipped (the bit the counter forces)", "ModifiedTag", tag=flip(tag, 15, 7))
    inv("tag byte 8 flipped", "ModifiedTag", tag=flip(tag, 8, 3))
    inv("ciphertext first byte flipped", "ModifiedCiphertext", ct=flip(ct, 0))
    inv("ciphertext last byte flipped", "ModifiedCiphertext", ct=flip(ct, len(ct) - 1, 6))
    inv("ciphertext cut by one byte", "ModifiedCiphertext", ct=ct[:-1])
    inv("ciphertext extended by one zero byte", "ModifiedCiphertext", ct=ct + b"\0")
    inv("AAD first byte flipped", "ModifiedAad", aad=flip(aad, 0))
    inv("AAD extended by one zero byte (same padded blocks, other length)", "ModifiedAad", aad=aad + b"\0")
    inv("AAD dropped", "ModifiedAad", aad=b"")
    inv("nonce byte 0 flipped", "ModifiedNonce", nonce=flip(nonce, 0))
    inv("nonce byte 11 flipped", "ModifiedNonce", nonce=flip(nonce, 11, 7))
    inv("nonce of 11 bytes", "InvalidNonceSize", nonce=nonce[:11])
    inv("nonce of 13 bytes", "InvalidNonceSize", nonce=nonce + b"\0")
    if variant == "one-key":
        # What an implementation that skipped the derivation (K1 = K2 = K0) outputs.
        k0 = kf["key"]
        c2, t2 = M.gcm_siv_2015_encrypt(variant, k, (k0, k0, k0), nonce, aad, msg)
        inv("made with K0 as hash and AES key (no derivation)", "WrongKey", ct=c2, tag=t2)
    elif variant == "two-key":
        inv("hash key and PRF key swapped", "WrongKey", kf={"hashKey": kf["prfKey"][:16], "prfKey": kf["hashKey"] + kf["prfKey"][16:]})
    else:
        inv("PRF key and CTR key swapped", "WrongKey", kf={"hashKey": kf["hashKey"], "prfKey": kf["ctrKey"], "ctrKey": kf["prfKey"]})
    for other in (k - 1, k + 1):
        if 1 <= other:
            if len(M.blocks(msg, 16)) > M.gcm_siv_2015_max_blocks(other):
                continue  # that width rejects the length: nothing to compare
            c2 = M.gcm_siv_2015_ctr(variant, other, keys[2], tag, msg)
            assert c2 != ct
            inv(f"ciphertext made with counter width {other}", "WrongCounterWidth", ct=c2)
    if k <= LONGEST_K or (variant == "two-key" and k <= LONGEST_K_TWO_KEY):
        for m_len, what in ((16 << k, "2^k blocks"), (16 * M.gcm_siv_2015_max_blocks(k) + 1, "2^k - 1 blocks and one byte")):
            long_msg = det(f"{label}/long{m_len}", m_len)
            c2, t2 = M.gcm_siv_2015_encrypt(variant, k, keys, nonce, aad, long_msg, enforce_limits=False)
            inv(f"message of {what}: over the 2^k - 1 block limit", "MessageTooLong", msg=long_msg, ct=c2, tag=t2)
    return out


def siv_groups():
    groups = []
    for variant in ("one-key", "two-key", "three-key"):
        for k in range(M.MIN_K, M.MAX_K + 1):
            tests = []
            bit127_counter = mask_s = 0
            for prf_len in ((16,) if variant == "one-key" else (16, 32)):
                for aad_len, msg_len in siv_valid_lengths(variant, k, prf_len):
                    label = f"siv/{variant}/{k}/{prf_len}/{aad_len}/{msg_len}"
                    kf, keys, nonce, aad, msg, ct, tag = siv_case(variant, k, label, prf_len, aad_len, msg_len,
                                                                  want_counter_bit=not bit127_counter, want_s_mask=not mask_s)
                    flags = ["Valid"] + (["LongestMessage"] if msg and len(M.blocks(msg, 16)) == M.gcm_siv_2015_max_blocks(k) else [])
                    tests.append(siv_test(kf, nonce, aad, msg, ct, tag, "valid", f"AAD {aad_len} B, message {msg_len} B, K2 {prf_len} B", flags))
                    bit127_counter += bool(msg) and counter_bit_matters(tag)
                    mask_s += s_mask_matters(keys, nonce, aad, msg)
                # Invalid vectors from one multi-block (or, for k = 1, one-block) message.
                base_len = 16 if k == 1 else 16 * min(M.gcm_siv_2015_max_blocks(k) - 1, 2) + 5
                label = f"siv/{variant}/{k}/{prf_len}/invalid"
                kf, keys, nonce, aad, msg, ct, tag = siv_case(variant, k, label, prf_len, 20, base_len)
                cases = siv_invalid(variant, k, kf, keys, nonce, aad, msg, ct, tag, label)
                if prf_len == 32:  # the same checks as K2 = 16 bytes; one suffices here
                    cases = [c for c in cases if c[0].startswith("tag bit 0")] if k in FULL_K else []
                elif k not in FULL_K:
                    cases = [c for c in cases if c[0].startswith(SHORT_INVALID)]
                for comment, flags, f in cases:
                    tests.append(siv_test(f["kf"], f["nonce"], f["aad"], f["msg"], f["ct"], f["tag"], "invalid", comment, flags))
            assert bit127_counter >= 1 and mask_s >= 1, (variant, k, bit127_counter, mask_s)
            groups.append({"variant": variant, "counterBits": k, "tests": tests})
        # Widths outside 1..32: rejected when the key object is made.
        for bad_k in (0, 33, 64):
            label = f"siv/{variant}/badk{bad_k}"
            kf = siv_key_material(variant, label, 16)
            keys = siv_keys(variant, kf)
            nonce, aad, msg = det(label + "/N", 12), det(label + "/A", 5), det(label + "/M", 16 if bad_k == 0 else 40)
            ct, tag = M.gcm_siv_2015_encrypt(variant, bad_k, keys, nonce, aad, msg, enforce_limits=False)
            groups.append({"variant": variant, "counterBits": bad_k, "tests": [
                siv_test(kf, nonce, aad, msg, ct, tag, "invalid", f"counter width {bad_k}: outside 1..32", ["InvalidCounterWidth"])]})
    return groups


def check_siv(groups):
    for g in groups:
        v, k = g["variant"], g["counterBits"]
        for t in g["tests"]:
            h = lambda f: bytes.fromhex(t[f])  # noqa: E731
            got = M.gcm_siv_2015_decrypt(v, k, siv_keys_of(v, t), h("iv"), h("aad"), h("ct"), h("tag"))
            if t["result"] == "valid":
                assert M.gcm_siv_2015_encrypt(v, k, siv_keys_of(v, t), h("iv"), h("aad"), h("msg")) == (h("ct"), h("tag"))
                assert got == h("msg")
            else:
                assert got is None, (v, k, t["comment"])


# --- GCM-64 ------------------------------------------------------------------------

KEY64 = {"TDEA": 24, "Blowfish-128": 16}


def gcm64_test(cipher, label, iv, aad_len, msg_len, tag_len, comment, flags, key=None):
    key = key or det(label + "/K", KEY64[cipher])
    aad, msg = det(label + "/A", aad_len), det(label + "/M", msg_len)
    ct, tag = M.gcm64_encrypt(cipher, key, iv, aad, msg, tag_len)
    return {"tcId": 0, "comment": comment, "flags": flags, "key": key.hex(), "iv": iv.hex(), "aad": aad.hex(),
            "msg": msg.hex(), "ct": ct.hex(), "tag": tag.hex(), "tagSize": 8 * tag_len, "result": "valid"}


def gcm64_groups():
    groups = []
    iv_lens = (1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 32)
    msg_lens = (0, 1, 7, 8, 9, 15, 16, 17, 23, 64, 100)
    aad_lens = (0, 1, 7, 8, 9, 16, 20)
    for cipher in ("TDEA", "Blowfish-128"):
        tests = []
        n = 0
        for tag_len in M.GCM64_TAG_LENGTHS:
            for iv_len in iv_lens:
                m, a = msg_lens[n % len(msg_lens)], aad_lens[(n * 3) % len(aad_lens)]
                label = f"g64/{cipher}/{tag_len}/{iv_len}/{n}"
                path = "IV || 0^31 1" if iv_len == 4 else "Y0 = GHASH64(H, {}, IV)"
                tests.append(gcm64_test(cipher, label, det(label + "/IV", iv_len), a, m, tag_len,
                                        f"{iv_len}-byte IV ({path}), AAD {a} B, message {m} B, tag {tag_len} B", ["Valid"]))
                n += 1
        # The 32-bit counter wrap: Y0 solved from the IV; the upper 32 bits must not change.
        for iv_blocks, y0_low, upper in ((1, 0xFFFFFFFF, None), (1, 0xFFFFFFFD, 0xFFFFFFFF), (2, 0xFFFFFFFC, None)):
            label = f"g64/{cipher}/wrap/{iv_blocks}/{y0_low:x}"
            key = det(label + "/K", KEY64[cipher])
            up = upper if upper is not None else int.from_bytes(det(label + "/up", 4), "big")
            y0 = (up << 32) | y0_low
            iv = M.gcm64_iv_for_y0(cipher, key, y0, [det(label + "/B1", 8)] * (iv_blocks - 1))
            msg_len = 8 * 6 + 3
            assert y0_low + len(M.blocks(bytes(msg_len), 8)) > 0xFFFFFFFF  # crosses the wrap
            for tag_len in (8, 4):
                tests.append(gcm64_test(cipher, f"{label}/{tag_len}", iv, 9, msg_len, tag_len,
                                        f"counter wrap: Y0 = {y0:016x} ({len(iv)}-byte IV), 7 blocks, tag {tag_len} B",
                                        ["Valid", "CounterWrap"], key=key))
        # Invalid vectors from two valid ones (4-byte IV and 12-byte IV).
        for iv_len in (4, 12):
            label = f"g64/{cipher}/invalid/{iv_len}"
            base = gcm64_test(cipher, label, det(label + "/IV", iv_len), 12, 21, 8, "", [])
            h = lambda f: bytes.fromhex(base[f])  # noqa: E731
            key, iv, aad, msg, ct, tag = h("key"), h("iv"), h("aad"), h("msg"), h("ct"), h("tag")
            cases = [
                ("tag first byte flipped", "ModifiedTag", {"tag": flip(tag, 0)}),
                ("tag last byte flipped", "ModifiedTag", {"tag": flip(tag, 7, 7)}),
                ("ciphertext first byte flipped", "ModifiedCiphertext", {"ct": flip(ct, 0)}),
                ("ciphertext last byte flipped", "ModifiedCiphertext", {"ct": flip(ct, len(ct) - 1, 5)}),
                ("ciphertext cut by one byte", "ModifiedCiphertext", {"ct": ct[:-1]}),
                ("ciphertext extended by one zero byte", "ModifiedCiphertext", {"ct": ct + b"\0"}),
                ("AAD first byte flipped", "ModifiedAad", {"aad": flip(aad, 0)}),
                ("AAD extended by one zero byte", "ModifiedAad", {"aad": aad + b"\0"}),
                ("AAD dropped", "ModifiedAad", {"aad": b""}),
                ("IV first byte flipped", "ModifiedNonce", {"iv": flip(iv, 0)}),
                ("IV extended by one zero byte", "ModifiedNonce", {"iv": iv + b"\0"}),
                ("IV cut by one byte", "ModifiedNonce", {"iv": iv[:-1]}),
                ("empty IV", "InvalidNonceSize", {"iv": b""}),
                # Bit 1: bit 0 of a DES key byte is parity, which TDEA ignores.
                ("key bit changed", "WrongKey", {"key": flip(key, 20 if cipher == "TDEA" else 3, 1)}),
            ]
            for tag_len in (3, 9):  # outside 4..8: rejected when the key object is made
                c2, t2 = M.gcm64_encrypt(cipher, key, iv, aad, msg, min(tag_len, 8), enforce_limits=False)
                cases.append((f"tag length {tag_len} bytes: outside 4..8", "InvalidTagSize",
                               {"ct": c2, "tag": (t2 + b"\0")[:tag_len], "tagSize": 8 * tag_len}))
            for comment, flag, change in cases:
                t = dict(base)
                t.update({f: (v.hex() if isinstance(v, bytes) else v) for f, v in change.items()})
                t.update({"comment": comment, "flags": [flag], "result": "invalid"})
                tests.append(t)
        groups.append({"cipher": cipher, "blockSize": 64, "tests": tests})
    return groups


def check_gcm64(groups):
    for g in groups:
        for t in g["tests"]:
            h = lambda f: bytes.fromhex(t[f])  # noqa: E731
            tl = t["tagSize"] // 8
            got = M.gcm64_decrypt(g["cipher"], h("key"), h("iv"), h("aad"), h("ct"), h("tag"), tl)
            if t["result"] == "valid":
                assert M.gcm64_encrypt(g["cipher"], h("key"), h("iv"), h("aad"), h("msg"), tl) == (h("ct"), h("tag"))
                assert got == h("msg")
            else:
                assert got is None, (g["cipher"], t["comment"])


# --- files ---------------------------------------------------------------------------

def document(algorithm, groups, notes):
    n = 0
    for g in groups:
        for t in g["tests"]:
            n += 1
            t["tcId"] = n  # unique in the file
    return {"algorithm": algorithm, "generatorVersion": "gcmkit data/model/generate.py",
            "conventions": CONVENTIONS, "numberOfTests": n, "notes": notes, "testGroups": groups}


def render(doc):
    """JSON with one test per line (readable, and a regenerated file diffs by test)."""
    head = {k: v for k, v in doc.items() if k != "testGroups"}
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()] + [' "testGroups": [']
    for gi, g in enumerate(doc["testGroups"]):
        ghead = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in g.items() if k != "tests")
        lines.append(f"  {{{ghead}, \"tests\": [")
        lines += [f"   {json.dumps(t)}" + ("," if ti + 1 < len(g["tests"]) else "") for ti, t in enumerate(g["tests"])]
        lines.append("  ]}" + ("," if gi + 1 < len(doc["testGroups"]) else ""))
    lines += [" ]", "}"]
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == doc
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="regenerate in memory and compare with the files")
    args = ap.parse_args()
    check_model_against_known_vectors()
    siv = siv_groups()
    check_siv(siv)
    g64 = gcm64_groups()
    check_gcm64(g64)
    files = {
        SIV_FILE: render(document("GCM-SIV (2015)", siv, "Made by data/model/model.py, a reference model written apart from gcmkit; see data/README.md.")),
        GCM64_FILE: render(document("GCM-64", g64, "Made by data/model/model.py, a reference model written apart from gcmkit; see data/README.md.")),
    }
    bad = 0
    for path, text in files.items():
        if args.check:
            with open(path) as f:
                if f.read() != text:
                    print(f"{path}: differs from what model.py generates", file=sys.stderr)
                    bad = 1
        else:
            tmp = f"{path}.tmp-{os.getpid()}-{os.urandom(4).hex()}"
            with open(tmp, "x") as f:
                f.write(text)
            os.replace(tmp, path)  # written whole, renamed into place
        print(f"{os.path.basename(path)}: {json.loads(text)['numberOfTests']} tests, {len(text)} bytes")
    return bad


if __name__ == "__main__":
    sys.exit(main())
