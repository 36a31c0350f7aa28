//! `encrypt_file` / `decrypt_file`: round trips, only verified output ever appears, and the
//! output rules (no clobbering unless asked, no temporary file left behind) hold.

#![cfg(target_os = "linux")]

use gcmkit::chunked::{self, Error, CHUNK, CT_CHUNK, HEADER};
use gcmkit_fs::{decrypt_file, encrypt_file, path_error, Overwrite};

mod common {
    pub mod test_dir;
}
use common::test_dir::{names, TestDir};

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
