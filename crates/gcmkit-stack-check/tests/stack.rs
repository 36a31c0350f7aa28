//! The stack check in the test profile (the workspace's opt-level 2), once per engine: the
//! binary this package builds, run with `GCMKIT_ENGINE` set for each.

#[test]
fn every_call_on_every_engine_on_a_small_stack() {
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_gcmkit-stack-check"));
    let engines = gcmkit_stack_check::run_every_engine(exe).unwrap();
    assert!(engines.contains(&"portable"), "{engines:?}");
}
