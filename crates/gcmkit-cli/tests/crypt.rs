//! `gcmkit keygen/encrypt/decrypt` end to end: files and pipes, wrong key and context,
//! flipped bytes, truncation at every chunk boundary, trailing garbage, existing outputs;
//! a failed decryption must leave no output file behind.

mod common;
use common::{data, gcmkit, run};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Output, Stdio};

fn dir(name: &str) -> common::TestDir {
    common::dir("crypt", name)
}

fn piped(args: &[&str], cwd: &Path, input: &[u8]) -> Output {
    let mut c = gcmkit()
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = c.stdin.take().unwrap();
    let data = input.to_vec();
    let t = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = c.wait_with_output().unwrap();
    t.join().unwrap();
    out
}

#[test]
fn keygen_writes_a_private_hex_key_and_refuses_to_overwrite() {
    let d = dir("keygen");
    for bits in ["128", "256"] {
        let name = format!("k{bits}");
        assert!(run(&["keygen", "-o", &name, "--bits", bits], &d)
            .status
            .success());
        let text = std::fs::read_to_string(d.join(&name)).unwrap();
        let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
        assert_eq!(line.len(), if bits == "128" { 32 } else { 64 });
        assert!(line
            .chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        assert_eq!(
            std::fs::metadata(d.join(&name))
                .unwrap()
                .permissions()
                .mode()
                & 0o777,
            0o600
        );
    }
    let again = run(&["keygen", "-o", "k128"], &d);
    assert_eq!(again.status.code(), Some(2));
    assert!(run(&["keygen", "-o", "k128", "--force"], &d)
        .status
        .success());
    assert_eq!(run(&["keygen", "--bits", "192"], &d).status.code(), Some(2));
}

#[test]
fn files_and_pipes_round_trip_with_context() {
    let d = dir("roundtrip");
    assert!(run(&["keygen", "-o", "k"], &d).status.success());
    for size in [
        0usize,
        1,
        16383,
        16384,
        16385,
        1 << 20,
        2 << 20,
        5 * 1024 * 1024 + 7,
    ] {
        let pt = data(size);
        std::fs::write(d.join("pt"), &pt).unwrap();
        let e = run(
            &[
                "encrypt",
                "--key",
                "k",
                "--context",
                "app v1",
                "-o",
                "ct",
                "--force",
                "pt",
            ],
            &d,
        );
        assert!(e.status.success(), "{}", String::from_utf8_lossy(&e.stderr));
        let o = run(
            &[
                "decrypt",
                "--key",
                "k",
                "--context",
                "app v1",
                "-o",
                "back",
                "--force",
                "ct",
            ],
            &d,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(std::fs::read(d.join("back")).unwrap(), pt, "size {size}");
        // Pipes, both ways.
        let ct = piped(&["encrypt", "--key", "k"], &d, &pt);
        assert!(ct.status.success());
        let back = piped(&["decrypt", "--key", "k", "-"], &d, &ct.stdout);
        assert!(back.status.success());
        assert_eq!(back.stdout, pt);
    }
}

#[test]
fn failures_exit_nonzero_and_leave_no_output() {
    let d = dir("failures");
    assert!(run(&["keygen", "-o", "k"], &d).status.success());
    assert!(run(&["keygen", "-o", "other"], &d).status.success());
    let pt = data(3 * 16384 + 500);
    std::fs::write(d.join("pt"), &pt).unwrap();
    assert!(run(&["encrypt", "--key", "k", "-o", "ct", "pt"], &d)
        .status
        .success());
    let ct = std::fs::read(d.join("ct")).unwrap();
    let no_output = |what: &str| {
        assert!(!d.join("out").exists(), "{what}: output left behind");
        let leftovers: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{what}: temporary file left behind");
    };
    let check = |bytes: &[u8], key: &str, ctx: &str, what: &str| {
        std::fs::write(d.join("bad"), bytes).unwrap();
        let o = run(
            &[
                "decrypt",
                "--key",
                key,
                "--context",
                ctx,
                "-o",
                "out",
                "bad",
            ],
            &d,
        );
        assert_eq!(
            o.status.code(),
            Some(1),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("decryption failed"),
            "{what}"
        );
        no_output(what);
        // Through a pipe: nothing on stdout.
        let p = piped(&["decrypt", "--key", key, "--context", ctx], &d, bytes);
        assert_eq!(p.status.code(), Some(1), "{what} (pipe)");
        assert!(p.stdout.is_empty(), "{what}: plaintext released on stdout");
    };
    check(&ct, "other", "", "wrong key");
    check(&ct, "k", "wrong context", "wrong context");
    let mut flipped = ct.clone();
    flipped[56 + 16400 + 3] ^= 0x40;
    check(&flipped, "k", "", "flipped byte");
    for boundary in [
        0,
        30,
        56,
        56 + 16400,
        56 + 2 * 16400,
        56 + 3 * 16400,
        ct.len() - 1,
    ] {
        check(
            &ct[..boundary],
            "k",
            "",
            &format!("truncated at {boundary}"),
        );
    }
    let mut trailing = ct.clone();
    trailing.extend_from_slice(b"trailing garbage");
    check(&trailing, "k", "", "trailing data");
    // An existing output is not replaced without --force, and is left untouched.
    std::fs::write(d.join("existing"), b"precious").unwrap();
    let o = run(&["decrypt", "--key", "k", "-o", "existing", "ct"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(d.join("existing")).unwrap(), b"precious");
    // A bad key file.
    std::fs::write(d.join("badkey"), "# comment\nnot-hex\n").unwrap();
    assert_eq!(
        run(&["encrypt", "--key", "badkey", "-o", "x", "pt"], &d)
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn help_documents_exit_codes() {
    let o = gcmkit().arg("--help").output().unwrap();
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(
        s.contains("Exit codes: 0") && s.contains("encrypt") && s.contains("decrypt"),
        "{s}"
    );
}
