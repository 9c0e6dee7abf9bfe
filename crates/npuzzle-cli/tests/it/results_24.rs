//! docs/korf24.md, the page of Korf & Felner's 24-puzzles solved: every
//! row's length is the published optimum (data/korf24_50.txt), its
//! published counts are those of data/korf24_published_nodes.tsv, and its
//! ratios are its own nodes over them, so the page cannot drift from the
//! sources it quotes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|d| d.join("README.md").is_file() && d.join("data").is_dir())
        .expect("the repository's root")
        .to_path_buf()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Instance number → its optimal length, from the instance file.
fn optimal_lengths() -> HashMap<u32, u32> {
    read("data/korf24_50.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (i as u32 + 1, f[25].parse().expect("a length"))
        })
        .collect()
}

/// Instance number → (length, Korf & Felner 2002, Döbbelin et al.'s max).
fn published() -> HashMap<u32, (u32, u64, u64)> {
    let text = read("data/korf24_published_nodes.tsv");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let head: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).expect(name);
    let (len, kf, maxof) = (
        col("length"),
        col("korf_felner_2002"),
        col("dobbelin_maxof"),
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n = |i: usize| f[i].parse::<u64>().expect("a number");
            (n(0) as u32, (n(len) as u32, n(kf), n(maxof)))
        })
        .collect()
}

fn number(cell: &str) -> u64 {
    cell.replace(',', "")
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("'{cell}' is not a number"))
}

#[test]
fn the_24_puzzle_results_page_agrees_with_its_sources() {
    let page = read("docs/korf24.md");
    let (lengths, published) = (optimal_lengths(), published());
    assert_eq!(lengths.len(), 50);
    let mut rows = 0;
    for line in page
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("---"))
    {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let Ok(instance) = cells[0].parse::<u32>() else {
            continue; // the header
        };
        let (len, kf, maxof) = published[&instance];
        assert_eq!(number(cells[1]), u64::from(lengths[&instance]), "{line}");
        assert_eq!(number(cells[1]), u64::from(len), "{line}");
        let nodes = number(cells[2]);
        assert_eq!(number(cells[5]), kf, "{line}");
        assert_eq!(number(cells[6]), maxof, "{line}");
        let ratio: f64 = cells[7].parse().expect("a ratio");
        assert!((ratio - nodes as f64 / kf as f64).abs() < 0.0051, "{line}");
        let ratio: f64 = cells[8].parse().expect("a ratio");
        assert!(
            (ratio - nodes as f64 / maxof as f64).abs() < 0.0051,
            "{line}"
        );
        rows += 1;
    }
    assert!(rows > 0, "the page lists no instance");
}
