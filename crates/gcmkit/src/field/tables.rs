//! The table-driven GHASH methods of the GCM specification (sec. 4.1, Table 1), for study
//! and for reproducing the papers' time-memory tables.
//!
//! **Not constant time.** Every method here indexes tables with bits of the data being
//! hashed, so cache timing leaks them (and through them, information about H). They are
//! behind the `table-strategies` feature, never chosen automatically, and reachable only
//! through `gcmkit::hazmat`. Use the default engines for anything real.
//!
//! Representation: GCM bit order, an element as a big-endian `u128` (bit 0 of the block,
//! the coefficient of x^0, is the most significant bit). Multiplying by P = x is a right
//! shift, reduced with R = 0xE1 || 0^120 when x^127 falls off.
//!
//! Methods (spec Table 1):
//! - `Simple8`: 16 tables T_i[b] = (b at byte i)·H; X·H = XOR of 16 lookups (64 KiB/key).
//! - `Simple4`: 32 tables over nibbles (8 KiB/key).
//! - `Shoup8`: one table M[b] = b·H (4 KiB/key) and Horner over bytes,
//!   Z ← Z·P^8 ⊕ M[x_i], with Z·P^8 = (Z >> 8) ⊕ R8[low byte of Z] (R8 key-independent).
//! - `Shoup4`: the same over nibbles (256 B/key + R4).
//! - `NoTables`: Algorithm 1, bit by bit (16 B/key).
//!
//! Tables are built with Algorithm 3: M[128] = H, M[i] = M[2i]·P for the other powers of
//! two, then M[i + j] = M[i] ⊕ M[j] (8 multiplications by P and 247 additions).

#[cfg(feature = "alloc")]
use alloc::{boxed::Box, vec, vec::Vec};

const R: u128 = 0xe1 << 120;

/// X·P.
#[inline]
fn mul_p(x: u128) -> u128 {
    (x >> 1) ^ (R & 0u128.wrapping_sub(x & 1))
}

/// X·P^n by n single steps.
fn mul_p_n(mut x: u128, n: u32) -> u128 {
    for _ in 0..n {
        x = mul_p(x);
    }
    x
}

/// Algorithm 1 of the specification: X·Y bit by bit.
pub fn mul_bitwise(x: u128, y: u128) -> u128 {
    let (mut z, mut v) = (0u128, y);
    for i in 0..128 {
        z ^= v & 0u128.wrapping_sub((x >> (127 - i)) & 1);
        v = mul_p(v);
    }
    z
}

/// Algorithm 3: M\[b\] = b·H for all `bits`-bit values b, where the value's most significant
/// bit is the coefficient of x^0.
pub fn algorithm3(h: u128, bits: u32) -> Vec<u128> {
    let n = 1usize << bits;
    let mut m = vec![0u128; n];
    m[n / 2] = h;
    let mut i = n / 4;
    while i > 0 {
        m[i] = mul_p(m[2 * i]);
        i /= 2;
    }
    let mut i = 2;
    while i < n {
        for j in 1..i {
            m[i + j] = m[i] ^ m[j];
        }
        i *= 2;
    }
    m
}

/// The reduction table of Shoup's method: R[a] = (a in the lowest `bits` bits)·P^bits.
fn reduction_table(bits: u32) -> Vec<u128> {
    (0..1u128 << bits).map(|a| mul_p_n(a, bits)).collect()
}

/// One of the spec's GHASH multiplication methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableMethod {
    /// 16 tables of 256 entries: 64 KiB per key.
    Simple8,
    /// 32 tables of 16 entries: 8 KiB per key.
    Simple4,
    /// Shoup's method, 8-bit: 4 KiB per key + a 4 KiB key-independent table.
    Shoup8,
    /// Shoup's method, 4-bit: 256 B per key + a 256 B key-independent table.
    Shoup4,
    /// Algorithm 1, no tables: 16 B per key.
    NoTables,
}

impl TableMethod {
    /// All five, in the order of the spec's Table 1.
    pub const ALL: [TableMethod; 5] = [
        TableMethod::Simple8,
        TableMethod::Simple4,
        TableMethod::Shoup8,
        TableMethod::Shoup4,
        TableMethod::NoTables,
    ];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            TableMethod::Simple8 => "simple 8-bit tables",
            TableMethod::Simple4 => "simple 4-bit tables",
            TableMethod::Shoup8 => "Shoup 8-bit tables",
            TableMethod::Shoup4 => "Shoup 4-bit tables",
            TableMethod::NoTables => "no tables (Algorithm 1)",
        }
    }
}

