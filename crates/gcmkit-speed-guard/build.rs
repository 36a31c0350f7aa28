//! Tells the guard which build it is: its floors are per build, because the test profile
//! slows RustCrypto's pure-Rust peers (and gcmkit a little) but not ring's assembly.

fn main() {
    let opt_level = std::env::var("OPT_LEVEL").unwrap_or_default();
    let debug_assertions = std::env::var_os("CARGO_CFG_DEBUG_ASSERTIONS").is_some();
    // The workspace's test profile is opt-level 2 with debug assertions; release is
    // opt-level 3 without. Any other build has no measured ratios (src/table.rs).
    let build = match (opt_level.as_str(), debug_assertions) {
        ("2", true) => "test",
        ("3", false) => "release",
        _ => "other",
    };
    println!("cargo:rustc-env=GUARD_BUILD={build}");
    println!("cargo:rustc-env=GUARD_OPT_LEVEL={opt_level}");
    println!("cargo:rerun-if-changed=build.rs");
}
