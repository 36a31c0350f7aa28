//! The C entry points OpenSSL calls: raw pointers become slices and parameter views here,
//! and everything else happens in the safe cipher code (`gcm`, `siv`).

use crate::ffi::{self, OsslAlgorithm, OsslDispatch, OsslParam, Shared};
use crate::gcm::GcmCtx;
use crate::io::{Data, Io};
use crate::params::{self, Requests, Settings};
use crate::siv::SivCtx;
use core::ffi::{c_int, c_void};

/// What the entry points need from a cipher context.
pub trait Cipher: Clone {
    const SIV: bool;
    fn new(keylen: usize) -> Self;
    fn init(&mut self, key: Option<&[u8]>, iv: Option<&[u8]>, enc: bool, p: Settings) -> bool;
    fn update(&mut self, io: Io<'_>, inl: usize, outsize: usize, outl: &mut usize) -> bool;
    fn finalize(&mut self, outl: &mut usize) -> bool;
    fn cipher(&mut self, io: Io<'_>, inl: usize, outsize: usize, outl: &mut usize) -> bool;
    fn get_ctx_params(&mut self, p: Requests) -> bool;
    fn set_ctx_params(&mut self, p: Settings) -> bool;
    fn gettable_ctx() -> *const OsslParam;
    fn settable_ctx() -> *const OsslParam;
}

/// `Cipher` for a context type whose inherent methods have the trait's names and
/// signatures (`gcm::GcmCtx`, `siv::SivCtx`): each trait method calls the inherent one.
/// `cipher` names the inherent method behind `OSSL_FUNC_cipher_cipher` (GCM-SIV uses its
/// update, as OpenSSL's does); `tables` the module (`gcm`, `siv`) holding the context parameter lists.
macro_rules! cipher_impl {
    ($ty:ty, siv: $siv:expr, cipher: $cipher:ident, tables: $tables:ident) => {
        impl Cipher for $ty {
            const SIV: bool = $siv;
            fn new(keylen: usize) -> Self {
                <$ty>::new(keylen)
            }
            fn init(
                &mut self,
                key: Option<&[u8]>,
                iv: Option<&[u8]>,
                enc: bool,
                p: Settings,
            ) -> bool {
                <$ty>::init(self, key, iv, enc, p)
            }
            fn update(&mut self, io: Io<'_>, inl: usize, outsize: usize, outl: &mut usize) -> bool {
                <$ty>::update(self, io, inl, outsize, outl)
            }
            fn finalize(&mut self, outl: &mut usize) -> bool {
                <$ty>::finalize(self, outl)
            }
            fn cipher(&mut self, io: Io<'_>, inl: usize, outsize: usize, outl: &mut usize) -> bool {
                <$ty>::$cipher(self, io, inl, outsize, outl)
            }
            fn get_ctx_params(&mut self, p: Requests) -> bool {
                <$ty>::get_ctx_params(self, p)
            }
            fn set_ctx_params(&mut self, p: Settings) -> bool {
                <$ty>::set_ctx_params(self, p)
            }
            fn gettable_ctx() -> *const OsslParam {
                crate::$tables::GETTABLE_CTX.0.as_ptr()
            }
            fn settable_ctx() -> *const OsslParam {
                crate::$tables::SETTABLE_CTX.0.as_ptr()
            }
        }
    };
}

cipher_impl!(GcmCtx, siv: false, cipher: cipher, tables: gcm);
cipher_impl!(SivCtx, siv: true, cipher: update, tables: siv);

/// The context behind OpenSSL's `void *` (NULL: none).
fn ctx<'a, C>(vctx: *mut c_void) -> Option<&'a mut C> {
    // SAFETY: OpenSSL passes back exactly the pointer newctx/dupctx returned for this
    // algorithm (a Box<C>), and never uses one context from two threads at once.
    unsafe { vctx.cast::<C>().as_mut() }
}

/// A byte slice from a pointer and length (None for NULL).
///
/// # Safety
/// A non-NULL `p` must point to `len` readable bytes valid for the call.
unsafe fn bytes<'a>(p: *const u8, len: usize) -> Option<&'a [u8]> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller's contract.
    Some(unsafe { core::slice::from_raw_parts(p, len) })
}

/// The call's input as OpenSSL's ciphers read it.
///
/// # Safety
/// `input` (if non-NULL) must point to `inl` readable bytes and `out` (if non-NULL) to
/// `inl` writable bytes, valid for the call.
unsafe fn io<'a>(out: *mut u8, input: *const u8, inl: usize) -> Io<'a> {
    if input.is_null() {
        Io::Final
    } else if out.is_null() {
        // SAFETY: the caller's contract for `input`.
        Io::Aad(unsafe { bytes(input, inl) }.unwrap_or_default())
    } else {
        // SAFETY: the caller's contract for both buffers.
        Io::Data(unsafe { Data::new(out, input, inl) })
    }
}

extern "C" fn newctx<C: Cipher, const KEYLEN: usize>(_provctx: *mut c_void) -> *mut c_void {
    Box::into_raw(Box::new(C::new(KEYLEN))).cast()
}

extern "C" fn freectx<C: Cipher>(vctx: *mut c_void) {
    if vctx.is_null() {
        return;
    }
    // SAFETY: the pointer is a Box<C> from newctx/dupctx that OpenSSL frees once.
    drop(unsafe { Box::from_raw(vctx.cast::<C>()) });
}

extern "C" fn dupctx<C: Cipher>(vctx: *mut c_void) -> *mut c_void {
    match ctx::<C>(vctx) {
        Some(c) => Box::into_raw(Box::new(c.clone())).cast(),
        None => core::ptr::null_mut(),
    }
}

fn init<C: Cipher>(
    vctx: *mut c_void,
    key: *const u8,
    keylen: usize,
    iv: *const u8,
    ivlen: usize,
    p: *const OsslParam,
    enc: bool,
) -> c_int {
    let Some(c) = ctx::<C>(vctx) else { return 0 };
    // SAFETY: OpenSSL's init contract: key and iv are NULL or hold keylen/ivlen bytes.
    let key = unsafe { bytes(key, keylen) };
    // SAFETY: as for the key.
    let iv = unsafe { bytes(iv, ivlen) };
    c_int::from(c.init(key, iv, enc, Settings(p)))
}

extern "C" fn einit<C: Cipher>(
    vctx: *mut c_void,
    key: *const u8,
    keylen: usize,
    iv: *const u8,
    ivlen: usize,
    p: *const OsslParam,
) -> c_int {
    init::<C>(vctx, key, keylen, iv, ivlen, p, true)
}

extern "C" fn dinit<C: Cipher>(
    vctx: *mut c_void,
    key: *const u8,
    keylen: usize,
    iv: *const u8,
    ivlen: usize,
    p: *const OsslParam,
) -> c_int {
    init::<C>(vctx, key, keylen, iv, ivlen, p, false)
}

extern "C" fn update<C: Cipher>(
    vctx: *mut c_void,
    out: *mut u8,
    outl: *mut usize,
    outsize: usize,
    input: *const u8,
    inl: usize,
) -> c_int {
    run_io::<C>(vctx, out, outl, outsize, input, inl, C::update)
}

extern "C" fn cipher<C: Cipher>(
    vctx: *mut c_void,
    out: *mut u8,
    outl: *mut usize,
    outsize: usize,
    input: *const u8,
    inl: usize,
) -> c_int {
    run_io::<C>(vctx, out, outl, outsize, input, inl, C::cipher)
}

/// The shared body of `update` and `cipher`: the same contract on `in`/`out`, and the
/// same refusal of an output shorter than the input; only the context's method differs.
type IoMethod<C> = fn(&mut C, Io<'_>, usize, usize, &mut usize) -> bool;

fn run_io<C: Cipher>(
    vctx: *mut c_void,
    out: *mut u8,
    outl: *mut usize,
    outsize: usize,
    input: *const u8,
    inl: usize,
    method: IoMethod<C>,
) -> c_int {
    let Some(c) = ctx::<C>(vctx) else { return 0 };
    // No buffer can hold more than isize::MAX bytes, and no slice may claim to: such a
    // length (a direct caller of the dispatch table; EVP's int lengths cannot) is refused
    // before anything is formed from it. Below it, each cipher checks its own limits
    // before it reads or copies a byte (`Data::into_buf_at_most`, the AAD limits).
    if inl > isize::MAX as usize {
        ffi::raise(ffi::PROV_R_INVALID_INPUT_LENGTH, c"cipher_update");
        return 0;
    }
    let mut n = 0;
    let ok = if !out.is_null() && !input.is_null() && outsize < inl {
        method(c, io_too_small(inl), inl, outsize, &mut n)
    } else {
        // SAFETY: OpenSSL's update/cipher contract: `in` (if non-NULL) holds inl bytes
        // and `out` (if non-NULL) has room for outsize bytes; on this branch, when both
        // are non-NULL, outsize >= inl, so `out` has room for the inl bytes written.
        let io = unsafe { io(out, input, inl) };
        method(c, io, inl, outsize, &mut n)
    };
    write_len(outl, n, ok)
}

/// An input too long for the output: only its length is looked at (the cipher refuses
/// it with OUTPUT_BUFFER_TOO_SMALL before touching any byte).
fn io_too_small<'a>(inl: usize) -> Io<'a> {
    // SAFETY: a dangling, aligned pointer is never read or written: every cipher checks
    // outsize < inl first and returns.
    Io::Data(unsafe {
        Data::new(
            core::ptr::NonNull::dangling().as_ptr(),
            core::ptr::null(),
            inl,
        )
    })
}

extern "C" fn final_<C: Cipher>(
    vctx: *mut c_void,
    _out: *mut u8,
    outl: *mut usize,
    _outsize: usize,
) -> c_int {
    let Some(c) = ctx::<C>(vctx) else { return 0 };
    let mut n = 0;
    let ok = c.finalize(&mut n);
    write_len(outl, n, ok)
}

/// Stores an output length where OpenSSL asked for it.
fn write_len(outl: *mut usize, n: usize, ok: bool) -> c_int {
    if ok && !outl.is_null() {
        // SAFETY: OpenSSL passes a valid size_t pointer (checked non-NULL).
        unsafe { *outl = n };
    }
    c_int::from(ok)
}

extern "C" fn get_ctx_params<C: Cipher>(vctx: *mut c_void, p: *mut OsslParam) -> c_int {
    let Some(c) = ctx::<C>(vctx) else { return 0 };
    c_int::from(c.get_ctx_params(Requests(p)))
}

extern "C" fn set_ctx_params<C: Cipher>(vctx: *mut c_void, p: *const OsslParam) -> c_int {
    let Some(c) = ctx::<C>(vctx) else { return 0 };
    c_int::from(c.set_ctx_params(Settings(p)))
}

extern "C" fn gettable_ctx_params<C: Cipher>(_c: *mut c_void, _p: *mut c_void) -> *const OsslParam {
    C::gettable_ctx()
}

extern "C" fn settable_ctx_params<C: Cipher>(_c: *mut c_void, _p: *mut c_void) -> *const OsslParam {
    C::settable_ctx()
}

/// `ossl_cipher_generic_get_params` for an AEAD with a custom IV, 8-bit blocks and a
/// 96-bit default IV.
extern "C" fn get_params<C: Cipher, const KEYLEN: usize>(p: *mut OsslParam) -> c_int {
    let r = Requests(p);
    let mode = if C::SIV {
        ffi::EVP_CIPH_GCM_SIV_MODE
    } else {
        ffi::EVP_CIPH_GCM_MODE
    };
    let fail = || {
        ffi::raise(
            ffi::PROV_R_FAILED_TO_SET_PARAMETER,
            c"ossl_cipher_generic_get_params",
        );
        0
    };
    if r.find(ffi::PARAM_MODE).is_some_and(|q| !q.set_uint(mode)) {
        return fail();
    }
    for (key, v) in [
        (ffi::PARAM_AEAD, 1),
        (ffi::PARAM_CUSTOM_IV, 1),
        (ffi::PARAM_CTS, 0),
        (ffi::PARAM_TLS1_MULTIBLOCK, 0),
        (ffi::PARAM_HAS_RAND_KEY, 0),
    ] {
        if r.find(key).is_some_and(|q| !q.set_int(v)) {
            return fail();
        }
    }
    for (key, v) in [
        (ffi::PARAM_KEYLEN, KEYLEN),
        (ffi::PARAM_BLOCK_SIZE, 1),
        (ffi::PARAM_IVLEN, 12),
    ] {
        if r.find(key).is_some_and(|q| !q.set_size_t(v)) {
            return fail();
        }
    }
    1
}

/// `cipher_known_gettable_params` (OpenSSL 3.0).
static GETTABLE: Shared<[OsslParam; 10]> = Shared([
    params::uint(ffi::PARAM_MODE),
    params::size_t(ffi::PARAM_KEYLEN),
    params::size_t(ffi::PARAM_IVLEN),
    params::size_t(ffi::PARAM_BLOCK_SIZE),
    params::int(ffi::PARAM_AEAD),
    params::int(ffi::PARAM_CUSTOM_IV),
    params::int(ffi::PARAM_CTS),
    params::int(ffi::PARAM_TLS1_MULTIBLOCK),
    params::int(ffi::PARAM_HAS_RAND_KEY),
    params::END,
]);

extern "C" fn gettable_params(_provctx: *mut c_void) -> *const OsslParam {
    GETTABLE.0.as_ptr()
}

/// A dispatch entry from a function of any signature (OpenSSL casts it back by id).
macro_rules! entry {
    ($id:expr, $f:expr) => {
        OsslDispatch {
            function_id: $id,
            // SAFETY: OSSL_DISPATCH stores every function as `void (*)(void)`; OpenSSL
            // casts it back to the signature the id defines, which is the one `$f` has.
            function: Some(unsafe {
                core::mem::transmute::<*const (), unsafe extern "C" fn()>($f as *const ())
            }),
        }
    };
}

const END: OsslDispatch = OsslDispatch {
    function_id: 0,
    function: None,
};

macro_rules! cipher_table {
    ($name:ident, $ty:ty, $keylen:expr) => {
        static $name: Shared<[OsslDispatch; 15]> = Shared([
            entry!(ffi::OSSL_FUNC_CIPHER_NEWCTX, newctx::<$ty, $keylen>),
            entry!(ffi::OSSL_FUNC_CIPHER_FREECTX, freectx::<$ty>),
            entry!(ffi::OSSL_FUNC_CIPHER_DUPCTX, dupctx::<$ty>),
            entry!(ffi::OSSL_FUNC_CIPHER_ENCRYPT_INIT, einit::<$ty>),
            entry!(ffi::OSSL_FUNC_CIPHER_DECRYPT_INIT, dinit::<$ty>),
            entry!(ffi::OSSL_FUNC_CIPHER_UPDATE, update::<$ty>),
            entry!(ffi::OSSL_FUNC_CIPHER_FINAL, final_::<$ty>),
            entry!(ffi::OSSL_FUNC_CIPHER_CIPHER, cipher::<$ty>),
            entry!(ffi::OSSL_FUNC_CIPHER_GET_PARAMS, get_params::<$ty, $keylen>),
            entry!(ffi::OSSL_FUNC_CIPHER_GETTABLE_PARAMS, gettable_params),
            entry!(ffi::OSSL_FUNC_CIPHER_GET_CTX_PARAMS, get_ctx_params::<$ty>),
            entry!(
                ffi::OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS,
                gettable_ctx_params::<$ty>
            ),
            entry!(ffi::OSSL_FUNC_CIPHER_SET_CTX_PARAMS, set_ctx_params::<$ty>),
            entry!(
                ffi::OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS,
                settable_ctx_params::<$ty>
            ),
            END,
        ]);
    };
}

cipher_table!(AES128GCM, GcmCtx, 16);
cipher_table!(AES192GCM, GcmCtx, 24);
cipher_table!(AES256GCM, GcmCtx, 32);
cipher_table!(AES128GCMSIV, SivCtx, 16);
cipher_table!(AES192GCMSIV, SivCtx, 24);
cipher_table!(AES256GCMSIV, SivCtx, 32);

const PROPS: *const core::ffi::c_char = c"provider=gcmkit".as_ptr();

macro_rules! alg {
    ($names:expr, $table:ident, $desc:expr) => {
        OsslAlgorithm {
            names: $names.as_ptr(),
            properties: PROPS,
            implementation: $table.0.as_ptr(),
            description: $desc.as_ptr(),
        }
    };
}

/// The ciphers, with OpenSSL's names and aliases (PROV_NAMES_AES_*_GCM, *_GCM_SIV).
pub static CIPHERS: Shared<[OsslAlgorithm; 7]> = Shared([
    alg!(
        c"AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6",
        AES128GCM,
        c"gcmkit AES-128-GCM"
    ),
    alg!(
        c"AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26",
        AES192GCM,
        c"gcmkit AES-192-GCM"
    ),
    alg!(
        c"AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46",
        AES256GCM,
        c"gcmkit AES-256-GCM"
    ),
    alg!(
        c"AES-128-GCM-SIV",
        AES128GCMSIV,
        c"gcmkit AES-128-GCM-SIV (RFC 8452)"
    ),
    alg!(c"AES-192-GCM-SIV", AES192GCMSIV, c"gcmkit AES-192-GCM-SIV"),
    alg!(
        c"AES-256-GCM-SIV",
        AES256GCMSIV,
        c"gcmkit AES-256-GCM-SIV (RFC 8452)"
    ),
    OsslAlgorithm {
        names: core::ptr::null(),
        properties: core::ptr::null(),
        implementation: core::ptr::null(),
        description: core::ptr::null(),
    },
]);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every update and cipher entry of every algorithm, both directions, refuses a length
    /// claim past what the algorithm allows, up to SIZE_MAX, as AAD (`out == NULL`), in
    /// place and out of place, without touching the 32-byte buffers behind the claim.
    /// AAD claims start past every AAD limit (GCM's is 2^61 - 1 bytes), data claims past
    /// every message limit (AES-GCM-SIV's 2^36).
    #[test]
    fn no_entry_takes_a_length_past_its_limits() {
        let aad_claims = [
            (1usize << 62) + 1,
            isize::MAX as usize,
            isize::MAX as usize + 1,
            usize::MAX,
        ];
        let data_claims = [
            (1usize << 36) + 16,
            1 << 40,
            1 << 62,
            isize::MAX as usize + 1,
            usize::MAX,
        ];
        for alg in ALGORITHMS {
            for enc in [true, false] {
                for (entry, claims, shape) in [
                    (Entry::Update, &aad_claims[..], Shape::Aad),
                    (Entry::Update, &data_claims[..], Shape::Apart),
                    (Entry::Update, &data_claims[..], Shape::InPlace),
                    (Entry::Cipher, &aad_claims[..], Shape::Aad),
                    (Entry::Cipher, &data_claims[..], Shape::Apart),
                    (Entry::Cipher, &data_claims[..], Shape::InPlace),
                ] {
                    for &claim in claims {
                        alg.refuses(enc, entry, shape, claim);
                    }
                }
            }
        }
    }

    #[derive(Clone, Copy, Debug)]
    enum Entry {
        Update,
        Cipher,
    }

    #[derive(Clone, Copy, Debug)]
    enum Shape {
        Aad,
        Apart,
        InPlace,
    }

    struct Alg {
        name: &'static str,
        keylen: usize,
        new: extern "C" fn(*mut c_void) -> *mut c_void,
        free: extern "C" fn(*mut c_void),
        init: [extern "C" fn(
            *mut c_void,
            *const u8,
            usize,
            *const u8,
            usize,
            *const OsslParam,
        ) -> c_int; 2],
        io: [extern "C" fn(*mut c_void, *mut u8, *mut usize, usize, *const u8, usize) -> c_int; 2],
    }

    macro_rules! alg {
        ($name:literal, $c:ty, $k:literal) => {
            Alg {
                name: $name,
                keylen: $k,
                new: newctx::<$c, $k>,
                free: freectx::<$c>,
                init: [dinit::<$c>, einit::<$c>],
                io: [update::<$c>, cipher::<$c>],
            }
        };
    }

    const ALGORITHMS: [Alg; 5] = [
        alg!("AES-128-GCM", GcmCtx, 16),
        alg!("AES-192-GCM", GcmCtx, 24),
        alg!("AES-256-GCM", GcmCtx, 32),
        alg!("AES-128-GCM-SIV", SivCtx, 16),
        alg!("AES-256-GCM-SIV", SivCtx, 32),
    ];

    impl Alg {
        fn refuses(&self, enc: bool, entry: Entry, shape: Shape, claim: usize) {
            let what = format!(
                "{} enc={enc} {entry:?} {shape:?} claim {claim:#x}",
                self.name
            );
            let ctx = (self.new)(core::ptr::null_mut());
            let key = [1u8; 32];
            let iv = [2u8; 12];
            let init = self.init[usize::from(enc)];
            assert_eq!(
                init(
                    ctx,
                    key.as_ptr(),
                    self.keylen,
                    iv.as_ptr(),
                    12,
                    core::ptr::null()
                ),
                1,
                "{what}"
            );
            let input = [7u8; 32];
            let mut buf = [0u8; 32];
            let call = |buf: &mut [u8; 32], len: usize| {
                let (out, inp) = match shape {
                    Shape::Aad => (core::ptr::null_mut(), input.as_ptr()),
                    Shape::Apart => (buf.as_mut_ptr(), input.as_ptr()),
                    Shape::InPlace => (buf.as_mut_ptr(), buf.as_ptr()),
                };
                let mut outl = 0usize;
                self.io[matches!(entry, Entry::Cipher) as usize](ctx, out, &mut outl, len, inp, len)
            };
            // The claim is deliberately false (32 bytes behind it): the entry must refuse it
            // from the length alone, as a direct caller of the dispatch table may pass it.
            assert_eq!(call(&mut buf, claim), 0, "{what}: accepted");
            assert_eq!(buf, [0u8; 32], "{what}: the output was touched");
            assert_eq!(input, [7u8; 32], "{what}: the input was touched");
            // The refusal is of the length, not of a broken context: an honest 32-byte
            // call of the same shape on the same context is taken.
            assert_eq!(
                call(&mut buf, 32),
                1,
                "{what}: the honest call after it was refused"
            );
            (self.free)(ctx);
            // SAFETY: ERR_clear_error takes nothing and clears this thread's error queue.
            unsafe { ERR_clear_error() };
        }
    }

    extern "C" {
        fn ERR_clear_error();
    }
}
