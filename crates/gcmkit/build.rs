//! Tells the crate whether it is compiled unoptimized (`OPT_LEVEL` 0: the dev profile of
//! `cargo run` and `cargo test`, which a user's program builds gcmkit in).
//!
//! Unoptimized, rustc still honours `#[inline(always)]`, but LLVM neither merges nor
//! reuses the stack slots of what it inlined: an engine's entry point, with its whole
//! kernel tree inlined, needed megabytes of stack (over 8 MiB on avx512, 175 KiB for one
//! portable frame), and a debug program that encrypted off the main thread (2 MiB) or
//! even on it aborted. So under `cfg(gcmkit_o0)` the kernels are ordinary functions, each
//! frame its own few locals; every optimized build (opt-level 1, 2, 3, s, z) inlines them
//! as written. Either way the same source and the same results: only inlining differs.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(gcmkit_o0)");
    println!("cargo::rerun-if-env-changed=OPT_LEVEL");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=gcmkit_o0");
    }
}
