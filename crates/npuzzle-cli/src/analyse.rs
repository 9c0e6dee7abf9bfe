//! `npuzzle analyse`: how far from the goal a sequence of moves stands
//! after each move, which moves did not bring it closer, and the detours
//! they belong to.
//!
//! The analysis is `npuzzle_io::analysis` (shared with the web API and
//! Python); this file reads the arguments and prints it.

use super::moves::{self, GoalArgs, MovesArgs, StartArgs};
use super::Failure;
use npuzzle_io::analysis::Analysis;
use std::io::Write;

#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub start: StartArgs,

    #[command(flatten)]
    pub moves: MovesArgs,

    #[command(flatten)]
    pub goal: GoalArgs,

    /// Print one JSON object: moves, optimal, wasted, per_move (index,
    /// move, distance_before, distance_after, progress, detour), detours.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: AnalyseArgs) -> Result<u8, Failure> {
    let problem = moves::problem(&args.start, &args.goal)?;
    let path = args.moves.path()?;
    let opts = moves::exact_options(args.moves.metric, args.goal.timeout)?;
    let analysis = npuzzle_io::analysis::analyse(&problem, &path, args.moves.notation, &opts)
        .map_err(moves::analysis_failure)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &analysis)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", text(&analysis))?;
    }
    out.flush()?;
    Ok(0)
}

/// The analysis as a table, then a summary.
fn text(a: &Analysis) -> String {
    let width = a
        .per_move
        .iter()
        .map(|m| m.text.len())
        .max()
        .unwrap_or(1)
        .max(4);
    let mut s = format!("{:>4}  {:<width$}  to go\n", "#", "move");
    s.push_str(&format!("{:>4}  {:<width$}  {:>5}\n", 0, "", a.optimal));
    for m in &a.per_move {
        let note = match (m.distance_after.cmp(&m.distance_before), m.detour) {
            (std::cmp::Ordering::Greater, _) => "  farther",
            (std::cmp::Ordering::Equal, _) => "  no closer",
            (_, true) => "  back",
            _ => "",
        };
        s.push_str(&format!(
            "{:>4}  {:<width$}  {:>5}{note}\n",
            m.index, m.text, m.distance_after
        ));
    }
    let length = super::count(a.moves as u64, "move");
    s.push_str(&match a.wasted {
        Some(w) => format!("{length} {}, optimal {}, {w} wasted\n", a.metric, a.optimal),
        None => format!(
            "{length} {}, optimal {}; does not reach the goal: {} still to go\n",
            a.metric, a.optimal, a.to_go
        ),
    });
    let not_closer: Vec<String> = a
        .per_move
        .iter()
        .filter(|m| !m.progress)
        .map(|m| format!("{} ({})", m.index, m.text))
        .collect();
    if !not_closer.is_empty() {
        let noun = if not_closer.len() == 1 {
            "move"
        } else {
            "moves"
        };
        s.push_str(&format!("not closer: {noun} {}\n", not_closer.join(", ")));
    }
    for t in &a.detours {
        let end = if t.back { "" } else { ", not back by the end" };
        s.push_str(&format!(
            "detour: moves {}-{} ({}){end}\n",
            t.first, t.last, t.moves
        ));
    }
    s
}
