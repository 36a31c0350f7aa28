fn main() {
    println!("cargo:rerun-if-changed=shim.c");
    cc::Build::new().file("shim.c").compile("ctshim");
}
