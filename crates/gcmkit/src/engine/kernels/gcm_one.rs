//! AES-GCM of a one-block message: 1 to 16 bytes, no AAD, a 96-bit IV. The shape of a
//! short RPC reply or an acknowledgement, and the size at which a general kernel's
//! set-up costs more than the message: here every length is known to fit, so there is
//! no block count to dispatch on, no AAD loop and no table index to compute.
//!
//! The whole message is two AES chains and one GHASH of two blocks:
//!     Y0 = IV || 0^31 1,  Y1 = IV || 0^30 10 (the counter 1 -> 2: its last byte XOR 3),
//!     C = P xor MSB_len(E(K, Y1)),
//!     S = GHASH(pad16(C) || L) = C'·H^2 + L·H  (C' the padded block, L the length block
//!         0^64 || bitlen(C): no AAD, so its high qword is zero and L·H is two products),
//!     T = S xor E(K, Y0) (`spec::gcm::tag_from_ghash`, here on vectors).
//! The products are schoolbook (four carry-less multiplies for C'·H^2, two for L·H), summed
//! unreduced and reduced once; they depend only on C, so an encryption's hash waits for
//! the AES chain of Y1, and a decryption's (C is its input) overlaps both chains.

use super::super::simd::Simd;
use super::aes::middle_rounds;
use super::ghash::{gcm_tag, Sums};
use crate::aes::RoundKeys;
use crate::engine::{Block16, Data};
use crate::field::{HashKey, POWERS};
use crate::spec::gcm::iv96_block;

/// Whether [`gcm_one`] takes a message of these lengths (with a 96-bit IV).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn one_fits(aad_len: usize, len: usize) -> bool {
    aad_len == 0 && len.wrapping_sub(1) < 16
}

/// Where [`gcm_one`] reads its message and writes the result: a [`Data`], or exactly one
/// whole block as a [`Block16`] (two pointers in registers, no shape or bounds to test).
pub(crate) trait OneIo {
    /// The message's length (1 to 16; public).
    fn len(&self) -> usize;
    /// Loads the input, XORs the keystream block `ks` into it (cut to the length), stores
    /// the output; returns the input and the output, each zero-padded to a block.
    fn apply<V: Simd>(self, cpu: V::Cpu, ks: V::Block) -> (V::Block, V::Block);
}

impl OneIo for Data<'_> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn len(&self) -> usize {
        Data::len(self)
    }

    // The length is public: a whole block is one load and one store, a partial one a
    // masked (or piecewise) load and store that never touch a byte past the data.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn apply<V: Simd>(mut self, cpu: V::Cpu, ks: V::Block) -> (V::Block, V::Block) {
        let bc = V::block_cpu(cpu);
        let len = Data::len(&self);
        if len == 16 {
            let x = V::Block::load(bc, self.src());
            let y = x.xor(ks);
            y.store(self.dst());
            (x, y)
        } else {
            let x = V::load_partial(cpu, &self.src()[..len]).lane0();
            let keep = (1u128 << (8 * len)) - 1;
            let y = x.xor(V::Block::from_u128_computed(bc, ks.to_u128() & keep));
            V::from_lane0(cpu, y).store_partial(&mut self.dst()[..len]);
            (x, y)
        }
    }
}

impl OneIo for Block16<'_> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn len(&self) -> usize {
        16
    }

    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn apply<V: Simd>(self, cpu: V::Cpu, ks: V::Block) -> (V::Block, V::Block) {
        let bc = V::block_cpu(cpu);
        let x = V::Block::load(bc, &self.read());
        let y = x.xor(ks);
        let mut out = [0u8; 16];
        y.store(&mut out);
        self.write(out);
        (x, y)
    }
}

/// Whole AES-GCM of a message that [`one_fits`] (a larger one is an internal error: a
/// panic on a slice bound, never memory outside it), encryption or (`DEC`) decryption,
/// from `io`'s source into its destination or in place, with the GHASH key `key` (at
/// least two powers). Returns the full tag before truncation as the little-endian
/// integer of its 16 bytes (in two registers, not through memory); a decryption returns
/// the tag of its ciphertext, which the caller compares.
/// Any key size (the round count is tested in `middle_rounds`).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn gcm_one<V: Simd, const DEC: bool>(
    cpu: V::Cpu,
    rk: &RoundKeys,
    key: &HashKey,
    iv: &[u8; 12],
    io: impl OneIo,
) -> u128 {
    let bc = V::block_cpu(cpu);
    let len = io.len();
    // Y0 from the IV in general-purpose registers (a 16-byte load of a block built in
    // memory from its 12- and 4-byte parts cannot be store-forwarded); Y1 from Y0's
    // whitened register by one XOR.
    let k = rk.as_blocks();
    let y0 = V::Block::from_u128_computed(bc, u128::from_le_bytes(iv96_block(iv, 1)));
    let w0 = y0.xor(V::Block::load(bc, &k[0]));
    let mut s = [w0, w0.xor(V::Block::from_u128(bc, 3 << 120))];
    let kl = middle_rounds!(rk, |r| {
        let r = V::Block::load(bc, r);
        s = [s[0].aesenc(r), s[1].aesenc(r)];
    });
    let kl = V::Block::load(bc, kl);
    let (mask, ks) = (s[0].aesenclast(kl), s[1].aesenclast(kl));
    // The input, the output and the ciphertext block GHASH takes (zero-padded: a partial
    // block's keystream is cut to its length first), all in registers.
    let (input, output) = io.apply::<V>(cpu, ks);
    let c = if DEC { input } else { output }.bswap();
    // S = C'·H^2 + L·H, schoolbook, one reduction (module docs). H^k is `desc[POWERS - k]`.
    let h2 = V::Block::from_u128(bc, key.desc[POWERS - 2]);
    let h1 = V::Block::from_u128(bc, key.desc[POWERS - 1]);
    // The length block's GHASH element (its big-endian value, as `finish_tag` in `gcm`
    // builds it): bitlen(A) = 0 in the high qword, bitlen(C) in the low.
    let l = V::Block::from_u128_computed(bc, u128::from((len as u64) << 3));
    let sums = Sums {
        lo: c.clmul::<0x00>(h2).xor(l.clmul::<0x00>(h1)),
        mid: c
            .clmul::<0x01>(h2)
            .xor3(c.clmul::<0x10>(h2), l.clmul::<0x10>(h1)),
        hi: c.clmul::<0x11>(h2),
    };
    // The tag in two registers (`ghash::gcm_tag`).
    gcm_tag(sums.reduce_true_mid(), mask).to_u128()
}
