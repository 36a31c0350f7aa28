//! `gcmkit-speed-guard`: fails when gcmkit runs at under half the speed it was measured at
//! against its peer, so that gcmkit made twice as slow fails it.
//!
//! Not a timing: a ratio of two throughputs measured in one process, interleaved, so that
//! the machine's speed, its clock and its neighbours cancel out. Each check races gcmkit's
//! call against the peer's same call on the same bytes: 41 short samples per side in turn,
//! the fastest of each kept (src/race.rs). Its floor is per check, engine, peer, size and
//! build: half of the lowest ratio measured for that row, on this CPU if the table names
//! it, else on any CPU (src/table.rs; the ratios and floors side by side in
//! src/table.txt). Each build has its own rows: the test profile (`make speed-guard`,
//! opt-level 2 with debug assertions) runs RustCrypto's pure-Rust peers 3-5x slower than
//! release does, ring's assembly not at all. A row the table lacks fails: measure it
//! (`gcmkit-speed-guard --measure`) and add it.
//!
//! Checked, at 1500 B and 16 KiB, on every engine this CPU has: AES-128-GCM one-shot in
//! place, gathered (`encrypt_parts_into`, the rustls provider's record path) and on-line
//! (`encryptor`, at 16 KiB only: at 1500 B its two updates put it at 0.6-0.9x ring on
//! Zen 5, too near any floor); AES-256-GCM-SIV in place. The engine gcmkit selects
//! races ring's `seal_in_place_separate_tag` for AES-GCM (ring picks this CPU's widest AES
//! code too); the narrower hardware engines race RustCrypto's `aes-gcm`, whose AES-NI +
//! PCLMULQDQ code is of their own class (against ring's VAES code the aesni engine ran at
//! 0.45-0.58x on Zen 5, by design). AES-256-GCM-SIV races RustCrypto's `aes-gcm-siv` on
//! every engine (ring has none). The portable engine races RustCrypto on its software
//! backends: on a CPU without AES instructions (where RustCrypto falls back to them, and
//! where the guard used to exit 0 having checked nothing), and in a build with
//! `RUSTFLAGS='--cfg aes_backend="soft" --cfg polyval_backend="soft"'` (as `make
//! bench-portable` builds), which checks it on any CPU; there the hardware engines'
//! RustCrypto checks are left out (their peer is no longer of their class).
//!
//! `GCMKIT_SPEED_GUARD_SLOWDOWN=2` makes gcmkit's side do each call twice: the guard's
//! demonstration that a gcmkit twice as slow fails it. On AMD Zen 4 (family 25 model 17),
//! 2026-12-04, see docs/tuning.md ("speed guards") for the command and the failing rows.
//! A kernel step compiled without its target features, the 70x slowdown of
//! 56b812f..699da11 (docs/perf/rustls.md), fails every check of its path.

mod cpu;
mod peers;
mod race;
mod table;

use gcmkit::{AeadMode, AesGcm, AesGcmSiv, Engine};
use peers::PeerCall;
use table::{Check, Peer, Row};

const SIZES: [usize; 2] = [1500, 16384];

/// gcmkit's call for `check` on `engine`, on a buffer of `size` bytes.
fn gcmkit_call(check: Check, engine: Engine, size: usize) -> Box<dyn FnMut()> {
    let gcm = AesGcm::with_engine(&[7u8; 16], engine).unwrap();
    match check {
        Check::InPlace => {
            let mut buf = vec![1u8; size];
            Box::new(move || {
                let t = gcm
                    .encrypt_in_place_detached(&[3u8; 12], b"", &mut buf)
                    .unwrap();
                std::hint::black_box(t);
            })
        }
        Check::Parts => {
            let src = vec![1u8; size];
            let mut out = vec![0u8; size + 16];
            Box::new(move || {
                let (a, b) = src.split_at(size / 3);
                gcm.encrypt_parts_into(&[3u8; 12], &[a, b], b"", &mut out)
                    .unwrap();
                std::hint::black_box(&out);
            })
        }
        Check::Online => {
            let mut buf = vec![1u8; size];
            Box::new(move || {
                let mut e = gcm.encryptor(&[3u8; 12]).unwrap();
                let (x, y) = buf.split_at_mut(size / 2 + 16);
                e.update(x).unwrap();
                e.update(y).unwrap();
                std::hint::black_box(e.finish());
            })
        }
        Check::Siv => {
            let siv = AesGcmSiv::with_engine(&[7u8; 32], engine).unwrap();
            let mut buf = vec![1u8; size];
            Box::new(move || {
                let t = siv
                    .encrypt_in_place_detached(&[3u8; 12], b"", &mut buf)
                    .unwrap();
                std::hint::black_box(t);
            })
        }
    }
}

/// The peer `engine` races for `check` in a normal run (see the module's doc), or why it
/// races none here.
fn peer_of(check: Check, engine: Engine, soft: bool) -> Result<Peer, &'static str> {
    if engine == Engine::Portable {
        return if soft {
            Ok(Peer::RustCryptoSoft)
        } else {
            Err("RustCrypto runs on AES instructions here: build with RUSTFLAGS='--cfg aes_backend=\"soft\" --cfg polyval_backend=\"soft\"' to race the portable engine")
        };
    }
    if check != Check::Siv && engine == Engine::best() {
        return Ok(Peer::Ring);
    }
    if soft {
        Err("RustCrypto is on its software backends in this build: not this engine's class")
    } else {
        Ok(Peer::RustCrypto)
    }
}

