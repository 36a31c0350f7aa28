//! The provider ABI of OpenSSL 3 (<openssl/core.h>, core_dispatch.h, core_names.h,
//! params.h, proverr.h), written out for Rust, and the few libcrypto functions the
//! provider calls. Layouts and numbers are OpenSSL's; nothing here is gcmkit's choice.

use core::ffi::{c_char, c_int, c_uint, c_void};

/// `OSSL_DISPATCH`: a function id and a function pointer (of the type the id implies).
#[repr(C)]
pub struct OsslDispatch {
    pub function_id: c_int,
    pub function: Option<unsafe extern "C" fn()>,
}

/// `OSSL_ALGORITHM`: names (colon-separated), properties, implementation, description.
#[repr(C)]
pub struct OsslAlgorithm {
    pub names: *const c_char,
    pub properties: *const c_char,
    pub implementation: *const OsslDispatch,
    pub description: *const c_char,
}

/// `OSSL_PARAM`.
#[repr(C)]
pub struct OsslParam {
    pub key: *const c_char,
    pub data_type: c_uint,
    pub data: *mut c_void,
    pub data_size: usize,
    pub return_size: usize,
}

/// Tables the provider hands to OpenSSL are immutable and only read: sharing them
/// between threads is sound.
#[repr(transparent)]
pub struct Shared<T>(pub T);
// SAFETY: every Shared value is a static table of pointers to other statics (C strings,
// functions, tables) that nobody writes after compilation.
unsafe impl<T> Sync for Shared<T> {}

// OSSL_PARAM data types (core.h).
pub const OSSL_PARAM_INTEGER: c_uint = 1;
pub const OSSL_PARAM_UNSIGNED_INTEGER: c_uint = 2;
pub const OSSL_PARAM_UTF8_PTR: c_uint = 6;
pub const OSSL_PARAM_OCTET_STRING: c_uint = 5;
/// `OSSL_PARAM_UNMODIFIED`: return_size of a parameter nobody set.
pub const OSSL_PARAM_UNMODIFIED: usize = usize::MAX;

// Function ids (core_dispatch.h).
pub const OSSL_FUNC_PROVIDER_TEARDOWN: c_int = 1024;
pub const OSSL_FUNC_PROVIDER_GETTABLE_PARAMS: c_int = 1025;
pub const OSSL_FUNC_PROVIDER_GET_PARAMS: c_int = 1026;
pub const OSSL_FUNC_PROVIDER_QUERY_OPERATION: c_int = 1027;
pub const OSSL_OP_CIPHER: c_int = 2;
pub const OSSL_FUNC_CIPHER_NEWCTX: c_int = 1;
pub const OSSL_FUNC_CIPHER_ENCRYPT_INIT: c_int = 2;
pub const OSSL_FUNC_CIPHER_DECRYPT_INIT: c_int = 3;
pub const OSSL_FUNC_CIPHER_UPDATE: c_int = 4;
pub const OSSL_FUNC_CIPHER_FINAL: c_int = 5;
pub const OSSL_FUNC_CIPHER_CIPHER: c_int = 6;
pub const OSSL_FUNC_CIPHER_FREECTX: c_int = 7;
pub const OSSL_FUNC_CIPHER_DUPCTX: c_int = 8;
pub const OSSL_FUNC_CIPHER_GET_PARAMS: c_int = 9;
pub const OSSL_FUNC_CIPHER_GET_CTX_PARAMS: c_int = 10;
pub const OSSL_FUNC_CIPHER_SET_CTX_PARAMS: c_int = 11;
pub const OSSL_FUNC_CIPHER_GETTABLE_PARAMS: c_int = 12;
pub const OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS: c_int = 13;
pub const OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS: c_int = 14;

// Parameter names (core_names.h).
pub const PARAM_MODE: &core::ffi::CStr = c"mode";
pub const PARAM_BLOCK_SIZE: &core::ffi::CStr = c"blocksize";
pub const PARAM_AEAD: &core::ffi::CStr = c"aead";
pub const PARAM_CUSTOM_IV: &core::ffi::CStr = c"custom-iv";
pub const PARAM_CTS: &core::ffi::CStr = c"cts";
pub const PARAM_TLS1_MULTIBLOCK: &core::ffi::CStr = c"tls-multi";
pub const PARAM_HAS_RAND_KEY: &core::ffi::CStr = c"has-randkey";
pub const PARAM_KEYLEN: &core::ffi::CStr = c"keylen";
pub const PARAM_IVLEN: &core::ffi::CStr = c"ivlen";
pub const PARAM_IV: &core::ffi::CStr = c"iv";
pub const PARAM_UPDATED_IV: &core::ffi::CStr = c"updated-iv";
pub const PARAM_AEAD_TAG: &core::ffi::CStr = c"tag";
pub const PARAM_AEAD_TAGLEN: &core::ffi::CStr = c"taglen";
pub const PARAM_AEAD_TLS1_AAD: &core::ffi::CStr = c"tlsaad";
pub const PARAM_AEAD_TLS1_AAD_PAD: &core::ffi::CStr = c"tlsaadpad";
pub const PARAM_AEAD_TLS1_IV_FIXED: &core::ffi::CStr = c"tlsivfixed";
pub const PARAM_AEAD_TLS1_GET_IV_GEN: &core::ffi::CStr = c"tlsivgen";
pub const PARAM_AEAD_TLS1_SET_IV_INV: &core::ffi::CStr = c"tlsivinv";
pub const PARAM_SPEED: &core::ffi::CStr = c"speed";
pub const PROV_PARAM_NAME: &core::ffi::CStr = c"name";
pub const PROV_PARAM_VERSION: &core::ffi::CStr = c"version";
pub const PROV_PARAM_BUILDINFO: &core::ffi::CStr = c"buildinfo";
pub const PROV_PARAM_STATUS: &core::ffi::CStr = c"status";

