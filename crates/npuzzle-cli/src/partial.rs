//! `npuzzle solve --goal PARTIAL`: the fewest moves that put some tiles in
//! place, the others anywhere.

use super::solve::SolveArgs;
use super::Failure;
use npuzzle::{format_moves, InputError, Metric, PartialGoal, Stats};
use serde::Serialize;
use std::io::Write;

/// What `--json` prints for a partial goal.
#[derive(Serialize)]
struct PartialReport {
    rows: usize,
    cols: usize,
    start: Vec<u8>,
    /// The goal's cells, `null` where free.
    goal: Vec<Option<u8>>,
    /// Fewest moves, -1 when no board meeting the goal can be reached.
    moves: i64,
    metric: Metric,
    path: Option<String>,
    /// The board the path ends on.
    reached: Option<Vec<u8>>,
    algorithm: &'static str,
    optimal: bool,
    stats: Stats,
}

pub fn run(args: &SolveArgs, goal_text: &str) -> Result<u8, Failure> {
    if args.all || args.boards || args.explain {
        return Err(Failure {
            code: super::EXIT_BAD_INPUT,
            error: anyhow::anyhow!("--all, --boards and --explain are not for partial goals yet"),
        });
    }
    let start = args.problem.start_board()?;
    let shape = start.shape();
    let goal = match PartialGoal::named(goal_text, shape) {
        Some(named) => named,
        None => PartialGoal::parse(goal_text, Some(shape)),
    }
    .map_err(InputError::goal)?;
    let opts = args.search.options(true)?;
    let sol = npuzzle::solve_partial(&start, &goal, &opts)?;
    let written = |p: &[npuzzle::Dir]| format_moves(p, args.notation, sol.metric, args.spaced);
    let moves = sol
        .moves
        .map_or(-1, |m| i64::from(m) + i64::from(args.count_start));
    let mut out = std::io::stdout().lock();
    if args.json {
        let reached = match &sol.path {
            Some(p) => Some(start.apply_path(p)?.tiles().to_vec()),
            None => None,
        };
        let report = PartialReport {
            rows: shape.rows,
            cols: shape.cols,
            start: start.tiles().to_vec(),
            goal: goal.cells().to_vec(),
            moves,
            metric: sol.metric,
            path: sol.path.as_deref().map(written),
            reached,
            algorithm: sol.algorithm,
            optimal: sol.optimal,
            stats: sol.stats,
        };
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
        return Ok(0);
    }
    writeln!(out, "{moves}")?;
    if let (true, Some(path)) = (args.path, &sol.path) {
        writeln!(out, "{}", written(path))?;
    }
    if args.stats {
        writeln!(
            out,
            "algorithm: {} ({})",
            sol.algorithm,
            sol.heuristic.unwrap_or("-")
        )?;
        writeln!(out, "nodes expanded: {}", sol.stats.expanded)?;
        writeln!(out, "time: {:.3} ms", sol.stats.elapsed.as_secs_f64() * 1e3)?;
    }
    Ok(0)
}
