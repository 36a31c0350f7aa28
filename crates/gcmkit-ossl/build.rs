//! The provider calls libcrypto's OSSL_PARAM helpers and error functions (the process
//! that loads it already has libcrypto.so.3 mapped).
fn main() {
    println!("cargo:rustc-link-lib=dylib=crypto");
}
