//! The core's modules form layers: under `heuristic/pdb`, `large` and
//! `search`, at every level of folders, no two sibling modules use each
//! other, directly or round a longer circle (through `use`, `super::` or
//! `crate::` paths). The sources are read as text: comments and the
//! `#[cfg(test)]` module at the end of a file are left out (a test may
//! reach anywhere), and a name re-exported by the parent counts as the
//! sibling it comes from.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Edges `(folder, from, to)` known to close a circle, tolerated until
/// they are moved. Empty: keep it so.
const KNOWN: &[(&str, &str, &str)] = &[];

/// The folders, under `src/`, whose trees are checked.
const ROOTS: &[&str] = &["heuristic/pdb", "large", "search"];

#[test]
fn sibling_modules_form_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut checked = 0;
    let mut circles = Vec::new();
    for root in ROOTS {
        for dir in folders(&src.join(root)) {
            let rel = dir
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let mut graph = sibling_graph(&dir, &format!("crate::{}", rel.replace('/', "::")));
            for &(folder, from, to) in KNOWN {
                if folder == rel {
                    graph.entry(from.to_string()).or_default().remove(to);
                }
            }
            assert!(!graph.is_empty(), "{rel}: no modules found");
            checked += 1;
            if let Some(circle) = find_circle(&graph) {
                circles.push(format!("{rel}: {}", circle.join(" -> ")));
            }
        }
    }
    // heuristic/pdb and its subfolders, large, search and search/plan
    assert!(checked >= 5, "only {checked} folders found");
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

/// The crate's own modules (`board`, `rank`, `budget`, `table`,
/// `heuristic`, `large`, `search`, …) form layers too.
#[test]
fn top_level_modules_form_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph = sibling_graph(&src, "crate");
    graph.remove("lib");
    assert!(graph.len() >= 8, "only {} modules found", graph.len());
    if let Some(circle) = find_circle(&graph) {
        panic!("import circle: {}", circle.join(" -> "));
    }
}

#[test]
fn the_scan_sees_a_circle_of_three() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| fs::write(dir.path().join(name), text).unwrap();
    write("mod.rs", "mod a;\nmod b;\nmod c;\npub use c::Thing;\n");
    write(
        "a.rs",
        "// super::c in a comment is no use\nuse super::b::X;\n",
    );
    write("b.rs", "use crate::m::{c::Y, Z};\nfn f() {}\n");
    write(
        "c.rs",
        "pub struct Thing;\nfn g() { super::Thing; }\n#[cfg(test)]\nmod tests { use super::super::a; }\n",
    );
    let graph = sibling_graph(dir.path(), "crate::m");
    assert_eq!(find_circle(&graph), None, "{graph:?}");
    write("c.rs", "fn g() { let _ = super::{a::f, b}; }\n");
    let circle = find_circle(&sibling_graph(dir.path(), "crate::m")).unwrap();
    assert_eq!(circle.len(), 4, "{circle:?}");
    assert_eq!(circle.first(), circle.last());
}

/// `dir` and every folder below it that is a module.
fn folders(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(folders(&path));
        }
    }
    out.sort();
    out
}

/// The modules of folder `dir` (module path `path`), each with the
/// siblings it names.
fn sibling_graph(dir: &Path, path: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut modules: BTreeMap<String, Vec<(PathBuf, usize)>> = BTreeMap::new();
    for entry in fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            let files = modules.entry(name).or_default();
            rust_files(&p, 0, files);
        } else if p.extension().is_some_and(|e| e == "rs") && name != "mod" {
            modules.entry(name).or_default().push((p, 0));
        }
    }
    // the parent's own file: `dir/mod.rs`, or `dir.rs` beside the folder
    let parent = [dir.join("mod.rs"), dir.with_extension("rs")]
        .into_iter()
        .find(|p| p.is_file())
        .map(|p| code(&fs::read_to_string(p).unwrap()))
        .unwrap_or_default();
    let exported = reexports(&parent, &modules);
    let resolve = |word: &str| -> Option<String> {
        if modules.contains_key(word) {
            Some(word.to_string())
        } else {
            exported.get(word).cloned()
        }
    };
    let mut graph = BTreeMap::new();
    for (name, files) in &modules {
        let mut uses = BTreeSet::new();
        for (file, depth) in files {
            let text = code(&fs::read_to_string(file).unwrap());
            let up = "super::".repeat(depth + 1);
            for prefix in [up.as_str(), &format!("{path}::")] {
                for first in first_segments(&text, prefix) {
                    if let Some(to) = resolve(&first) {
                        if to != *name {
                            uses.insert(to);
                        }
                    }
                }
            }
        }
        graph.insert(name.clone(), uses);
    }
    graph
}

