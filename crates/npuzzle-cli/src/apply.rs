//! `npuzzle apply`: the board a sequence of moves reaches.

use super::moves::{MovesArgs, StartArgs};
use super::Failure;
use npuzzle::{InputError, Metric};
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct ApplyArgs {
    #[command(flatten)]
    pub start: StartArgs,

    #[command(flatten)]
    pub moves: MovesArgs,

    /// Print one JSON object: the board reached (as text and as tiles)
    /// and the moves' length in both metrics.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ApplyArgs) -> Result<u8, Failure> {
    let start =
        npuzzle::parse_board(&args.start.start, args.start.size).map_err(InputError::start)?;
    let path = args.moves.path()?;
    let end = start.apply_moves(&path, args.moves.notation, args.moves.metric)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = serde_json::json!({
            "board": end.to_row_string(),
            "tiles": end.tiles(),
            "moves": args.moves.metric.length(&path),
            "metric": args.moves.metric,
            "stm": Metric::Stm.length(&path),
            "mtm": Metric::Mtm.length(&path),
        });
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{end}")?;
    }
    Ok(0)
}
