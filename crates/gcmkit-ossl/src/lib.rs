//! # gcmkit-ossl: an OpenSSL 3 provider for AES-GCM and AES-GCM-SIV over gcmkit
//!
//! Built as `gcmkit.so` (`make provider`), it offers `AES-128/192/256-GCM` (with
//! OpenSSL's aliases) and `AES-128/192/256-GCM-SIV` under the property
//! `provider=gcmkit`, behaving as OpenSSL's own implementations (3.0's GCM, 3.2's
//! GCM-SIV): streaming updates, IV lengths 1..128, tags, `dupctx`, every parameter, and
//! the TLS 1.2 and 1.3 record paths libssl drives. All cryptography is gcmkit's.
//!
//! Layers: `ffi` (the ABI), `params` and `io` (safe views of what OpenSSL passes),
//! `dispatch` (the C entry points), `gcm` and `siv` (the ciphers' state machines, safe
//! code), `stats` (records done, printed at unload with GCMKIT_PROVIDER_STATS=1).
#![deny(unsafe_op_in_unsafe_fn)]

mod dispatch;
mod ffi;
mod gcm;
mod io;
mod params;
mod siv;
mod stats;

use core::ffi::{c_int, c_void, CStr};
use ffi::{OsslAlgorithm, OsslDispatch, OsslParam, Shared};

const NAME: &CStr = c"gcmkit provider (AES-GCM, AES-GCM-SIV)";
const VERSION: &CStr = c"0.1.0";

extern "C" fn teardown(_provctx: *mut c_void) {
    stats::report();
}

static PROV_GETTABLE: Shared<[OsslParam; 5]> = Shared([
    params::utf8_ptr(ffi::PROV_PARAM_NAME),
    params::utf8_ptr(ffi::PROV_PARAM_VERSION),
    params::utf8_ptr(ffi::PROV_PARAM_BUILDINFO),
    params::int(ffi::PROV_PARAM_STATUS),
    params::END,
]);

extern "C" fn gettable_params(_provctx: *mut c_void) -> *const OsslParam {
    PROV_GETTABLE.0.as_ptr()
}

extern "C" fn get_params(_provctx: *mut c_void, p: *mut OsslParam) -> c_int {
    let r = params::Requests(p);
    let strings = [
        (ffi::PROV_PARAM_NAME, NAME),
        (ffi::PROV_PARAM_VERSION, VERSION),
        (ffi::PROV_PARAM_BUILDINFO, VERSION),
    ];
    for (key, v) in strings {
        if r.find(key).is_some_and(|q| !q.set_utf8_ptr(v)) {
            return 0;
        }
    }
    if r.find(ffi::PROV_PARAM_STATUS)
        .is_some_and(|q| !q.set_int(1))
    {
        return 0;
    }
    1
}

extern "C" fn query_operation(
    _provctx: *mut c_void,
    operation_id: c_int,
    no_cache: *mut c_int,
) -> *const OsslAlgorithm {
    if !no_cache.is_null() {
        // SAFETY: OpenSSL passes a valid int pointer (checked non-NULL).
        unsafe { *no_cache = 0 };
    }
    if operation_id == ffi::OSSL_OP_CIPHER {
        dispatch::CIPHERS.0.as_ptr()
    } else {
        core::ptr::null()
    }
}

macro_rules! entry {
    ($id:expr, $f:expr) => {
        OsslDispatch {
            function_id: $id,
            // SAFETY: as in dispatch.rs: OpenSSL casts the pointer back to the signature
            // its id defines, which is the one `$f` has.
            function: Some(unsafe {
                core::mem::transmute::<*const (), unsafe extern "C" fn()>($f as *const ())
            }),
        }
    };
}

static PROVIDER: Shared<[OsslDispatch; 5]> = Shared([
    entry!(ffi::OSSL_FUNC_PROVIDER_TEARDOWN, teardown),
    entry!(ffi::OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, gettable_params),
    entry!(ffi::OSSL_FUNC_PROVIDER_GET_PARAMS, get_params),
    entry!(ffi::OSSL_FUNC_PROVIDER_QUERY_OPERATION, query_operation),
    OsslDispatch {
        function_id: 0,
        function: None,
    },
]);

/// The module's entry point (`OSSL_provider_init`).
///
/// # Safety
/// Called by OpenSSL with valid `out` and `provctx` pointers.
#[no_mangle]
pub unsafe extern "C" fn OSSL_provider_init(
    _handle: *const c_void,
    _in: *const OsslDispatch,
    out: *mut *const OsslDispatch,
    provctx: *mut *mut c_void,
) -> c_int {
    if out.is_null() || provctx.is_null() {
        return 0;
    }
    // SAFETY: both pointers are OpenSSL's out-parameters (checked non-NULL).
    unsafe {
        *out = PROVIDER.0.as_ptr();
        *provctx = core::ptr::null_mut();
    }
    1
}
