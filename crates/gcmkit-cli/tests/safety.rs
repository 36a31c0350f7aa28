//! The CLI's file and stream rules, one test per way it could lose or leak data: special
//! outputs, concurrent writers, signals, broken pipes, closed descriptors, key files,
//! engine errors, streaming decryption, long names.

mod common;
use common::{data, gcmkit, interrupted_encrypt, names, only, run, sh, stderr};
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

fn dir(name: &str) -> common::TestDir {
    common::dir("safety", name)
}

/// A directory with a key `k`, plaintext `pt` of `n` bytes and its encryption `ct`.
fn setup(name: &str, n: usize) -> common::TestDir {
    common::setup("safety", name, n)
}

#[test]
fn decrypting_to_stdout_stages_nothing_in_tmpdir() {
    let d = setup("tmpdir", 100_000);
    let tmp = d.join("tmpdir");
    std::fs::create_dir(&tmp).unwrap();
    let o = gcmkit()
        .args(["decrypt", "--key", "k", "ct"])
        .env("TMPDIR", &tmp)
        .current_dir(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout, data(100_000));
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);
}

#[test]
fn fifos_and_devices_are_written_not_replaced() {
    let d = setup("fifo", 50_000);
    assert!(Command::new("mkfifo")
        .arg(d.join("pipe"))
        .status()
        .unwrap()
        .success());
    let reader = {
        let p = d.join("pipe");
        std::thread::spawn(move || {
            let mut v = Vec::new();
            std::fs::File::open(p).unwrap().read_to_end(&mut v).unwrap();
            v
        })
    };
    let o = run(&["decrypt", "--key", "k", "-o", "pipe", "ct"], &d);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(reader.join().unwrap(), data(50_000));
    let m = std::fs::symlink_metadata(d.join("pipe")).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&m.file_type()));
    // A character device: written, with or without --force, and still a device.
    for extra in [&[][..], &["--force"][..]] {
        let mut args = vec!["decrypt", "--key", "k", "-o", "/dev/null", "ct"];
        args.extend_from_slice(extra);
        let o = run(&args, &d);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let m = std::fs::metadata("/dev/null").unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_char_device(
        &m.file_type()
    ));
}

