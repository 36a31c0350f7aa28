//! GF(2^128) arithmetic for GHASH (GCM) and POLYVAL (AES-GCM-SIV).
//!
//! # One field core, two bit orders
//! Elements are `u128` in POLYVAL order (RFC 8452): the block's bytes read as a
//! little-endian integer, bit i = coefficient of x^i, modulo
//!     p(x) = x^128 + x^127 + x^126 + x^121 + 1.
//! POLYVAL's product is the Montgomery-style `dot(a, b) = a·b·x^-128 mod p`.
//!
//! GHASH lives in the same field with the bits of each byte reflected. RFC 8452
//! Appendix A gives the exact bridge used here:
//!     GHASH(H, X_1..X_n) = ByteReverse(POLYVAL(mulX(ByteReverse(H)), ByteReverse(X_i)...))
//! Reading a GCM block as a *big-endian* integer is ByteReverse followed by the
//! little-endian read, so GHASH is POLYVAL on big-endian loads with key mulX(H). Every
//! engine therefore implements one multiply and one reduction.
//!
//! # Aggregation
//! Horner's rule acc = dot(acc ^ X, H) serializes every block on a full multiply. With
//! the dot-powers H^k := dot(H^(k-1), H) (= H^k·x^(-128(k-1))), k steps of Horner equal
//!     acc' = dot(acc ^ X_1, H^k) ^ dot(X_2, H^(k-1)) ^ ... ^ dot(X_k, H^1),
//! and because reduction is linear the k unreduced 256-bit products can be summed and
//! reduced once. [`HashKey`] stores H^1..H^32 for that (32 blocks: eight 4-lane vectors).

pub(crate) mod soft;
#[cfg(all(feature = "table-strategies", feature = "alloc"))]
pub(crate) mod tables;

/// Which universal hash: decides how a 16-byte block maps to a field element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// GCM's GHASH: blocks are big-endian integers (bit-reflected field).
    Ghash,
    /// RFC 8452's POLYVAL: blocks are little-endian integers.
    Polyval,
}

impl Flavor {
    /// Loads a block as a field element.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn load(self, b: &[u8; 16]) -> u128 {
        match self {
            Flavor::Ghash => u128::from_be_bytes(*b),
            Flavor::Polyval => u128::from_le_bytes(*b),
        }
    }

    /// Stores a field element as a block.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    pub(crate) fn store(self, x: u128) -> [u8; 16] {
        match self {
            Flavor::Ghash => x.to_be_bytes(),
            Flavor::Polyval => x.to_le_bytes(),
        }
    }
}

/// x·a mod p (RFC 8452 mulX_POLYVAL), constant time.
#[inline]
pub(crate) fn mul_x(a: u128) -> u128 {
    // x^128 = x^127 + x^126 + x^121 + 1 mod p.
    const R: u128 = (0xc200_0000_0000_0000u128 << 64) | 1;
    let carry = 0u128.wrapping_sub(a >> 127);
    (a << 1) ^ (carry & R)
}

/// Number of precomputed powers of H: the widest aggregation (32 blocks = 8 zmm vectors).
pub(crate) const POWERS: usize = 32;

/// A hash key: H in POLYVAL form and its dot-powers, stored *descending*:
/// `desc[i] = H^(32 - i)`. A batch of k <= 32 blocks X_0..X_(k-1) multiplies X_b by
/// H^(k-b) = `desc[32 - k + b]`, a contiguous run, so every width and every tail uses the
/// same table. Only the last `count` entries are computed (a message of n blocks never
/// needs more than H^n). Zeroized on drop.
#[derive(Clone)]
pub(crate) struct HashKey {
    pub(crate) desc: [u128; POWERS],
    /// Karatsuba helpers: `kara[i]` = hi64(desc[i]) xor lo64(desc[i]) in both halves.
    pub(crate) kara: [u128; POWERS],
    pub(crate) count: usize,
    pub(crate) flavor: Flavor,
}

impl Drop for HashKey {
    fn drop(&mut self) {
        // Only the last `count` entries were ever written.
        crate::secret::wipe::wipe(&mut self.desc[POWERS - self.count..]);
        crate::secret::wipe::wipe(&mut self.kara[POWERS - self.count..]);
    }
}

