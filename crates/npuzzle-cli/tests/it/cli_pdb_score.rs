//! `npuzzle pdb score` as a user runs it: the rows, their invariants
//! (a max of partitions never estimates less, so never expands more),
//! the same boards for the same seed, and bad input refused with exit 2.

use crate::support::cli;
use cli::*;

use predicates::prelude::*;

/// The (mean h, nodes) of every row of a report, in order.
fn rows(stdout: &str) -> Vec<(f64, f64)> {
    stdout
        .lines()
        .skip(2)
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            Some((w.next()?.parse().ok()?, w.next()?.parse().ok()?))
        })
        .collect()
}

fn score(dir: &str, seed: &str) -> String {
    let out = npuzzle()
        .args([
            "pdb",
            "score",
            "--size",
            "3x3",
            "-p",
            "2-2-2-2",
            "-p",
            "4-4",
            "--samples",
            "5000",
            "--seed",
            seed,
            "--pdb-dir",
            dir,
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("branching factor 1.7321"))
        .stdout(predicate::str::contains("max of 2-2-2-2 | 4-4"))
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn scores_alone_and_maxed_from_the_same_boards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let text = score(d, "7");
    let r = rows(&text);
    assert_eq!(r.len(), 3, "{text}");
    // the first row is the reference
    assert_eq!(r[0].1, 1.0, "{text}");
    // 4-4 sees more than pairs do: higher estimates, fewer nodes
    assert!(r[1].0 > r[0].0 && r[1].1 < 1.0, "{text}");
    // the max is at least each partition
    assert!(r[2].0 >= r[1].0 && r[2].1 <= r[1].1, "{text}");
    assert_eq!(score(d, "7"), text, "same seed, same boards");
    assert_ne!(score(d, "8"), text, "another seed, other boards");
}

#[test]
fn bad_score_requests_exit_2_and_say_why() {
    for (args, why) in [
        (
            vec!["--size", "3x3", "-p", "4-4", "--samples", "0"],
            "--samples",
        ),
        (vec!["--size", "3x3", "-p", "1,2/2,3"], "two groups"),
        (vec!["--size", "5x5", "-p", "7-6-6-5"], "7 tiles"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        npuzzle()
            .args(["pdb", "score", "--pdb-dir", dir.path().to_str().unwrap()])
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(why));
    }
    let mut many = vec!["pdb", "score", "--size", "3x3"];
    for _ in 0..9 {
        many.extend(["-p", "4-4"]);
    }
    npuzzle()
        .args(&many)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 8 partitions"));
}
