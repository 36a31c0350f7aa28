//! What the CLI tells a careless or unlucky user (issue #73): key files in the one format
//! every front end reads, a truncated download called truncated, a file gcmkit never
//! wrote, a directory given as input or as output (`newdir/`), a missing `--key`, and
//! `keygen --help` against the file it writes.

mod common;
use common::{data, names, only, run, stderr};
use std::os::unix::fs::PermissionsExt;

fn setup(name: &str, n: usize) -> common::TestDir {
    common::setup("messages", name, n)
}

/// Writes a key file `name` in `d`, mode 0600.
fn key_file(d: &std::path::Path, name: &str, text: &[u8]) {
    std::fs::write(d.join(name), text).unwrap();
    std::fs::set_permissions(d.join(name), std::fs::Permissions::from_mode(0o600)).unwrap();
}

#[test]
fn keygen_files_are_read_by_the_shared_parser_and_hex_without_newline_is_128_bits() {
    let d = setup("keys", 70_000);
    // The file keygen wrote gives, through gcmkit-fs's parser (the one Python uses), the
    // key the CLI encrypted with.
    let key = gcmkit_fs::read_key_file(&d.join("k")).unwrap().key;
    assert_eq!(key.len(), 16);
    let ct = std::fs::read(d.join("ct")).unwrap();
    assert_eq!(
        gcmkit::chunked::decrypt(&key, b"", &ct).unwrap(),
        data(70_000)
    );
    // 32 hex digits saved without a newline: a 128-bit key in the CLI too (Python used to
    // take these 32 bytes as a raw Cobblestone-256 key).
    let k: Vec<u8> = (0u8..16).map(|b| b * 3).collect();
    let hex: String = k.iter().map(|b| format!("{b:02x}")).collect();
    key_file(&d, "nl", hex.as_bytes());
    let o = run(&["encrypt", "--key", "nl", "-o", "ct2", "pt"], &d);
    assert!(o.status.success(), "{}", stderr(&o));
    let ct2 = std::fs::read(d.join("ct2")).unwrap();
    assert_eq!(
        gcmkit::chunked::decrypt(&k, b"", &ct2).unwrap(),
        data(70_000)
    );
    // A raw binary key is refused with the format named.
    key_file(&d, "raw", &[0xe9u8; 16]);
    let o = run(&["encrypt", "--key", "raw", "-o", "ct3", "pt"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("a gcmkit key file is a line of 32 or 64 hex digits, with # comment lines"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("ct3").exists());
}

#[test]
fn keygen_help_describes_the_file_it_writes() {
    let d = common::dir("messages", "keygen-help");
    let o = run(&["keygen", "--help"], &d);
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout).into_owned();
    // It said "one line of lowercase hex", but the file starts with a comment line.
    assert!(help.contains("a `#` comment line"), "{help}");
    assert!(help.contains("32"), "{help}");
    for (bits, digits) in [("128", 32), ("256", 64)] {
        let o = run(&["keygen", "--bits", bits], &d);
        let text = String::from_utf8(o.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].starts_with('#'), "{text}");
        assert_eq!(lines[1].len(), digits, "{text}");
        assert!(lines[1]
            .chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)));
    }
}

#[test]
fn a_truncated_download_is_called_truncated() {
    // 3 MiB (several batches of the parallel decryptor), cut inside a chunk's wire length:
    // `head -c 5000`, and a prefix of about half.
    let d = setup("truncated", 3 << 20);
    let ct = std::fs::read(d.join("ct")).unwrap();
    for (cut, chunk) in [(5000usize, 0u64), (56 + 96 * 16400 + 777, 96)] {
        std::fs::write(d.join("cut"), &ct[..cut]).unwrap();
        for out in [&["-o", "out"][..], &[][..]] {
            let mut args = vec!["decrypt", "--key", "k"];
            args.extend_from_slice(out);
            args.push("cut");
            let o = run(&args, &d);
            assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
            let msg = stderr(&o);
            assert!(msg.contains("decryption failed: truncated"), "{msg}");
            assert!(msg.contains(&format!("ends in chunk {chunk}")), "{msg}");
            assert!(!d.join("out").exists());
            let pt = data(3 << 20);
            assert!(o.stdout.len() <= chunk as usize * 16384);
            assert_eq!(
                o.stdout[..],
                pt[..o.stdout.len()],
                "only verified plaintext"
            );
        }
    }
}

#[test]
fn a_file_gcmkit_never_wrote_may_be_just_that() {
    let d = setup("foreign", 10);
    std::fs::write(d.join("foreign"), data(5000)).unwrap();
    let o = run(&["decrypt", "--key", "k", "-o", "out", "foreign"], &d);
    assert_eq!(o.status.code(), Some(1));
    let msg = stderr(&o);
    assert!(msg.contains("wrong key or context"), "{msg}");
    assert!(msg.contains("or not a gcmkit/Cobblestone file"), "{msg}");
}

#[test]
fn a_directory_as_input_is_named() {
    let d = setup("dir-input", 10);
    std::fs::create_dir(d.join("sub")).unwrap();
    for (args, name) in [
        (&["encrypt", "--key", "k", "-o", "out", ".."][..], ".."),
        (&["decrypt", "--key", "k", "-o", "out", "sub"][..], "sub"),
        (&["encrypt", "--key", "k", "sub"][..], "sub"),
    ] {
        let o = run(args, &d);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let msg = stderr(&o);
        // It said "encryption failed: Is a directory (os error 21)", naming nothing.
        assert!(
            msg.contains(&format!("cannot read {name}: is a directory")),
            "{msg}"
        );
    }
    only(&d, &["ct", "k", "pt", "sub"]);
}

#[test]
fn an_output_ending_in_a_slash_is_a_directory_never_a_file() {
    let d = setup("slash", 100);
    std::fs::write(d.join("x"), b"precious").unwrap();
    for out in ["newdir/", "x/", "x/."] {
        for force in [false, true] {
            let mut args = vec!["encrypt", "--key", "k", "-o", out, "pt"];
            if force {
                args.push("--force");
            }
            let o = run(&args, &d);
            assert_eq!(o.status.code(), Some(2), "{out}: {}", stderr(&o));
            let msg = stderr(&o);
            assert!(msg.contains(out) && msg.contains("directory"), "{msg}");
        }
    }
    assert_eq!(std::fs::read(d.join("x")).unwrap(), b"precious");
    assert_eq!(
        names(&d),
        ["ct", "k", "pt", "x"],
        "no `newdir` file, no temporary file"
    );
}

#[test]
fn a_missing_key_shows_a_usage_line_where_only_key_is_required() {
    let d = setup("usage", 10);
    for cmd in ["encrypt", "decrypt"] {
        let o = run(&[cmd, "-o", "out", "--context", "c", "pt"], &d);
        assert_eq!(o.status.code(), Some(2));
        let msg = stderr(&o);
        assert!(msg.contains("--key <KEY>"), "{msg}");
        let usage = msg
            .lines()
            .find(|l| l.starts_with("Usage:"))
            .unwrap_or_else(|| panic!("no usage line: {msg}"));
        // It was `gcmkit encrypt --key <KEY> --context <CONTEXT> --output <OUTPUT> <INPUT>`.
        assert!(usage.contains("[-o <OUTPUT>]"), "{usage}");
        assert!(!usage.contains("--output <OUTPUT>"), "{usage}");
        assert!(!usage.contains("--context <CONTEXT>"), "{usage}");
    }
}
