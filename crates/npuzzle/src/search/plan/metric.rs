//! What runs when moves are counted in the multi-tile metric.
//!
//! * `auto` on a board of at most [`crate::table::MAX_CELLS`] cells: the
//!   complete multi-tile table (built in well under a second, then every
//!   answer a lookup);
//! * `auto` on up to [`EXACT_MAX_CELLS`] cells, or with `optimal`: IDA* in
//!   pushes ([`super::super::push`]);
//! * beyond: the fast constructive solver, its path counted in pushes —
//!   an answer at once, not optimal, with a lower bound in pushes.
//!
//! The searches built for single-tile moves (BFS, A* and their kin,
//! anytime) are refused with what does run.

use super::{heuristic_for, Plan, EXACT_MAX_CELLS};
use crate::board::{Metric, Shape};
use crate::heuristic::pdb::colour::{colour_cap, Colouring, USEFUL_COLOURS};
use crate::heuristic::pdb::Combine;
use crate::heuristic::HeuristicKind;
use crate::search::{Algorithm, Problem, SearchError, SolveOptions};

/// The algorithms that count multi-tile moves.
pub const MTM_ALGORITHMS: [Algorithm; 3] = [Algorithm::Table, Algorithm::Idastar, Algorithm::Fast];

/// [`super::plan`] for [`Metric::Mtm`].
pub(super) fn plan_mtm(problem: &Problem, opts: &SolveOptions) -> Result<Plan, SearchError> {
    let shape = problem.shape();
    let (algorithm, mut reason) = algorithm_mtm(shape, opts)?;
    let mut heuristic = None;
    let mut pdb = None;
    let mut threads = 1;
    if algorithm == Algorithm::Idastar {
        let (h, why) = heuristic_mtm(problem, opts)?;
        if h == HeuristicKind::Pdb {
            if opts.pdb.combine == Combine::Covers {
                return Err(SearchError::NotApplicable {
                    algorithm: algorithm.name(),
                    shape,
                    reason: "partitions are combined by their covers in single-tile moves only; the multi-tile colour databases are maxed".into(),
                });
            }
            let colouring = Colouring::resolve(problem.goal(), &opts.pdb.partition, colour_cap(&opts.pdb))?;
            let mut label = colouring.label();
            for spec in &opts.pdb.also {
                let more = Colouring::resolve(problem.goal(), spec, colour_cap(&opts.pdb))?;
                label = format!("{label}, max with {}", more.label());
            }
            reason = format!(
                "{reason}; {why}the estimate is the larger of the walking distance in pushes and the colour pattern databases ({label}) with their symmetric lookups"
            );
            pdb = Some(label);
        } else {
            reason = format!(
                "{reason}; {why}the estimate is the larger of the walking distance in pushes (the Manhattan distance split by axis on sides above 5) and {} divided by the {} tiles a push moves at most",
                h.name(),
                Metric::Mtm.tiles_per_move(shape.rows, shape.cols)
            );
        }
        heuristic = Some(h);
        if h == HeuristicKind::Pdb {
            // the colour databases' search cuts each iteration into
            // subtrees for the threads (push/split.rs)
            let (t, why) = super::threads_for(opts.threads);
            threads = t;
            if let Some(why) = why {
                reason = format!("{reason}; {why}");
            }
        } else if opts.threads != 1 {
            reason.push_str("; multi-tile IDA* runs on one thread but with the colour pattern databases");
        }
    }
    Ok(Plan {
        solvable: problem.solvable(),
        algorithm,
        heuristic,
        pdb,
        threads,
        reason,
        metric: Metric::Mtm,
    })
}

/// The heuristic for IDA* in pushes, and why (ending in "; " when there is
/// something to say). `auto` takes the colour databases on boards of 16
/// cells or more where [`Colouring::blocks`] has at least
/// [`USEFUL_COLOURS`] colours within the entry cap (on the 15-puzzle, Korf's
/// first instance, 33 pushes, in 13,070 nodes against the walking
/// distance's 1.1 × 10^9; a build of about a minute, once), else the walking distance (named
/// Manhattan: the single-tile heuristics divided by the tiles a push moves
/// are weaker than it). Smaller boards are solved in pushes fast enough
/// without a database to build.
fn heuristic_mtm(problem: &Problem, opts: &SolveOptions) -> Result<(HeuristicKind, String), SearchError> {
    let shape = problem.shape();
    match opts.heuristic {
        HeuristicKind::Auto => {
            let blank = problem.goal().blank();
            let fine = Colouring::blocks(shape, blank, colour_cap(&opts.pdb), true)
                .filter(|c| shape.cells() >= COLOUR_MIN_CELLS && c.colours() >= USEFUL_COLOURS);
            Ok(match fine {
                Some(c) => (
                    HeuristicKind::Pdb,
                    format!("colour pattern databases, {} colours fitting the cap; ", c.colours()),
                ),
                None => (HeuristicKind::Manhattan, String::new()),
            })
        }
        other => heuristic_for(other, shape).map(|(h, _)| (h, String::new())),
    }
}

/// Smallest board on which `auto` builds colour databases in pushes.
const COLOUR_MIN_CELLS: usize = 16;

/// [`super::algorithm_for`] for [`Metric::Mtm`].
pub(super) fn algorithm_mtm(
    shape: Shape,
    opts: &SolveOptions,
) -> Result<(Algorithm, String), SearchError> {
    let cells = shape.cells();
    let covered = crate::table::TableSet::covers(shape);
    let refuse = |algorithm: Algorithm, reason: String| SearchError::NotApplicable {
        algorithm: algorithm.name(),
        shape,
        reason,
    };
    match opts.algorithm {
        Algorithm::Auto if covered => Ok((
            Algorithm::Table,
            format!("{cells} cells, within the complete multi-tile tables"),
        )),
        Algorithm::Auto if cells <= EXACT_MAX_CELLS || opts.optimal => Ok((
            Algorithm::Idastar,
            format!("{cells} cells, beyond the complete tables: IDA* in pushes"),
        )),
        Algorithm::Auto => Ok((
            Algorithm::Fast,
            format!(
                "{cells} cells: exact search can take hours here, so the fast constructive solver, its path counted in pushes, not optimal"
            ),
        )),
        Algorithm::Table if !covered => Err(refuse(
            Algorithm::Table,
            format!("complete tables cover boards of at most {} cells", crate::table::MAX_CELLS),
        )),
        Algorithm::Fast if opts.optimal => Err(refuse(
            Algorithm::Fast,
            "its answers are not proven optimal, and an optimal answer was insisted on".to_string(),
        )),
        a if MTM_ALGORITHMS.contains(&a) => Ok((a, "asked for".to_string())),
        a => Err(refuse(
            a,
            format!(
                "it counts single-tile moves only; in the multi-tile metric npuzzle runs {}",
                MTM_ALGORITHMS.map(Algorithm::name).join(", ")
            ),
        )),
    }
}
