//! Flags that what was asked for would ignore, refused before anything is
//! read, built or searched (for `solve`, `batch` and `bench`, which all
//! take their options from [`super::solve::SearchArgs::options`]).
//!
//! The library ignores options that do not apply (a caller may set the
//! pattern databases' options once and try every heuristic); a person who
//! typed a flag expects it to do something, so the command line refuses it.

use super::{Failure, EXIT_BAD_INPUT};
use npuzzle::pdb::{BlankMode, Combine, PartitionSpec};
use npuzzle::HeuristicKind;
use npuzzle::{Algorithm, SolveOptions};

/// The first flag among the pattern databases' (`--pdb`, `--pdb-also` or
/// `--pdb-partitions`, `--pdb-combine`, `--dual`, `--pdb-blank`) that `opts` would ignore, and why: with a
/// heuristic other than `pdb`, an algorithm that takes no heuristic, or
/// (`--dual`) a search that never makes the dual lookups.
pub fn unused_flag(opts: &SolveOptions) -> Option<(&'static str, String)> {
    let pdb = &opts.pdb;
    let given = [
        ("--pdb", pdb.partition != PartitionSpec::Auto),
        ("--pdb-also", !pdb.also.is_empty()),
        ("--pdb-combine", pdb.combine != Combine::Auto),
        ("--dual", pdb.dual),
        ("--pdb-blank", pdb.blank != BlankMode::Auto),
    ];
    let algorithm = opts.algorithm;
    let uninformed = algorithm != Algorithm::Auto && !algorithm.informed();
    if let Some((flag, _)) = given.iter().find(|(_, set)| *set) {
        if uninformed {
            return Some((
                flag,
                format!("--algo {algorithm} takes no heuristic, so no pattern databases"),
            ));
        }
        if !matches!(opts.heuristic, HeuristicKind::Auto | HeuristicKind::Pdb) {
            return Some((
                flag,
                format!("it is for --heuristic pdb, not {}", opts.heuristic),
            ));
        }
    }
    if pdb.dual && matches!(algorithm, Algorithm::Astar | Algorithm::Wastar) {
        return Some((
            "--dual",
            format!(
                "the dual lookups are made by IDA*, and --algo {algorithm} never asks for them"
            ),
        ));
    }
    None
}

/// [`unused_flag`] as the command's error (exit 2).
pub fn refuse_unused(opts: &SolveOptions) -> Result<(), Failure> {
    match unused_flag(opts) {
        None => Ok(()),
        Some((flag, reason)) => Err(Failure {
            code: EXIT_BAD_INPUT,
            error: anyhow::anyhow!("{flag} does not apply: {reason}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::pdb::PdbOptions;

    #[test]
    fn flags_that_would_be_ignored_are_named() {
        let pdb_flags = [
            (
                "--pdb",
                PdbOptions::default().with_partition(PartitionSpec::Sizes(vec![4, 4])),
            ),
            (
                "--pdb-also",
                PdbOptions::default().with_also(vec![PartitionSpec::Auto]),
            ),
            (
                "--pdb-combine",
                PdbOptions::default().with_combine(Combine::Covers),
            ),
            ("--dual", PdbOptions::default().with_dual(true)),
            (
                "--pdb-blank",
                PdbOptions::default().with_blank(BlankMode::Regions),
            ),
        ];
        for (flag, pdb) in pdb_flags {
            let with = SolveOptions::default().with_pdb(pdb);
            for opts in [
                with.clone().with_heuristic(HeuristicKind::Manhattan),
                with.clone().with_algorithm(Algorithm::Bfs),
                with.clone().with_algorithm(Algorithm::Table),
            ] {
                assert_eq!(unused_flag(&opts).map(|u| u.0), Some(flag));
            }
            // with pdb, or the planner's choice, they stand
            assert_eq!(
                unused_flag(&with.clone().with_heuristic(HeuristicKind::Pdb)),
                None
            );
            assert_eq!(unused_flag(&with), None);
        }
        // a heuristic alone with an uninformed search is ignored, as in
        // `compare`, which tries every algorithm
        let bfs = SolveOptions::default()
            .with_algorithm(Algorithm::Bfs)
            .with_heuristic(HeuristicKind::Manhattan);
        assert_eq!(unused_flag(&bfs), None);
        let astar = SolveOptions::default()
            .with_algorithm(Algorithm::Astar)
            .with_pdb(PdbOptions::default().with_dual(true));
        assert_eq!(unused_flag(&astar).map(|u| u.0), Some("--dual"));
    }
}
