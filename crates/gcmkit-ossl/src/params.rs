//! Safe views of the `OSSL_PARAM` arrays OpenSSL passes in. The conversions (integer
//! widths, octet string or pointer) are libcrypto's own `OSSL_PARAM_*` helpers, so a
//! parameter of the wrong type fails exactly as it does for OpenSSL's implementation.

use crate::ffi::{self, OsslParam};
use core::ffi::{c_uint, c_void, CStr};

/// A parameter array to fill (the `get_params` direction). `None` is a NULL array.
#[derive(Clone, Copy)]
pub struct Requests(pub(crate) *mut OsslParam);

/// A parameter array to read (the `set_params` direction).
#[derive(Clone, Copy)]
pub struct Settings(pub(crate) *const OsslParam);

/// One parameter asked for.
pub struct Out(*mut OsslParam);

/// One parameter given.
pub struct In(*const OsslParam);

impl Requests {
    /// The parameter named `key`, if asked for.
    pub fn find(&self, key: &CStr) -> Option<Out> {
        if self.0.is_null() {
            return None;
        }
        // SAFETY: OpenSSL passes a valid array ending with an entry whose key is NULL.
        let p = unsafe { locate(self.0, key) };
        (!p.is_null()).then_some(Out(p.cast_mut()))
    }

    /// The array's parameter if it has exactly one and that one is named `key`.
    #[inline(always)]
    pub fn sole(&self, key: &CStr) -> Option<Out> {
        // SAFETY: as for find.
        unsafe { sole(self.0, key) }.map(|p| Out(p.cast_mut()))
    }

    /// The parameters named `keys`, each as `find` would find it, in one pass over the
    /// array (for the per-message calls: one walk instead of one per known key).
    #[inline(always)]
    pub fn find_all<const N: usize>(&self, keys: [&CStr; N]) -> [Option<Out>; N] {
        if self.0.is_null() {
            return [const { None }; N];
        }
        // SAFETY: as for find.
        let found = unsafe { locate_all(self.0, keys) };
        found.map(|p| (!p.is_null()).then(|| Out(p.cast_mut())))
    }
}

impl Settings {
    /// Whether the array is NULL or empty (OpenSSL's `ossl_param_is_empty`).
    pub fn is_empty(&self) -> bool {
        // SAFETY: a non-NULL array has at least its terminating entry, readable.
        self.0.is_null() || unsafe { (*self.0).key.is_null() }
    }

    /// The parameter named `key`, if given.
    pub fn find(&self, key: &CStr) -> Option<In> {
        if self.0.is_null() {
            return None;
        }
        // SAFETY: as for Requests::find; the array is only read.
        let p = unsafe { locate(self.0, key) };
        (!p.is_null()).then_some(In(p))
    }

    /// The array's parameter if it has exactly one and that one is named `key`.
    #[inline(always)]
    pub fn sole(&self, key: &CStr) -> Option<In> {
        // SAFETY: as for Requests::find; the array is only read.
        unsafe { sole(self.0, key) }.map(In)
    }

    /// Whether the array has exactly one parameter and it is named none of `keys` (a
    /// setting for someone else, such as `padding`, which EVP_CipherInit_ex sends with
    /// every message).
    #[inline(always)]
    pub fn sole_other<const N: usize>(&self, keys: [&CStr; N]) -> bool {
        if self.is_empty() {
            return false;
        }
        // SAFETY: not empty, so the first entry is a real one and a second (maybe the
        // terminator) follows; keys are NUL-terminated (OpenSSL's array contract).
        let (k, next) = unsafe { ((*self.0).key, (*self.0.add(1)).key) };
        // SAFETY: `k` is a NUL-terminated key.
        next.is_null()
            && !keys
                .iter()
                .any(|w| unsafe { key_is(k.cast(), w.to_bytes_with_nul()) })
    }

    /// The parameters named `keys`, each as `find` would find it, in one pass.
    #[inline(always)]
    pub fn find_all<const N: usize>(&self, keys: [&CStr; N]) -> [Option<In>; N] {
        if self.0.is_null() {
            return [const { None }; N];
        }
        // SAFETY: as for Requests::find; the array is only read.
        let found = unsafe { locate_all(self.0, keys) };
        found.map(|p| (!p.is_null()).then_some(In(p)))
    }
}

/// The only entry of `p` (NULL: none) if there is exactly one and its key is `key`.
///
/// # Safety
/// As for `locate`, or `p` NULL.
#[inline(always)]
unsafe fn sole(p: *const OsslParam, key: &CStr) -> Option<*const OsslParam> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a non-NULL array has at least its terminating entry (the caller's contract).
    let k = unsafe { (*p).key };
    if k.is_null() {
        return None;
    }
    // SAFETY: `k` is a NUL-terminated key (the caller's contract).
    if !unsafe { key_is(k.cast(), key.to_bytes_with_nul()) } {
        return None;
    }
    // SAFETY: the first entry was not the terminating one, so a second exists.
    let next = unsafe { (*p.add(1)).key };
    next.is_null().then_some(p)
}

