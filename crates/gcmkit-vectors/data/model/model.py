"""A plain reference model of GCM-SIV (Gueron-Lindell 2015) and GCM for 64-bit block ciphers.

Written from the papers (seed `gcm-siv-gueron-lindell-2015`, sec. 3.1 and 4.1-4.3; seed
`gcm-specification`, sec. 2.3-2.5 and Appendix A) and the project's seed conventions
(sec. 4 and 5), without reading gcmkit's code. It is deliberately slow and short: field
elements are Python integers, the multiply is Algorithm 1 bit by bit, and every step is
one line of the definition. The block ciphers come from pyca/cryptography (OpenSSL):
AES for GCM-SIV, Triple DES (3-key EDE) and Blowfish for GCM-64.

Bit order ("GCM order"): a block is read as a big-endian integer, so bit 0 of the
element (the coefficient of a^0, leftmost bit) is the integer's most significant bit.
"LE order" (GCM-SIV's counters and length block): a block read as a little-endian integer.
"""
from cryptography.hazmat.decrepit.ciphers.algorithms import Blowfish, TripleDES
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


# --- block ciphers (encryption direction only, as both modes need) ---------------------

def ecb_encrypt(algorithm, block):
    e = Cipher(algorithm, modes.ECB()).encryptor()
    return e.update(block) + e.finalize()


def aes(key, block):
    return ecb_encrypt(algorithms.AES(key), block)


def tdea(key, block):
    # Three-key Triple DES: a 24-byte key is EDE with three independent DES keys.
    assert len(key) == 24
    return ecb_encrypt(TripleDES(key), block)


def blowfish(key, block):
    return ecb_encrypt(Blowfish(key), block)


CIPHERS64 = {"TDEA": tdea, "Blowfish-128": blowfish}


# --- the fields GF(2^128) and GF(2^64), GCM order --------------------------------------

R128 = 0xE1 << 120  # 11100001 || 0^120: 1 + a + a^2 + a^7 (+ a^128)
R64 = 0xD8 << 56  # 11011000 || 0^56: 1 + a + a^3 + a^4 (+ a^64), conventions sec. 5


def gf_mul(x, y, n, r):
    """Algorithm 1 of the GCM specification for n-bit blocks: Z = X * Y."""
    z, v = 0, x
    for i in range(n):
        if (y >> (n - 1 - i)) & 1:  # bit Y_i, counted from the left
            z ^= v
        v = (v >> 1) ^ r if v & 1 else v >> 1  # V_(n-1) is the rightmost bit
    return z


def gf_pow(x, e, n, r):
    result, base = 1 << (n - 1), x  # 1 << (n-1) is the element 1 (a^0 is the leftmost bit)
    while e:
        if e & 1:
            result = gf_mul(result, base, n, r)
        base = gf_mul(base, base, n, r)
        e >>= 1
    return result


def gf_inv(x, n, r):
    return gf_pow(x, (1 << n) - 2, n, r)


def blocks(data, size):
    """The data cut into size-byte blocks, the last zero-padded (none for empty data)."""
    padded = data + bytes(-len(data) % size)
    return [padded[i:i + size] for i in range(0, len(padded), size)]


def ghash_blocks(h, data_blocks, n, r):
    """X_i = (X_(i-1) xor B_i) * H over the given blocks (GCM order), from X_0 = 0."""
    x = 0
    for b in data_blocks:
        x = gf_mul(x ^ int.from_bytes(b, "big"), h, n, r)
    return x


# --- GCM-SIV (2015): seed conventions sec. 4 -------------------------------------------

MIN_K, MAX_K = 1, 32  # counter widths k gcmkit's conventions allow (default 32)


def gcm_siv_2015_keys(variant, key=None, hash_key=None, prf_key=None, ctr_key=None):
    """(K1 hash key, K2 tag PRF key, K3 CTR key) for a variant (seed 001 sec. 4.1-4.3)."""
    if variant == "one-key":
        assert len(key) == 16
        k1 = aes(key, bytes(16))  # AES-128(K0, block of integer 0)
        k2 = aes(key, (1).to_bytes(16, "little"))  # integer 1 in LE order: 01 00 .. 00
        return k1, k2, k2
    if variant == "two-key":
        assert len(hash_key) == 16 and len(prf_key) in (16, 32)
        return hash_key, prf_key, prf_key
    if variant == "three-key":
        assert len(hash_key) == 16 and len(prf_key) in (16, 32) and len(ctr_key) == len(prf_key)
        return hash_key, prf_key, ctr_key
    raise ValueError(variant)


def gcm_siv_2015_hash(k1, aad, msg):
    """GHASH with key K1 over pad16(AAD) || pad16(MSG) || LENBLK, LENBLK the RFC 8452 length
    block (LE bit lengths of AAD, then MSG); no GCM length block follows."""
    lenblk = (8 * len(aad)).to_bytes(8, "little") + (8 * len(msg)).to_bytes(8, "little")
    h = ghash_blocks(int.from_bytes(k1, "big"), blocks(aad, 16) + blocks(msg, 16) + [lenblk], 128, R128)
    return h.to_bytes(16, "big")


def gcm_siv_2015_tag(variant, k1, k2, nonce, aad, msg):
    s = bytearray(gcm_siv_2015_hash(k1, aad, msg))
    for i in range(12):  # S = hash xor (nonce in bytes 0..11)
        s[i] ^= nonce[i]
    if variant != "three-key":
        s[15] &= 0x7F  # clear bit 127: the PRF input never equals a counter block
    return aes(k2, bytes(s))


