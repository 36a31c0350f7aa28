//! `encrypt_file` / `decrypt_file`: round trips, only verified output ever appears, and the
//! output rules (no clobbering unless asked, no temporary file left behind) hold.

#![cfg(target_os = "linux")]

use gcmkit::chunked::{self, Error, CHUNK, CT_CHUNK, HEADER};
use gcmkit_fs::{decrypt_file, encrypt_file, path_error, Overwrite};

mod common {
    pub mod test_dir;
}
use common::test_dir::{names, TestDir};

/// A chunk's tag length.
const TAG: usize = 16;

fn data(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u32).wrapping_mul(2654435761).rotate_left(7) as u8)
        .collect()
}

#[test]
fn file_functions_write_only_verified_output() {
    let dir = TestDir::new("files-verified");
    let key = [8u8; 32];
    let pt = data(3 * CHUNK + 5);
    std::fs::write(dir.join("pt"), &pt).unwrap();
    let n = encrypt_file(
        &key,
        b"c",
        &dir.join("pt"),
        &dir.join("ct"),
        Overwrite::Never,
    );
    assert_eq!(n.unwrap(), pt.len() as u64);
    let ct = std::fs::read(dir.join("ct")).unwrap();
    assert_eq!(
        chunked::decrypt(&key, b"c", &ct).unwrap(),
        pt,
        "the file is the format"
    );
    let n = decrypt_file(
        &key,
        b"c",
        &dir.join("ct"),
        &dir.join("back"),
        Overwrite::Never,
    );
    assert_eq!(n.unwrap(), pt.len() as u64);
    assert_eq!(std::fs::read(dir.join("back")).unwrap(), pt);

    let mut bad = ct.clone();
    bad[HEADER + CT_CHUNK + 9] ^= 1;
    std::fs::write(dir.join("bad"), &bad).unwrap();
    assert!(matches!(
        decrypt_file(
            &key,
            b"c",
            &dir.join("bad"),
            &dir.join("out"),
            Overwrite::Never
        ),
        Err(Error::ModifiedChunk { chunk: 1 })
    ));
    assert_eq!(
        names(&dir),
        ["back", "bad", "ct", "pt"],
        "no output, no temporary file"
    );
}

#[test]
fn existing_outputs_are_replaced_only_when_asked() {
    let dir = TestDir::new("files-replace");
    let key = [3u8; 16];
    std::fs::write(dir.join("pt"), b"new").unwrap();
    std::fs::write(dir.join("ct"), b"old").unwrap();
    let e = encrypt_file(
        &key,
        b"",
        &dir.join("pt"),
        &dir.join("ct"),
        Overwrite::Never,
    );
    assert!(matches!(e, Err(Error::Io(_))), "{e:?}");
    assert_eq!(std::fs::read(dir.join("ct")).unwrap(), b"old");
    encrypt_file(
        &key,
        b"",
        &dir.join("pt"),
        &dir.join("ct"),
        Overwrite::Replace,
    )
    .unwrap();
    let ct = std::fs::read(dir.join("ct")).unwrap();
    assert_eq!(chunked::decrypt(&key, b"", &ct).unwrap(), b"new");
    assert_eq!(names(&dir), ["ct", "pt"]);
}

#[test]
fn errors_name_the_missing_source() {
    let dir = TestDir::new("files-source");
    let src = dir.join("absent");
    let e = encrypt_file(&[1u8; 16], b"", &src, &dir.join("ct"), Overwrite::Never).unwrap_err();
    let Error::Io(io) = &e else {
        panic!("not an I/O error: {e:?}")
    };
    let pe = path_error(io.get_ref()).expect("a PathError");
    assert_eq!(pe.path(), src);
    assert_eq!(pe.raw_os_error(), Some(2), "ENOENT");
    assert!(names(&dir).is_empty(), "nothing created: {:?}", names(&dir));
}

