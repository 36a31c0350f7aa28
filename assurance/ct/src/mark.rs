//! Marking bytes secret or public for the checking tool the harness is built for:
//! valgrind memcheck through the C shim (`shim.c`: undefined / defined), or, in the
//! MemorySanitizer build (`--cfg gcmkit_ct_msan`), MSan's poison / unpoison. The hook
//! gcmkit calls at its declassification points (`gcmkit_ct_declassify`: whether a tag
//! matched) is the shim's in the valgrind build and `gcmkit_ct_declassify` below in the
//! MSan build.

#[cfg(not(gcmkit_ct_msan))]
extern "C" {
    fn ct_secret(p: *mut u8, n: usize);
    fn ct_public(p: *mut u8, n: usize);
}

#[cfg(gcmkit_ct_msan)]
extern "C" {
    fn __msan_poison(p: *const u8, n: usize);
    fn __msan_unpoison(p: *const u8, n: usize);
}

#[cfg(gcmkit_ct_msan)]
unsafe fn ct_secret(p: *mut u8, n: usize) {
    // SAFETY: the MSan runtime changes only the shadow of these bytes.
    unsafe { __msan_poison(p, n) }
}

#[cfg(gcmkit_ct_msan)]
unsafe fn ct_public(p: *mut u8, n: usize) {
    // SAFETY: as above.
    unsafe { __msan_unpoison(p, n) }
}

/// Off only in the `tag-taint` control (`taint::tag_taint`).
#[cfg(gcmkit_ct_msan)]
pub static DECLASSIFY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// gcmkit's declassification hook (`secret::ct::declassify`) in the MSan build.
///
/// # Safety
/// `p` points to `n` bytes.
#[cfg(gcmkit_ct_msan)]
#[no_mangle]
pub unsafe extern "C" fn gcmkit_ct_declassify(p: *mut u8, n: usize) {
    if DECLASSIFY.load(std::sync::atomic::Ordering::Relaxed) {
        // SAFETY: the caller's contract; only the shadow changes.
        unsafe { __msan_unpoison(p, n) }
    }
}

/// Marks `b` secret: the tool reports any branch or address computed from it.
pub fn secret(b: &mut [u8]) {
    // SAFETY: only the tool's shadow state of these bytes changes.
    unsafe { ct_secret(b.as_mut_ptr(), b.len()) }
}

/// Marks `b` public (results that are public by design: ciphertexts, tags).
pub fn public(b: &mut [u8]) {
    // SAFETY: as above.
    unsafe { ct_public(b.as_mut_ptr(), b.len()) }
}
