//! Declassification points for constant-time checking.
//!
//! A few results computed from secrets are public by design: whether a tag or a
//! commitment matched. Under `--cfg gcmkit_ct_check` (the `make ct-check` build) they pass
//! through `gcmkit_ct_declassify`, which the checking harness implements with valgrind's
//! VALGRIND_MAKE_MEM_DEFINED, so memcheck reports every *other* secret-dependent branch or
//! memory index. In normal builds this is the identity function.

#[cfg(gcmkit_ct_check)]
unsafe extern "C" {
    fn gcmkit_ct_declassify(p: *mut u8, n: usize);
}

/// Marks a secret-derived boolean as public (a verification result).
#[inline]
pub(crate) fn declassify(b: bool) -> bool {
    #[cfg(gcmkit_ct_check)]
    {
        let mut x = b as u8;
        // SAFETY: the harness's function only changes valgrind's view of these bytes.
        unsafe { gcmkit_ct_declassify(&mut x, 1) };
        x != 0
    }
    #[cfg(not(gcmkit_ct_check))]
    {
        b
    }
}
