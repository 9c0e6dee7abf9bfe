//! The documentation's examples, run as written, so that it cannot drift
//! from what the program does: README.md, ARCHITECTURE.md and every page
//! of docs/.
//!
//! Every ```` ```console ```` block is a series of `$ command` lines (a
//! here-document continues to its terminator), each followed by the
//! standard output it must print. In an expected line, `…` stands for any
//! text; a line that is only `…` stands for any number of lines. Commands
//! run under bash from the repository's root, with the freshly built
//! `npuzzle` first on `PATH` and the cache directory under cargo's
//! temporary folder for tests; a failure names its page and line
//! (`docs/batch.md line 12`). An example that costs more than a moment
//! (a large database, a long search) belongs in a ```` ```sh ```` block,
//! which is not run; every file a `sh` block names under `data/`,
//! `benches/`, `docs/`, `examples/` or `python/` must exist in the
//! repository. Every relative link must lead to a file in the repository,
//! README.md stays a front door of at most [`README_MAX_LINES`] lines, and
//! it links every page of docs/.

use crate::support::cli;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The most lines README.md may have: the rest belongs in docs/.
const README_MAX_LINES: usize = 250;

struct Example {
    /// The page it is on, relative to the root (`docs/batch.md`).
    page: String,
    /// 1-based line of the `$` on that page.
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The fenced blocks of one info string, with the line each starts on.
fn blocks<'a>(text: &'a str, info: &str) -> Vec<(usize, Vec<&'a str>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        match &mut current {
            None if line.trim_start() == format!("```{info}") => current = Some((i + 2, vec![])),
            None => {}
            Some(_) if line.trim_start() == "```" => out.extend(current.take()),
            Some((_, lines)) => lines.push(line),
        }
    }
    out
}

fn console_examples(page: &str, text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    for (first, lines) in blocks(text, "console") {
        let mut i = 0;
        while i < lines.len() {
            let Some(cmd) = lines[i].strip_prefix("$ ") else {
                match out.last_mut() {
                    Some(ex) if ex.line >= first => ex.expected.push(lines[i].to_string()),
                    _ => panic!("{page} line {}: output before any command", first + i),
                }
                i += 1;
                continue;
            };
            let line = first + i;
            let mut command = cmd.to_string();
            // A here-document runs to its terminator.
            if let Some(pos) = cmd.find("<<") {
                let word = cmd[pos + 2..]
                    .trim_start_matches('-')
                    .trim()
                    .trim_matches(|c| c == '\'' || c == '"')
                    .to_string();
                loop {
                    i += 1;
                    let l = lines
                        .get(i)
                        .unwrap_or_else(|| panic!("{page} line {line}: no {word} terminator"));
                    command.push('\n');
                    command.push_str(l);
                    if l.trim() == word {
                        break;
                    }
                }
            }
            out.push(Example {
                page: page.to_string(),
                line,
                command,
                expected: vec![],
            });
            i += 1;
        }
    }
    out
}

/// Whether `text` matches `pattern`, where `…` stands for any text.
fn line_matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('…').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(p) => rest = &rest[p + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the output lines match the expected ones (a lone `…` line
/// matches any number of lines).
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "…" => {
            (0..=actual.len()).any(|k| output_matches(rest, &actual[k..]))
        }
        Some((e, rest)) => {
            !actual.is_empty() && line_matches(e, actual[0]) && output_matches(rest, &actual[1..])
        }
    }
}

/// The repository's root: the first directory at or above this crate's
/// that holds both README.md and data/ (the crate may sit in a
/// workspace's `crates/`).
fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|d| d.join("README.md").is_file() && d.join("data").is_dir())
        .unwrap_or_else(|| {
            panic!(
                "no directory at or above {} holds README.md and data/",
                manifest.display()
            )
        })
        .to_path_buf()
}

/// README.md, ARCHITECTURE.md and every docs/*.md, as (path relative to
/// the root, text), in that order.
fn pages() -> Vec<(String, String)> {
    let root = root();
    let mut guide: Vec<String> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("an entry of docs/").file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    guide.sort();
    ["README.md".to_string(), "ARCHITECTURE.md".to_string()]
        .into_iter()
        .chain(guide)
        .map(|page| {
            let text =
                std::fs::read_to_string(root.join(&page)).unwrap_or_else(|e| panic!("{page}: {e}"));
            (page, text)
        })
        .collect()
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).expect("README.md")
}