#[test]
fn symlinks_to_files_are_followed_only_with_force() {
    let d = setup("symlink", 1000);
    std::fs::write(d.join("target"), b"old").unwrap();
    std::os::unix::fs::symlink(d.join("target"), d.join("link")).unwrap();
    let o = run(&["decrypt", "--key", "k", "-o", "link", "ct"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(d.join("target")).unwrap(), b"old");
    let o = run(
        &["decrypt", "--key", "k", "--force", "-o", "link", "ct"],
        &d,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(d.join("target")).unwrap(), data(1000));
    assert!(std::fs::symlink_metadata(d.join("link"))
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn concurrent_runs_on_one_output_never_both_succeed() {
    let d = setup("race", 3 << 20);
    for _ in 0..3 {
        let _ = std::fs::remove_file(d.join("out"));
        let spawn = || {
            gcmkit()
                .args(["decrypt", "--quiet", "--key", "k", "-o", "out", "ct"])
                .current_dir(&d)
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (spawn(), spawn());
        let codes = [
            a.wait_with_output().unwrap().status.code(),
            b.wait_with_output().unwrap().status.code(),
        ];
        assert_eq!(
            codes.iter().filter(|c| **c == Some(0)).count(),
            1,
            "exactly one writer wins: {codes:?}"
        );
        assert!(codes.contains(&Some(2)), "{codes:?}");
        assert_eq!(std::fs::read(d.join("out")).unwrap(), data(3 << 20));
        only(&d, &["k", "pt", "ct", "out"]);
    }
}

#[test]
fn signals_remove_temporary_files_and_say_so_in_the_exit_code() {
    for (sig, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let d = setup(&format!("signal-{sig}"), 1000);
        // The temporary output exists while input is still coming.
        let o = interrupted_encrypt(&d, "out", 3 << 20, sig, || names(&d).len() >= 4);
        assert_eq!(o.status.code(), Some(code), "SIG{sig}: {}", stderr(&o));
        only(&d, &["k", "pt", "ct"]);
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    let d = setup("pipe", 4 << 20);
    let mut c = gcmkit()
        .args(["decrypt", "--key", "k", "ct"])
        .current_dir(&d)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    c.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout's reader is gone now.
    let o = c.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

#[test]
fn a_closed_stderr_never_panics() {
    let d = setup("stderr", 100);
    // A failing run (bad key file) with stderr closed exits 2, not 101.
    std::fs::write(d.join("bad"), "zz\n").unwrap();
    let o = sh("$G encrypt --key bad -o out pt 2>&-", &d);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn closed_stdin_and_stdout_are_errors() {
    let d = setup("closed", 100);
    let o = sh("$G encrypt --key k pt >&-", &d);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("stdout is closed"), "{}", stderr(&o));
    let o = sh("$G encrypt --key k -o out <&-", &d);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("stdin is closed"), "{}", stderr(&o));
    only(&d, &["k", "pt", "ct"]);
}

#[test]
fn keygen_force_makes_the_key_private() {
    let d = dir("keygen-mode");
    std::fs::write(d.join("k"), "old\n").unwrap();
    std::fs::set_permissions(d.join("k"), std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(run(&["keygen", "--force", "-o", "k"], &d).status.success());
    let mode = std::fs::metadata(d.join("k")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    only(&d, &["k"]);
    // Onto a full device: an error, nothing left behind.
    let o = run(&["keygen", "-o", "/dev/full"], &d);
    assert_eq!(o.status.code(), Some(2));
    only(&d, &["k"]);
}

#[test]
fn key_files_hold_one_key_and_each_mistake_has_its_message() {
    let d = setup("keyfiles", 100);
    let key = std::fs::read_to_string(d.join("k")).unwrap();
    let hexline = key
        .lines()
        .find(|l| !l.starts_with('#'))
        .unwrap()
        .to_string();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "notes after the key",
            format!("{hexline}\nsome notes\n").into_bytes(),
            "more than one",
        ),
        ("odd length", b"abc\n".to_vec(), "odd number of hex digits"),
        (
            "BOM",
            [&b"\xef\xbb\xbf"[..], hexline.as_bytes()].concat(),
            "byte-order mark",
        ),
        ("not hex", b"xyz0\n".to_vec(), "not hex"),
        ("empty", b"# only a comment\n".to_vec(), "holds no key"),
    ];
    for (what, bytes, msg) in cases {
        std::fs::write(d.join("bad"), &bytes).unwrap();
        std::fs::set_permissions(d.join("bad"), std::fs::Permissions::from_mode(0o600)).unwrap();
        let o = run(&["encrypt", "--key", "bad", "-o", "out", "pt"], &d);
        assert_eq!(o.status.code(), Some(2), "{what}");
        assert!(stderr(&o).contains(msg), "{what}: {}", stderr(&o));
    }
    // A device that never ends is capped, not read until memory runs out.
    let o = run(&["encrypt", "--key", "/dev/zero", "-o", "out", "pt"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("larger than"), "{}", stderr(&o));
    // Readable by others: works, with a warning.
    std::fs::set_permissions(d.join("k"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let o = run(&["encrypt", "--key", "k", "-o", "out", "pt"], &d);
    assert!(o.status.success());
    assert!(stderr(&o).contains("readable by others"), "{}", stderr(&o));
}

#[test]
fn a_bad_engine_is_a_usage_error_not_an_authentication_failure() {
    let d = setup("engine", 100);
    for cmd in ["encrypt", "decrypt"] {
        let input = if cmd == "encrypt" { "pt" } else { "ct" };
        let o = gcmkit()
            .args([cmd, "--key", "k", "-o", "out", input])
            .env("GCMKIT_ENGINE", "nosuch")
            .current_dir(&d)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
        assert!(stderr(&o).contains("GCMKIT_ENGINE"), "{}", stderr(&o));
        assert!(!stderr(&o).contains("key length"), "{}", stderr(&o));
    }
    let o = gcmkit()
        .args(["vectors", "x.json"])
        .env("GCMKIT_ENGINE", "nosuch")
        .current_dir(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn vectors_refuse_files_that_test_nothing() {
    let d = dir("vectors");
    std::fs::write(
        d.join("empty.json"),
        r#"{"algorithm": "AES-GCM", "testGroups": [{"type": "AeadTest", "tests": []}]}"#,
    )
    .unwrap();
    let o = run(&["vectors", "empty.json"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn appended_data_is_not_called_truncation() {
    let d = setup("append", 16383);
    let mut ct = std::fs::read(d.join("ct")).unwrap();
    ct.push(0);
    std::fs::write(d.join("bad"), &ct).unwrap();
    let o = run(&["decrypt", "--key", "k", "-o", "out", "bad"], &d);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("chunk 0"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("truncated"), "{}", stderr(&o));
}

#[test]
fn streaming_decryption_releases_verified_chunks_and_stops_at_a_bad_one() {
    // 9 MiB (576 chunks); a byte flipped in chunk 300. Batches of chunked::BATCH chunks
    // before the one holding chunk 300 are released, nothing from there on.
    let d = setup("stream", 9 << 20);
    let mut ct = std::fs::read(d.join("ct")).unwrap();
    ct[56 + 300 * 16400 + 7] ^= 1;
    std::fs::write(d.join("bad"), &ct).unwrap();
    let o = run(&["decrypt", "--key", "k", "bad"], &d);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("chunk 300"), "{}", stderr(&o));
    let pt = data(9 << 20);
    assert!(o.stdout.len() <= 300 * 16384, "output past the bad chunk");
    assert_eq!(
        o.stdout[..],
        pt[..o.stdout.len()],
        "released bytes are the plaintext"
    );
    let batch = gcmkit::chunked::BATCH;
    assert_eq!(
        o.stdout.len(),
        (300 / batch) * batch * 16384,
        "the batches before the bad chunk were streamed"
    );
    // Truncated at every chunk boundary, through stdout: exit 1, a verified prefix only.
    let ct = std::fs::read(d.join("ct")).unwrap();
    for k in [1usize, 255, 256, 257, 512, 575] {
        let cut = 56 + k * 16400;
        std::fs::write(d.join("cut"), &ct[..cut]).unwrap();
        let o = run(&["decrypt", "--key", "k", "cut"], &d);
        assert_eq!(o.status.code(), Some(1), "cut at chunk {k}");
        assert!(o.stdout.len() <= k * 16384);
        assert_eq!(o.stdout[..], pt[..o.stdout.len()]);
    }
}

#[test]
fn long_names_and_directories() {
    let d = setup("names", 100);
    let long = "n".repeat(250);
    let o = run(&["encrypt", "--key", "k", "-o", &long, "pt"], &d);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["encrypt", "--key", "k", "-o", ".", "pt"], &d);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("directory"), "{}", stderr(&o));
}
