//! `npuzzle solve --all`: every optimal solution.

use super::solve::SolveArgs;
use super::Failure;
use npuzzle::{format_moves, Metric, Problem, SolveOptions, Stats};
use serde::Serialize;
use std::io::Write;

/// What `--all --json` prints.
#[derive(Serialize)]
struct AllReport<'a> {
    rows: usize,
    cols: usize,
    start: &'a [u8],
    goal: &'a [u8],
    /// Fewest moves, -1 when the goal cannot be reached.
    moves: i64,
    metric: Metric,
    /// How many optimal solutions there are (exact).
    solution_count: u64,
    /// The first of them, at most `--max-solutions`.
    solutions: Vec<String>,
    algorithm: &'static str,
    stats: Stats,
}

pub fn run(args: &SolveArgs, problem: &Problem, opts: &SolveOptions) -> Result<u8, Failure> {
    let all = npuzzle::solve_all(problem, opts, args.max_solutions)?;
    let moves = all
        .moves
        .map_or(-1, |m| i64::from(m) + i64::from(args.count_start));
    let solutions: Vec<String> = all
        .paths
        .iter()
        .map(|p| format_moves(p, args.notation, all.metric, args.spaced))
        .collect();
    if all.count > solutions.len() as u64 {
        eprintln!(
            "npuzzle: {} optimal solutions; the first {} are printed (--max-solutions)",
            all.count,
            solutions.len()
        );
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = AllReport {
            rows: problem.rows(),
            cols: problem.cols(),
            start: problem.start().tiles(),
            goal: problem.goal().tiles(),
            moves,
            metric: all.metric,
            solution_count: all.count,
            solutions,
            algorithm: all.algorithm,
            stats: all.stats,
        };
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
        return Ok(0);
    }
    writeln!(out, "{moves}")?;
    for s in &solutions {
        writeln!(out, "{s}")?;
    }
    if args.stats {
        writeln!(out, "solutions: {}", all.count)?;
        writeln!(out, "algorithm: {}", all.algorithm)?;
        writeln!(out, "nodes expanded: {}", all.stats.expanded)?;
        writeln!(out, "time: {:.3} ms", all.stats.elapsed.as_secs_f64() * 1e3)?;
    }
    Ok(0)
}
