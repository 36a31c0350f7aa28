//! `gcmkit-speed-guard`: fails when gcmkit runs at under half its peer's speed.
//!
//! Not a timing: a ratio of two throughputs measured in one process, interleaved, so that
//! the machine's speed, its clock and its neighbours cancel out. Each check races gcmkit's
//! call against the peer's same call on the same bytes in `ROUNDS` alternated rounds of
//! `CALLS` calls each and takes the median of the rounds' ratios (gcmkit's throughput over
//! the peer's). A check fails below `FLOOR` (0.5): a 2x regression fails, noise does not
//! (on Zen 5, f26 m2, `make speed-guard` gave 0.91-2.21x ring on avx512 and
//! 1.29-5.05x RustCrypto). A kernel step
//! compiled without its target features, the 70x slowdown of 56b812f..699da11
//! (docs/perf/rustls.md), fails every check of its path.
//!
//! Checked, at 1500 B and 16 KiB, on every hardware engine this CPU has (the portable
//! engine is not compared with hardware peers): AES-128-GCM one-shot in place, gathered
//! (`encrypt_parts_into`, the rustls provider's record path) and on-line (`encryptor`, at
//! 16 KiB only);
//! AES-256-GCM-SIV in place. The engine gcmkit selects races ring's
//! `seal_in_place_separate_tag` for AES-GCM (ring picks this CPU's widest AES code too);
//! the narrower engines race RustCrypto's `aes-gcm`, whose AES-NI + PCLMULQDQ code is of
//! their own class (against ring's VAES code the aesni engine ran at 0.45-0.58x on Zen 5,
//! by design). AES-256-GCM-SIV races RustCrypto's `aes-gcm-siv` on every engine (ring has
//! none; aws-lc-rs is not built in the fast tier). About a second once built.

use gcmkit::{AeadMode, AesGcm, AesGcmSiv, Engine};
use std::time::Instant;

const ROUNDS: usize = 15;
const FLOOR: f64 = 0.5;
const SIZES: [usize; 2] = [1500, 16384];

/// A peer's call on a buffer of the given size, made ready.
type PeerCall = fn(usize) -> Box<dyn FnMut()>;

/// Calls per round: about 0.5 ms of work per side at 1 GB/s.
fn calls(size: usize) -> usize {
    (512 * 1024 / size).max(8)
}

/// Median over rounds of (peer's time / gcmkit's time) for `calls` calls of each.
fn race(calls: usize, mut gcmkit: impl FnMut(), mut peer: impl FnMut()) -> f64 {
    for _ in 0..calls {
        gcmkit();
        peer();
    }
    let mut ratios = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for _ in 0..calls {
            gcmkit();
        }
        let g = t.elapsed().as_secs_f64();
        let t = Instant::now();
        for _ in 0..calls {
            peer();
        }
        let p = t.elapsed().as_secs_f64();
        ratios.push(p / g);
    }
    ratios.sort_by(f64::total_cmp);
    ratios[ROUNDS / 2]
}

fn ring_seal(size: usize) -> impl FnMut() {
    use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_128_GCM};
    let key = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &[7u8; 16]).unwrap());
    let mut buf = vec![1u8; size];
    move || {
        let n = Nonce::assume_unique_for_key([3u8; 12]);
        let tag = key
            .seal_in_place_separate_tag(n, Aad::empty(), &mut buf)
            .unwrap();
        let _ = std::hint::black_box(tag);
    }
}

/// A RustCrypto AEAD's (aead 0.6) in-place encryption of `size` bytes under a fixed
/// nonce, with the key `key`.
fn rustcrypto<C: aes_gcm::aead::AeadInOut + aes_gcm::aead::KeyInit>(
    key: &[u8],
    size: usize,
) -> impl FnMut() {
    let c = C::new_from_slice(key).unwrap();
    let nonce = aes_gcm::aead::Nonce::<C>::try_from(&[3u8; 12][..]).unwrap();
    let mut buf = vec![1u8; size];
    move || {
        let tag = c
            .encrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into())
            .unwrap();
        let _ = std::hint::black_box(tag);
    }
}

