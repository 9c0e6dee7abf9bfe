//! Runs every applicable algorithm × heuristic on one problem and reports
//! what each cost, checking that all optimal lengths agree.
//!
//! The answer's length is learnt first (from the complete table where one
//! exists, else from IDA* with linear conflict), and the other searches are
//! told it: each gives up at once — a row saying why — when the growth it
//! has seen so far, carried on to that depth, plainly needs more than its
//! budget (`--max-states` for BFS, bidirectional BFS and A*, `--max-nodes`
//! for IDA*). So a 15-puzzle comparison skips breadth-first search after a
//! few thousand states instead of filling memory.

use super::support::Halt;
use super::{astar, bfs, bibfs, idastar, table, Algorithm, Problem, Solution, SolveOptions};
use crate::heuristic::{Heuristic, HeuristicKind, LinearConflict};
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

impl Comparison {
    /// The length every answering row agrees on (-1: unreachable), if they
    /// agree and at least one answered.
    pub fn answer(&self) -> Option<i64> {
        let first = self.rows.iter().find_map(|r| r.moves)?;
        self.agree.then_some(first)
    }
}

/// The combinations compared, in table order.
pub fn combinations() -> Vec<(Algorithm, Option<HeuristicKind>)> {
    let mut v = vec![
        (Algorithm::Table, None),
        (Algorithm::Bfs, None),
        (Algorithm::BfsHash, None),
        (Algorithm::BfsSet, None),
        (Algorithm::Bibfs, None),
    ];
    for algo in [Algorithm::Astar, Algorithm::Idastar] {
        for h in [
            HeuristicKind::Misplaced,
            HeuristicKind::Manhattan,
            HeuristicKind::LinearConflict,
            HeuristicKind::Pdb,
        ] {
            v.push((algo, Some(h)));
        }
    }
    v
}

/// Largest board whose pattern databases `compare` builds on the spot (the
/// 4×4 default builds in seconds; 5×5 takes minutes).
const PDB_MAX_CELLS: usize = 16;

/// Runs every algorithm and heuristic that applies to the board.
pub fn compare(problem: &Problem, opts: &SolveOptions) -> Comparison {
    let combos = combinations();
    let mut rows: Vec<Option<CompareRow>> = vec![None; combos.len()];
    let covered = table::TableSet::covers(problem.start.shape());
    // First the row that tells us the answer's length.
    let first = combos
        .iter()
        .position(|&c| {
            if covered {
                c == (Algorithm::Table, None)
            } else {
                c == (Algorithm::Idastar, Some(HeuristicKind::LinearConflict))
            }
        })
        .unwrap_or(0);
    let known = run_one(problem, opts, combos[first], None);
    let depth = match known.moves {
        Some(m) if m >= 0 => m as u32,
        // Not found within budget: the heuristic is a lower bound.
        _ => LinearConflict::new(&problem.goal).estimate(problem.start.tiles()),
    };
    rows[first] = Some(known);
    for (i, &combo) in combos.iter().enumerate() {
        if rows[i].is_some() {
            continue;
        }
        rows[i] = Some(
            if combo.1 == Some(HeuristicKind::Pdb) && problem.start.len() > PDB_MAX_CELLS {
                skip(
                combo,
                format!(
                    "skipped: pattern databases for boards over {PDB_MAX_CELLS} cells take minutes to build; use solve --heuristic pdb"
                ),
            )
            } else if combo.0 == Algorithm::Table && !covered {
                skip(
                    combo,
                    format!(
                        "skipped: no complete table for boards of more than {} cells",
                        table::MAX_CELLS
                    ),
                )
            } else {
                run_one(problem, opts, combo, Some(depth))
            },
        );
    }
    let rows: Vec<CompareRow> = rows.into_iter().flatten().collect();
    let mut answers = rows.iter().filter_map(|r| r.moves);
    let first = answers.next();
    let agree = answers.all(|m| Some(m) == first);
    Comparison { rows, agree }
}

fn run_one(
    problem: &Problem,
    opts: &SolveOptions,
    (algo, h): (Algorithm, Option<HeuristicKind>),
    forecast: Option<u32>,
) -> CompareRow {
    let mut o = opts.clone();
    if let Some(h) = h {
        o.heuristic = h;
    }
    if !problem.solvable() {
        // Answered from parity without a search; the row keeps its name.
        return CompareRow {
            moves: Some(-1),
            skipped: None,
            ..skip((algo, h), String::new())
        };
    }
    let result = if algo == Algorithm::Table {
        super::solve(problem, algo, &o).map_err(Halt::Error)
    } else {
        match algo {
            Algorithm::Bfs => bfs::search(problem, &o, bfs::Visited::Auto, forecast),
            Algorithm::BfsHash => bfs::search(problem, &o, bfs::Visited::Hash, forecast),
            Algorithm::BfsSet => bfs::search(problem, &o, bfs::Visited::Ordered, forecast),
            Algorithm::Bibfs => bibfs::search(problem, &o, forecast),
            Algorithm::Astar => astar::search(problem, &o, forecast),
            Algorithm::Idastar | Algorithm::Auto => idastar::search(problem, &o, forecast),
            Algorithm::Table => unreachable!("answered above"),
        }
    };
    match result {
        Ok(sol) => row(&sol),
        Err(halt) => {
            let mut r = skip((algo, h), halt.describe());
            if let Halt::Forecast { stats, .. }
            | Halt::Error(super::SearchError::Budget { stats, .. }) = &halt
            {
                r.expanded = stats.expanded;
                r.generated = stats.generated;
                r.peak_states = stats.peak_states;
                r.seconds = stats.elapsed.as_secs_f64();
            }
            r
        }
    }
}

fn row(sol: &Solution) -> CompareRow {
    CompareRow {
        algorithm: sol.algorithm,
        heuristic: sol.heuristic,
        moves: Some(sol.moves.map_or(-1, i64::from)),
        expanded: sol.stats.expanded,
        generated: sol.stats.generated,
        peak_states: sol.stats.peak_states,
        seconds: sol.stats.elapsed.as_secs_f64(),
        skipped: None,
    }
}

fn skip((algo, h): (Algorithm, Option<HeuristicKind>), why: String) -> CompareRow {
    CompareRow {
        algorithm: algo.name(),
        heuristic: h.map(HeuristicKind::name),
        moves: None,
        expanded: 0,
        generated: 0,
        peak_states: 0,
        seconds: 0.0,
        skipped: Some(why),
    }
}
