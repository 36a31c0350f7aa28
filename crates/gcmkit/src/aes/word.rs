//! The plane word of the fixsliced AES (`aes::soft`): a few 64-bit lanes of 4 blocks
//! each, with the two moves fixslicing needs. [`Lanes`] is the portable word; `soft_word`
//! holds the vector-register words of SSE2 and NEON.

use core::ops::{BitAnd, BitXor};

/// L independent 64-bit lanes (4 blocks each), operated on lane by lane.
#[derive(Clone, Copy)]
pub(crate) struct Lanes<const L: usize>([u64; L]);

impl<const L: usize> Lanes<L> {
    /// `f` of each lane.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn map(self, f: impl Fn(u64) -> u64) -> Self {
        Lanes(self.0.map(f))
    }

    /// `f` of each pair of lanes of `self` and `o`.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn zip(self, o: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        Lanes(core::array::from_fn(|l| f(self.0[l], o.0[l])))
    }
}

impl<const L: usize> Default for Lanes<L> {
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn default() -> Self {
        Lanes([0; L])
    }
}

impl<const L: usize> BitXor for Lanes<L> {
    type Output = Self;
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn bitxor(self, o: Self) -> Self {
        self.zip(o, |a, b| a ^ b)
    }
}

impl<const L: usize> BitAnd for Lanes<L> {
    type Output = Self;
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn bitand(self, o: Self) -> Self {
        self.zip(o, |a, b| a & b)
    }
}

/// A plane word: some 64-bit lanes of 4 blocks each, with the two moves fixslicing needs.
pub(crate) trait Word:
    Copy + Default + BitXor<Output = Self> + BitAnd<Output = Self>
{
    /// 64-bit lanes per word.
    const LANES: usize;
    /// Each lane rotated right by 16·`rows` bits: row r + rows moves to row r.
    fn rows_down(self, rows: u32) -> Self;
    /// Each 16-bit group rotated right by 4·`cols` bits: column c + cols moves to column c.
    fn cols_on(self, cols: u32) -> Self;
    /// Lane `l`.
    fn lane(self, l: usize) -> u64;
    /// Sets lane `l`.
    fn set_lane(&mut self, l: usize, v: u64);
    /// `v` in every lane.
    fn splat(v: u64) -> Self;
    /// Each lane shifted right by `n` bits.
    fn shr(self, n: u32) -> Self;
    /// Each lane shifted left by `n` bits.
    fn shl(self, n: u32) -> Self;
}

impl<const L: usize> Word for Lanes<L> {
    const LANES: usize = L;
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn lane(self, l: usize) -> u64 {
        self.0[l]
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn set_lane(&mut self, l: usize, v: u64) {
        self.0[l] = v;
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn splat(v: u64) -> Self {
        Lanes([v; L])
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn shr(self, n: u32) -> Self {
        self.map(|a| a >> n)
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn shl(self, n: u32) -> Self {
        self.map(|a| a << n)
    }
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn rows_down(self, rows: u32) -> Self {
        self.map(|a| a.rotate_right(16 * rows))
    }

    /// Each 16-bit group rotated right by 4·`cols` bits: column c + cols moves to column c.
    #[cfg_attr(not(any(gcmkit_o0, test)), inline(always))]
    fn cols_on(self, cols: u32) -> Self {
        let s = 4 * (cols % 4);
        if s == 0 {
            return self;
        }
        // Bits that stay inside their group after the right shift.
        let keep = ((1u64 << (16 - s)) - 1) * 0x0001_0001_0001_0001;
        self.map(|a| ((a >> s) & keep) | ((a << (16 - s)) & !keep))
    }
}
