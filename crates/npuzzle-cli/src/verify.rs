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
    let opts = moves::exact_options(metric, args.goal.timeout)?;
    let v = npuzzle_io::verdict::verify(&problem, &path, args.moves.notation, &opts)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &v)?;
        writeln!(out)?;
    } else if v.solves {
        writeln!(out, "solves it: {}", moves::lengths(&path))?;
        match (v.optimal, &v.optimal_unknown) {
            (Some(fewest), _) => {
                let more = v.wasted.unwrap_or(0);
                let verdict = if more == 0 {
                    "this is optimal".to_string()
                } else {
                    format!("this is {} more", super::count(more as u64, "move"))
                };
                let fewest = super::count(u64::from(fewest), "move");
                writeln!(out, "optimal: {fewest} {metric} ({verdict})")?;
            }
            (None, Some(why)) => writeln!(out, "optimal length unknown: {why}")?,
            // a solution proves the goal reachable; kept for safety
            (None, None) => writeln!(out, "optimal length unknown")?,
        }
    } else {
        writeln!(
            out,
            "does not solve it: after {} the board is",
            moves::lengths(&path)
        )?;
        writeln!(out, "{}", v.end)?;
    }
    out.flush()?;
    if !v.solves {
        eprintln!(
            "npuzzle: not a solution: the moves end on {}, not the goal {}",
            v.end.to_row_string(),
            problem.goal().to_row_string()
        );
        return Ok(EXIT_NOT_SOLVED);
    }
    Ok(0)
}