/// The errno of a gcmkit-fs error inside a gcmkit error.
fn errno_of(e: &Error) -> Option<i32> {
    let Error::Io(io) = e else {
        panic!("not an I/O error: {e:?}")
    };
    path_error(io.get_ref()).and_then(|pe| pe.raw_os_error())
}

#[test]
fn a_trailing_slash_names_a_directory_and_is_refused_as_open_refuses_it() {
    // `Path::file_name` reads `x/` as `x`: the file `x` was replaced, and `new/` created
    // a file `new`. The kernel's open (and Python's) refuse both with EISDIR.
    let dir = TestDir::new("files-slash");
    let key = [4u8; 16];
    std::fs::write(dir.join("pt"), b"plaintext").unwrap();
    std::fs::write(dir.join("x"), b"old").unwrap();
    std::fs::create_dir(dir.join("d")).unwrap();
    let dst = |s: &str| std::path::PathBuf::from(format!("{}/{s}", dir.display()));
    for name in ["x/", "x//", "x/.", "new/", "new/.", "d/", "d/.", "d/.."] {
        for overwrite in [Overwrite::Never, Overwrite::Replace] {
            let e = encrypt_file(&key, b"", &dir.join("pt"), &dst(name), overwrite).unwrap_err();
            assert_eq!(errno_of(&e), Some(libc::EISDIR), "{name}: {e:?}");
            let e = gcmkit_fs::Output::create(&dst(name), overwrite).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::IsADirectory, "{name}: {e}");
            assert!(e.to_string().contains(name), "names the path: {e}");
        }
    }
    assert_eq!(std::fs::read(dir.join("x")).unwrap(), b"old", "x untouched");
    assert_eq!(
        names(&dir),
        ["d", "pt", "x"],
        "no file `new`, no temporary file"
    );
    assert_eq!(names(&dir.join("d")), Vec::<String>::new());
    // Without the slash, the same names are files as before.
    encrypt_file(
        &key,
        b"",
        &dir.join("pt"),
        &dir.join("new"),
        Overwrite::Never,
    )
    .unwrap();
    assert_eq!(names(&dir), ["d", "new", "pt", "x"]);
}

/// Every decryptor of the core, on `ct`: the error each gives (`None`: it succeeded).
fn every_decryptor(key: &[u8], ct: &[u8]) -> Vec<(&'static str, Option<Error>)> {
    use gcmkit::chunked::{Decryptor, Opener, RangeDecryptor, SeekableDecryptor};
    use std::io::Read;
    let inner = |e: std::io::Error| {
        e.get_ref()
            .and_then(|i| i.downcast_ref::<Error>())
            .cloned()
            .unwrap_or_else(|| panic!("not a gcmkit error: {e}"))
    };
    let stream = Decryptor::new(key, b"", ct)
        .and_then(|mut d| d.read_to_end(&mut Vec::new()).map_err(inner));
    let parallel = chunked::decrypt_stream(key, b"", ct, std::io::sink(), |_| {});
    let seek = SeekableDecryptor::new(key, b"", std::io::Cursor::new(ct))
        .and_then(|mut d| d.read_to_end(&mut Vec::new()).map_err(inner));
    let ranges = RangeDecryptor::new(key, b"", ct, ct.len() as u64).and_then(|r| {
        let s = r.span(0, r.plaintext_len() + 1);
        let mut out = vec![0u8; r.plaintext_of(s)];
        r.decrypt_into(s, &ct[s.start as usize..s.end as usize], &mut out)
    });
    let push = Opener::new(key, b"").and_then(|mut o| {
        let mut out = vec![0u8; o.update_len(ct.len())];
        o.update_into(ct, &mut out)?;
        let mut fin = vec![0u8; o.finish_len()];
        o.finish_into(&mut fin)
    });
    vec![
        ("one-shot", chunked::decrypt(key, b"", ct).err()),
        ("Decryptor", stream.err()),
        ("decrypt_stream", parallel.err()),
        ("SeekableDecryptor", seek.err()),
        ("RangeDecryptor", ranges.err()),
        ("Opener", push.err()),
    ]
}