/// The `.rs` files under `dir`, each with how many modules below the
/// sibling it is (`dir/mod.rs` is the sibling itself, `dir/x.rs` one down).
/// The core's modules behind its front door (private without the
/// `internals` feature, which only tests and fuzz targets turn on).
const INTERNAL: &[&str] = &[
    "board",
    "budget",
    "codec",
    "heuristic",
    "large",
    "search",
    "system",
    "table",
];

/// The crates above the core reach it through its public API only: no
/// source file of theirs (tests aside) names an internal module, and none
/// turns the `internals` feature on for a normal build. (Within one
/// `cargo test --workspace` the feature is on for every crate, so the
/// compiler alone would not catch it there.)
#[test]
fn the_crates_above_use_the_public_api_only() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crates = core.parent().unwrap();
    let above = [
        crates.join("npuzzle-io"),
        crates.join("npuzzle-space"),
        crates.join("npuzzle-server"),
        crates.join("npuzzle-cli"),
        crates.parent().unwrap().join("python"),
    ];
    let mut wrong = Vec::new();
    let mut files = 0;
    for dir in &above {
        let mut found = Vec::new();
        rust_files(&dir.join("src"), 0, &mut found);
        for (path, _) in found {
            files += 1;
            let text = code(&fs::read_to_string(&path).unwrap());
            for m in INTERNAL {
                if find_word(&text, &format!("npuzzle::{m}::")).is_some()
                    || find_word(&text, &format!("npuzzle::{m};")).is_some()
                {
                    wrong.push(format!("{}: npuzzle::{m}", path.display()));
                }
            }
            if text.contains("npuzzle::internals") {
                wrong.push(format!("{}: npuzzle::internals", path.display()));
            }
        }
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let normal = manifest
            .split("\n[")
            .filter(|section| section.starts_with("dependencies]"))
            .collect::<String>();
        if normal.contains("internals") {
            wrong.push(format!(
                "{}/Cargo.toml: the internals feature",
                dir.display()
            ));
        }
    }
    assert!(files > 50, "only {files} source files found");
    assert!(wrong.is_empty(), "internal paths:\n{}", wrong.join("\n"));
}

fn rust_files(dir: &Path, depth: usize, out: &mut Vec<(PathBuf, usize)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rust_files(&p, depth + 1, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let own = p.file_stem().is_some_and(|s| s == "mod");
            out.push((p, if own { depth } else { depth + 1 }));
        }
    }
}

/// The names the parent brings in with `use sibling::…`, each with its
/// sibling.
fn reexports(
    parent: &str,
    modules: &BTreeMap<String, Vec<(PathBuf, usize)>>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in parent.split(';') {
        let Some(at) = find_word(stmt, "use") else {
            continue;
        };
        let rest = stmt[at + 3..].trim_start();
        let rest = rest.strip_prefix("self::").unwrap_or(rest);
        let first: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if modules.contains_key(&first) {
            for word in words(rest) {
                out.entry(word).or_insert_with(|| first.clone());
            }
        }
    }
    out
}

/// Where `word` stands alone in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The first path segment after each `prefix` (not itself continuing a
/// longer path): `prefix x::y` gives `x`, `prefix {x::y, z}` gives `x`, `z`.
fn first_segments(text: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices(prefix) {
        let before = &text[..i];
        if before.ends_with(':') || before.chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = &text[i + prefix.len()..];
        if rest.starts_with("super::") {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut level = 0;
            let mut item_start = true;
            let mut word = String::new();
            for c in group.chars() {
                match c {
                    '{' => level += 1,
                    '}' if level == 0 => break,
                    '}' => level -= 1,
                    ',' if level == 0 => item_start = true,
                    c if is_ident(c) && item_start => word.push(c),
                    _ if !word.is_empty() => {
                        out.push(std::mem::take(&mut word));
                        item_start = false;
                    }
                    _ => {}
                }
            }
            if !word.is_empty() {
                out.push(word);
            }
        } else {
            let word: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !word.is_empty() {
                out.push(word);
            }
        }
    }
    out
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !is_ident(c))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A file's code: comments removed, and the `#[cfg(test)] mod` that ends
/// it cut off.
fn code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |n| &after[n..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |n| &after[n + 2..]);
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if let Some(i) = out.find("#[cfg(test)]\nmod ") {
        out.truncate(i);
    }
    out
}

/// A circle in `graph`, as the modules round it with the first repeated
/// at the end, or `None` when the graph is acyclic.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // 0 unseen, 1 on the current path, 2 done
    fn visit<'g>(
        node: &'g str,
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'g str, u8>,
        stack: &mut Vec<&'g str>,
    ) -> Option<Vec<String>> {
        state.insert(node, 1);
        stack.push(node);
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|&n| n == next).unwrap();
                    let mut circle: Vec<String> =
                        stack[from..].iter().map(ToString::to_string).collect();
                    circle.push(next.clone());
                    return Some(circle);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node, 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            let mut stack = Vec::new();
            if let Some(c) = visit(node, graph, &mut state, &mut stack) {
                return Some(c);
            }
        }
    }
    None
}
