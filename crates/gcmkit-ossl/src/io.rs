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
