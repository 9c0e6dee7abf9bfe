//! Options checked together before anything runs: what the planner
//! refuses because what was asked for would ignore it.

use crate::heuristic::pdb;
use crate::heuristic::HeuristicKind;
use crate::search::{Algorithm, SearchError, SolveOptions};

/// Refuses options that what they ask for would ignore, before anything
/// is read, built or searched: the pattern databases' options (`--pdb`,
/// `--pdb-also`, `--dual`, `--pdb-blank`) with a heuristic other than
/// `pdb` or an algorithm that takes no heuristic, the dual lookups with a
/// search that never makes them (the A* family), or with one-bit
/// databases. [`plan()`](super::plan())
/// and [`algorithm_for`](super::algorithm_for) ask it; so can a caller that wants the answer before
/// reading any board. Options left at `auto` ask for nothing.
///
/// ```
/// use npuzzle::heuristic::pdb::PdbOptions;
/// use npuzzle::heuristic::HeuristicKind;
/// use npuzzle::search::{plan::check_options, SolveOptions};
///
/// let opts = SolveOptions::default()
///     .with_heuristic(HeuristicKind::Manhattan)
///     .with_pdb(PdbOptions::default().with_dual(true));
/// let e = check_options(&opts).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "--dual does not apply: it is for --heuristic pdb, not manhattan"
/// );
/// ```
pub fn check_options(opts: &SolveOptions) -> Result<(), SearchError> {
    let pdb = &opts.pdb;
    let given = [
        ("--pdb", pdb.partition != pdb::PartitionSpec::Auto),
        ("--pdb-also", !pdb.also.is_empty()),
        ("--dual", pdb.dual),
        ("--pdb-blank", pdb.blank != pdb::BlankMode::Auto),
    ];
    let unused = |option, reason: String| Err(SearchError::Unused { option, reason });
    let algorithm = opts.algorithm;
    let uninformed = algorithm != Algorithm::Auto && !algorithm.informed();
    for (option, _) in given.iter().filter(|(_, set)| *set) {
        if uninformed {
            return unused(
                option,
                format!("--algo {algorithm} takes no heuristic, so no pattern databases"),
            );
        }
        if !matches!(opts.heuristic, HeuristicKind::Auto | HeuristicKind::Pdb) {
            return unused(
                option,
                format!("it is for --heuristic pdb, not {}", opts.heuristic),
            );
        }
    }
    if pdb.dual {
        if matches!(algorithm, Algorithm::Astar | Algorithm::Wastar) {
            return unused(
                "--dual",
                format!(
                    "the dual lookups are made by IDA*, and --algo {algorithm} never asks for them"
                ),
            );
        }
        if pdb.blank == pdb::BlankMode::Bits {
            return Err(pdb::PdbError::DualCompact.into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{algorithm_for, plan};
    use super::*;
    use crate::board::{Board, Shape};
    use crate::search::{ErrorKind, Problem};

    #[test]
    fn options_that_would_be_ignored_are_refused() {
        use crate::heuristic::pdb::{BlankMode, PartitionSpec, PdbOptions};
        let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
        let start = goal.moved(crate::board::Dir::Up).unwrap();
        let p = Problem::new(start, goal).unwrap();
        let pdb_flags = [
            (
                "--pdb",
                PdbOptions::default().with_partition(PartitionSpec::Sizes(vec![4, 4])),
            ),
            (
                "--pdb-also",
                PdbOptions::default().with_also(vec![PartitionSpec::Auto]),
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
                // the planner and the batch runner's per-shape choice alike
                for e in [
                    plan(&p, &opts).unwrap_err(),
                    algorithm_for(p.shape(), 0, &opts).unwrap_err(),
                ] {
                    assert!(
                        matches!(e, SearchError::Unused { option, .. } if option == flag),
                        "{e}"
                    );
                    assert_eq!(e.kind(), ErrorKind::BadInput);
                }
            }
            // with pdb, or the planner's choice, they stand
            assert!(check_options(&with.clone().with_heuristic(HeuristicKind::Pdb)).is_ok());
            assert!(check_options(&with).is_ok());
        }
        // a heuristic alone is the library's to ignore: callers that try
        // every algorithm set it once
        assert!(check_options(
            &SolveOptions::default()
                .with_algorithm(Algorithm::Bfs)
                .with_heuristic(HeuristicKind::Manhattan),
        )
        .is_ok());
        let dual = PdbOptions::default().with_dual(true);
        let e = check_options(
            &SolveOptions::default()
                .with_algorithm(Algorithm::Astar)
                .with_pdb(dual.clone()),
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("--dual does not apply"), "{e}");
        let e = check_options(&SolveOptions::default().with_pdb(dual.with_blank(BlankMode::Bits)))
            .unwrap_err();
        assert!(e.to_string().contains("--dual"), "{e}");
        assert_eq!(e.kind(), ErrorKind::BadInput);
    }
}