#[test]
fn every_console_example_prints_what_its_page_shows() {
    let pages = pages();
    let examples: Vec<Example> = pages
        .iter()
        .flat_map(|(page, text)| console_examples(page, text))
        .collect();
    assert!(examples.len() >= 5, "found {} examples", examples.len());
    let root = root();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_npuzzle"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("a PATH");
    let mut failures = Vec::new();
    for ex in &examples {
        let out = Command::new("bash")
            .arg("-c")
            .arg(&ex.command)
            .current_dir(&root)
            .env("PATH", &path)
            .env("XDG_CACHE_HOME", cli::test_cache_home())
            .output()
            .expect("bash runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let actual: Vec<&str> = stdout.lines().collect();
        if !output_matches(&ex.expected, &actual) {
            failures.push(format!(
                "{} line {}: $ {}\n--- expected\n{}\n--- got (exit {:?})\n{}\n--- stderr\n{}",
                ex.page,
                ex.line,
                ex.command,
                ex.expected.join("\n"),
                out.status.code(),
                stdout,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_file_the_sh_examples_name_is_in_the_repository() {
    let root = root();
    let mut named = 0;
    let mut missing = Vec::new();
    for (page, text) in pages() {
        for (first, lines) in blocks(&text, "sh") {
            for (i, line) in lines.iter().enumerate() {
                let code = line.split('#').next().unwrap_or("");
                for word in code.split_whitespace() {
                    let word = word.trim_matches(|c| c == '"' || c == '\'');
                    if ["data/", "benches/", "docs/", "examples/", "python/"]
                        .iter()
                        .any(|p| word.starts_with(p))
                    {
                        named += 1;
                        if !root.join(word).exists() {
                            missing.push(format!(
                                "{page} line {}: {word} is not in the repository",
                                first + i
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert!(named > 0, "the sh examples name no repository file");
}

/// The targets of a page's relative Markdown links (`[text](target)`,
/// `![alt](target)`), without any `#fragment`, with their 1-based lines.
fn relative_links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(p) = rest.find("](") {
            rest = &rest[p + 2..];
            let Some(end) = rest.find(')') else {
                break;
            };
            let target = rest[..end].split('#').next().unwrap_or("");
            if !target.is_empty() && !target.contains("://") {
                out.push((i + 1, target.to_string()));
            }
            rest = &rest[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_leads_to_a_file_in_the_repository() {
    let root = root().canonicalize().expect("the root");
    let mut bad = Vec::new();
    for (page, text) in pages() {
        let dir = root.join(&page);
        let dir = dir.parent().expect("a page's folder");
        for (line, target) in relative_links(&text) {
            match dir.join(&target).canonicalize() {
                Ok(p) if p.starts_with(&root) => {}
                Ok(_) => bad.push(format!(
                    "{page} line {line}: {target} is outside the repository"
                )),
                Err(e) => bad.push(format!("{page} line {line}: {target}: {e}")),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_readme_needs_nothing_outside_the_repository() {
    assert!(
        !readme().contains("../"),
        "README.md points outside the repository"
    );
}

#[test]
fn the_readme_is_a_front_door() {
    let lines = readme().lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the detail to a page of docs/"
    );
}

#[test]
fn the_readme_links_every_page_of_the_guide_and_the_architecture() {
    let readme = readme();
    let unlinked: Vec<String> = pages()
        .into_iter()
        .map(|(page, _)| page)
        .filter(|p| p != "README.md" && !readme.contains(&format!("]({p})")))
        .collect();
    assert!(
        unlinked.is_empty(),
        "README.md has no link to {}",
        unlinked.join(", ")
    );
}

#[test]
fn the_matcher_itself() {
    assert!(line_matches("time: … ms", "time: 6.1 ms"));
    assert!(!line_matches("time: … ms", "time: 6.1 s"));
    assert!(line_matches("a…b…c", "aXbYc"));
    assert!(!line_matches("a…b…c", "ac"));
    let exp = |v: &[&str]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert!(output_matches(&exp(&["57", "…"]), &["57", "x", "y"]));
    assert!(output_matches(&exp(&["57", "…"]), &["57"]));
    assert!(!output_matches(&exp(&["57"]), &["57", "x"]));
    assert!(output_matches(&exp(&["…", "end"]), &["a", "b", "end"]));
    let links = relative_links("see [a](docs/a.md#x), ![b](b.png) and [c](https://c.org/)");
    assert_eq!(
        links,
        vec![(1, "docs/a.md".to_string()), (1, "b.png".to_string())]
    );
}
