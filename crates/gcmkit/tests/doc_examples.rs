//! Every public type a user can name has a doc example (issue 31): this scans the crate's
//! sources for `pub struct`, `pub enum` and `pub trait` items and fails when one's doc
//! comment has no code block that rustdoc compiles. `cargo test --doc` then compiles and
//! runs those examples; this test only keeps them from disappearing.

use std::fs;
use std::path::{Path, PathBuf};

/// Public items that users cannot name, so an example would show nothing they can write.
/// Each entry is (file under src/, item name), with the reason above it; each must still
/// match an item (checked below), so the list cannot go stale silently.
const UNREACHABLE: &[(&str, &str)] = &[
    // mode.rs: `pub` inside the crate-private `mode` module, never re-exported; the
    // decryption plumbing behind `AeadMode`.
    ("mode.rs", "OnFailure"),
    ("mode.rs", "Opening"),
    // The supertrait of `AeadMode`, in `pub(crate) mod sealed`: it keeps users from
    // implementing `AeadMode`.
    ("mode.rs", "Core"),
    // engine/types.rs: the engine's in-place/out-of-place buffer pair; `engine` is
    // `pub(crate)` and only `Engine` is re-exported.
    ("engine/types.rs", "Data"),
    // Sealing traits in private modules of the compat facades: they stop users from
    // implementing `AesKeySize` / `TagSize`, whose own docs carry the examples (both
    // facades' `Sealed` come from the one `aes_key_size!` in compat/mod.rs).
    ("compat/mod.rs", "Sealed"),
    ("compat/aes_gcm.rs", "SealedTagSize"),
];

/// A public type item found in the sources.
struct Item {
    file: String,
    line: usize,
    name: String,
    has_example: bool,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The name after `pub struct|enum|trait`, if the line declares one (`pub(crate)` and
/// other restricted visibilities do not match).
fn public_type_name(line: &str) -> Option<String> {
    let rest = line.trim_start();
    let rest = ["pub struct ", "pub enum ", "pub trait "]
        .iter()
        .find_map(|kw| rest.strip_prefix(kw))?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Whether a doc-comment fence opens a block that rustdoc compiles (plain, `rust`,
/// `no_run`, `should_panic`; `compile_fail` is not an example of use, `ignore` and `text`
/// are not compiled at all).
fn compiled_fence(doc_line: &str) -> bool {
    let Some(info) = doc_line.trim().strip_prefix("```") else {
        return false;
    };
    let attrs: Vec<&str> = info
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .collect();
    attrs
        .iter()
        .all(|a| matches!(*a, "rust" | "no_run" | "should_panic" | "edition2021"))
}

/// Whether a doc comment holds a code block that rustdoc compiles: only opening fences
/// count (a closing fence of a `text` block is not an example).
fn has_compiled_block(doc: &[String]) -> bool {
    let mut in_block = false;
    for line in doc {
        if line.trim().starts_with("```") {
            if !in_block && compiled_fence(line) {
                return true;
            }
            in_block = !in_block;
        }
    }
    false
}

/// The doc comment directly above `lines[idx]`: `///` lines, skipping attributes and
/// plain `//` comments between the docs and the item.
fn doc_above(lines: &[&str], idx: usize) -> Vec<String> {
    let mut doc = Vec::new();
    for line in lines[..idx].iter().rev() {
        let t = line.trim_start();
        if let Some(d) = t.strip_prefix("///") {
            doc.push(d.to_string());
        } else if t.starts_with("#[") || (t.starts_with("//") && !t.starts_with("//!")) {
            continue;
        } else {
            break;
        }
    }
    doc.reverse();
    doc
}

fn scan(src: &Path) -> Vec<Item> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut items = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).expect("read source");
        let lines: Vec<&str> = text.lines().collect();
        let file = path
            .strip_prefix(src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        for (idx, line) in lines.iter().enumerate() {
            if let Some(name) = public_type_name(line) {
                let has_example = has_compiled_block(&doc_above(&lines, idx));
                items.push(Item {
                    file: file.clone(),
                    line: idx + 1,
                    name,
                    has_example,
                });
            }
        }
    }
    items
}

#[test]
fn every_public_type_has_a_doc_example() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let items = scan(&src);
    assert!(
        items.len() > 30,
        "the scan found only {} items",
        items.len()
    );

    let missing: Vec<String> = items
        .iter()
        .filter(|i| !i.has_example)
        .filter(|i| {
            !UNREACHABLE
                .iter()
                .any(|(f, n)| *f == i.file && *n == i.name)
        })
        .map(|i| format!("src/{}:{} {}", i.file, i.line, i.name))
        .collect();
    assert!(
        missing.is_empty(),
        "public types without a doc example (a ```rust block in the doc comment):\n  {}",
        missing.join("\n  ")
    );

    // The allow-list names items that exist; an entry for a removed or renamed item fails.
    for (file, name) in UNREACHABLE {
        assert!(
            items.iter().any(|i| i.file == *file && i.name == *name),
            "allow-list entry src/{file} {name} matches no item"
        );
    }
}

/// The `compile_fail` fences in `text` that name no error code (`compile_fail` alone
/// passes for any error, a typo or a renamed item included), as line numbers.
fn compile_fail_without_code(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line
            .trim_start()
            .trim_start_matches("//!")
            .trim_start_matches("///");
        let Some(info) = t.trim().strip_prefix("```") else {
            continue;
        };
        let attrs: Vec<&str> = info.split(',').map(str::trim).collect();
        let has_code = attrs.iter().any(|a| {
            a.len() == 5 && a.starts_with('E') && a[1..].chars().all(|c| c.is_ascii_digit())
        });
        if attrs.contains(&"compile_fail") && !has_code {
            out.push(n + 1);
        }
    }
    out
}

