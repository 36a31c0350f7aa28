"""Host-side reference pieces: what a driver computes once per key, and checks.

The circuit receives the expanded round keys and H (and H^2 for the even/odd GHASH) as a
loaded key set: the papers' model assumes "the key is present in the module".
"""


def _xtime(b: int) -> int:
    b <<= 1
    return (b ^ 0x11B) & 0xFF if b & 0x100 else b


def _gmul8(a: int, b: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = _xtime(a)
        b >>= 1
    return r


def _make_sbox() -> list[int]:
    # Multiplicative inverse in GF(2^8) followed by the affine map (FIPS-197 sec. 5.1.1).
    inv = [0] * 256
    for x in range(1, 256):
        for y in range(1, 256):
            if _gmul8(x, y) == 1:
                inv[x] = y
                break
    box = []
    for x in range(256):
        b = inv[x]
        s = b
        for k in range(1, 5):
            s ^= ((b << k) | (b >> (8 - k))) & 0xFF
        box.append(s ^ 0x63)
    return box


SBOX = _make_sbox()
assert SBOX[0x00] == 0x63 and SBOX[0x53] == 0xED


def expand_key(key: bytes) -> list[int]:
    """AES-128 key schedule: 11 round keys as 128-bit big-endian integers."""
    if len(key) != 16:
        raise ValueError(f"AES-128 key must be 16 bytes, got {len(key)}")
    words = [list(key[4 * i:4 * i + 4]) for i in range(4)]
    rcon = 1
    for i in range(4, 44):
        t = list(words[i - 1])
        if i % 4 == 0:
            t = t[1:] + t[:1]
            t = [SBOX[b] for b in t]
            t[0] ^= rcon
            rcon = _xtime(rcon)
        words.append([a ^ b for a, b in zip(words[i - 4], t)])
    return [int.from_bytes(bytes(sum(words[4 * r:4 * r + 4], [])), "big") for r in range(11)]


def aes_encrypt(round_keys: list[int], block: int) -> int:
    """Plain software AES-128 (for H = E(K, 0^128) and unit checks)."""
    s = list((block ^ round_keys[0]).to_bytes(16, "big"))
    for r in range(1, 11):
        s = [SBOX[b] for b in s]
        s = [s[(i + 4 * (i % 4)) % 16] for i in range(16)]  # ShiftRows, column-major state
        if r != 10:
            out = []
            for c in range(4):
                a = s[4 * c:4 * c + 4]
                out += [
                    _gmul8(a[0], 2) ^ _gmul8(a[1], 3) ^ a[2] ^ a[3],
                    a[0] ^ _gmul8(a[1], 2) ^ _gmul8(a[2], 3) ^ a[3],
                    a[0] ^ a[1] ^ _gmul8(a[2], 2) ^ _gmul8(a[3], 3),
                    _gmul8(a[0], 3) ^ a[1] ^ a[2] ^ _gmul8(a[3], 2),
                ]
            s = out
        s = list((int.from_bytes(bytes(s), "big") ^ round_keys[r]).to_bytes(16, "big"))
    return int.from_bytes(bytes(s), "big")


R = 0xE1 << 120  # x^128 = x^7 + x^2 + x + 1, in GCM's reflected bit order


def gf_mul(x: int, y: int) -> int:
    """GF(2^128) product in GCM's bit order (spec Algorithm 1)."""
    z, v = 0, y
    for i in range(128):
        if (x >> (127 - i)) & 1:
            z ^= v
        v = (v >> 1) ^ R if v & 1 else v >> 1
    return z


class KeySet:
    """What the host loads into the circuit for one key."""

    def __init__(self, key: bytes):
        self.round_keys = expand_key(key)
        self.h = aes_encrypt(self.round_keys, 0)
        self.h2 = gf_mul(self.h, self.h)