#[test]
fn a_file_cut_inside_a_chunk_is_called_truncated_by_every_decryptor() {
    // A download cut at the end of a file, inside a chunk's wire length: no final chunk
    // verified. It was called "modified"; only a cut on a chunk boundary said "truncated".
    let key = [9u8; 16];
    let pt = data(3 * CHUNK + 100); // chunks 0..=3, the last one short
    let ct = chunked::encrypt(&key, b"", &pt).unwrap();
    let cases = [
        (5000, 0), // `head -c 5000`: inside chunk 0
        (HEADER + CT_CHUNK + 1000, 1),
        (HEADER + 2 * CT_CHUNK + TAG, 2), // the smallest cut that still holds a tag
        (ct.len() - 1, 3),                // inside the final chunk
    ];
    for (cut, chunk) in cases {
        for (who, e) in every_decryptor(&key, &ct[..cut]) {
            let e = e.unwrap_or_else(|| panic!("{who}: a cut at {cut} decrypted"));
            assert_eq!(
                e,
                Error::EndsInUnverifiedChunk { chunk },
                "{who}, cut at {cut}"
            );
            let msg = e.to_string();
            assert!(msg.starts_with("truncated"), "{who}: {msg}");
            assert!(msg.contains(&format!("chunk {chunk}")), "{who}: {msg}");
        }
    }
    // A modified chunk that is not the last one stays "modified"; a cut that leaves less
    // than a tag, or falls on a chunk boundary, stays plain `Truncated`.
    let mut bad = ct.clone();
    bad[HEADER + CT_CHUNK + 7] ^= 1;
    for (who, e) in every_decryptor(&key, &bad) {
        assert_eq!(e, Some(Error::ModifiedChunk { chunk: 1 }), "{who}");
    }
    for cut in [HEADER + CT_CHUNK, HEADER + CT_CHUNK + TAG - 1] {
        for (who, e) in every_decryptor(&key, &ct[..cut]) {
            assert_eq!(e, Some(Error::Truncated), "{who}, cut at {cut}");
        }
    }
    // The whole message still decrypts everywhere.
    for (who, e) in every_decryptor(&key, &ct) {
        assert_eq!(e, None, "{who}");
    }
}

#[test]
fn decrypt_file_of_a_long_prefix_says_truncated_and_writes_nothing() {
    // A prefix of a many-batch file (the "100 MB of a 200 MB download" case, smaller).
    let dir = TestDir::new("files-prefix");
    let key = [2u8; 32];
    let pt = data(300 * CHUNK + 17);
    let ct = chunked::encrypt(&key, b"c", &pt).unwrap();
    let cut = HEADER + 150 * CT_CHUNK + 4321;
    std::fs::write(dir.join("half"), &ct[..cut]).unwrap();
    let e = decrypt_file(
        &key,
        b"c",
        &dir.join("half"),
        &dir.join("out"),
        Overwrite::Never,
    )
    .unwrap_err();
    assert_eq!(e, Error::EndsInUnverifiedChunk { chunk: 150 });
    assert!(e.to_string().starts_with("truncated"), "{e}");
    assert_eq!(names(&dir), ["half"], "no output, no temporary file");
}

#[test]
fn a_file_gcmkit_never_wrote_is_named_as_possibly_not_a_cobblestone_file() {
    let e = chunked::decrypt(&[1u8; 16], b"", &[0x42u8; 500]).unwrap_err();
    assert_eq!(e, Error::WrongKeyOrContext);
    assert!(
        e.to_string().contains("or not a gcmkit/Cobblestone file"),
        "{e}"
    );
}