/// Every `compile_fail` doc test names the error it must fail with (rustdoc checks the
/// code when it runs as nightly: `make doc-error-codes`, in test-all, runs the doc tests
/// with `RUSTC_BOOTSTRAP=1` for that).
#[test]
fn every_compile_fail_example_names_its_error_code() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut seen = 0;
    let mut missing = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).expect("read source");
        seen += text.matches("```compile_fail").count();
        for n in compile_fail_without_code(&text) {
            missing.push(format!("{}:{n}", path.display()));
        }
    }
    assert!(seen >= 3, "the scan found {seen} compile_fail examples");
    assert!(
        missing.is_empty(),
        "compile_fail without an error code:\n  {}",
        missing.join("\n  ")
    );
    assert_eq!(
        compile_fail_without_code("/// ```compile_fail\n//! ```compile_fail,E0603"),
        [1]
    );
}

#[test]
fn the_scan_sees_what_it_should() {
    let lines = [
        "/// Doc.",
        "///",
        "/// ```",
        "/// let x = 1;",
        "/// ```",
        "#[derive(Clone)]",
        "// a plain comment",
        "pub struct A;",
        "/// No example.",
        "/// ```text",
        "/// not rust",
        "/// ```",
        "pub enum B {}",
        "/// ```ignore",
        "/// ```",
        "pub trait C {}",
        "pub(crate) struct D;",
    ];
    assert_eq!(public_type_name(lines[7]).as_deref(), Some("A"));
    assert!(has_compiled_block(&doc_above(&lines, 7)));
    assert_eq!(public_type_name(lines[12]).as_deref(), Some("B"));
    assert!(!has_compiled_block(&doc_above(&lines, 12)));
    assert_eq!(public_type_name(lines[15]).as_deref(), Some("C"));
    assert!(!has_compiled_block(&doc_above(&lines, 15)));
    assert_eq!(public_type_name(lines[16]), None);
    assert!(compiled_fence(" ```rust,no_run"));
    assert!(!compiled_fence(" ```compile_fail"));
}
