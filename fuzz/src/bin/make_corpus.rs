//! Writes the seed corpora (valid and near-valid inputs), so mutations start from the
//! interesting region rather than from noise. Run once; the files are kept in the repo.

use gcmkit::AeadMode;

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let key16 = [0x11u8; 16];
    let mut n = 0;
    let mut put = |t: &str, v: Vec<u8>| {
        let d = root.join(t);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join(format!("seed-{n:03}.bin")), v).unwrap();
        n += 1;
    };
    for (sel, len) in [
        (0u8, 0usize),
        (0, 17),
        (8, 64),
        (1, 33),
        (2, 40),
        (3, 20),
        (4, 50),
        (5, 24),
    ] {
        // sel, key, nonce, aad, then a genuine ciphertext for that algorithm where easy.
        let mut v = vec![sel, 16];
        v.extend_from_slice(&key16);
        v.push(12);
        v.extend_from_slice(&[7u8; 12]);
        v.push(3);
        v.extend_from_slice(b"aad");
        let ct = match sel % 6 {
            0 | 4 => gcmkit::AesGcm::new(&key16)
                .unwrap()
                .encrypt(&[7u8; 12], &vec![0x61; len], b"aad")
                .unwrap(),
            1 => gcmkit::AesGcmSiv::new(&key16)
                .unwrap()
                .encrypt(&[7u8; 12], &vec![0x61; len], b"aad")
                .unwrap(),
            _ => vec![0x61; len + 16],
        };
        v.extend_from_slice(&ct);
        put("decrypt_anything", v);
    }
    for len in [0usize, 100, 16384, 16385] {
        put(
            "chunked_anything",
            gcmkit::chunked::encrypt(&[0x2a; 16], b"", &vec![5u8; len]).unwrap(),
        );
    }
    for (sel, len) in [(0u8, 0usize), (1, 1), (0, 64), (1, 1000)] {
        let mut v = vec![sel];
        v.extend_from_slice(&[9u8; 32]);
        v.extend_from_slice(&[3u8; 12]);
        v.push(5);
        v.extend_from_slice(b"hello");
        v.extend_from_slice(&vec![0x77; len]);
        put("differential", v);
    }
}
