fn main() {
    println!("cargo:rerun-if-changed=shim.c");
    // The MemorySanitizer build (run.sh: --cfg gcmkit_ct_msan) marks secrets with MSan's
    // own functions (src/mark.rs) and needs neither the shim nor valgrind's headers.
    if std::env::var_os("CARGO_CFG_GCMKIT_CT_MSAN").is_none() {
        cc::Build::new().file("shim.c").compile("ctshim");
    }
}