impl core::fmt::Debug for HashKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "HashKey({:?}, <secret>)", self.flavor)
    }
}

impl HashKey {
    /// Key for GHASH from H = E(K, 0^128) as GCM defines it (all 32 powers, portable
    /// arithmetic; engines build keys with [`crate::Engine`]'s own multiplier).
    #[cfg(test)]
    pub fn ghash(h: &[u8; 16]) -> Self {
        Self::from_element(
            mul_x(u128::from_be_bytes(*h)),
            Flavor::Ghash,
            POWERS,
            soft::dot,
        )
    }

    /// Key for POLYVAL from its 16-byte key (all 32 powers, portable arithmetic).
    #[cfg(test)]
    pub fn polyval(h: &[u8; 16]) -> Self {
        Self::from_element(u128::from_le_bytes(*h), Flavor::Polyval, POWERS, soft::dot)
    }

    /// Key of `flavor` from its 16 bytes (as [`Self::fill_with`] reads them) with only
    /// `count` powers (portable arithmetic): a derived key's few.
    #[cfg(test)]
    pub(crate) fn with_powers(h: &[u8; 16], flavor: Flavor, count: usize) -> Self {
        let e = match flavor {
            Flavor::Ghash => mul_x(u128::from_be_bytes(*h)),
            Flavor::Polyval => u128::from_le_bytes(*h),
        };
        Self::from_element(e, flavor, count, soft::dot)
    }

    #[cfg(test)]
    fn from_element(
        h: u128,
        flavor: Flavor,
        count: usize,
        dot: impl Fn(u128, u128) -> u128,
    ) -> Self {
        let mut k = HashKey::empty(flavor);
        k.fill_element(h, count, dot);
        k
    }

    /// An all-zero key of `flavor` with no powers, to be filled in place.
    pub(crate) fn empty(flavor: Flavor) -> Self {
        HashKey {
            desc: [0; POWERS],
            kara: [0; POWERS],
            count: 0,
            flavor,
        }
    }

    #[cfg(test)]
    fn fill_element(&mut self, h: u128, count: usize, dot: impl Fn(u128, u128) -> u128) {
        let count = count.clamp(1, POWERS);
        self.desc[POWERS - 1] = h;
        for k in 2..=count {
            self.desc[POWERS - k] = dot(self.desc[POWERS - k + 1], h);
        }
        self.finish_fill(count);
    }

    /// Fills this key in place from its 16 bytes, the powers computed by `powers`
    /// (given H in POLYVAL form, the count and the descending table to fill).
    pub(crate) fn fill_with(
        &mut self,
        h: &[u8; 16],
        count: usize,
        powers: impl FnOnce(u128, usize, &mut [u128; POWERS]),
    ) {
        let e = match self.flavor {
            Flavor::Ghash => mul_x(u128::from_be_bytes(*h)),
            Flavor::Polyval => u128::from_le_bytes(*h),
        };
        let count = count.clamp(1, POWERS);
        powers(e, count, &mut self.desc);
        self.finish_fill(count);
    }

    /// The Karatsuba helpers of the first `count` powers.
    fn finish_fill(&mut self, count: usize) {
        for i in POWERS - count..POWERS {
            let d = self.desc[i];
            let m = (d as u64 ^ (d >> 64) as u64) as u128;
            self.kara[i] = m | (m << 64);
        }
        self.count = count;
    }

    /// The flavor (GHASH or POLYVAL).
    pub(crate) fn flavor(&self) -> Flavor {
        self.flavor
    }

    /// H^k for 1 <= k <= count.
    pub(crate) fn power(&self, k: usize) -> u128 {
        self.desc[POWERS - k]
    }
}

/// The identity of `dot`: x^128 mod p (dot(a, ONE) = a).
#[cfg(feature = "alloc")]
pub(crate) const DOT_ONE: u128 = (0xc200_0000_0000_0000u128 << 64) | 1;

