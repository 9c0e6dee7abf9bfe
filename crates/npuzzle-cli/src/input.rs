//! Reading a problem from arguments or standard input.

use super::Failure;
use npuzzle::{GoalSpec, Grid, InputError, Shape};
// Shared with the web server; re-exported so `input::problem_from_text` keeps working here.
use npuzzle::Problem;
use npuzzle_io::input::grids_from_text;
pub use npuzzle_io::input::problem_from_text;
use std::io::Read;

/// Standard input larger than this is refused: a 1000×1000 start and goal
/// take about 14 MB written plainly, so 64 MiB leaves room for generous
/// spacing while keeping memory bounded (the text, its tokens at 16 bytes
/// each, and the boards: well under a gigabyte).
pub const MAX_STDIN: u64 = 64 << 20;

/// The board arguments shared by `solve`, `compare` and friends.
#[derive(clap::Args, Debug, Clone)]
pub struct ProblemArgs {
    /// The start board (any accepted format; quote it or give the numbers as
    /// separate words). `START | GOAL` gives both. Omitted: read standard
    /// input, which may hold the start alone or the start followed by the goal.
    #[arg(value_name = "START", num_args = 0..)]
    pub start: Vec<String>,

    /// The goal: blank-last (default, 1 2 .. n-1 0), blank-first (0 1 .. n-1,
    /// Korf's), spiral (the snail, 1 2 3/8 0 4/7 6 5 on 3x3), or a board as
    /// one argument (quote it: --goal "1 2 3 8 0 4 7 6 5"); or a partial
    /// goal (solve only): a board with * on the cells left free, or
    /// first-row, first-rows:K, first-row-column.
    #[arg(short, long, value_name = "GOAL")]
    pub goal: Option<String>,

    /// Board size as RxC (e.g. 2x4), needed when it cannot be inferred
    /// (a tile count that is not square, with no rows given).
    #[arg(short, long, value_name = "RxC")]
    pub size: Option<Shape>,
}

impl ProblemArgs {
    /// Reads and validates the problem (boards of at most 16×16).
    pub fn problem(&self) -> Result<Problem, Failure> {
        let text = self.text()?;
        let goal = self.goal_spec()?;
        Ok(problem_from_text(&text, goal.as_ref(), self.size)?)
    }

    /// Reads and validates the start and goal, of any size up to
    /// `MAX_GRID_CELLS` cells.
    pub fn grids(&self) -> Result<(Grid, Grid), Failure> {
        let text = self.text()?;
        let goal = self.goal_spec()?;
        Ok(grids_from_text(&text, goal.as_ref(), self.size)?)
    }

    /// The start board alone (for a goal given apart from it, such as a
    /// partial goal).
    pub fn start_board(&self) -> Result<npuzzle::Board, Failure> {
        let text = self.text()?;
        Ok(npuzzle::Scan::new()
            .board(&text, self.size)
            .map_err(InputError::start)?)
    }

    /// The text of the start (the words, or standard input).
    fn text(&self) -> Result<String, Failure> {
        let text = if self.start.is_empty() {
            let mut buf = Vec::new();
            std::io::stdin()
                .take(MAX_STDIN + 1)
                .read_to_end(&mut buf)
                .map_err(|e| anyhow::anyhow!("cannot read standard input: {e}"))?;
            let bad = |error| Failure {
                code: super::EXIT_BAD_INPUT,
                error,
            };
            if buf.len() as u64 > MAX_STDIN {
                return Err(bad(anyhow::anyhow!(
                    "standard input is larger than {MAX_STDIN} bytes (64 MiB; a 1000x1000 start and goal take about 14 MB)"
                )));
            }
            String::from_utf8(buf).map_err(|e| {
                bad(anyhow::anyhow!(
                    "standard input is not text (UTF-8): byte {} is not valid",
                    e.utf8_error().valid_up_to() + 1
                ))
            })?
        } else {
            self.start.join(" ")
        };
        Ok(text)
    }

    /// The goal given by `--goal`.
    fn goal_spec(&self) -> Result<Option<GoalSpec>, Failure> {
        Ok(match &self.goal {
            // `--goal 1 2 3 …` unquoted: the goal got the first number and
            // the start the rest. Say so, rather than blame the boards.
            Some(g) if !g.is_empty() && g.len() <= 3 && g.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(Failure {
                    code: super::EXIT_BAD_INPUT,
                    error: anyhow::anyhow!(
                        "--goal takes one board in one argument, not '{g}': quote a board written as several numbers, e.g. --goal \"1 2 3 8 0 4 7 6 5\""
                    ),
                });
            }
            Some(g) => Some(g.parse::<GoalSpec>().map_err(InputError::goal)?),
            None => None,
        })
    }
}