fn peer_call(check: Check, peer: Peer) -> PeerCall {
    match (check, peer) {
        (Check::Siv, _) => peers::rustcrypto_siv,
        (_, Peer::Ring) => peers::ring_seal,
        (_, _) => peers::rustcrypto_gcm,
    }
}

fn sizes(check: Check) -> &'static [usize] {
    if check == Check::Online {
        &SIZES[1..]
    } else {
        &SIZES
    }
}

/// `--measure`: every engine against every peer it can race here, ratios printed for the
/// table, nothing judged.
fn measure(build: &str, cpu: &str, soft: bool) {
    for engine in Engine::supported() {
        for check in Check::ALL {
            let mut peers = vec![];
            if engine == Engine::Portable {
                if soft {
                    peers.push(Peer::RustCryptoSoft);
                }
            } else {
                if check != Check::Siv {
                    peers.push(Peer::Ring);
                }
                if !soft {
                    peers.push(Peer::RustCrypto);
                }
            }
            for peer in peers {
                for &size in sizes(check) {
                    let ratio = race::race(
                        race::calls(size),
                        1,
                        gcmkit_call(check, engine, size),
                        peer_call(check, peer)(size),
                    );
                    println!(
                        "measure {} {} {} {size} {build} {cpu} {ratio:.3}",
                        check.key(),
                        engine.name(),
                        peer.key()
                    );
                }
            }
        }
    }
}

fn main() {
    let build = env!("GUARD_BUILD");
    let cpu = cpu::id();
    let soft = peers::rustcrypto_is_soft();
    let rows = match table::floors() {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("speed guard: {e}");
            std::process::exit(2);
        }
    };
    if build == "other" {
        eprintln!(
            "speed guard: built at opt-level {} with{} debug assertions; its floors are for the test profile (`cargo build --profile test`) and release",
            env!("GUARD_OPT_LEVEL"),
            if cfg!(debug_assertions) { "" } else { "out" }
        );
        std::process::exit(2);
    }
    if std::env::args().nth(1).as_deref() == Some("--table") {
        for r in &rows {
            let seen: Vec<String> = r
                .seen
                .iter()
                .map(|s| format!("{} {:.2} ({})", s.cpu, s.ratio, s.source))
                .collect();
            println!(
                "{} {} {} {} B {}: floor {:.2}; {}",
                r.check,
                r.engine,
                r.peer,
                r.size,
                r.build,
                r.floor,
                seen.join(", ")
            );
        }
        return;
    }
    if std::env::args().nth(1).as_deref() == Some("--measure") {
        measure(build, cpu.as_deref().unwrap_or("unknown"), soft);
        return;
    }
    let slowdown = match std::env::var("GCMKIT_SPEED_GUARD_SLOWDOWN") {
        Err(_) => 1,
        Ok(v) => match v.parse::<usize>() {
            Ok(n) if n >= 1 => n,
            _ => {
                eprintln!("speed guard: GCMKIT_SPEED_GUARD_SLOWDOWN must be a whole number from 1, not {v:?}");
                std::process::exit(2);
            }
        },
    };
    println!(
        "speed guard: {build} build, CPU {}, RustCrypto {}",
        cpu.as_deref().unwrap_or("unknown (no floor of its own)"),
        if soft {
            "on its software backends"
        } else {
            "on AES-NI"
        }
    );
    if slowdown > 1 {
        println!("speed guard: GCMKIT_SPEED_GUARD_SLOWDOWN={slowdown}: gcmkit's side makes every call {slowdown} times");
    }
    let mut failed = Vec::new();
    let mut checked = 0;
    for engine in Engine::supported() {
        for check in Check::ALL {
            let peer = match peer_of(check, engine, soft) {
                Ok(p) => p,
                Err(why) => {
                    println!("skip {:8} {check}: {why}", engine.name());
                    continue;
                }
            };
            for &size in sizes(check) {
                let row: Option<&Row> = rows.iter().find(|r| {
                    r.check == check.key()
                        && r.engine == engine.name()
                        && r.peer == peer.key()
                        && r.size == size
                        && r.build == build
                });
                let ratio = race::race(
                    race::calls(size),
                    slowdown,
                    gcmkit_call(check, engine, size),
                    peer_call(check, peer)(size),
                );
                checked += 1;
                let what = format!(
                    "{:8} {check:33} {size:5} B: {ratio:5.2}x {peer}",
                    engine.name()
                );
                let Some(row) = row else {
                    println!("FAIL {what}: no measured ratio for this row in src/table.txt");
                    failed.push(format!("{what}: no measured ratio"));
                    continue;
                };
                let (floor, own) = row.floor_on(cpu.as_deref());
                let basis = if own { "this CPU's" } else { "any CPU" };
                let ok = ratio >= floor;
                println!(
                    "{:4} {what} (floor {floor:.2}, {basis})",
                    if ok { "ok" } else { "FAIL" }
                );
                if !ok {
                    failed.push(format!("{what} under {floor:.2}"));
                }
            }
        }
    }
    if checked == 0 {
        eprintln!("speed guard: no check ran");
        std::process::exit(1);
    }
    if !failed.is_empty() {
        eprintln!(
            "speed guard: {} of {checked} checks under their floors:",
            failed.len()
        );
        for f in &failed {
            eprintln!("  {f}");
        }
        std::process::exit(1);
    }
    println!("speed guard: {checked} checks, every one at or above its floor");
}