/// For each of `keys`, the first entry of `p` with that key (NULL if none): `locate` for
/// every key in one walk of the array.
///
/// # Safety
/// As for `locate`.
#[inline(always)]
unsafe fn locate_all<const N: usize>(
    mut p: *const OsslParam,
    keys: [&CStr; N],
) -> [*const OsslParam; N] {
    let mut found = [core::ptr::null(); N];
    loop {
        // SAFETY: `p` is an entry of the array (the caller's contract; the loop stops
        // at the terminating entry).
        let k = unsafe { (*p).key };
        if k.is_null() {
            return found;
        }
        for (slot, key) in found.iter_mut().zip(keys) {
            // SAFETY: `k` is a NUL-terminated key (the caller's contract).
            if slot.is_null() && unsafe { key_is(k.cast(), key.to_bytes_with_nul()) } {
                *slot = p;
                break;
            }
        }
        // SAFETY: `p` was not the terminating entry, so the next entry exists.
        p = unsafe { p.add(1) };
    }
}

/// The first entry of `p` whose key is `key` (`OSSL_PARAM_locate`'s rule: the first
/// exact match), or NULL. Written out here rather than called in libcrypto: contexts
/// are asked for their IV and key length (`EVP_CIPHER_CTX_get_iv_length`, ...) and set
/// (`set_padding`, IV length) several times per message, and a call into libcrypto per
/// known key (strcmp over the array each time) was most of the provider's own
/// per-message cost. Mostly the first byte decides.
///
/// # Safety
/// `p` must point to an `OSSL_PARAM` array ending with an entry whose key is NULL, each
/// other key a NUL-terminated string, all readable for the call.
unsafe fn locate(mut p: *const OsslParam, key: &CStr) -> *const OsslParam {
    let want = key.to_bytes_with_nul();
    loop {
        // SAFETY: `p` is an entry of the array (the caller's contract; the loop stops
        // at the terminating entry).
        let k = unsafe { (*p).key };
        if k.is_null() {
            return core::ptr::null();
        }
        // SAFETY: `k` is a NUL-terminated key (the caller's contract).
        if unsafe { key_is(k.cast(), want) } {
            return p;
        }
        // SAFETY: `p` was not the terminating entry, so the next entry exists.
        p = unsafe { p.add(1) };
    }
}

/// Whether the NUL-terminated string at `k` equals `want` (which ends with its NUL).
/// Stops at the first difference, so it never reads past `k`'s NUL.
///
/// # Safety
/// `k` must point to a NUL-terminated string.
#[inline(always)]
unsafe fn key_is(k: *const u8, want: &[u8]) -> bool {
    for (i, &w) in want.iter().enumerate() {
        // SAFETY: bytes 0..i of `k` equalled `want`'s, none of them NUL (want's only NUL
        // is its last byte, after which we return), so `k` extends at least to i.
        if unsafe { *k.add(i) } != w {
            return false;
        }
    }
    true
}

impl Out {
    fn raw(&self) -> &OsslParam {
        // SAFETY: the pointer came from `locate` on the caller's live array.
        unsafe { &*self.0 }
    }

    pub fn data_type(&self) -> c_uint {
        self.raw().data_type
    }

    pub fn data_size(&self) -> usize {
        self.raw().data_size
    }

    pub fn has_data(&self) -> bool {
        !self.raw().data.is_null()
    }

    pub fn set_size_t(&self, v: usize) -> bool {
        // SAFETY: a located parameter; the helper checks its type and size.
        unsafe { ffi::OSSL_PARAM_set_size_t(self.0, v) == 1 }
    }

    pub fn set_uint(&self, v: u32) -> bool {
        // SAFETY: as set_size_t.
        unsafe { ffi::OSSL_PARAM_set_uint(self.0, v) == 1 }
    }

    pub fn set_int(&self, v: i32) -> bool {
        // SAFETY: as set_size_t.
        unsafe { ffi::OSSL_PARAM_set_int(self.0, v) == 1 }
    }

    /// Points a UTF8_PTR parameter at a static string.
    pub fn set_utf8_ptr(&self, v: &'static CStr) -> bool {
        // SAFETY: as set_size_t; the string is static, so the pointer stays valid.
        unsafe { ffi::OSSL_PARAM_set_utf8_ptr(self.0, v.as_ptr()) == 1 }
    }

    /// Copies `v` into an OCTET_STRING parameter (fails if it does not fit).
    pub fn set_octets(&self, v: &[u8]) -> bool {
        // SAFETY: as set_size_t; the helper copies at most data_size bytes from `v`.
        unsafe { ffi::OSSL_PARAM_set_octet_string(self.0, v.as_ptr().cast(), v.len()) == 1 }
    }

    /// OCTET_STRING or OCTET_PTR, as OpenSSL's GCM reports its IV. The pointer form points
    /// into the context, as OpenSSL's does (valid while the context is unchanged).
    pub fn set_octets_or_ptr(&self, v: &[u8]) -> bool {
        if self.set_octets(v) {
            return true;
        }
        // SAFETY: as set_octets; OSSL_PARAM_set_octet_ptr stores the pointer and length.
        unsafe { ffi::OSSL_PARAM_set_octet_ptr(self.0, v.as_ptr().cast::<c_void>(), v.len()) == 1 }
    }

