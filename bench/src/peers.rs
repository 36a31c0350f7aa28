//! The implementations being raced, each wrapped as a closure over its own key and
//! buffers. Same key, nonce and data for all; fixed nonce for throughput rows (timing
//! only), a fresh nonce per call for the IPI rows.

use aes_gcm::aead::{AeadInOut, KeyInit};
use gcmkit::AeadMode;
use gcmkit::Engine;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Alg {
    Aes128Gcm,
    Aes256Gcm,
    Aes128GcmSiv,
    Aes256GcmSiv,
    Gmac,
    Ghash,
    Polyval,
    Ctr,
    GcmSiv2015,
}

impl Alg {
    pub const ALL: &'static [Alg] = &[
        Alg::Aes128Gcm,
        Alg::Aes256Gcm,
        Alg::Aes128GcmSiv,
        Alg::Aes256GcmSiv,
        Alg::GcmSiv2015,
        Alg::Gmac,
        Alg::Ghash,
        Alg::Polyval,
        Alg::Ctr,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Alg::Aes128Gcm => "AES-128-GCM",
            Alg::Aes256Gcm => "AES-256-GCM",
            Alg::Aes128GcmSiv => "AES-128-GCM-SIV",
            Alg::Aes256GcmSiv => "AES-256-GCM-SIV",
            Alg::Gmac => "AES-128-GMAC",
            Alg::Ghash => "GHASH",
            Alg::Polyval => "POLYVAL",
            Alg::Ctr => "AES-128-CTR",
            Alg::GcmSiv2015 => "GCM-SIV-2015-128",
        }
    }
    fn key_len(self) -> usize {
        match self {
            Alg::Aes256Gcm | Alg::Aes256GcmSiv => 32,
            _ => 16,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Op {
    Encrypt,
    Decrypt,
}

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::Encrypt => "encrypt",
            Op::Decrypt => "decrypt",
        }
    }
}

pub struct Candidate {
    pub name: String,
    pub run: Box<dyn FnMut()>,
}

fn cand(name: impl Into<String>, run: impl FnMut() + 'static) -> Candidate {
    Candidate {
        name: name.into(),
        run: Box::new(run),
    }
}

const NONCE: [u8; 12] = [7; 12];

/// Nonce source: fixed, or a counter (a new nonce per call).
#[derive(Clone, Copy)]
struct Nonces {
    fresh: bool,
    n: u64,
}

impl Nonces {
    fn next(&mut self) -> [u8; 12] {
        if !self.fresh {
            return NONCE;
        }
        self.n += 1;
        let mut x = NONCE;
        x[4..].copy_from_slice(&self.n.to_le_bytes());
        x
    }
}

fn key(len: usize) -> Vec<u8> {
    (0..len as u8)
        .map(|i| i.wrapping_mul(29).wrapping_add(3))
        .collect()
}

/// An AEAD mode's candidate: encryption in place under `nonces`, or decryption in place of
/// one fixed ciphertext (restored before each call, so every call checks a valid tag).
fn aead_cand<C: AeadMode + 'static>(
    c: C,
    op: Op,
    name: String,
    mut buf: Vec<u8>,
    mut nonces: Nonces,
) -> Candidate {
    match op {
        Op::Encrypt => cand(name, move || {
            let t = c
                .encrypt_in_place_detached(&nonces.next(), b"", &mut buf)
                .unwrap();
            std::hint::black_box(t);
        }),
        Op::Decrypt => {
            let mut ct = buf.clone();
            let tag = c.encrypt_in_place_detached(&NONCE, b"", &mut ct).unwrap();
            cand(name, move || {
                buf.copy_from_slice(&ct);
                c.decrypt_in_place_detached(&NONCE, b"", &mut buf, tag.as_ref())
                    .unwrap();
            })
        }
    }
}

