//! What one update/cipher/final call asks for, as OpenSSL's ciphers read their arguments:
//! `in == NULL` is Final, `out == NULL` is AAD, otherwise data from `in` to `out`.

use core::marker::PhantomData;

/// One call's input.
pub enum Io<'a> {
    /// Additional authenticated data (`out` was NULL).
    Aad(&'a [u8]),
    /// Data to encrypt or decrypt into the caller's output.
    Data(Data<'a>),
    /// `in` was NULL: finish the message.
    Final,
}

/// Data from the caller's input to its output, which may be the same buffer (in place) or
/// another one (possibly overlapping: it is moved first, with memmove semantics).
pub struct Data<'a> {
    out: *mut u8,
    input: *const u8,
    len: usize,
    _buffers: PhantomData<&'a mut [u8]>,
}

impl<'a> Data<'a> {
    /// # Safety
    /// `input` must point to `len` readable bytes and `out` to `len` writable bytes, both
    /// valid for 'a and not used by anyone else during the call.
    pub unsafe fn new(out: *mut u8, input: *const u8, len: usize) -> Self {
        Data {
            out,
            input,
            len,
            _buffers: PhantomData,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether input and output are the same buffer (OpenSSL's TLS path requires it).
    pub fn in_place(&self) -> bool {
        core::ptr::eq(self.out.cast_const(), self.input)
    }

    /// [`Self::into_buf`] if the data is at most `max` bytes, else None before any byte
    /// is read or written: a cipher's length limit checked ahead of the copy (a direct
    /// caller of the dispatch table claiming 2^36 + 16 bytes with `in != out` had them
    /// copied first: hostile input round four, finding 3).
    pub fn into_buf_at_most(self, max: u64) -> Option<&'a mut [u8]> {
        (self.len as u64 <= max).then(|| self.into_buf())
    }

    /// The output buffer holding the input, ready to be transformed in place.
    pub fn into_buf(self) -> &'a mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        if !self.in_place() {
            // SAFETY: both regions are valid for len bytes (Data::new's contract);
            // ptr::copy is memmove, correct for overlapping regions.
            unsafe { core::ptr::copy(self.input, self.out, self.len) };
        }
        // SAFETY: `out` is valid for len writable bytes for 'a and not aliased (Data::new).
        unsafe { core::slice::from_raw_parts_mut(self.out, self.len) }
    }
}

/// Test support: a context of `keylen` key bytes, initialised for encryption (`enc`) or
/// decryption with a fixed key and a 12-byte IV.
#[cfg(test)]
pub(crate) fn keyed<C: crate::dispatch::Cipher>(keylen: usize, enc: bool) -> C {
    let mut c = C::new(keylen);
    let settings = crate::params::Settings(core::ptr::null());
    assert!(c.init(Some(&[1u8; 32][..keylen]), Some(&[2u8; 12]), enc, settings));
    c
}

/// Test support: `update` (a context's update, keyed and ready) refuses an out-of-place
/// claim of 2^36 + 16 bytes over 32-byte buffers without touching them, and takes an
/// honest 32-byte update (so that a refusal for any other reason cannot pass the test).
#[cfg(test)]
pub(crate) fn refuses_oversized_claim(mut update: impl FnMut(Io<'_>, usize) -> bool) {
    let input = [7u8; 32];
    let mut out = [0u8; 32];
    let claim = (1usize << 36) + 16;
    // SAFETY: deliberately not: the claim exceeds both buffers, as a hostile caller of the
    // dispatch table would pass; the update must refuse it from the length alone.
    let io = Io::Data(unsafe { Data::new(out.as_mut_ptr(), input.as_ptr(), claim) });
    assert!(!update(io, claim), "an oversized claim was accepted");
    assert_eq!(out, [0u8; 32], "an oversized claim touched the output");
    // SAFETY: both buffers hold the 32 bytes claimed, for the call.
    let io = Io::Data(unsafe { Data::new(out.as_mut_ptr(), input.as_ptr(), 32) });
    assert!(update(io, 32), "an honest 32-byte update was refused");
}
