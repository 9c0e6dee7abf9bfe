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

use super::{heuristic_for, pdb_options, Plan, EXACT_MAX_CELLS};
use crate::board::{Metric, Shape};
use crate::heuristic::pdb::PdbLayout;
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
    if algorithm == Algorithm::Idastar {
        // Walking distance in pushes alone beats it divided pattern
        // databases on the 15-puzzle (Korf's first instance, 33 pushes: 47 s
        // against 99 s, for 2.3 times the nodes): the databases count single
        // moves, a third of which is a weak bound.
        let (h, why) = match opts.heuristic {
            HeuristicKind::Auto => (HeuristicKind::Manhattan, String::new()),
            other => heuristic_for(other, shape)?,
        };
        if h == HeuristicKind::Pdb {
            let o = pdb_options(Algorithm::Astar, &opts.pdb);
            pdb = Some(PdbLayout::resolve(problem.goal(), &o)?.label());
        }
        heuristic = Some(h);
        reason = format!(
            "{reason}; the estimate is the larger of the walking distance in pushes (the Manhattan distance split by axis on sides above 5) and {} divided by the {} tiles a push moves at most",
            if why.is_empty() { h.name().to_string() } else { why },
            Metric::Mtm.tiles_per_move(shape.rows, shape.cols)
        );
        if opts.threads != 1 {
            reason.push_str("; multi-tile IDA* runs on one thread");
        }
    }
    Ok(Plan {
        solvable: problem.solvable(),
        algorithm,
        heuristic,
        pdb,
        threads: 1,
        reason,
        metric: Metric::Mtm,
    })
}

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