/// gcmkit on one engine.
fn gcmkit_cand(alg: Alg, op: Op, size: usize, e: Engine, mut nonces: Nonces) -> Candidate {
    let k = key(alg.key_len());
    let name = format!("gcmkit-{}", e.name());
    let mut buf = vec![0x5au8; size];
    match alg {
        Alg::Aes128Gcm | Alg::Aes256Gcm => {
            let c = gcmkit::AesGcm::with_engine(&k, e).unwrap();
            aead_cand(c, op, name, buf, nonces)
        }
        Alg::Aes128GcmSiv | Alg::Aes256GcmSiv => {
            let c = gcmkit::AesGcmSiv::with_engine(&k, e).unwrap();
            aead_cand(c, op, name, buf, nonces)
        }
        Alg::Gmac => {
            let m = gcmkit::Gmac::with_engine(&k, e).unwrap();
            cand(name, move || {
                std::hint::black_box(m.compute(&nonces.next(), &buf).unwrap());
            })
        }
        Alg::Ghash | Alg::Polyval => {
            let h: [u8; 16] = k.clone().try_into().unwrap();
            let mut u = if alg == Alg::Ghash {
                gcmkit::hazmat::UniversalHash::ghash(&h, e).unwrap()
            } else {
                gcmkit::hazmat::UniversalHash::polyval(&h, e).unwrap()
            };
            cand(name, move || {
                u.reset();
                u.update_padded(&buf);
                std::hint::black_box(u.value());
            })
        }
        Alg::GcmSiv2015 => {
            let c = gcmkit::GcmSiv2015::with_engine(
                gcmkit::GcmSiv2015Variant::TwoKey,
                &k,
                &key(16),
                None,
                e,
            )
            .unwrap();
            aead_cand(c, op, name, buf, nonces)
        }
        Alg::Ctr => {
            let c = gcmkit::hazmat::AesCtr32::new(&k, e).unwrap();
            cand(name, move || {
                std::hint::black_box(c.apply_keystream([1; 16], &mut buf));
            })
        }
    }
}

/// ring and aws-lc-rs share one `aead` API (aws-lc-rs began as ring's fork) but not its
/// types, so one body serves both, instantiated per crate.
macro_rules! ring_api_cand {
    ($fn_name:ident, $krate:ident, $label:literal, { $($alg:pat => $a:ident, $as_aad:expr;)* }) => {
        fn $fn_name(alg: Alg, op: Op, size: usize, mut nonces: Nonces) -> Option<Candidate> {
            use $krate::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
            let (a, data_as_aad) = match alg {
                $($alg => (&$krate::aead::$a, $as_aad),)*
                _ => return None,
            };
            let k = LessSafeKey::new(UnboundKey::new(a, &key(alg.key_len())).unwrap());
            let mut buf = vec![0x5au8; size];
            Some(match (op, data_as_aad) {
                (Op::Encrypt, false) => cand($label, move || {
                    let t = k
                        .seal_in_place_separate_tag(
                            Nonce::assume_unique_for_key(nonces.next()),
                            Aad::empty(),
                            &mut buf,
                        )
                        .unwrap();
                    let _ = std::hint::black_box(t);
                }),
                (Op::Encrypt, true) => cand($label, move || {
                    let t = k
                        .seal_in_place_separate_tag(
                            Nonce::assume_unique_for_key(nonces.next()),
                            Aad::from(&buf[..]),
                            &mut [],
                        )
                        .unwrap();
                    let _ = std::hint::black_box(t);
                }),
                (Op::Decrypt, _) => {
                    let mut ct = buf.clone();
                    let tag = k
                        .seal_in_place_separate_tag(
                            Nonce::assume_unique_for_key(NONCE),
                            Aad::empty(),
                            &mut ct,
                        )
                        .unwrap();
                    ct.extend_from_slice(tag.as_ref());
                    let mut work = ct.clone();
                    cand($label, move || {
                        work.copy_from_slice(&ct);
                        k.open_in_place(Nonce::assume_unique_for_key(NONCE), Aad::empty(), &mut work)
                            .unwrap();
                    })
                }
            })
        }
    };
}

ring_api_cand!(awslc_cand, aws_lc_rs, "aws-lc-rs", {
    Alg::Aes128Gcm => AES_128_GCM, false;
    Alg::Aes256Gcm => AES_256_GCM, false;
    Alg::Aes128GcmSiv => AES_128_GCM_SIV, false;
    Alg::Aes256GcmSiv => AES_256_GCM_SIV, false;
    Alg::Gmac => AES_128_GCM, true;
});

