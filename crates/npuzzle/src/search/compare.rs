//! Runs every applicable algorithm × heuristic on one problem and reports
//! what each cost, checking that all optimal lengths agree.
//!
//! Every row goes the one way into search, [`super::solve`]: the planner
//! refuses what cannot run (a row saying why), and the answer's length,
//! learnt first (from the complete table where one exists, else from IDA*
//! with linear conflict), is passed on as the options' forecast depth. A
//! search then gives up at once — a row saying why — when the growth it has
//! seen so far, carried on to that depth, plainly needs more than its budget
//! (states for BFS, bidirectional BFS and A*, node expansions for IDA*). So
//! a 15-puzzle comparison skips breadth-first search after a few thousand
//! states instead of filling memory.

use super::{Algorithm, Problem, SearchError, Solution, SolveOptions};
use crate::board::Metric;
use crate::heuristic::pdb::{BlankMode, PartitionSpec};
use crate::heuristic::{Heuristic, HeuristicKind, LinearConflict};
use serde::Serialize;

/// One line of the comparison table.
///
/// ```
/// use npuzzle::pdb::PdbOptions;
/// use npuzzle::{compare, parse_board, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let opts = SolveOptions::default().with_pdb(PdbOptions::default().with_cache(false));
/// let cmp = compare(&Problem::new(start, goal)?, &opts);
/// // The complete table answers first; the others must agree with it.
/// let table = &cmp.rows[0];
/// assert_eq!((table.algorithm, table.heuristic, table.moves), ("table", None, Some(5)));
/// let astar = cmp.rows.iter().find(|r| r.algorithm == "astar").unwrap();
/// assert!(astar.heuristic.is_some() && astar.expanded > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct CompareRow {
    /// The algorithm's short name (`bfs-hash`, `idastar`, …).
    pub algorithm: &'static str,
    /// The heuristic's short name, for an informed search.
    pub heuristic: Option<&'static str>,
    /// Fewest moves found, -1 when unreachable, `None` when skipped or failed.
    pub moves: Option<i64>,
    /// Nodes expanded (until the search stopped, for one that did).
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// Most states held in memory at once.
    pub peak_states: u64,
    /// Wall-clock time of the search, in seconds.
    pub seconds: f64,
    /// Why this combination was not run (its budget plainly too small for
    /// the board), or why it stopped.
    pub skipped: Option<String>,
}

/// The whole comparison.
///
/// ```
/// use npuzzle::pdb::PdbOptions;
/// use npuzzle::{compare, parse_board, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let opts = SolveOptions::default().with_pdb(PdbOptions::default().with_cache(false));
/// let cmp = compare(&Problem::new(start, goal)?, &opts);
/// assert!(cmp.agree);
/// assert_eq!(cmp.answer(), Some(5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// One row per algorithm and heuristic that applies, in the order of
    /// [`Algorithm::ALL`](crate::Algorithm::ALL) and
    /// [`HeuristicKind::ALL`](crate::HeuristicKind::ALL).
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

/// Largest pattern database (entries per group) [`compare`] builds on the
/// spot: the 15-puzzle's 6-6-3 (5.8 M entries per group) builds in
/// seconds; the 24-puzzle's 6-6-6-6 (127 M) would take minutes, so its row
/// is skipped with the reason.
pub const PDB_MAX_ENTRIES: u64 = 1 << 23;

/// Runs every algorithm and heuristic that applies to the board.
///
/// ```
/// use npuzzle::pdb::PdbOptions;
/// use npuzzle::{compare, parse_board, Board, Problem, Shape, SolveOptions};
///
/// let start = parse_board("4 5 0 / 1 2 3", None)?; // the hardest 2×3 position
/// let goal = Board::blank_last(Shape::new(2, 3))?;
/// let opts = SolveOptions::default().with_pdb(PdbOptions::default().with_cache(false));
/// let cmp = compare(&Problem::new(start, goal)?, &opts);
/// assert_eq!(cmp.answer(), Some(21));
/// // Every row answered the same, or says why it did not.
/// assert!(cmp.rows.iter().all(|r| r.moves == Some(21) || r.skipped.is_some()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare(problem: &Problem, opts: &SolveOptions) -> Comparison {
    compare_refusing(problem, opts, &|_, _| None)
}

