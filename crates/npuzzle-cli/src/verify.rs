//! `npuzzle verify`: whether a sequence of moves solves a puzzle, its
//! length in both metrics and, where an exact search can say, how far it
//! is from the fewest.

use super::moves::{self, GoalArgs, MovesArgs, StartArgs};
use super::{Failure, EXIT_NOT_SOLVED};
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub start: StartArgs,

    #[command(flatten)]
    pub moves: MovesArgs,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Print one JSON object: solves, stm, mtm, metric, moves (in the
    /// metric), optimal, wasted, end (the board reached).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: VerifyArgs) -> Result<u8, Failure> {
    let problem = moves::problem(&args.start, &args.goal)?;
    let path = args.moves.path()?;
    let metric = args.moves.metric;
    let end = problem
        .start()
        .apply_moves(&path, args.moves.notation, metric)?;
    let solves = &end == problem.goal();
    let length = metric.length(&path);
    // The fewest moves are only worth a search for a solution.
    let optimal = if solves {
        let opts = moves::exact_options(metric, args.goal.timeout)?;
        npuzzle_io::analysis::distance(problem.start(), problem.goal(), &opts)
    } else {
        Ok(None)
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let fewest = optimal.as_ref().ok().copied().flatten();
        let report = serde_json::json!({
            "solves": solves,
            "stm": npuzzle::Metric::Stm.length(&path),
            "mtm": npuzzle::Metric::Mtm.length(&path),
            "metric": metric,
            "moves": length,
            "optimal": fewest,
            "wasted": fewest.map(|f| length as i64 - i64::from(f)),
            "optimal_unknown": optimal.as_ref().err().map(ToString::to_string),
            "end": end.to_row_string(),
        });
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else if solves {
        writeln!(out, "solves it: {}", moves::lengths(&path))?;
        match &optimal {
            Ok(Some(fewest)) => {
                let more = length as i64 - i64::from(*fewest);
                let verdict = if more == 0 {
                    "this is optimal".to_string()
                } else {
                    format!("this is {} more", super::count(more as u64, "move"))
                };
                let fewest = super::count(u64::from(*fewest), "move");
                writeln!(out, "optimal: {fewest} {metric} ({verdict})")?;
            }
            // a solution proves the goal reachable; kept for safety
            Ok(None) => writeln!(out, "optimal length unknown")?,
            Err(why) => writeln!(out, "optimal length unknown: {why}")?,
        }
    } else {
        writeln!(
            out,
            "does not solve it: after {} the board is",
            moves::lengths(&path)
        )?;
        writeln!(out, "{end}")?;
    }
    out.flush()?;
    if !solves {
        eprintln!(
            "npuzzle: not a solution: the moves end on {}, not the goal {}",
            end.to_row_string(),
            problem.goal().to_row_string()
        );
        return Ok(EXIT_NOT_SOLVED);
    }
    Ok(0)
}