/// A multiplier by a fixed H using one of the table methods.
#[derive(Clone)]
pub struct TableMul {
    method: TableMethod,
    h: u128,
    /// Per-key tables: Simple8/4: all positions concatenated; Shoup8/4: M.
    key_tables: Box<[u128]>,
    /// Shoup's key-independent reduction table.
    reduce: Box<[u128]>,
}

impl core::fmt::Debug for TableMul {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "TableMul({}, <secret>)", self.method.name())
    }
}

impl Drop for TableMul {
    fn drop(&mut self) {
        crate::secret::wipe::wipe(&mut self.key_tables);
        crate::secret::wipe::wipe(core::slice::from_mut(&mut self.h));
    }
}

impl TableMul {
    /// Builds the tables for H (a GCM-order block).
    pub fn new(h: &[u8; 16], method: TableMethod) -> Self {
        let h = u128::from_be_bytes(*h);
        let (key_tables, reduce): (Vec<u128>, Vec<u128>) = match method {
            TableMethod::Simple8 | TableMethod::Simple4 => {
                let bits = if method == TableMethod::Simple8 { 8 } else { 4 };
                let m0 = algorithm3(h, bits);
                let mut all = Vec::with_capacity((128 / bits as usize) << bits);
                let mut cur = m0;
                for _ in 0..128 / bits {
                    all.extend_from_slice(&cur);
                    cur = cur.iter().map(|&v| mul_p_n(v, bits)).collect();
                }
                (all, Vec::new())
            }
            TableMethod::Shoup8 => (algorithm3(h, 8), reduction_table(8)),
            TableMethod::Shoup4 => (algorithm3(h, 4), reduction_table(4)),
            TableMethod::NoTables => (Vec::new(), Vec::new()),
        };
        TableMul {
            method,
            h,
            key_tables: key_tables.into_boxed_slice(),
            reduce: reduce.into_boxed_slice(),
        }
    }

    /// The method.
    pub fn method(&self) -> TableMethod {
        self.method
    }

    /// Bytes of key-dependent and key-independent tables.
    pub fn memory(&self) -> (usize, usize) {
        let per_key = if self.method == TableMethod::NoTables {
            16
        } else {
            self.key_tables.len() * 16
        };
        (per_key, self.reduce.len() * 16)
    }

    /// X·H.
    pub fn mul(&self, x: u128) -> u128 {
        let t = &self.key_tables;
        match self.method {
            TableMethod::Simple8 => (0..16).fold(0, |z, i| {
                z ^ t[(i << 8) | ((x >> (120 - 8 * i)) & 0xff) as usize]
            }),
            TableMethod::Simple4 => (0..32).fold(0, |z, i| {
                z ^ t[(i << 4) | ((x >> (124 - 4 * i)) & 0xf) as usize]
            }),
            TableMethod::Shoup8 => {
                let mut z = 0u128;
                for i in (0..16).rev() {
                    z = (z >> 8) ^ self.reduce[(z & 0xff) as usize];
                    z ^= t[((x >> (120 - 8 * i)) & 0xff) as usize];
                }
                z
            }
            TableMethod::Shoup4 => {
                let mut z = 0u128;
                for i in (0..32).rev() {
                    z = (z >> 4) ^ self.reduce[(z & 0xf) as usize];
                    z ^= t[((x >> (124 - 4 * i)) & 0xf) as usize];
                }
                z
            }
            TableMethod::NoTables => mul_bitwise(x, self.h),
        }
    }

    /// GHASH: absorbs `data` into `y` (final partial block zero-padded).
    pub fn update_padded(&self, y: &mut u128, data: &[u8]) {
        for chunk in data.chunks(16) {
            let mut b = [0u8; 16];
            b[..chunk.len()].copy_from_slice(chunk);
            *y = self.mul(*y ^ u128::from_be_bytes(b));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm3_builds_the_direct_tables() {
        let h = 0x66e9_4bd4_ef8a_2c3b_884c_fa59_ca34_2b2e_u128;
        for bits in [4u32, 8] {
            let m = algorithm3(h, bits);
            for (b, &v) in m.iter().enumerate() {
                // b as a field element: its bits at the top of the 128-bit word.
                let x = (b as u128) << (128 - bits);
                assert_eq!(v, mul_bitwise(x, h), "M[{b}] ({bits}-bit)");
            }
        }
    }

    #[test]
    fn every_method_multiplies_like_algorithm_1() {
        let mut s = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210_u128;
        let h = 0xb83b_5337_08bf_535d_0aa6_e529_80d5_3b78_u128;
        let muls: Vec<TableMul> = TableMethod::ALL
            .iter()
            .map(|&m| TableMul::new(&h.to_be_bytes(), m))
            .collect();
        for _ in 0..300 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            for m in &muls {
                assert_eq!(m.mul(s), mul_bitwise(s, h), "{:?}", m.method());
            }
        }
    }
}
