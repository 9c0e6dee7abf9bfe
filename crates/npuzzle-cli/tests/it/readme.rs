//! The README's examples, run as written, so that it cannot drift from
//! what the program does.
//!
//! Every ```` ```console ```` block is a series of `$ command` lines (a
//! here-document continues to its terminator), each followed by the
//! standard output it must print. In an expected line, `…` stands for any
//! text; a line that is only `…` stands for any number of lines. Commands
//! run under bash from the repository's root, with the freshly built
//! `npuzzle` first on `PATH` and the cache directory under cargo's
//! temporary folder for tests. Every file a ```` ```sh ```` block names
//! under `data/`, `benches/` or `docs/` must exist in the repository.

use crate::support::cli;

use std::path::Path;
use std::process::Command;

struct Example {
    /// 1-based line of the `$` in README.md.
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The fenced blocks of one info string, with the line each starts on.
fn blocks<'a>(readme: &'a str, info: &str) -> Vec<(usize, Vec<&'a str>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, Vec<&str>)> = None;
    for (i, line) in readme.lines().enumerate() {
        match &mut current {
            None if line.trim_start() == format!("```{info}") => current = Some((i + 2, vec![])),
            None => {}
            Some(_) if line.trim_start() == "```" => out.extend(current.take()),
            Some((_, lines)) => lines.push(line),
        }
    }
    out
}

fn console_examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    for (first, lines) in blocks(readme, "console") {
        let mut i = 0;
        while i < lines.len() {
            let Some(cmd) = lines[i].strip_prefix("$ ") else {
                match out.last_mut() {
                    Some(ex) if ex.line >= first => ex.expected.push(lines[i].to_string()),
                    _ => panic!("README.md line {}: output before any command", first + i),
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
                        .unwrap_or_else(|| panic!("README.md line {line}: no {word} terminator"));
                    command.push('\n');
                    command.push_str(l);
                    if l.trim() == word {
                        break;
                    }
                }
            }
            out.push(Example {
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

fn readme() -> String {
    std::fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("README.md"),
    )
    .expect("README.md")
}

#[test]
fn every_console_example_prints_what_the_readme_shows() {
    let readme = readme();
    let examples = console_examples(&readme);
    assert!(examples.len() >= 5, "found {} examples", examples.len());
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
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .env("PATH", &path)
            .env("XDG_CACHE_HOME", cli::test_cache_home())
            .output()
            .expect("bash runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let actual: Vec<&str> = stdout.lines().collect();
        if !output_matches(&ex.expected, &actual) {
            failures.push(format!(
                "README.md line {}: $ {}\n--- expected\n{}\n--- got (exit {:?})\n{}\n--- stderr\n{}",
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
    let readme = readme();
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut named = 0;
    for (first, lines) in blocks(&readme, "sh") {
        for (i, line) in lines.iter().enumerate() {
            let code = line.split('#').next().unwrap_or("");
            for word in code.split_whitespace() {
                let word = word.trim_matches(|c| c == '"' || c == '\'');
                if ["data/", "benches/", "docs/", "examples/", "python/"]
                    .iter()
                    .any(|p| word.starts_with(p))
                {
                    named += 1;
                    assert!(
                        root.join(word).exists(),
                        "README.md line {}: {word} is not in the repository",
                        first + i
                    );
                }
            }
        }
    }
    assert!(named > 0, "the sh examples name no repository file");
}

#[test]
fn the_readme_needs_nothing_outside_the_repository() {
    assert!(
        !readme().contains("../"),
        "README.md points outside the repository"
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
}
