//! `make ct-check`'s negative controls, compiled only under `--cfg gcmkit_ct_control`
//! (never in a normal build). `leak` sits on the engine path (`Kernels::hash_key_into`)
//! and, when the harness has selected a control, leaks the secret it is given: the check
//! must flag it on every engine, or it could not see such a leak in the engines' code.
//! Off (the default) it does nothing with the secret.

use core::sync::atomic::{AtomicU8, AtomicUsize, Ordering::Relaxed};

/// 0: off; 1: a secret-dependent branch; 2: a secret-indexed table load.
static SELECTED: AtomicU8 = AtomicU8::new(0);
/// Where the controls' effects go, so that the compiler keeps them.
static SINK: AtomicUsize = AtomicUsize::new(0);

/// An irregular table (no pattern the compiler could turn into arithmetic).
static TABLE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut x: u32 = 0x9e37_79b9;
    let mut i = 0;
    while i < 256 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        t[i] = x as u8;
        i += 1;
    }
    t
};

/// Selects the control: "branch", "table", or anything else for none.
pub fn select(name: &str) {
    let v = match name {
        "branch" => 1,
        "table" => 2,
        _ => 0,
    };
    SELECTED.store(v, Relaxed);
}

/// The deliberate leak of `secret`, if a control is selected (the selection is public).
#[inline(never)]
pub(crate) fn leak(secret: u128) {
    match SELECTED.load(Relaxed) {
        // A store in one arm only: the branch cannot become a select or a cmov.
        1 => {
            if secret & 1 == 1 {
                SINK.fetch_add(1, Relaxed);
            }
        }
        2 => {
            let v = TABLE[(secret as u8) as usize];
            SINK.fetch_add(v as usize, Relaxed);
        }
        _ => {}
    }
}
