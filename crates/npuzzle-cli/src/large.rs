//! `npuzzle solve` on boards beyond 16×16: the fast solver, with the moves
//! streamed to standard output as they are produced.
//!
//! Memory stays bounded whatever the length of the path (a 1000×1000 path
//! has billions of moves): nothing holds it. Line 1 is the count, as for
//! small boards; since the count is known only at the end, `--path` solves
//! twice (the solver is deterministic): once counting, once writing.
//! `--json` writes the path (with `--path`) before the count instead.

use super::{Failure, EXIT_BAD_INPUT};
use npuzzle::{Dir, Grid, Notation};
use npuzzle::{Discard, Letters, MoveSink};
use npuzzle::{GridAnswer, SearchError, SolveOptions};
use std::io::{self, BufWriter, Write};

/// Letters to a writer, keeping the write error for the caller (so that a
/// reader closing the pipe is reported as such).
struct Out<W: Write> {
    letters: Letters<W>,
    /// Tile notation: each step written as its opposite.
    tile: bool,
    error: Option<io::Error>,
}

impl<W: Write> MoveSink for Out<W> {
    type Error = String;

    fn moves(&mut self, moves: &[Dir]) -> Result<(), String> {
        let flipped: Vec<Dir>;
        let moves = if self.tile {
            flipped = moves.iter().map(|d| d.opposite()).collect();
            &flipped
        } else {
            moves
        };
        self.letters.moves(moves).map_err(|e| {
            let text = e.to_string();
            self.error = Some(e);
            text
        })
    }
}

/// Solves into `out`: the write error itself when writing failed.
fn solve_into<W: Write>(
    start: &Grid,
    goal: &Grid,
    opts: &SolveOptions,
    notation: Notation,
    out: W,
) -> Result<GridAnswer, Failure> {
    let mut sink = Out {
        letters: Letters::new(out),
        tile: notation == Notation::Tile,
        error: None,
    };
    match npuzzle::solve_grid(start, goal, opts, &mut sink) {
        Ok(a) => Ok(a),
        Err(SearchError::Output { .. }) if sink.error.is_some() => {
            let e = sink
                .error
                .take()
                .unwrap_or_else(|| io::Error::other("write"));
            Err(anyhow::Error::new(e)
                .context("cannot write the moves")
                .into())
        }
        Err(e) => Err(e.into()),
    }
}

/// What `solve` was asked to print (its flags of the same names).
#[derive(Clone, Copy, Debug)]
pub struct Show {
    pub count_start: bool,
    pub path: bool,
    pub boards: bool,
    pub json: bool,
    /// How the streamed path is written.
    pub notation: Notation,
    pub stats: bool,
    pub explain: bool,
}

pub fn run(args: &Show, start: &Grid, goal: &Grid, opts: &SolveOptions) -> Result<u8, Failure> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    if args.explain {
        let plan = npuzzle::plan_grid(start, goal, opts)?;
        if args.json {
            serde_json::to_writer_pretty(&mut out, &plan)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{plan}")?;
        }
        out.flush()?;
        return Ok(0);
    }
    if args.boards {
        return Err(Failure {
            code: EXIT_BAD_INPUT,
            error: anyhow::anyhow!(
                "--boards prints every board along the path: only for boards of at most 16x16 (this one is {}x{}); use --path",
                start.rows(),
                start.cols()
            ),
        });
    }
    let plus = u64::from(args.count_start);
    let answer = if args.json {
        json(args, start, goal, opts, &mut out, plus)?
    } else {
        let counted = npuzzle::solve_grid(start, goal, opts, &mut Discard)?;
        match counted.moves {
            Some(m) => writeln!(out, "{}", m + plus)?,
            None => writeln!(out, "-1")?,
        }
        if args.path && counted.moves.is_some() {
            let again = solve_into(start, goal, opts, args.notation, &mut out)?;
            writeln!(out)?;
            if again.moves != counted.moves {
                return Err(anyhow::anyhow!(
                    "internal error: the second run made {:?} moves, the first {:?}",
                    again.moves,
                    counted.moves
                )
                .into());
            }
        }
        counted
    };
    if args.stats && !args.json {
        writeln!(out, "plan: {}", answer.plan)?;
        writeln!(out, "algorithm: {}", answer.algorithm)?;
        writeln!(out, "heuristic: -")?;
        writeln!(
            out,
            "time: {:.3} ms",
            answer.stats.elapsed.as_secs_f64() * 1e3
        )?;
    }
    out.flush()?;
    if let (Some(m), Some(lower)) = (answer.moves, answer.lower_bound) {
        eprintln!(
            "npuzzle: {} moves, not proven optimal: the fewest is at least {}, so this is at most {:.3} times it",
            m + plus,
            lower + plus,
            answer.max_ratio().unwrap_or(f64::INFINITY)
        );
    }
    Ok(0)
}

/// The JSON report, streamed: the boards, then the path (with `--path`)
/// as the solver produces it, then the count and the rest.
fn json<W: Write>(
    args: &Show,
    start: &Grid,
    goal: &Grid,
    opts: &SolveOptions,
    out: &mut W,
    plus: u64,
) -> Result<GridAnswer, Failure> {
    write!(
        out,
        "{{\n  \"rows\": {},\n  \"cols\": {},\n  \"start\": ",
        start.rows(),
        start.cols()
    )?;
    serde_json::to_writer(&mut *out, start.tiles())?;
    write!(out, ",\n  \"goal\": ")?;
    serde_json::to_writer(&mut *out, goal.tiles())?;
    write!(out, ",\n  \"path\": ")?;
    let answer = if args.path {
        write!(out, "\"")?;
        let a = solve_into(start, goal, opts, args.notation, &mut *out)?;
        // an unreachable goal has no path: an empty string, as `null` can
        // no longer be written once the quote is out
        write!(out, "\"")?;
        a
    } else {
        write!(out, "null")?;
        npuzzle::solve_grid(start, goal, opts, &mut Discard)?
    };
    let moves = answer.moves.map_or(-1, |m| (m + plus) as i64);
    let tail = serde_json::json!({
        "solvable": answer.moves.is_some(),
        "moves": moves,
        "algorithm": answer.algorithm,
        "heuristic": null,
        "optimal": answer.optimal,
        "lower_bound": answer.lower_bound.map(|l| l + plus),
        "ratio": answer.max_ratio(),
        "plan": answer.plan.to_string(),
        "stats": answer.stats,
    });
    let serde_json::Value::Object(map) = tail else {
        return Err(anyhow::anyhow!("internal error: the report is not an object").into());
    };
    for (k, v) in map {
        write!(out, ",\n  {}: {}", serde_json::to_string(&k)?, v)?;
    }
    writeln!(out, "\n}}")?;
    Ok(answer)
}