def gcm_siv_2015_ctr(variant, k, k3, tag, data):
    """CTR: counter i = TAG as an LE integer, bit 127 set (not for three-key), low k bits := i."""
    base = int.from_bytes(tag, "little")
    if variant != "three-key":
        base |= 1 << 127
    base &= ~((1 << k) - 1)
    out = bytearray()
    for i, chunk in enumerate(blocks(data, 16)):
        assert i < (1 << k), "the model never lets i overflow its k bits"
        ks = aes(k3, (base | i).to_bytes(16, "little"))
        out += bytes(a ^ b for a, b in zip(chunk, ks))
    return bytes(out[:len(data)])


def gcm_siv_2015_max_blocks(k):
    return (1 << k) - 1  # conventions sec. 4: a message has at most 2^k - 1 blocks


def gcm_siv_2015_encrypt(variant, k, keys, nonce, aad, msg, enforce_limits=True):
    """(ct, tag). enforce_limits=False computes what an implementation without the length
    or nonce checks would output (for invalid vectors)."""
    k1, k2, k3 = keys
    if enforce_limits:
        assert MIN_K <= k <= MAX_K and len(nonce) == 12
        assert len(blocks(msg, 16)) <= gcm_siv_2015_max_blocks(k)
    tag = gcm_siv_2015_tag(variant, k1, k2, nonce, aad, msg)
    return gcm_siv_2015_ctr(variant, k, k3, tag, msg), tag


def gcm_siv_2015_decrypt(variant, k, keys, nonce, aad, ct, tag):
    """The plaintext, or None for every input the conventions reject."""
    k1, k2, k3 = keys
    if not (MIN_K <= k <= MAX_K) or len(nonce) != 12 or len(tag) != 16:
        return None
    if len(blocks(ct, 16)) > gcm_siv_2015_max_blocks(k):
        return None
    msg = gcm_siv_2015_ctr(variant, k, k3, tag, ct)
    if gcm_siv_2015_tag(variant, k1, k2, nonce, aad, msg) != tag:
        return None
    return msg


# --- GCM for 64-bit block ciphers: GCM spec Appendix A, conventions sec. 5 -------------

GCM64_TAG_LENGTHS = range(4, 9)  # bytes


def ghash64(h, aad, c):
    """GHASH64(H, A, C): 8-byte blocks, zero padding, then ((X xor len(A)) * H xor len(C)) * H."""
    x = ghash_blocks(h, blocks(aad, 8) + blocks(c, 8), 64, R64)
    x = gf_mul(x ^ (8 * len(aad)), h, 64, R64)
    return gf_mul(x ^ (8 * len(c)), h, 64, R64)


def gcm64_y0(h, iv):
    if len(iv) == 4:
        return int.from_bytes(iv + b"\x00\x00\x00\x01", "big")  # IV || 0^31 1
    return ghash64(h, b"", iv)


def incr32(y):
    """incr: the rightmost 32 bits as an integer, plus one modulo 2^32; the rest unchanged."""
    return (y & ~0xFFFFFFFF) | ((y + 1) & 0xFFFFFFFF)


def gcm64_encrypt(cipher, key, iv, aad, msg, tag_len, enforce_limits=True):
    e = lambda block: CIPHERS64[cipher](key, block)  # noqa: E731
    if enforce_limits:
        assert len(iv) >= 1 and tag_len in GCM64_TAG_LENGTHS
    h = int.from_bytes(e(bytes(8)), "big")
    y0 = gcm64_y0(h, iv)
    y, ct = y0, bytearray()
    for chunk in blocks(msg, 8):
        y = incr32(y)
        ct += bytes(a ^ b for a, b in zip(chunk, e(y.to_bytes(8, "big"))))
    ct = bytes(ct[:len(msg)])
    full = (ghash64(h, aad, ct) ^ int.from_bytes(e(y0.to_bytes(8, "big")), "big")).to_bytes(8, "big")
    return ct, full[:tag_len]


def gcm64_decrypt(cipher, key, iv, aad, ct, tag, tag_len):
    """The plaintext, or None for every input the conventions reject."""
    if len(iv) < 1 or tag_len not in GCM64_TAG_LENGTHS or len(tag) != tag_len:
        return None
    # CTR is its own inverse: encrypting the ciphertext gives the plaintext; the tag is
    # over the ciphertext, so recompute it from ct directly.
    msg, _ = gcm64_encrypt(cipher, key, iv, b"", ct, tag_len)
    _, want = gcm64_encrypt(cipher, key, iv, aad, msg, tag_len)
    return msg if want == tag else None


def gcm64_iv_for_y0(cipher, key, y0, first_blocks=()):
    """An IV of 8 * (len(first_blocks) + 1) bytes whose Y0 = GHASH64(H, {}, IV) is y0:
    Y0 = sum_j B_j * H^(m+3-j) xor len * H (the data, then two multiplies for the length
    blocks, len(A) = 0), solved for the last block B_m. Used to reach the
    32-bit counter wrap, which random IVs hit with probability about 2^-28."""
    h = int.from_bytes(CIPHERS64[cipher](key, bytes(8)), "big")
    m = len(first_blocks) + 1
    length = 64 * m
    acc = gf_mul(length, h, 64, R64)
    for j, b in enumerate(first_blocks, start=1):
        acc ^= gf_mul(int.from_bytes(b, "big"), gf_pow(h, m + 3 - j, 64, R64), 64, R64)
    last = gf_mul(y0 ^ acc, gf_inv(gf_pow(h, 3, 64, R64), 64, R64), 64, R64)
    iv = b"".join(first_blocks) + last.to_bytes(8, "big")
    assert gcm64_y0(h, iv) == y0
    return iv
