//! The library's layers run one way (docs/design.md): front ends -> modes -> kdf ->
//! engine (with its kernels and backends) -> {byte rules, field, aes, tag, secret}. This
//! test reads every source file under src/, collects the crate-internal paths it names
//! (`crate::x::...`, in `use` lines and inline), and fails if
//! - a file under engine/ names a mode, a key derivation or a front end;
//! - a module names one of a higher layer (an edge against the flow);
//! - a file outside engine/ reaches into the engine's insides (kernels, backends) instead
//!   of asking the engine;
//! - the graph of top-level modules has a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module's layer: a module may name modules of a lower layer, or of its
/// own layer as long as the graph stays acyclic.
fn layer(module: &str) -> Option<u32> {
    Some(match module {
        "spec" | "secret" | "error" => 0,
        "field" | "aes" | "tag" | "fs" => 1,
        "engine" => 2,
        "kdf" => 3,
        "mode" | "gcm" | "siv" | "derived" | "gcm64" | "chunked" => 4,
        "compat" | "compat05" | "hazmat" | "selftest" => 5,
        _ => return None,
    })
}

/// The module an item re-exported at the crate root comes from (`crate::Engine` names
/// `engine`).
fn home(name: &str) -> &str {
    match name {
        "Engine" | "cpu_features" => "engine",
        "Error" | "IoError" => "error",
        "AeadMode" | "Limits" => "mode",
        "AesGcm" | "Gmac" | "GcmDecryptor" | "GcmEncryptor" | "IncrementalGmac" | "AadPrefix" => {
            "gcm"
        }
        "AesGcmSiv" | "GcmSiv2015" | "GcmSiv2015Variant" => "siv",
        "XAes256Gcm" | "DndkGcm" => "derived",
        "Tag" | "MAX_TAG_LEN" => "tag",
        other => other,
    }
}

/// What engine/ must never name.
const ABOVE_ENGINE: [&str; 12] = [
    "mode", "gcm", "siv", "derived", "gcm64", "chunked", "kdf", "compat", "compat05", "hazmat",
    "selftest", "fs",
];

/// The engine's insides: only engine/ itself names them.
const ENGINE_INSIDES: [&str; 6] = ["kernels", "x86", "arm", "portable", "simd", "hw"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a line (comments and doc comments dropped).
fn code(line: &str) -> &str {
    let l = line.trim_start();
    if l.starts_with("//") {
        return "";
    }
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// Every `crate::a::b` named in `text`, as (a, b) (b empty if none), including the
/// members of `crate::{a, b::c}` groups.
fn crate_paths(text: &str) -> Vec<(String, String)> {
    let ident = |s: &str| -> (String, String) {
        let mut parts = s.split("::").map(|p| {
            p.trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        });
        let a = home(&parts.next().unwrap_or_default()).to_string();
        let b = parts.next().unwrap_or_default();
        (a, b)
    };
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        let tail = &rest[i + "crate::".len()..];
        if let Some(group) = tail.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for member in group[..end].split(',') {
                if !member.trim().is_empty() {
                    out.push(ident(member));
                }
            }
        } else {
            out.push(ident(tail));
        }
        rest = tail;
    }
    out
}

struct Graph {
    /// top-level module -> the top-level modules it names.
    edges: BTreeMap<String, BTreeSet<String>>,
    violations: Vec<String>,
}

fn scan() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut g = Graph {
        edges: BTreeMap::new(),
        violations: Vec::new(),
    };
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" {
            continue; // the root re-exports every layer
        }
        let text = std::fs::read_to_string(f).unwrap();
        // Unit tests may reach anywhere (they sit in the module they test): the scan
        // stops at the `#[cfg(...test...)]` line above `mod tests`.
        let body = match text.find("\nmod tests {") {
            Some(i) => &text[..text[..i].rfind("\n#[cfg(").unwrap_or(i)],
            None => &text[..],
        };
        for (n, line) in body.lines().enumerate() {
            for (a, b) in crate_paths(code(line)) {
                let here = format!("{}:{}", rel.display(), n + 1);
                if a == top || a.is_empty() {
                    continue;
                }
                if top == "engine" && ABOVE_ENGINE.contains(&a.as_str()) {
                    g.violations
                        .push(format!("{here}: engine/ names the higher layer `{a}`"));
                }
                if a == "engine" && ENGINE_INSIDES.contains(&b.as_str()) {
                    g.violations.push(format!(
                        "{here}: reaches into the engine's `{b}` (ask the engine instead)"
                    ));
                }
                match (layer(&top), layer(&a)) {
                    (Some(from), Some(to)) if to > from => g.violations.push(format!(
                        "{here}: `{top}` (layer {from}) names `{a}` (layer {to}), against the flow"
                    )),
                    (None, _) => g.violations.push(format!("{here}: `{top}` has no layer")),
                    (_, None) => g.violations.push(format!("{here}: `{a}` has no layer")),
                    _ => {}
                }
                g.edges.entry(top.clone()).or_default().insert(a);
            }
        }
    }
    g
}

/// A cycle in `edges`, if any, as the list of its modules.
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let i = stack.iter().position(|s| s == n).unwrap();
                let mut c = stack[i..].to_vec();
                c.push(n.to_string());
                return Some(c);
            }
            _ => {}
        }
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, edges, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in edges.keys() {
        if let Some(c) = visit(n, edges, &mut state, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

#[test]
fn layers_run_one_way() {
    let g = scan();
    assert!(
        g.violations.is_empty(),
        "layering violations:\n{}",
        g.violations.join("\n")
    );
}

#[test]
fn module_graph_has_no_cycle() {
    let g = scan();
    assert!(
        g.edges.contains_key("engine") && g.edges.contains_key("gcm"),
        "the scan found no edges: it would pass vacuously"
    );
    if let Some(c) = find_cycle(&g.edges) {
        panic!("import cycle: {}", c.join(" -> "));
    }
}

/// The checker itself: it sees inline paths and groups, and finds a planted cycle.
#[test]
fn the_checker_catches_what_it_should() {
    let p = crate_paths("use crate::{gcm::tag_from_ghash, siv}; x = crate::engine::kernels::F;");
    assert_eq!(
        p,
        [
            ("gcm".into(), "tag_from_ghash".into()),
            ("siv".into(), String::new()),
            ("engine".into(), "kernels".into())
        ]
    );
    assert_eq!(code("    // crate::gcm::x"), "");
    let mut edges = BTreeMap::new();
    edges.insert("engine".to_string(), BTreeSet::from(["gcm".to_string()]));
    edges.insert("gcm".to_string(), BTreeSet::from(["engine".to_string()]));
    assert!(find_cycle(&edges).is_some());
}