fn rustcrypto_gcm(size: usize) -> impl FnMut() {
    rustcrypto::<aes_gcm::Aes128Gcm>(&[7u8; 16], size)
}

fn rustcrypto_siv(size: usize) -> impl FnMut() {
    rustcrypto::<aes_gcm_siv::Aes256GcmSiv>(&[7u8; 32], size)
}

fn main() {
    let mut failed = Vec::new();
    let mut checked = 0;
    let best = Engine::best();
    for engine in Engine::supported().filter(|e| *e != Engine::Portable) {
        // The AES-GCM peer of this engine's class (see the module's doc).
        let (gcm_peer, peer_gcm): (&str, PeerCall) = if engine == best {
            ("ring", |n| Box::new(ring_seal(n)))
        } else {
            ("RustCrypto aes-gcm", |n| Box::new(rustcrypto_gcm(n)))
        };
        let gcm = AesGcm::with_engine(&[7u8; 16], engine).unwrap();
        let siv = AesGcmSiv::with_engine(&[7u8; 32], engine).unwrap();
        for size in SIZES {
            let n = calls(size);
            let mut report = |what: &str, peer: &str, ratio: f64| {
                let verdict = if ratio >= FLOOR { "ok" } else { "FAIL" };
                println!(
                    "{verdict:4} {:7} {what:38} {size:6} B: {ratio:5.2}x {peer}",
                    engine.name()
                );
                checked += 1;
                if ratio < FLOOR {
                    failed.push(format!(
                        "{} {what} at {size} B: {ratio:.2}x {peer}",
                        engine.name()
                    ));
                }
            };
            let mut buf = vec![1u8; size];
            let one_shot = race(
                n,
                || {
                    let t = gcm
                        .encrypt_in_place_detached(&[3u8; 12], b"", &mut buf)
                        .unwrap();
                    std::hint::black_box(t);
                },
                peer_gcm(size),
            );
            report("AES-128-GCM encrypt in place", gcm_peer, one_shot);
            let src = vec![1u8; size];
            let (a, b) = src.split_at(size / 3);
            let mut out = vec![0u8; size + 16];
            let gathered = race(
                n,
                || {
                    gcm.encrypt_parts_into(&[3u8; 12], &[a, b], b"", &mut out)
                        .unwrap();
                    std::hint::black_box(&out);
                },
                peer_gcm(size),
            );
            report("AES-128-GCM encrypt_parts_into", gcm_peer, gathered);
            // The on-line path in two updates: at 1500 B its per-update cost put it at
            // 0.63x ring (avx2) and 0.91x (avx512) on Zen 5, too near the floor for a
            // guard; at 16 KiB 1.06x and 1.96x.
            if size >= 16384 {
                let mut buf = vec![1u8; size];
                let online = race(
                    n,
                    || {
                        let mut e = gcm.encryptor(&[3u8; 12]).unwrap();
                        let (x, y) = buf.split_at_mut(size / 2 + 16);
                        e.update(x).unwrap();
                        e.update(y).unwrap();
                        std::hint::black_box(e.finish());
                    },
                    peer_gcm(size),
                );
                report("AES-128-GCM on-line encryptor", gcm_peer, online);
            }
            let mut buf = vec![1u8; size];
            let siv_ratio = race(
                n,
                || {
                    let t = siv
                        .encrypt_in_place_detached(&[3u8; 12], b"", &mut buf)
                        .unwrap();
                    std::hint::black_box(t);
                },
                rustcrypto_siv(size),
            );
            report(
                "AES-256-GCM-SIV encrypt in place",
                "RustCrypto aes-gcm-siv",
                siv_ratio,
            );
        }
    }
    if checked == 0 {
        println!("speed guard: no hardware engine on this CPU, nothing to compare (the peers use the hardware)");
        return;
    }
    if !failed.is_empty() {
        eprintln!(
            "speed guard: {} of {checked} checks under {FLOOR}x the peer:",
            failed.len()
        );
        for f in &failed {
            eprintln!("  {f}");
        }
        std::process::exit(1);
    }
    println!("speed guard: {checked} checks, every one at least {FLOOR}x its peer");
}
