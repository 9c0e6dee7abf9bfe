//! The lists of algorithms and heuristics people read — the command line's
//! help, the web page's menus, the Python stubs, the guide — against the
//! one enumeration they come from (`Algorithm::ALL`, `HeuristicKind::ALL`):
//! adding an algorithm or a heuristic fails here until every list has it.

use crate::support::cli::{npuzzle, root};
use npuzzle::Algorithm;
use npuzzle::HeuristicKind;
use std::collections::BTreeSet;

fn algorithms() -> BTreeSet<String> {
    Algorithm::ALL
        .iter()
        .map(|a| a.name().to_string())
        .collect()
}

fn heuristics() -> BTreeSet<String> {
    HeuristicKind::ALL
        .iter()
        .map(|h| h.name().to_string())
        .collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text of `text` from `open` (which must be there) up to the next
/// `close`.
fn between<'t>(text: &'t str, open: &str, close: &str) -> &'t str {
    let start = text
        .find(open)
        .unwrap_or_else(|| panic!("no {open} in the file"));
    let block = &text[start..];
    &block[..block
        .find(close)
        .unwrap_or_else(|| panic!("no {close} after {open}"))]
}

/// The `value`s of the `<option>`s of the `<select id="{id}">` in `html`.
fn options(html: &str, id: &str) -> BTreeSet<String> {
    between(html, &format!("<select id=\"{id}\""), "</select>")
        .split("<option value=\"")
        .skip(1)
        .map(|o| o[..o.find('"').expect("quoted value")].to_string())
        .collect()
}

/// The strings of the `Literal[...]` assigned to `name` in a stub file.
fn literal(stub: &str, name: &str) -> BTreeSet<String> {
    between(stub, &format!("{name} = Literal["), "]")
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The `name`s of every row of the guide's algorithm table: lines that
/// start with a backquoted name in the first column.
fn table_rows(md: &str) -> BTreeSet<String> {
    md.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_page_offers_every_algorithm_and_heuristic() {
    let html = read("crates/npuzzle-server/src/assets/index.html");
    assert_eq!(options(&html, "algo"), algorithms());
    assert_eq!(options(&html, "heuristic"), heuristics());
}

#[test]
fn the_python_stubs_name_every_algorithm_and_heuristic() {
    let stub = read("python/npuzzle/_npuzzle.pyi");
    assert_eq!(literal(&stub, "_Algorithm"), algorithms());
    assert_eq!(literal(&stub, "_Heuristic"), heuristics());
}

#[test]
fn the_help_names_every_algorithm_and_heuristic() {
    let out = npuzzle().args(["solve", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let section = |flag: &str| {
        let at = help
            .find(flag)
            .unwrap_or_else(|| panic!("{flag} in the help"));
        let rest = &help[at..];
        // up to the next option
        rest[..rest[2..].find("\n  -").map_or(rest.len(), |e| e + 2)].to_string()
    };
    let (algo, heur) = (section("--algo <ALGO>"), section("--heuristic <H>"));
    let word = |text: &str, name: &str| {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .any(|w| w == name)
    };
    for a in algorithms() {
        assert!(word(&algo, &a), "--algo's help lacks {a}: {algo}");
    }
    for h in heuristics() {
        assert!(word(&heur, &h), "--heuristic's help lacks {h}: {heur}");
    }
}

#[test]
fn the_guide_describes_every_algorithm() {
    let rows = table_rows(&read("docs/algorithms.md"));
    for a in algorithms() {
        assert!(
            rows.contains(&a),
            "docs/algorithms.md has no row for {a}: {rows:?}"
        );
    }
    for h in heuristics() {
        assert!(
            rows.contains(&h),
            "docs/algorithms.md has no row for {h}: {rows:?}"
        );
    }
}

#[test]
fn every_name_parses_back() {
    for a in Algorithm::ALL {
        assert_eq!(a.name().parse::<Algorithm>(), Ok(a));
    }
    for h in HeuristicKind::ALL {
        assert_eq!(h.name().parse::<HeuristicKind>(), Ok(h));
    }
}
