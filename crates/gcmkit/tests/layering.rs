//! The library's layers run one way (docs/design.md): front ends -> modes -> kdf ->
//! engine (with its kernels and backends) -> {byte rules, field, aes, tag, secret}. This
//! test reads every source file under src/, collects the crate-internal paths it names
//! (`crate::x::...`, in `use` lines and inline), and fails if
//! - a file under engine/ names a mode, a key derivation or a front end;
//! - a module names one of a higher layer (an edge against the flow);
//! - a file outside engine/ reaches into the engine's insides (kernels, backends) instead
//!   of asking the engine;
//! - the graph of top-level modules has a cycle;
//! - inside any module folder (engine/, engine/kernels/, aes/, ...), the graph of that
//!   folder's child modules has a cycle (a name the folder's mod.rs re-exports counts as
//!   its child's; items defined in mod.rs itself belong to the folder, not a child).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module's layer: a module may name modules of a lower layer, or of its
/// own layer as long as the graph stays acyclic.
fn layer(module: &str) -> Option<u32> {
    Some(match module {
        "spec" | "secret" | "error" | "testing" => 0,
        "field" | "aes" | "tag" => 1,
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
const ABOVE_ENGINE: [&str; 11] = [
    "mode", "gcm", "siv", "derived", "gcm64", "chunked", "kdf", "compat", "compat05", "hazmat",
    "selftest",
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

/// A source file's module path (`engine/kernels/gcm.rs` is `[engine, kernels, gcm]`,
/// `engine/mod.rs` is `[engine]`) and its text before any unit tests.
fn modules() -> Vec<(Vec<String>, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).unwrap().with_extension("");
            let mut path: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
                path.pop();
            }
            let text = std::fs::read_to_string(f).unwrap();
            (path, without_unit_tests(&text).to_string())
        })
        .collect()
}

/// `text` up to its `#[cfg(test)]` unit-test module, if it has one.
fn without_unit_tests(text: &str) -> &str {
    match text.find("\nmod tests {") {
        Some(i) => &text[..text[..i].rfind("\n#[cfg(").unwrap_or(i)],
        None => text,
    }
}

/// The absolute module paths that `text`, the file of module `here`, names: `crate::a::b`
/// and `super::...::a::b` (relative to `here`; in a mod.rs, `here` is the folder's module),
/// including the members of `{...}` groups. Comments are skipped.
fn named_paths(here: &[String], text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in text.lines().map(code) {
        let mut rest = line;
        while let Some(i) = rest.find(['c', 's']) {
            let tail = &rest[i..];
            let boundary = !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            let (base, after) = if !boundary {
                (None, &tail[1..])
            } else if let Some(t) = tail.strip_prefix("crate::") {
                (Some(Vec::new()), t)
            } else if tail.starts_with("super::") {
                let mut t = tail;
                let mut up = here.len();
                while let Some(n) = t.strip_prefix("super::") {
                    t = n;
                    up = up.saturating_sub(1);
                }
                (Some(here[..up].to_vec()), t)
            } else {
                (None, &tail[1..])
            };
            if let Some(base) = base {
                let mut paths = Vec::new();
                tree(after, &base, &mut paths);
                out.extend(paths.into_iter().filter(|p| p.len() > base.len()));
            }
            rest = after;
        }
    }
    out
}

/// The paths of the use tree at the start of `s` (`a::b`, `a::{b, c::{d, e}}`), each
/// after `prefix`; returns the rest of `s`.
fn tree<'a>(s: &'a str, prefix: &[String], out: &mut Vec<Vec<String>>) -> &'a str {
    let mut path = prefix.to_vec();
    let mut s = s.trim_start();
    loop {
        if let Some(group) = s.strip_prefix('{') {
            let mut g = group;
            loop {
                g = tree(g, &path, out).trim_start();
                if let Some(renamed) = g.strip_prefix("as ") {
                    let r = renamed.trim_start();
                    g = &r[r.find([',', '}']).unwrap_or(r.len())..];
                }
                match g.chars().next() {
                    Some(',') => g = &g[1..],
                    Some('}') => return &g[1..],
                    _ => return g,
                }
            }
        }
        let n = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        if n == 0 {
            out.push(path);
            return s;
        }
        path.push(s[..n].to_string());
        s = &s[n..];
        match s.strip_prefix("::") {
            Some(t) => s = t,
            None => {
                out.push(path);
                return s;
            }
        }
    }
}

