//! AES-GCM-SIV's per-message steps in registers, for the one-body kernels
//! (`kernels::siv_lean`): DeriveKey with the derived key's schedule, and the tag. The
//! byte rules (DeriveKey's inputs and key split, the tag input S) come from
//! `crate::spec`, so these kernels and the portable path share them.

use super::super::simd::Simd;
use super::aes::{aes_n, keys, Keys};
use crate::aes::RoundKeys;
use crate::spec::{rfc8452, siv};

/// The single-block vector of backend `V`.
type B<V> = <V as Simd>::Block;

/// TAG = AES(K_enc, S), S = POLYVAL xor nonce with bit 127 cleared
/// (`siv::tag_input_u128`), in vector registers.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn tag_of<V: Simd>(ek: &Keys<B<V>>, polyval: B<V>, nonce: &[u8; 12]) -> B<V> {
    let bc = polyval.cpu();
    let n = B::<V>::from_u128_computed(bc, siv::tag_input_u128(0, nonce));
    let low127 = B::<V>::from_u128(bc, !siv::first_counter_u128(0));
    let mut s = [polyval.xor(n).and(low127)];
    aes_n(ek, &mut s);
    s[0]
}

/// DeriveKey (RFC 8452 sec. 4) and the derived encryption key's schedule, kept in
/// registers: the POLYVAL key H and the round keys.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(super) fn derive<V: Simd>(
    cpu: V::Cpu,
    kgk: &RoundKeys,
    nonce: &[u8; 12],
    wide: bool,
) -> Result<(B<V>, Keys<B<V>>), crate::Error> {
    let bc = V::block_cpu(cpu);
    // Every per-message value of the chain DeriveKey -> key schedule -> tag -> CTR stays in
    // registers: built and split as integers (`spec::rfc8452`, `spec::siv`) and moved to
    // vectors through general-purpose registers (`Simd::from_u128_computed`). Through
    // memory, each step was a 16-byte load of bytes written piecewise, which cannot be
    // store-forwarded (five of them on the chain; docs/tuning.md: derive).
    //
    // DeriveKey (RFC 8452 sec. 4): all six blocks as independent chains (AES-128 uses 4,
    // AES-192 5; in parallel the rest cost no latency). With `wide`, on engines of two or
    // more blocks per vector, the six blocks are two 512-bit or three 256-bit vectors
    // ([`derive_wide`]): 30 or 45 AES instructions instead of 90. Past a few blocks a
    // message is bound by the vector ports, not by its chain: on Intel with 512-bit
    // instructions in flight only two ports run vector operations, and AES only one of
    // them. The blocks come back through a stack copy, a few cycles more on the chain,
    // which a short decryption on 512-bit vectors pays without the gain
    // (docs/tuning.md: derive_wide).
    let first = B::<V>::from_u128_computed(bc, rfc8452::derive_key_input0(nonce));
    // What is wiped here, and what is not: every copy this kernel writes to memory (the
    // power tables, which are indexed and so live on the stack; the expanded key where a
    // backend has no register schedule). Vectors and integers that live in registers
    // (`d`, the derived keys, the round keys of both keys) are not: a volatile wipe of
    // them only gives them a stack home to write zeros to, and never reaches a register
    // spill; it cost 36 stores and their spills per message (AES-256-GCM-SIV 16 B: commit
    // message, measured). The long-term key's copies are not wiped either: the key
    // object zeroizes its own `RoundKeys`.
    let d = if !wide || V::LANES == 1 {
        let mut d = [first; 6];
        for (i, x) in d.iter_mut().enumerate().skip(1) {
            *x = first.xor(B::<V>::from_u128_computed(bc, i as u128));
        }
        aes_n(&keys::<B<V>>(bc, kgk), &mut d);
        d
    } else if V::LANES >= 4 {
        derive_wide::<V, 2>(cpu, kgk, first)
    } else {
        derive_wide::<V, 3>(cpu, kgk, first)
    };
    // The keys from the first 8 bytes of each block, two blocks to a key or key half, as
    // `rfc8452::derived_keys_u128` splits them (auth from blocks 0-1, the encryption key
    // from 2-3 and 4-5): one unpack each, in the vector registers. (Through integers, each
    // was two moves out and two back on the DeriveKey -> key schedule chain.)
    let h = d[0].unpack_lo64(d[1]);
    let lo = d[2].unpack_lo64(d[3]);
    let hi = d[4].unpack_lo64(d[5]);
    let enc_len = rfc8452::enc_key_len(kgk.key_bits());
    let registers = match enc_len {
        16 => B::<V>::expand_in_registers(lo, None),
        32 => B::<V>::expand_in_registers(lo, Some(hi)),
        _ => None,
    };
    let ek = match registers {
        Some(k) => Keys {
            k,
            rounds: if enc_len == 16 { 10 } else { 14 },
        },
        None => {
            // Through memory: AES-192's derived key, and backends without a register
            // schedule. The bytes and the expanded key are wiped (`RoundKeys` on drop).
            let mut enc = [0u8; 32];
            lo.store(&mut enc[..16]);
            hi.store(&mut enc[16..]);
            let mut rk = RoundKeys::empty();
            let expanded = V::expand_key_into(cpu, &enc[..enc_len], &mut rk);
            crate::secret::wipe::wipe_bytes(&mut enc);
            expanded?;
            keys::<B<V>>(bc, &rk)
        }
    };
    Ok((h, ek))
}

/// DeriveKey's six AES blocks (block i = `first` xor i: lane k of vector j is block
/// j·LANES + k, the index XORed into the first 32-bit word) as `NV` vectors of `V`
/// (NV·LANES >= 6), returned as blocks through a stack copy, which is wiped (it holds
/// the derived keys).
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
fn derive_wide<V: Simd, const NV: usize>(cpu: V::Cpu, kgk: &RoundKeys, first: B<V>) -> [B<V>; 6] {
    let bc = V::block_cpu(cpu);
    let lanes = V::broadcast(cpu, first).xor(V::lane_offsets(cpu));
    let mut v = [lanes; NV];
    for (j, x) in v.iter_mut().enumerate() {
        *x = lanes.xor(V::splat_dword0(cpu, (j * V::LANES) as i32));
    }
    aes_n(&keys::<V>(cpu, kgk), &mut v);
    let mut buf = [0u8; 16 * 8];
    for (j, x) in v.iter().enumerate() {
        x.store(&mut buf[16 * V::LANES * j..]);
    }
    let mut d = [B::<V>::zero(bc); 6];
    for (i, x) in d.iter_mut().enumerate() {
        *x = B::<V>::load(bc, &buf[16 * i..]);
    }
    crate::secret::wipe::wipe_bytes(&mut buf);
    d
}