    /// The caller's buffer of an OCTET_STRING parameter, to be written directly
    /// (`tlsivgen`). None if it has no buffer.
    pub fn octets_mut(&mut self) -> Option<&mut [u8]> {
        let (data, size) = (self.raw().data, self.raw().data_size);
        if data.is_null() {
            return None;
        }
        // SAFETY: OpenSSL's contract for a requested OCTET_STRING: `data` points to
        // `data_size` writable bytes owned by the caller for the duration of the call,
        // not aliased by anything the provider holds.
        Some(unsafe { core::slice::from_raw_parts_mut(data.cast::<u8>(), size) })
    }
}

impl In {
    fn raw(&self) -> &OsslParam {
        // SAFETY: the pointer came from `locate` on the caller's array.
        unsafe { &*self.0 }
    }

    pub fn data_type(&self) -> c_uint {
        self.raw().data_type
    }

    pub fn data_size(&self) -> usize {
        self.raw().data_size
    }

    pub fn get_size_t(&self) -> Option<usize> {
        let mut v = 0usize;
        // SAFETY: a located parameter; the helper checks type and size before reading.
        (unsafe { ffi::OSSL_PARAM_get_size_t(self.0, &mut v) } == 1).then_some(v)
    }

    pub fn get_uint(&self) -> Option<u32> {
        let mut v = 0 as c_uint;
        // SAFETY: as get_size_t.
        (unsafe { ffi::OSSL_PARAM_get_uint(self.0, &mut v) } == 1).then_some(v)
    }

    /// An OCTET_STRING's bytes copied into `buf` (OSSL_PARAM_get_octet_string with
    /// max_len = buf.len()); the length, or None (wrong type, too long, no data).
    pub fn get_octets_into(&self, buf: &mut [u8]) -> Option<usize> {
        let mut used = 0usize;
        let (mut dst, n) = (buf.as_mut_ptr().cast::<c_void>(), buf.len());
        // SAFETY: with *val non-NULL the helper copies at most max_len (n) bytes into it,
        // and buf has n writable bytes.
        let ok = unsafe { ffi::OSSL_PARAM_get_octet_string(self.0, &mut dst, n, &mut used) };
        (ok == 1).then_some(used)
    }

    /// The first `n` bytes of the data, whatever data_size says: OpenSSL's `tlsivfixed`
    /// with length -1 ("restore the whole IV") gives a data_size of SIZE_MAX and an IV of
    /// the context's IV length.
    pub fn leading_octets(&self, n: usize) -> Option<&[u8]> {
        let data = self.raw().data;
        if data.is_null() {
            return None;
        }
        // SAFETY: the -1 convention of EVP_CTRL_GCM_SET_IV_FIXED: the caller passes the
        // whole IV (n = the context's IV length) at `data`.
        Some(unsafe { core::slice::from_raw_parts(data.cast::<u8>(), n) })
    }

    /// The bytes of an OCTET_STRING as given (None when its data pointer is NULL).
    pub fn octets(&self) -> Option<&[u8]> {
        let (data, size) = (self.raw().data, self.raw().data_size);
        if data.is_null() {
            return None;
        }
        // SAFETY: OpenSSL's contract: `data` points to `data_size` readable bytes for the
        // duration of the call.
        Some(unsafe { core::slice::from_raw_parts(data.cast::<u8>(), size) })
    }
}

/// One entry of a static list.
pub const fn entry(key: &'static CStr, data_type: c_uint) -> OsslParam {
    OsslParam {
        key: key.as_ptr(),
        data_type,
        data: core::ptr::null_mut(),
        data_size: 0,
        return_size: ffi::OSSL_PARAM_UNMODIFIED,
    }
}

/// The terminating entry.
pub const END: OsslParam = OsslParam {
    key: core::ptr::null(),
    data_type: 0,
    data: core::ptr::null_mut(),
    data_size: 0,
    return_size: 0,
};

/// size_t parameters are unsigned integers of the platform's size_t width.
pub const fn size_t(key: &'static CStr) -> OsslParam {
    let mut p = entry(key, ffi::OSSL_PARAM_UNSIGNED_INTEGER);
    p.data_size = core::mem::size_of::<usize>();
    p
}

pub const fn uint(key: &'static CStr) -> OsslParam {
    let mut p = entry(key, ffi::OSSL_PARAM_UNSIGNED_INTEGER);
    p.data_size = core::mem::size_of::<c_uint>();
    p
}

pub const fn int(key: &'static CStr) -> OsslParam {
    let mut p = entry(key, ffi::OSSL_PARAM_INTEGER);
    p.data_size = core::mem::size_of::<core::ffi::c_int>();
    p
}

pub const fn octets(key: &'static CStr) -> OsslParam {
    entry(key, ffi::OSSL_PARAM_OCTET_STRING)
}

pub const fn utf8_ptr(key: &'static CStr) -> OsslParam {
    entry(key, ffi::OSSL_PARAM_UTF8_PTR)
}