#[test]
fn key_files_have_one_format_for_every_front_end() {
    use gcmkit_fs::{parse_key, KeyFormatError as F, KEY_FILE_FORMAT};
    let k128: Vec<u8> = (0u8..16).collect();
    let k256: Vec<u8> = (0u8..32).map(|b| b.wrapping_mul(7)).collect();
    let hex = |k: &[u8]| k.iter().map(|b| format!("{b:02x}")).collect::<String>();
    // What `gcmkit keygen` writes, and the same key in the shapes people save it in.
    let keygen = format!(
        "# gcmkit key: Cobblestone-128 (c2sp.org/chunked-encryption)\n{}\n",
        hex(&k128)
    );
    let good: Vec<(Vec<u8>, &[u8])> = vec![
        (keygen.into_bytes(), &k128),
        (hex(&k128).into_bytes(), &k128), // no newline: still 128 bits, never a raw 32-byte key
        (
            format!("{}\r\n", hex(&k128).to_uppercase()).into_bytes(),
            &k128,
        ),
        (
            format!("\n  {}  \n\n# note\n", hex(&k256)).into_bytes(),
            &k256,
        ),
    ];
    for (text, want) in good {
        let key = parse_key(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(&key[..], want, "{text:?}");
    }
    // Raw binary keys (what Python's key_file= used to read) are refused, not guessed at.
    let raw16: Vec<u8> = (0u8..16).map(|b| b.wrapping_mul(37) | 0x80).collect();
    let raw32 = [raw16.clone(), raw16.clone()].concat();
    let bad: Vec<(Vec<u8>, F)> = vec![
        (raw16, F::NotText),
        (raw32, F::NotText),
        (b"\xef\xbb\xbf00".to_vec(), F::ByteOrderMark),
        (b"# only a comment\n\n".to_vec(), F::NoKey),
        (Vec::new(), F::NoKey),
        (
            format!("{}\nnotes\n", hex(&k128)).into_bytes(),
            F::ExtraLines,
        ),
        (
            b"00 11".to_vec(),
            F::NotHex {
                found: ' ',
                position: 3,
            },
        ),
        (b"abc".to_vec(), F::OddDigits { digits: 3 }),
        (hex(&[1u8; 24]).into_bytes(), F::WrongLength { digits: 48 }),
        (vec![b'0'; 4097], F::TooLarge),
    ];
    for (text, want) in bad {
        let e = parse_key(&text).unwrap_err();
        assert_eq!(e, want);
        assert!(e.to_string().ends_with(KEY_FILE_FORMAT), "{e}");
    }
    assert_eq!(
        KEY_FILE_FORMAT,
        "a gcmkit key file is a line of 32 or 64 hex digits, with # comment lines"
    );
}

#[test]
fn read_key_file_names_the_file_caps_its_size_and_reports_loose_permissions() {
    use gcmkit_fs::{read_key_file, KeyFileError, KeyFormatError};
    use std::os::unix::fs::PermissionsExt;
    let dir = TestDir::new("files-keyfile");
    let p = dir.join("k");
    std::fs::write(&p, "# c\n000102030405060708090a0b0c0d0e0f\n").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
    let k = read_key_file(&p).unwrap();
    assert_eq!(&k.key[..], &(0u8..16).collect::<Vec<_>>()[..]);
    assert_eq!(k.readable_by_others, None);
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(read_key_file(&p).unwrap().readable_by_others, Some(0o644));

    let missing = dir.join("absent");
    match read_key_file(&missing) {
        Err(KeyFileError::Io { path, error }) => {
            assert_eq!(path, missing);
            assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other:?}"),
    }
    // A device that never ends is refused after KEY_FILE_MAX bytes.
    let e = read_key_file(std::path::Path::new("/dev/zero")).unwrap_err();
    assert!(
        matches!(
            &e,
            KeyFileError::Format {
                problem: KeyFormatError::TooLarge,
                ..
            }
        ),
        "{e:?}"
    );
    std::fs::write(&p, [0xffu8; 32]).unwrap();
    let e = read_key_file(&p).unwrap_err();
    assert_eq!(e.path(), p);
    let msg = e.to_string();
    assert!(
        msg.starts_with(&format!("key file {}", p.display())),
        "{msg}"
    );
    assert!(msg.contains("not text"), "{msg}");
    assert!(msg.contains("a line of 32 or 64 hex digits"), "{msg}");
}
