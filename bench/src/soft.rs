//! The portable engine beside RustCrypto's software backends, with gcmkit's AES-NI
//! engine in the same race for the "share of the hardware engine" figure. Writes
//! `portable.md`.
//!
//! RustCrypto picks its backend at build time, so this mode must be built with its
//! software backends forced (`make bench-portable` does, in its own target directory):
//!     RUSTFLAGS='--cfg aes_backend="soft" --cfg polyval_backend="soft"' \
//!         cargo run --release -- portable ../docs/perf
//! The run refuses to write a report if RustCrypto is evidently on hardware (> 1 GB/s).

use crate::peers::Candidate;
use crate::race;
use aes_gcm::aead::{AeadInOut, KeyInit};
use gcmkit::{AeadMode, Engine};

const SIZES: &[usize] = &[1500, 16384, 1 << 20];

fn cand(name: &str, run: impl FnMut() + 'static) -> Candidate {
    Candidate {
        name: name.into(),
        run: Box::new(run),
    }
}

/// gcmkit AES-128-GCM on `e`, RustCrypto AES-128-GCM (soft), and the hardware engine.
fn candidates(size: usize, hw: Option<Engine>) -> Vec<Candidate> {
    let key = [0x33u8; 16];
    let mut out = Vec::new();
    for e in std::iter::once(Engine::Portable).chain(hw) {
        let gcm = gcmkit::AesGcm::with_engine(&key, e).unwrap();
        let mut buf = vec![0x5au8; size];
        out.push(cand(e.name(), move || {
            std::hint::black_box(
                gcm.encrypt_in_place_detached(&[7; 12], b"", &mut buf)
                    .unwrap(),
            );
        }));
    }
    let peer = aes_gcm::Aes128Gcm::new(&key.into());
    let mut buf = vec![0x5au8; size];
    out.insert(
        1,
        cand("RustCrypto aes-gcm (soft)", move || {
            std::hint::black_box(
                peer.encrypt_inout_detached(&[7; 12].into(), b"", buf.as_mut_slice().into())
                    .unwrap(),
            );
        }),
    );
    out
}

pub fn run(out_dir: &str, ghz: f64) {
    // The "hardware engine" of the target: AES-NI where the CPU has it.
    let hw = Engine::ALL
        .iter()
        .copied()
        .find(|e| e.name() == "aesni" && e.is_supported());
    let mut md = String::new();
    md.push_str("# The portable engine beside RustCrypto's software backends\n\n");
    md.push_str(&format!(
        "{}\n\nAES-128-GCM encryption in place, 12-byte IV, no AAD; the fastest of {} samples \
         per candidate, round-robin in one race per size. RustCrypto `aes-gcm` 0.11 is built \
         with its software backends forced (`aes_backend=\"soft\"`, `polyval_backend=\"soft\"`). \
         gcmkit's portable engine is fixsliced AES on SSE2 words of 8 blocks stitched with \
         GHASH on 64-bit integer multiplies (docs/perf/engines.md, \"portable\").\n\n\
         Command: `make bench-portable`.\n\n",
        crate::clock::machine_line(ghz),
        crate::SAMPLES
    ));
    md.push_str("| size | portable GB/s | RustCrypto soft GB/s | portable / RustCrypto soft | aesni GB/s | portable / aesni |\n|---|---|---|---|---|---|\n");
    for &size in SIZES {
        let mut c = candidates(size, hw);
        let g = race(&mut c, size);
        eprintln!("portable {size}: {g:?}");
        if g[1] > 1.0 {
            eprintln!("RustCrypto ran at {:.2} GB/s: not its software backend; build with the RUSTFLAGS above", g[1]);
            std::process::exit(1);
        }
        let (hw_rate, share) = match g.get(2) {
            Some(a) => (format!("{a:.3}"), format!("**{:.1} %**", 100.0 * g[0] / a)),
            None => ("(no AES-NI)".into(), "-".into()),
        };
        md.push_str(&format!(
            "| {size} B | {:.3} | {:.3} | **{:.2}x** | {hw_rate} | {share} |\n",
            g[0],
            g[1],
            g[0] / g[1]
        ));
    }
    let path = format!("{out_dir}/portable.md");
    std::fs::write(&path, md).unwrap();
    eprintln!("wrote {path}");
}
