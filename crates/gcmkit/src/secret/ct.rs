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

/// MemorySanitizer's model of one operation it handles "strictly" (`make ct-check`'s MSan
/// build, `--cfg gcmkit_ct_msan`, only). For an intrinsic LLVM's MSan has no shadow rule
/// for (AESKEYGENASSIST), it reports any poisoned operand as a use of uninitialised
/// memory and returns a clean result: a false report, and the secret's taint lost for
/// all that follows. This runs `f` on an unpoisoned copy of `x` and poisons the whole
/// result if any byte of `x` was poisoned: sound (the result depends on no more than
/// its input), conservative (every result byte counts as derived from every input byte).
/// The instruction itself takes the same time for every value (like AESENC).
#[cfg(gcmkit_ct_msan)]
pub(crate) fn msan_strict<T: Copy, R>(mut x: T, f: impl FnOnce(T) -> R) -> R {
    unsafe extern "C" {
        fn __msan_test_shadow(p: *const u8, n: usize) -> isize;
        fn __msan_unpoison(p: *const u8, n: usize);
        fn __msan_poison(p: *const u8, n: usize);
    }
    let (p, n) = ((&raw mut x).cast::<u8>(), core::mem::size_of::<T>());
    // SAFETY: the MSan runtime (linked into every -Zsanitizer=memory binary) reads or
    // changes only the shadow of these `n` bytes of `x`.
    let tainted = unsafe { __msan_test_shadow(p, n) } >= 0;
    // SAFETY: as above.
    unsafe { __msan_unpoison(p, n) };
    let mut r = f(x);
    if tainted {
        // SAFETY: as above, for the bytes of `r`.
        unsafe { __msan_poison((&raw mut r).cast::<u8>(), core::mem::size_of::<R>()) };
    }
    r
}
