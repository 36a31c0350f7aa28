//! The measured ratios each check's floor comes from, and the floors.
//!
//! One row per check, engine, peer, size and build: the ratios (peer's time over gcmkit's)
//! measured for it, each with its CPU and source, and the row's floor, half of the lowest
//! of them, so that gcmkit made twice as slow falls to the floor on the CPU where it stood
//! lowest. On a CPU the row names, the floor is half of the lowest ratio measured on that
//! CPU: a 2x slowdown falls to it there too, not only on the slowest CPU met (a gcmkit
//! twice as slow on Zen 5 would still clear a floor set by Emerald Rapids). On a CPU it
//! does not name, the row's floor (any CPU) applies.
//!
//! The table's own consistency (every floor half of its row's lowest ratio) is checked
//! before any race: `floors()` refuses a floor edited without its ratios or the reverse.

use std::fmt;

/// What is raced (one gcmkit call and the peer's same work).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Check {
    /// AES-128-GCM `encrypt_in_place_detached`.
    InPlace,
    /// AES-128-GCM `encrypt_parts_into` (the rustls provider's record path), two parts.
    Parts,
    /// AES-128-GCM `encryptor`, two updates and `finish` (at 16 KiB only).
    Online,
    /// AES-256-GCM-SIV `encrypt_in_place_detached`.
    Siv,
}

impl Check {
    pub const ALL: [Check; 4] = [Check::InPlace, Check::Parts, Check::Online, Check::Siv];

    /// The name the table uses.
    pub fn key(self) -> &'static str {
        match self {
            Check::InPlace => "in-place",
            Check::Parts => "parts",
            Check::Online => "online",
            Check::Siv => "siv",
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Check::InPlace => "AES-128-GCM encrypt in place",
            Check::Parts => "AES-128-GCM encrypt_parts_into",
            Check::Online => "AES-128-GCM on-line encryptor",
            Check::Siv => "AES-256-GCM-SIV encrypt in place",
        })
    }
}

/// Whom gcmkit races.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Peer {
    /// ring 0.17's AES-128-GCM (BoringSSL's assembly: this CPU's widest AES code).
    Ring,
    /// RustCrypto `aes-gcm` 0.11 / `aes-gcm-siv` 0.12 on AES-NI and CLMUL.
    RustCrypto,
    /// The same crates on their software backends (no AES instructions, or built with
    /// `--cfg aes_backend="soft" --cfg polyval_backend="soft"`): the portable engine's peer.
    RustCryptoSoft,
}

impl Peer {
    /// The name the table uses.
    pub fn key(self) -> &'static str {
        match self {
            Peer::Ring => "ring",
            Peer::RustCrypto => "rc",
            Peer::RustCryptoSoft => "rc-soft",
        }
    }
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Peer::Ring => "ring",
            Peer::RustCrypto => "RustCrypto",
            Peer::RustCryptoSoft => "RustCrypto soft",
        })
    }
}

/// One ratio measured for a row.
pub struct Seen {
    pub cpu: &'static str,
    pub ratio: f64,
    pub source: char,
}

/// A row of the table.
pub struct Row {
    pub check: &'static str,
    pub engine: &'static str,
    pub peer: &'static str,
    pub size: usize,
    pub build: &'static str,
    /// Half of the lowest ratio of `seen`, on any CPU.
    pub floor: f64,
    pub seen: Vec<Seen>,
}

impl Row {
    /// The floor on `cpu`: half of the lowest ratio measured on it, if the row has one;
    /// else the row's floor. With the CPU's name when it is the CPU's own.
    pub fn floor_on(&self, cpu: Option<&str>) -> (f64, bool) {
        let here = self
            .seen
            .iter()
            .filter(|s| Some(s.cpu) == cpu)
            .map(|s| s.ratio)
            .fold(f64::INFINITY, f64::min);
        if here.is_finite() {
            (here / 2.0, true)
        } else {
            (self.floor, false)
        }
    }
}

/// The rows, checked: each floor half of its row's lowest ratio (to the table's two
/// decimals), every field well formed. An error names the line.
pub fn floors() -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (n, line) in TABLE.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("src/table.rs TABLE line {}: {why}: {line}", n + 1);
        let f: Vec<&'static str> = line.split_whitespace().collect();
        if f.len() < 7 {
            return Err(bad("fewer than seven fields"));
        }
        let size = f[3].parse().map_err(|_| bad("size"))?;
        let floor: f64 = f[5].parse().map_err(|_| bad("floor"))?;
        let mut seen = Vec::new();
        for entry in &f[6..] {
            let (cpu, rest) = entry
                .split_once('=')
                .ok_or_else(|| bad("cpu=ratio/source"))?;
            let (ratio, source) = rest
                .split_once('/')
                .ok_or_else(|| bad("cpu=ratio/source"))?;
            let source = source.chars().next().filter(|c| SOURCES.contains(*c));
            seen.push(Seen {
                cpu,
                ratio: ratio.parse().map_err(|_| bad("ratio"))?,
                source: source.ok_or_else(|| bad("source letter"))?,
            });
        }
        let lowest = seen.iter().map(|s| s.ratio).fold(f64::INFINITY, f64::min);
        if (lowest / 2.0 - floor).abs() > 0.0051 {
            return Err(bad(&format!(
                "floor {floor} is not half of the lowest ratio ({lowest})"
            )));
        }
        rows.push(Row {
            check: f[0],
            engine: f[1],
            peer: f[2],
            size,
            build: f[4],
            floor,
            seen,
        });
    }
    Ok(rows)
}

/// Source letters: where a ratio was measured.
const SOURCES: &str = "cpgome";

/// The measured ratios. Sources:
/// - `c`: `docs/perf/cycles-<cpu>.md` (`make bench-cycles`, release build), the peer's
///   cycles over gcmkit's, AES-128-GCM / AES-256-GCM-SIV encryption in place;
/// - `p`: docs/perf/portable.md (`make bench-portable`, release, RustCrypto soft);
/// - `g`: this guard, the lowest of its runs on that CPU (docs/tuning.md's measurement log
///   has the runs, their spread and commands);
/// - `o`: this guard's earlier doc (Zen 5, release build, one run, before the table);
/// - `m`: the Makefile's speed-guard comment (Zen 3, test build): the low end of a range
///   over every RustCrypto check, not a per-row figure, so a lower bound of each;
/// - `e`: an estimate for a CPU where the row itself was never measured, from a row that
///   was and a factor measured here (amd-f25-m17, the `g` rows): the parts and on-line
///   rows as that CPU's in-place figure times this CPU's parts (on-line) / in-place ratio
///   (same engine, peer, size); the test build's rows as that CPU's release figure times
///   this CPU's test / release ratio for the row. Two checks of the method: Zen 5's
///   on-line figures of `o` (1.96x and 1.06x ring) against the estimates 1.92x and, from
///   Zen 3, 1.02x.
pub const TABLE: &str = include_str!("table.txt");
