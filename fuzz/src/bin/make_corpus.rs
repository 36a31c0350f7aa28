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
    // decrypt_anything: algorithm, engine, parameter bytes, then key, nonce and AAD (each
    // after its length byte), then a genuine ciphertext (or tag) for that algorithm: one
    // seed per algorithm and engine byte 0..=3 (every engine of any CPU), so that
    // mutations start on every pair.
    use gcmkit::{AesGcm, AesGcmSiv, GcmSiv2015, Gmac};
    let nonce = [7u8; 12];
    let aad = b"aad";
    for alg in 0u8..6 {
        for eng in 0u8..4 {
            let len = [0usize, 17, 64, 300][eng as usize];
            let pt = vec![0x61u8; len];
            // (parameter byte, key, genuine ciphertext): tag 16; GCM-SIV (2015) two-key
            // (16 + 32 bytes) with k = 32 at engine 0 and 2, one-key with k = 8 otherwise.
            let (param, key, ct): (u8, Vec<u8>, Vec<u8>) = match alg {
                0 | 4 => (
                    0,
                    key16.to_vec(),
                    AesGcm::new(&key16)
                        .unwrap()
                        .encrypt(&nonce, &pt, aad)
                        .unwrap(),
                ),
                1 => (
                    0,
                    key16.to_vec(),
                    AesGcmSiv::new(&key16)
                        .unwrap()
                        .encrypt(&nonce, &pt, aad)
                        .unwrap(),
                ),
                2 if eng % 2 == 0 => {
                    let k = [0x22u8; 48];
                    let s = GcmSiv2015::two_key(&k[..16], &k[16..]).unwrap();
                    (32 + 31, k.to_vec(), s.encrypt(&nonce, &pt, aad).unwrap())
                }
                2 => {
                    let s = GcmSiv2015::one_key(&key16).unwrap().with_counter_bits(8);
                    let ct = s.unwrap().encrypt(&nonce, &pt, aad).unwrap();
                    (7, key16.to_vec(), ct)
                }
                3 => (
                    0,
                    key16.to_vec(),
                    Gmac::new(&key16)
                        .unwrap()
                        .compute(&nonce, aad)
                        .unwrap()
                        .as_ref()
                        .to_vec(),
                ),
                _ => {
                    let k = [0x33u8; 24];
                    let g = gcmkit::gcm64::TdeaGcm::tdea(&k).unwrap();
                    (0, k.to_vec(), g.encrypt(&nonce, &pt, aad).unwrap())
                }
            };
            let mut v = vec![alg, eng, param, key.len() as u8];
            v.extend_from_slice(&key);
            v.push(nonce.len() as u8);
            v.extend_from_slice(&nonce);
            v.push(aad.len() as u8);
            v.extend_from_slice(aad);
            v.extend_from_slice(&ct);
            put("decrypt_anything", v);
        }
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