/// [`compare`], with the combinations for which `refuse` gives a reason
/// skipped unrun, their rows saying `skipped: <reason>` (a server refuses
/// what its policy does not allow).
///
/// ```
/// use npuzzle::pdb::PdbOptions;
/// use npuzzle::{compare_refusing, parse_board, Algorithm, Problem, SolveOptions};
///
/// let start = parse_board("2 8 3 / 1 6 4 / 7 0 5", None)?;
/// let goal = parse_board("1 2 3 / 8 0 4 / 7 6 5", None)?;
/// let opts = SolveOptions::default().with_pdb(PdbOptions::default().with_cache(false));
/// let no_bfs = |a: Algorithm, _| (a == Algorithm::Bfs).then(|| "not here".to_string());
/// let cmp = compare_refusing(&Problem::new(start, goal)?, &opts, &no_bfs);
/// let bfs = cmp.rows.iter().find(|r| r.algorithm == "bfs").unwrap();
/// assert_eq!(bfs.skipped.as_deref(), Some("skipped: not here"));
/// assert_eq!(cmp.answer(), Some(5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare_refusing(
    problem: &Problem,
    opts: &SolveOptions,
    refuse: &dyn Fn(Algorithm, Option<HeuristicKind>) -> Option<String>,
) -> Comparison {
    let combos = combinations();
    let mut rows: Vec<Option<CompareRow>> = combos
        .iter()
        .map(|&(a, h)| refuse(a, h).map(|why| skip((a, h), format!("skipped: {why}"))))
        .collect();
    let covered = crate::table::TableSet::covers(problem.shape());
    let mut base = opts.clone();
    base.pdb.max_entries = base.pdb.max_entries.min(PDB_MAX_ENTRIES);
    // First the row that tells us the answer's length.
    let first = combos
        .iter()
        .position(|&c| {
            if covered {
                c == (Algorithm::Table, None)
            } else if opts.metric == Metric::Mtm {
                // in pushes, with the walking distance (Manhattan's name)
                c == (Algorithm::Idastar, Some(HeuristicKind::Manhattan))
            } else {
                c == (Algorithm::Idastar, Some(HeuristicKind::LinearConflict))
            }
        })
        .unwrap_or(0);
    let known = rows[first]
        .take()
        .unwrap_or_else(|| run_one(problem, &base, combos[first], None));
    let depth = match known.moves {
        Some(m) if m >= 0 => m as u32,
        // Not found within budget (or refused): the heuristic is a lower
        // bound (in pushes, divided by the most tiles a push moves).
        _ => {
            let shape = problem.shape();
            let per = opts.metric.tiles_per_move(shape.rows, shape.cols) as u32;
            LinearConflict::new(problem.goal())
                .estimate(problem.start().tiles())
                .div_ceil(per)
        }
    };
    rows[first] = Some(known);
    for (i, &combo) in combos.iter().enumerate() {
        if rows[i].is_none() {
            rows[i] = Some(run_one(problem, &base, combo, Some(depth)));
        }
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
    let mut o = opts.clone().with_algorithm(algo).with_forecast(forecast);
    if let Some(h) = h {
        o.heuristic = h;
    }
    // The pattern databases' options are for the pdb rows: the planner
    // refuses them with any other heuristic, or none.
    if h != Some(HeuristicKind::Pdb) {
        o.pdb = o
            .pdb
            .with_partition(PartitionSpec::Auto)
            .with_also(Vec::new())
            .with_dual(false)
            .with_blank(BlankMode::Auto);
    }
    match super::solve(problem, &o) {
        // Answered from parity without a search: the row keeps its name.
        Ok(sol) if sol.algorithm == "parity" => CompareRow {
            moves: Some(-1),
            skipped: None,
            ..skip((algo, h), String::new())
        },
        Ok(sol) => row(&sol),
        Err(e) => {
            let why = match &e {
                SearchError::NotApplicable { reason, .. } => format!("skipped: {reason}"),
                SearchError::Heuristic(_) => format!("skipped: {e}"),
                _ => e.to_string(),
            };
            let mut r = skip((algo, h), why);
            if let Some(stats) = e.stats() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Dir, Shape};

    #[test]
    fn refused_rows_are_skipped_unrun_with_the_reason() {
        let goal = Board::blank_last(Shape::new(2, 3)).unwrap();
        let start = goal
            .moved(Dir::Up)
            .and_then(|b| b.moved(Dir::Left))
            .unwrap();
        let p = Problem::new(start, goal).unwrap();
        let opts = SolveOptions::default()
            .with_pdb(crate::heuristic::pdb::PdbOptions::default().with_cache(false));
        // The table (the row that learns the length first) and the pattern
        // databases refused: the rest still run and agree.
        let cmp = compare_refusing(&p, &opts, &|a, h| {
            (a == Algorithm::Table || h == Some(HeuristicKind::Pdb)).then(|| "not here".into())
        });
        assert_eq!(cmp.rows.len(), combinations().len());
        for (row, (a, h)) in cmp.rows.iter().zip(combinations()) {
            if a == Algorithm::Table || h == Some(HeuristicKind::Pdb) {
                assert_eq!(row.skipped.as_deref(), Some("skipped: not here"));
                assert_eq!(row.moves, None);
            } else {
                assert_eq!(row.moves, Some(2), "{row:?}");
            }
        }
        assert!(cmp.agree);
        assert_eq!(cmp.answer(), Some(2));
    }
}
