//! `npuzzle simplify`, `npuzzle invert` and `npuzzle transpose`: a
//! sequence of moves rewritten, printed in the notation and metric asked
//! for.

use super::moves::MovesArgs;
use super::Failure;
use npuzzle::{Notation, Rewrite};
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct PathArgs {
    #[command(flatten)]
    pub moves: MovesArgs,

    /// The notation to print in (default: the one read, --notation).
    #[arg(long, value_name = "NOTATION")]
    pub to: Option<Notation>,

    /// Separate the moves printed by spaces.
    #[arg(long)]
    pub spaced: bool,
}

/// Reads the moves, rewrites them with `rewrite`, prints the result.
pub fn run(args: PathArgs, rewrite: Rewrite) -> Result<u8, Failure> {
    let path = rewrite.apply(&args.moves.path()?);
    let notation = args.to.unwrap_or(args.moves.notation);
    let text = npuzzle::format_moves(&path, notation, args.moves.metric, args.spaced);
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(0)
}
