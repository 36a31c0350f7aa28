//! The CPU the guard runs on, named as docs/perf names its per-CPU reports
//! (`amd-f25-m17`: vendor, family and model from /proc/cpuinfo), so that a row's ratios
//! measured on this CPU can set its floor.

/// `vendor-fFAMILY-mMODEL`, or `None` where /proc/cpuinfo is missing or says less.
pub fn id() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
    };
    let vendor = match field("vendor_id")?.as_str() {
        "AuthenticAMD" => "amd",
        "GenuineIntel" => "intel",
        _ => return None,
    };
    Some(format!(
        "{vendor}-f{}-m{}",
        field("cpu family")?,
        field("model")?
    ))
}
