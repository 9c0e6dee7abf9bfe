//! Runs every applicable algorithm × heuristic on one problem and reports
//! what each cost, checking that all optimal lengths agree.
//!
//! (Skeleton: only the complete table so far; the other algorithms join as
//! they land.)

use super::{table, Algorithm, Problem, SolveOptions};
use crate::heuristic::HeuristicKind;
use serde::Serialize;

/// One line of the comparison table.
#[derive(Clone, Debug, Serialize)]
pub struct CompareRow {
    pub algorithm: &'static str,
    pub heuristic: Option<&'static str>,
    /// Fewest moves found, -1 when unreachable, `None` when skipped or failed.
    pub moves: Option<i64>,
    pub expanded: u64,
    pub generated: u64,
    pub peak_states: u64,
    pub seconds: f64,
    /// Why this combination was not run (its budget plainly too small for
    /// the board), or why it stopped.
    pub skipped: Option<String>,
}

/// The whole comparison.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub rows: Vec<CompareRow>,
    /// Whether every algorithm that answered found the same length.
    pub agree: bool,
}

/// Runs every algorithm and heuristic that applies to the board.
pub fn compare(problem: &Problem, opts: &SolveOptions) -> Comparison {
    let mut rows = Vec::new();
    let combos: Vec<(Algorithm, Option<HeuristicKind>)> = vec![(Algorithm::Table, None)];
    for (algo, h) in combos {
        if algo == Algorithm::Table && !table::TableSet::covers(problem.start.shape()) {
            rows.push(skip(
                algo,
                h,
                "no complete table for boards of more than 10 cells",
            ));
            continue;
        }
        let mut o = opts.clone();
        if let Some(h) = h {
            o.heuristic = h;
        }
        rows.push(match super::solve(problem, algo, &o) {
            Ok(sol) => CompareRow {
                algorithm: sol.algorithm,
                heuristic: sol.heuristic,
                moves: Some(sol.moves.map_or(-1, i64::from)),
                expanded: sol.stats.expanded,
                generated: sol.stats.generated,
                peak_states: sol.stats.peak_states,
                seconds: sol.stats.elapsed.as_secs_f64(),
                skipped: None,
            },
            Err(e) => skip(algo, h, &e.to_string()),
        });
    }
    let mut answers = rows.iter().filter_map(|r| r.moves);
    let first = answers.next();
    let agree = answers.all(|m| Some(m) == first);
    Comparison { rows, agree }
}

fn skip(algo: Algorithm, h: Option<HeuristicKind>, why: &str) -> CompareRow {
    CompareRow {
        algorithm: algo.name(),
        heuristic: h.map(HeuristicKind::name),
        moves: None,
        expanded: 0,
        generated: 0,
        peak_states: 0,
        seconds: 0.0,
        skipped: Some(why.to_string()),
    }
}
