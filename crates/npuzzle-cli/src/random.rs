//! `npuzzle random`: random instances as batch lines.

use super::{Failure, EXIT_BAD_INPUT};
use npuzzle::{GoalSpec, Grid, Scan, Shape};
use npuzzle_io::random::{Generator, Mode};
use std::io::{self, Write};

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Lines are START, or START | GOAL when the goal is not blank-last (and always with --pairs), \
with the rows separated by / when the board is not square, so they can be piped into \
'npuzzle batch' as they are. The same --seed gives the same lines \
on any machine.

Examples:
  npuzzle random --size 4x4 --count 100 --moves 30 --seed 7
  npuzzle random --pairs --count 1000000 --seed 1 | npuzzle batch --path")]
pub struct RandomArgs {
    /// Board size as RxC (any size up to 4096x4096; a 1000x1000 line is
    /// about 7 MB).
    #[arg(short, long, value_name = "RxC", default_value = "3x3")]
    pub size: Shape,

    /// Number of instances.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 10)]
    pub count: u64,

    /// Seed of the generator (default: a fresh one, printed on standard error).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// The goal the boards are drawn for: blank-last (default), blank-first,
    /// spiral, or a board (quoted).
    #[arg(short, long, value_name = "GOAL", conflicts_with = "pairs")]
    pub goal: Option<GoalSpec>,

    /// Walk K random moves from the goal, never straight back: boards at
    /// most K moves from it (graded difficulty). Default: uniformly random
    /// boards that can reach the goal. At most 10000000 (a walk far past
    /// any board's mixing, under a second).
    #[arg(short, long, value_name = "K", conflicts_with = "pairs", value_parser = walk_length)]
    pub moves: Option<u32>,

    /// A random start and a random goal per line, reachable or not.
    #[arg(long)]
    pub pairs: bool,

    /// With --moves: count the walk's moves as stm (single tiles) or mtm
    /// (pushes of several tiles of a row or column, each across the last).
    #[arg(long, value_name = "METRIC", default_value = "stm", requires = "moves")]
    pub metric: npuzzle::Metric,
}

fn walk_length(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(k) if k <= npuzzle_io::random::MAX_WALK => Ok(k),
        _ => Err(format!(
            "'{text}' is not a number of moves from 0 to {}",
            npuzzle_io::random::MAX_WALK
        )),
    }
}

pub fn run(args: RandomArgs) -> Result<u8, Failure> {
    let shape = args.size;
    let goal = match &args.goal {
        Some(spec) => spec
            .resolve_grid(shape, &mut Scan::new())
            .map_err(|e| Failure {
                code: EXIT_BAD_INPUT,
                error: e.into(),
            })?,
        None => Grid::blank_last(shape),
    };
    let write_goal = goal != Grid::blank_last(shape);
    let mode = match (args.pairs, args.moves) {
        (true, _) => Mode::Pairs,
        (false, Some(k)) if args.metric == npuzzle::Metric::Mtm => Mode::Pushes(k),
        (false, Some(k)) => Mode::Walk(k),
        (false, None) => Mode::Solvable,
    };
    let seed = args.seed.unwrap_or_else(|| {
        let s = rand::random::<u64>();
        eprintln!("npuzzle random: --seed {s}");
        s
    });
    let mut generator = Generator::new(goal, mode, seed, write_goal);
    let mut out = io::stdout().lock();
    let mut buf = Vec::with_capacity(1 << 20);
    let mut left = args.count;
    while left > 0 {
        buf.clear();
        while left > 0 && buf.len() < (1 << 20) - 4096 {
            generator.write_line(&mut buf);
            left -= 1;
        }
        out.write_all(&buf)
            .and_then(|()| out.flush())
            .map_err(|e| anyhow::Error::new(e).context("cannot write the instances"))?;
    }
    Ok(0)
}
