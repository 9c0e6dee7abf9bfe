//! `npuzzle analyse`: how far from the goal a sequence of moves stands
//! after each move, which moves did not bring it closer, and the detours
//! they belong to.
//!
//! Distances are exact (the complete tables on boards of up to ten cells,
//! else an exact search per position, up to 16 cells). A detour starts at
//! a move that does not bring the goal closer and ends at the first move
//! back at the distance it left: its moves are the ones wasted, and on a
//! solution their count is the length less the fewest moves.

use super::moves::{self, Exact, GoalArgs, MovesArgs, StartArgs};
use super::Failure;
use npuzzle::{Board, Metric};
use serde::Serialize;
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

/// One move of the sequence (a step in STM, a push in MTM).
#[derive(Serialize)]
struct MoveReport {
    /// 1-based.
    index: usize,
    /// As written in the notation and metric asked for.
    #[serde(rename = "move")]
    text: String,
    distance_before: u32,
    distance_after: u32,
    /// Whether it brought the goal closer.
    progress: bool,
    /// Whether it is part of a detour (wasted).
    detour: bool,
}

/// Moves `first..=last` (1-based), which leave a distance and come back
/// to it (or end before they do: `back` false).
#[derive(Serialize)]
struct Detour {
    first: usize,
    last: usize,
    moves: String,
    back: bool,
}

#[derive(Serialize)]
struct Analysis {
    metric: Metric,
    /// The sequence's length in the metric.
    moves: usize,
    /// The fewest moves from the start.
    optimal: u32,
    /// Moves still to go at the end (0 for a solution).
    to_go: u32,
    /// Length less the fewest, for a solution (`null` otherwise).
    wasted: Option<usize>,
    per_move: Vec<MoveReport>,
    detours: Vec<Detour>,
}

pub fn run(args: AnalyseArgs) -> Result<u8, Failure> {
    let problem = moves::problem(&args.start, &args.goal)?;
    let path = args.moves.path()?;
    let metric = args.moves.metric;
    problem
        .start()
        .apply_moves(&path, args.moves.notation, metric)?;
    if !problem.solvable() {
        return Err(moves::fail(
            super::EXIT_BAD_INPUT,
            anyhow::anyhow!(
                "the goal cannot be reached from this start (the other parity class): no distance to analyse"
            ),
        ));
    }
    let spans = moves::spans(&path, metric);
    let boards = problem.start().trajectory(&path)?;
    // the positions between moves: the start, then after each move
    let positions: Vec<&Board> = std::iter::once(&boards[0])
        .chain(spans.iter().map(|s| &boards[s.end]))
        .collect();
    let exact = Exact::new(metric, args.goal.timeout)?;
    let mut distances = Vec::with_capacity(positions.len());
    for b in positions {
        let d = exact
            .distance(b, problem.goal())
            .map_err(moves::unknown_failure)?;
        // every position of a solvable problem reaches the goal
        distances
            .push(d.ok_or_else(|| anyhow::anyhow!("internal error: a position lost the goal"))?);
    }
    let texts: Vec<String> = spans
        .iter()
        .map(|s| args.moves.format(&path[s.clone()]))
        .collect();
    let analysis = analyse(metric, &distances, &texts);
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

/// The analysis of moves `texts` whose distances to the goal, the start's
/// first, are `d` (one more than the moves).
fn analyse(metric: Metric, d: &[u32], texts: &[String]) -> Analysis {
    let mut detours = Vec::new();
    let mut i = 0;
    while i < texts.len() {
        if d[i + 1] < d[i] {
            i += 1;
            continue;
        }
        // back at the distance it left: the first position at most d[i]
        let back = (i..texts.len()).find(|&j| d[j + 1] <= d[i]);
        let last = back.unwrap_or(texts.len() - 1);
        detours.push(Detour {
            first: i + 1,
            last: last + 1,
            moves: texts[i..=last].join(" "),
            back: back.is_some(),
        });
        i = last + 1;
    }
    let in_detour = |index: usize| detours.iter().any(|t| (t.first..=t.last).contains(&index));
    let per_move = texts
        .iter()
        .enumerate()
        .map(|(i, t)| MoveReport {
            index: i + 1,
            text: t.clone(),
            distance_before: d[i],
            distance_after: d[i + 1],
            progress: d[i + 1] < d[i],
            detour: in_detour(i + 1),
        })
        .collect();
    let to_go = d[texts.len()];
    Analysis {
        metric,
        moves: texts.len(),
        optimal: d[0],
        to_go,
        wasted: (to_go == 0).then(|| texts.len().saturating_sub(d[0] as usize)),
        per_move,
        detours,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("m{i}")).collect()
    }

    #[test]
    fn a_detour_runs_from_the_first_step_away_to_the_first_back() {
        // 5 4 5 6 5 4 3: moves 2-5 are a detour (4 -> 6 -> 4)
        let a = analyse(Metric::Stm, &[5, 4, 5, 6, 5, 4, 3], &texts(6));
        assert_eq!(a.detours.len(), 1);
        assert_eq!((a.detours[0].first, a.detours[0].last), (2, 5));
        assert_eq!(a.wasted, None);
        let a = analyse(Metric::Stm, &[2, 1, 2, 1, 0], &texts(4));
        assert_eq!((a.detours[0].first, a.detours[0].last), (2, 3));
        assert_eq!(a.wasted, Some(2));
        assert!(!a.per_move[1].progress && a.per_move[2].progress && a.per_move[2].detour);
        // a push that leaves the distance as it was is a detour of one
        let a = analyse(Metric::Mtm, &[2, 2, 1, 0], &texts(3));
        assert_eq!((a.detours[0].first, a.detours[0].last), (1, 1));
        // one that never comes back ends with the moves
        let a = analyse(Metric::Stm, &[1, 2, 3], &texts(2));
        assert!(!a.detours[0].back && a.detours[0].last == 2);
    }
}
