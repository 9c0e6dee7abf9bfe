//! `npuzzle batch`: answer a file of instances, one per line, in order, on
//! every core.
//!
//! The library streams it ([`npuzzle_io::batch::stream`]): every answer is
//! written in input order as soon as it and all before it are done, with
//! flat memory. This file reads the arguments, draws the progress bar and
//! prints the summary.

use super::solve::SearchArgs;
use super::{Failure, EXIT_BAD_INPUT};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use npuzzle::{BoardError, GoalSpec, InputError, Notation, Scan, Shape};
use npuzzle_io::batch::{self, BatchConfig, Shard, StreamError, StreamOptions};
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Exit status when some line got an error (every line is still written).
const EXIT_LINE_ERRORS: u8 = 1;
/// Each line's time budget unless `--timeout` gives another.
const DEFAULT_LINE_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Each line is one instance: START | GOAL, START alone (the goal is --goal), or the 2n numbers \
of a start and a goal. Blank lines and lines starting with # produce no output.

Output, one line per instance line, in order: the fewest moves, or -1 when the goal cannot be \
reached; with --path, the moves, a space and the UDLR path (the blank's direction); a bad \
line gives 'error: line N: ...' in its place. Exit status: 0 all answered, 1 some line was an \
error, 2 the input could not be read (or the options do not go together), 3 stopped by Ctrl-C \
(every answer finished before it is written, none after).

Example:
  npuzzle random --pairs --count 1000000 --seed 1 > pairs.txt
  npuzzle batch pairs.txt > answers.txt")]
pub struct BatchArgs {
    /// Input file (standard input when absent or -).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// The goal of lines that do not give one: blank-last (default),
    /// blank-first, spiral, or a board (quoted).
    #[arg(short, long, value_name = "GOAL", default_value = "blank-last")]
    pub goal: GoalSpec,

    /// Board size as RxC for every line (needed when it cannot be inferred).
    #[arg(short, long, value_name = "RxC")]
    pub size: Option<Shape>,

    /// Also print an optimal path: the moves, a space, the UDLR string
    /// (in MTM, each push with its count: U2L).
    #[arg(short, long)]
    pub path: bool,

    /// How paths are written: blank (the way the blank moves) or tile
    /// (the way the tiles move: blank U is tile D).
    #[arg(long, value_name = "NOTATION", default_value = "blank")]
    pub notation: Notation,

    /// Separate the moves of a path by spaces.
    #[arg(long)]
    pub spaced: bool,

    /// Count the start as step 1; -1 stays -1.
    #[arg(long)]
    pub count_start: bool,

    /// One JSON object per line: {"line","moves","solvable"[,"path"]} or {"line","error"}.
    #[arg(long)]
    pub jsonl: bool,

    /// Worker threads (default and most: every core).
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Answer only the instances whose index (counting instance lines from
    /// 0, skipping blank and # lines) is I modulo N.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,

    /// No progress bar and no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten)]
    pub search: SearchArgs,
}

fn bad_input(error: anyhow::Error) -> Failure {
    Failure {
        code: EXIT_BAD_INPUT,
        error,
    }
}

/// The opened input.
struct Input {
    source: Box<dyn Read + Send>,
    /// What to call it in messages.
    name: String,
    /// Its length, when it is a regular file (for the progress bar).
    len: Option<u64>,
}

fn open_input(file: Option<&PathBuf>) -> Result<Input, Failure> {
    match file {
        Some(p) if p.as_os_str() != "-" => {
            let name = p.display().to_string();
            let f = File::open(p)
                .map_err(|e| bad_input(anyhow::anyhow!("cannot open '{name}': {e}")))?;
            let meta = f.metadata().ok();
            if meta.as_ref().is_some_and(std::fs::Metadata::is_dir) {
                return Err(bad_input(anyhow::anyhow!(
                    "cannot read '{name}': it is a directory"
                )));
            }
            Ok(Input {
                source: Box::new(f),
                name: format!("'{name}'"),
                len: meta.filter(std::fs::Metadata::is_file).map(|m| m.len()),
            })
        }
        _ => Ok(Input {
            source: Box::new(io::stdin()),
            name: "standard input".to_string(),
            len: None,
        }),
    }
}

fn progress_bar(total_bytes: Option<u64>) -> ProgressBar {
    let pb = match total_bytes {
        Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {percent:>3}% {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        ),
    };
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

/// Refuses at once a `--goal` board that no line could use: one that is
/// not a board in itself (a repeated tile, no tiles), or not one of
/// `--size`. (A goal whose size only a line tells is checked per line.)
fn check_goal(goal: &GoalSpec, size: Option<Shape>) -> Result<(), Failure> {
    let GoalSpec::Board(text) = goal else {
        return Ok(());
    };
    match Scan::new().grid(text, size) {
        Err(BoardError::CannotInferSize { .. }) | Ok(_) => Ok(()),
        Err(e) => Err(bad_input(anyhow::Error::new(InputError::goal(e)))),
    }
}

pub fn run(args: BatchArgs) -> Result<u8, Failure> {
    check_goal(&args.goal, args.size)?;
    let mut opts = args.search.options(args.path)?;
    if args.search.timeout.is_none() {
        // One line must not hold back the rest for long: answers are
        // written in order, so a stuck line delays every line after it.
        opts.budget = opts.budget.with_timeout(Some(DEFAULT_LINE_TIMEOUT));
    }
    let cfg = BatchConfig {
        goal: args.goal.clone(),
        size: args.size,
        opts,
        count_start: args.count_start,
        jsonl: args.jsonl,
        notation: args.notation,
        spaced: args.spaced,
        ..BatchConfig::default()
    };
    // More workers than cores only add threads (65535 of them would take
    // longer to start than the batch takes to run).
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = args.jobs.map_or(cores, |j| usize::from(j).min(cores));
    let stream = StreamOptions::default()
        .with_shard(args.shard.unwrap_or(Shard::ALL))
        .with_threads(threads);
    let Input {
        source,
        name,
        len: total_bytes,
    } = open_input(args.file.as_ref())?;

    let progress = (!args.quiet && io::stderr().is_terminal()).then(|| progress_bar(total_bytes));
    let t0 = Instant::now();
    let mut last_draw = Instant::now();
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let result = batch::stream(source, &mut out, &cfg, &stream, &mut |p| {
        let Some(pb) = &progress else { return };
        if last_draw.elapsed() < Duration::from_millis(100) {
            return;
        }
        last_draw = Instant::now();
        if total_bytes.is_some() {
            pb.set_position(p.bytes_read);
        }
        let rate = p.tally.lines() as f64 / t0.elapsed().as_secs_f64().max(1e-9);
        pb.set_message(format!(
            "{} ({}), line {}, {rate:.0}/s",
            super::count(p.tally.lines(), "instance"),
            super::count(p.tally.errors, "error"),
            p.lines_read
        ));
    });
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    let (tally, read_error) = match result {
        Ok(t) => (t, None),
        Err(StreamError::Read { done, source }) => (done, Some(source)),
        Err(StreamError::Cancelled { done }) => {
            return Err(super::CtrlC(format!(
                "batch stopped by Ctrl-C after {} answered ({}); the answers written are complete",
                super::count(done.lines(), "line"),
                super::count(done.errors, "error")
            ))
            .into())
        }
        Err(e @ StreamError::Write(_)) => return Err(Failure::from(anyhow::Error::new(e))),
        Err(e @ StreamError::Threads { .. }) => return Err(Failure::from(anyhow::Error::new(e))),
    };
    let seconds = t0.elapsed().as_secs_f64();
    if !args.quiet {
        let rate = tally.lines() as f64 / seconds.max(1e-9);
        eprintln!(
            "npuzzle batch: {} answered ({} unreachable), {}, {seconds:.3} s, {rate:.0} instances/s",
            tally.answered,
            tally.unreachable,
            super::count(tally.errors, "error")
        );
    }
    if let Some(e) = read_error {
        return Err(bad_input(anyhow::anyhow!("cannot read {name}: {e}")));
    }
    if tally.errors > 0 {
        // said even with --quiet: a failing status comes with its reason
        eprintln!(
            "npuzzle: batch: {} of {} failed (their lines say why)",
            super::count(tally.errors, "instance"),
            tally.lines()
        );
        return Ok(EXIT_LINE_ERRORS);
    }
    Ok(0)
}