/// The names a folder's mod.rs re-exports (`pub(crate) use child::{A, B as C};`), as
/// name -> the child they come from.
fn reexports(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let flat: String = text.lines().map(code).collect::<Vec<_>>().join(" ");
    let mut rest = flat.as_str();
    while let Some(i) = rest.find("use ") {
        let stmt = &rest[i + 4..];
        let end = stmt.find(';').unwrap_or(stmt.len());
        let stmt = stmt[..end].trim().trim_start_matches("self::");
        rest = &rest[i + 4..];
        let Some((child, items)) = stmt.split_once("::") else {
            continue;
        };
        if child == "crate" || child == "super" || child == "core" || child == "std" {
            continue;
        }
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let name = item.rsplit(" as ").next().unwrap_or("").trim();
            let name = name.rsplit("::").next().unwrap_or("").trim();
            if !name.is_empty() && name != "*" && name != "self" {
                out.insert(name.to_string(), child.to_string());
            }
        }
    }
    out
}

/// Per module folder (by its module path), the edges between its child modules.
fn folder_graphs(
    files: &[(Vec<String>, String)],
) -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let mut children: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for (path, _) in files {
        if let Some((last, parent)) = path.split_last() {
            children
                .entry(parent.to_vec())
                .or_default()
                .insert(last.clone());
        }
    }
    let folder_text: BTreeMap<&[String], &str> = files
        .iter()
        .map(|(p, t)| (p.as_slice(), t.as_str()))
        .collect();
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (folder, kids) in &children {
        if folder.is_empty() {
            continue; // the crate root: the layered check above
        }
        let re = reexports(folder_text.get(folder.as_slice()).copied().unwrap_or(""));
        let graph = graphs.entry(folder.clone()).or_default();
        for (path, text) in files {
            if path.len() <= folder.len() || path[..folder.len()] != folder[..] {
                continue;
            }
            let from = &path[folder.len()];
            for named in named_paths(path, text) {
                if named.len() <= folder.len() || named[..folder.len()] != folder[..] {
                    continue;
                }
                let x = &named[folder.len()];
                let to = if kids.contains(x) {
                    x.clone()
                } else if let Some(child) = re.get(x).filter(|c| kids.contains(*c)) {
                    child.clone()
                } else {
                    continue; // defined in the folder's mod.rs
                };
                if &to != from {
                    graph.entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    graphs
}

#[test]
fn no_module_folder_has_a_cycle() {
    let graphs = folder_graphs(&modules());
    let engine = graphs.get(&vec!["engine".to_string()]);
    assert!(
        engine.is_some_and(|g| g.contains_key("kernels") && g.contains_key("portable")),
        "the scan found no edges inside engine/: it would pass vacuously"
    );
    let mut cycles = Vec::new();
    for (folder, edges) in &graphs {
        if let Some(c) = find_cycle(edges) {
            cycles.push(format!("{}/: {}", folder.join("/"), c.join(" -> ")));
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

/// The folder checker itself: `super::` and `crate::` paths, groups, re-exports through
/// mod.rs, and a planted cycle through a re-export.
#[test]
fn the_folder_checker_catches_what_it_should() {
    let m = |p: &str| p.split('/').map(String::from).collect::<Vec<_>>();
    assert_eq!(
        named_paths(
            &m("engine/kernels/gcm"),
            "use super::super::simd::Simd; x(crate::aes::{soft as s, word::{W, V}});"
        ),
        [
            m("engine/simd/Simd"),
            m("aes/soft"),
            m("aes/word/W"),
            m("aes/word/V")
        ]
    );
    let files = vec![
        (
            m("f"),
            "pub(crate) use types::{Data,\n Hash as H};\nstruct Root;".to_string(),
        ),
        (
            m("f/types"),
            "use super::a::X; use super::Root;".to_string(),
        ),
        (m("f/a"), "fn g(_: crate::f::Data) {}".to_string()),
        (m("f/b"), "use super::H;".to_string()),
    ];
    let g = folder_graphs(&files);
    let f = &g[&m("f")];
    assert_eq!(f["types"], BTreeSet::from(["a".to_string()]));
    assert_eq!(f["a"], BTreeSet::from(["types".to_string()]));
    assert_eq!(f["b"], BTreeSet::from(["types".to_string()]));
    assert!(find_cycle(f).is_some(), "types -> a -> types");
}
