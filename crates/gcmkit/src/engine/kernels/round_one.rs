//! The round-one table of a long-term AES-GCM key (`engine::RoundOne`, which gives the
//! maths), built with the engine's vectors; `gcm_lean::RoundOneRun` reads it.

use super::super::simd::Simd;
use super::aes::broadcast_key;
use crate::aes::RoundKeys;
use crate::engine::RoundOne;

/// Fills `table` with T[v] = AESENC(k0 xor v·e15, AESENC(k0, 0)) for the key `rk`
/// (`engine::RoundOne` derives it), `V::LANES` entries per instruction.
#[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
pub(crate) fn round_one_table<V: Simd>(cpu: V::Cpu, rk: &RoundKeys, table: &mut RoundOne) {
    let k0 = broadcast_key::<V>(cpu, &rk.as_blocks()[0]);
    let a = k0.aesenc(V::zero(cpu));
    for v in (0..256).step_by(V::LANES) {
        let x = k0.xor(V::load_elems(cpu, &LAST_BYTE[v..]));
        x.aesenc(a).store_elems(&mut table.t[v..]);
    }
}

/// `LAST_BYTE[e]`: the block whose last byte is e and whose other bytes are zero. A
/// batch of b blocks from last byte v reads entries v..v + b, all in the table: it is
/// only made from them when it does not carry out of that byte
/// (`gcm_lean::RoundOneRun`).
/// Public constants: 4 KiB.
static LAST_BYTE: [u128; 256] = last_byte();

const fn last_byte() -> [u128; 256] {
    let mut t = [0u128; 256];
    let mut e = 0;
    while e < 256 {
        t[e] = (e as u128) << 120;
        e += 1;
    }
    t
}