ring_api_cand!(ring_cand, ring, "ring", {
    Alg::Aes128Gcm => AES_128_GCM, false;
    Alg::Aes256Gcm => AES_256_GCM, false;
    Alg::Gmac => AES_128_GCM, true;
});

fn rustcrypto_cand(alg: Alg, op: Op, size: usize, mut nonces: Nonces) -> Option<Candidate> {
    macro_rules! aead_cand {
        ($t:ty) => {{
            let c = <$t>::new_from_slice(&key(alg.key_len())).unwrap();
            let mut buf = vec![0x5au8; size];
            match op {
                Op::Encrypt => cand("rustcrypto", move || {
                    let n = nonces.next();
                    let t = c
                        .encrypt_inout_detached((&n).into(), b"", buf.as_mut_slice().into())
                        .unwrap();
                    std::hint::black_box(t);
                }),
                Op::Decrypt => {
                    let mut ct = buf.clone();
                    let tag = c
                        .encrypt_inout_detached((&NONCE).into(), b"", ct.as_mut_slice().into())
                        .unwrap();
                    cand("rustcrypto", move || {
                        buf.copy_from_slice(&ct);
                        c.decrypt_inout_detached(
                            (&NONCE).into(),
                            b"",
                            buf.as_mut_slice().into(),
                            &tag,
                        )
                        .unwrap();
                    })
                }
            }
        }};
    }
    Some(match alg {
        Alg::Aes128Gcm => aead_cand!(aes_gcm::Aes128Gcm),
        Alg::Aes256Gcm => aead_cand!(aes_gcm::Aes256Gcm),
        Alg::Aes128GcmSiv => aead_cand!(aes_gcm_siv::Aes128GcmSiv),
        Alg::Aes256GcmSiv => aead_cand!(aes_gcm_siv::Aes256GcmSiv),
        Alg::Gmac => {
            let c = aes_gcm::Aes128Gcm::new_from_slice(&key(16)).unwrap();
            let buf = vec![0x5au8; size];
            cand("rustcrypto", move || {
                let n = nonces.next();
                let t = c
                    .encrypt_inout_detached((&n).into(), &buf, (&mut [][..]).into())
                    .unwrap();
                std::hint::black_box(t);
            })
        }
        Alg::Ghash | Alg::Polyval => {
            use polyval::universal_hash::UniversalHash;
            let h: [u8; 16] = key(16).try_into().unwrap();
            let buf = vec![0x5au8; size];
            if alg == Alg::Ghash {
                let g = ghash::GHash::new(&h.into());
                cand("rustcrypto", move || {
                    let mut s = g.clone();
                    s.update_padded(&buf);
                    std::hint::black_box(s.finalize());
                })
            } else {
                let p = polyval::Polyval::new(&h.into());
                cand("rustcrypto", move || {
                    let mut s = p.clone();
                    s.update_padded(&buf);
                    std::hint::black_box(s.finalize());
                })
            }
        }
        Alg::Ctr | Alg::GcmSiv2015 => return None,
    })
}

fn all(alg: Alg, op: Op, size: usize, engines: &[Engine], nonces: Nonces) -> Vec<Candidate> {
    let mut v: Vec<Candidate> = engines
        .iter()
        .map(|&e| gcmkit_cand(alg, op, size, e, nonces))
        .collect();
    v.extend(awslc_cand(alg, op, size, nonces));
    v.extend(ring_cand(alg, op, size, nonces));
    v.extend(rustcrypto_cand(alg, op, size, nonces));
    v
}

/// Every implementation of `alg`/`op` at `size` bytes (fixed nonce).
pub fn candidates(alg: Alg, op: Op, size: usize, engines: &[Engine]) -> Vec<Candidate> {
    all(alg, op, size, engines, Nonces { fresh: false, n: 0 })
}

/// Encryption with a new nonce per call (IPI rows).
pub fn candidates_fresh_nonce(alg: Alg, size: usize, engines: &[Engine]) -> Vec<Candidate> {
    all(
        alg,
        Op::Encrypt,
        size,
        engines,
        Nonces { fresh: true, n: 0 },
    )
}