// Cipher modes (evp.h; GCM-SIV's is OpenSSL 3.2's EVP_CIPH_GCM_SIV_MODE).
pub const EVP_CIPH_GCM_MODE: u32 = 0x6;
pub const EVP_CIPH_GCM_SIV_MODE: u32 = 0x10004;

// Error library and reasons (err.h, proverr.h).
pub const ERR_LIB_PROV: c_int = 57;
pub const PROV_R_CIPHER_OPERATION_FAILED: c_int = 102;
pub const PROV_R_FAILED_TO_GET_PARAMETER: c_int = 103;
pub const PROV_R_FAILED_TO_SET_PARAMETER: c_int = 104;
pub const PROV_R_INVALID_KEY_LENGTH: c_int = 105;
pub const PROV_R_OUTPUT_BUFFER_TOO_SMALL: c_int = 106;
pub const PROV_R_INVALID_AAD: c_int = 108;
pub const PROV_R_INVALID_IV_LENGTH: c_int = 109;
pub const PROV_R_INVALID_TAG: c_int = 110;
pub const PROV_R_TAG_NOT_SET: c_int = 119;
pub const PROV_R_TOO_MANY_RECORDS: c_int = 126;
pub const PROV_R_INVALID_INPUT_LENGTH: c_int = 230;
/// `ERR_R_MALLOC_FAILURE` (err.h: 256 | ERR_R_FATAL, ERR_R_FATAL = ERR_RFLAG_FATAL |
/// ERR_RFLAG_COMMON, the flags at bit 18).
pub const ERR_R_MALLOC_FAILURE: c_int = 256 | (0x1 << 18) | (0x2 << 18);

extern "C" {
    pub fn OSSL_PARAM_set_size_t(p: *mut OsslParam, val: usize) -> c_int;
    pub fn OSSL_PARAM_get_size_t(p: *const OsslParam, val: *mut usize) -> c_int;
    pub fn OSSL_PARAM_set_uint(p: *mut OsslParam, val: c_uint) -> c_int;
    pub fn OSSL_PARAM_get_uint(p: *const OsslParam, val: *mut c_uint) -> c_int;
    pub fn OSSL_PARAM_set_int(p: *mut OsslParam, val: c_int) -> c_int;
    pub fn OSSL_PARAM_set_utf8_ptr(p: *mut OsslParam, val: *const c_char) -> c_int;
    pub fn OSSL_PARAM_set_octet_string(p: *mut OsslParam, val: *const c_void, len: usize) -> c_int;
    pub fn OSSL_PARAM_set_octet_ptr(p: *mut OsslParam, val: *const c_void, len: usize) -> c_int;
    pub fn OSSL_PARAM_get_octet_string(
        p: *const OsslParam,
        val: *mut *mut c_void,
        max_len: usize,
        used_len: *mut usize,
    ) -> c_int;
    pub fn ERR_new();
    pub fn ERR_set_debug(file: *const c_char, line: c_int, func: *const c_char);
    pub fn ERR_set_error(lib: c_int, reason: c_int, fmt: *const c_char, ...);
}

/// Raises an OpenSSL error (`ERR_raise(ERR_LIB_PROV, reason)`), as OpenSSL's own
/// implementation raises it at the same point.
pub fn raise(reason: c_int, func: &'static core::ffi::CStr) {
    // SAFETY: ERR_new/ERR_set_debug/ERR_set_error only touch the calling thread's error
    // queue; the strings are static and NUL-terminated; a NULL format means no data.
    unsafe {
        ERR_new();
        ERR_set_debug(c"gcmkit-ossl".as_ptr(), 0, func.as_ptr());
        ERR_set_error(ERR_LIB_PROV, reason, core::ptr::null());
    }
}
