//! The portable engine's 16 KiB loop, alone in a process: for counting its instructions
//! under callgrind (`bench/insn_mix.py`) and for A/B timing of builds.
//!
//! `portable_loop gcm|ctr [N]`: N (default 100) AES-128-GCM seals, or AES-128-CTR passes,
//! over one 16 KiB buffer on the portable engine; prints the rate.

use gcmkit::hazmat::AesCtr32;
use gcmkit::{AeadMode, AesGcm, Engine};

fn main() -> Result<(), gcmkit::Error> {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "gcm".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let mut buf = vec![7u8; 16384];
    let key = [1u8; 16];
    let start = std::time::Instant::now();
    match what.as_str() {
        "gcm" => {
            let gcm = AesGcm::with_engine(&key, Engine::Portable)?;
            for _ in 0..n {
                std::hint::black_box(gcm.encrypt_in_place_detached(&[0u8; 12], b"", &mut buf)?);
            }
        }
        "ctr" => {
            let ctr = AesCtr32::new(&key, Engine::Portable)?;
            for _ in 0..n {
                std::hint::black_box(ctr.apply_keystream([0u8; 16], &mut buf));
            }
        }
        other => {
            eprintln!("portable_loop: unknown mode {other} (gcm or ctr)");
            std::process::exit(2);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{what}: {:.3} GB/s", (n * buf.len()) as f64 / secs / 1e9);
    Ok(())
}