/// a^e in the dot algebra (dot-powers: `dot_pow(H, k)` multiplies by H^k in one `dot`),
/// by square-and-multiply. The exponent is public (a length or block position).
#[cfg(feature = "alloc")]
pub(crate) fn dot_pow(a: u128, mut e: u128, dot: impl Fn(u128, u128) -> u128) -> u128 {
    let (mut r, mut b) = (DOT_ONE, a);
    while e != 0 {
        if e & 1 == 1 {
            r = dot(r, b);
        }
        b = dot(b, b);
        e >>= 1;
    }
    r
}

/// The inverse in the dot algebra (a != 0): a^(2^128 - 2), Fermat's little theorem in
/// GF(2^128). dot(dot(x, a), dot_inv(a)) = x.
#[cfg(feature = "alloc")]
pub(crate) fn dot_inv(a: u128, dot: impl Fn(u128, u128) -> u128) -> u128 {
    dot_pow(a, u128::MAX - 1, dot)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b16(s: &str) -> [u8; 16] {
        hex::decode(s).unwrap().try_into().unwrap()
    }

    /// The hash of whole blocks, portable path.
    fn hash(key: &HashKey, blocks: &[[u8; 16]]) -> [u8; 16] {
        let mut acc = 0u128;
        for b in blocks {
            soft::update_padded(key, &mut acc, b);
        }
        key.flavor.store(acc)
    }

    /// RFC 8452 Appendix A worked example.
    #[test]
    fn rfc8452_polyval_example() {
        let key = HashKey::polyval(&b16("25629347589242761d31f826ba4b757b"));
        let x = [
            b16("4f4f95668c83dfb6401762bb2d01a262"),
            b16("d1a24ddd2721d006bbe45f20d3c9f362"),
        ];
        assert_eq!(hash(&key, &x), b16("f7a3b47b846119fae5b7866cf5e5b77e"));
    }

    /// RFC 8452 Appendix A, the same computation as GHASH:
    /// POLYVAL(H, X_1, X_2) = ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)),
    /// ByteReverse(X_1), ByteReverse(X_2))), with mulX_GHASH(ByteReverse(H)) =
    /// dcbaa5dd137c188ebb21492c23c9b112 as the appendix gives it.
    #[test]
    fn rfc8452_ghash_example() {
        let rev = |s: &str| {
            let mut b = b16(s);
            b.reverse();
            b
        };
        let key = HashKey::ghash(&b16("dcbaa5dd137c188ebb21492c23c9b112"));
        let x = [
            rev("4f4f95668c83dfb6401762bb2d01a262"),
            rev("d1a24ddd2721d006bbe45f20d3c9f362"),
        ];
        assert_eq!(hash(&key, &x), rev("f7a3b47b846119fae5b7866cf5e5b77e"));
    }

    /// GCM spec Test Case 2: GHASH(H, {}, C) = f38cbb1ad69223dcc3457ae5b6b0f885.
    #[test]
    fn gcm_test_case_2_ghash() {
        let key = HashKey::ghash(&b16("66e94bd4ef8a2c3b884cfa59ca342b2e"));
        let x = [
            b16("0388dace60b6a392f328c2b971b2fe78"),
            crate::spec::gcm::length_block(0, 16),
        ];
        assert_eq!(hash(&key, &x), b16("f38cbb1ad69223dcc3457ae5b6b0f885"));
    }

    /// Aggregated update equals Horner's rule block by block, for every length 0..40 blocks.
    #[test]
    fn aggregation_equals_horner() {
        let key = HashKey::polyval(&b16("0123456789abcdef0fedcba987654321"));
        let data: Vec<u8> = (0..640u32).map(|i| (i * 31 + 7) as u8).collect();
        for n in 0..40 {
            let mut agg = 0u128;
            soft::update_padded(&key, &mut agg, &data[..16 * n]);
            let mut acc = 0u128;
            for blk in data[..16 * n].chunks_exact(16) {
                acc = soft::dot(
                    acc ^ u128::from_le_bytes(blk.try_into().unwrap()),
                    key.power(1),
                );
            }
            assert_eq!(agg, acc, "{n} blocks");
        }
    }
}
