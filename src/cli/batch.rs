//! `npuzzle batch`: answer a file of instances, one per line, in order, on
//! every core.
//!
//! A reader thread cuts the input into chunks of whole lines (bounded
//! channel: memory stays flat); the main thread answers each chunk in the
//! rayon pool, writes its lines and flushes, so pipes see output as it comes.

use super::solve::SearchArgs;
use super::{Failure, EXIT_BAD_INPUT};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use npuzzle::batch::{self, BatchConfig, ChunkReader, Shard, Tally};
use npuzzle::board::{GoalSpec, Shape};
use std::fs::File;
use std::io::{self, BufWriter, ErrorKind, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Exit status when some line got an error (every line is still written).
const EXIT_LINE_ERRORS: u8 = 1;
/// Lines in the first chunk; later chunks are sized to take about
/// [`CHUNK_SECONDS`], between the number of threads and [`MAX_CHUNK_LINES`].
const FIRST_CHUNK_LINES: usize = 64;
const MAX_CHUNK_LINES: usize = 1 << 16;
const MAX_CHUNK_BYTES: usize = 8 << 20;
const CHUNK_SECONDS: f64 = 0.25;

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Each line is one instance: START | GOAL, START alone (the goal is --goal), or the 2n numbers \
of a start and a goal. Blank lines and lines starting with # produce no output.

Output, one line per instance line, in order: the fewest moves, or -1 when the goal cannot be \
reached; with --path, the moves, a space and the UDLR path (the blank's direction); a bad \
line gives 'error: line N: ...' in its place. Exit status: 0 all answered, 1 some line was an \
error, 2 the input could not be read.

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

    /// Also print an optimal path: the moves, a space, the UDLR string.
    #[arg(short, long)]
    pub path: bool,

    /// Count the start as step 1; -1 stays -1.
    #[arg(long)]
    pub count_start: bool,

    /// One JSON object per line: {"line","moves","solvable"[,"path"]} or {"line","error"}.
    #[arg(long)]
    pub jsonl: bool,

    /// Worker threads (default: every core).
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

pub fn run(args: BatchArgs) -> Result<u8, Failure> {
    let cfg = BatchConfig {
        goal: args.goal.clone(),
        size: args.size,
        opts: args.search.options(args.path)?,
        count_start: args.count_start,
        jsonl: args.jsonl,
    };
    let shard = args.shard.unwrap_or(Shard::ALL);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.map_or(0, usize::from))
        .build()?;
    let threads = pool.current_num_threads();
    let Input {
        source,
        name,
        len: total_bytes,
    } = open_input(args.file.as_ref())?;

    // The reader runs ahead by at most two chunks.
    let target = Arc::new(AtomicUsize::new(FIRST_CHUNK_LINES));
    let (tx, rx) = mpsc::sync_channel::<io::Result<(batch::Chunk, u64)>>(2);
    let reader_target = Arc::clone(&target);
    let reader = std::thread::Builder::new()
        .name("npuzzle-reader".into())
        .spawn(move || {
            let mut reader = ChunkReader::new(source, shard);
            loop {
                let lines = reader_target.load(Ordering::Relaxed);
                let msg = match reader.next_chunk(lines, MAX_CHUNK_BYTES) {
                    Ok(Some(c)) => Ok((c, reader.lines_read())),
                    Ok(None) => break,
                    Err(e) => Err(e),
                };
                let failed = msg.is_err();
                if tx.send(msg).is_err() || failed {
                    break;
                }
            }
        })?;

    let progress = (!args.quiet && io::stderr().is_terminal()).then(|| progress_bar(total_bytes));
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let t0 = Instant::now();
    let mut tally = Tally::default();
    let mut bytes = 0u64;
    let mut read_error = None;
    for msg in &rx {
        let (chunk, lines_read) = match msg {
            Ok(c) => c,
            Err(e) => {
                read_error = Some(e);
                break;
            }
        };
        let t = Instant::now();
        let output = pool.install(|| batch::answer_chunk(&chunk, &cfg));
        let secs = t.elapsed().as_secs_f64();
        let written = output
            .pieces
            .iter()
            .try_for_each(|p| out.write_all(p))
            .and_then(|()| out.flush());
        if let Err(e) = written {
            if let Some(pb) = &progress {
                pb.finish_and_clear();
            }
            if e.kind() == ErrorKind::BrokenPipe {
                // The reader of our output has gone (`| head`): stop quietly.
                return Ok(0);
            }
            return Err(anyhow::anyhow!("cannot write the answers: {e}").into());
        }
        tally.add(output.tally);
        bytes += chunk.bytes_read;
        if !chunk.is_empty() {
            let per_second = chunk.len() as f64 / secs.max(1e-9);
            let next = (per_second * CHUNK_SECONDS) as usize;
            target.store(next.clamp(2 * threads, MAX_CHUNK_LINES), Ordering::Relaxed);
        }
        if let Some(pb) = &progress {
            if total_bytes.is_some() {
                pb.set_position(bytes);
            }
            let rate = tally.lines() as f64 / t0.elapsed().as_secs_f64().max(1e-9);
            pb.set_message(format!(
                "{} ({}), line {lines_read}, {rate:.0}/s",
                super::count(tally.lines(), "instance"),
                super::count(tally.errors, "error")
            ));
        }
    }
    drop(rx);
    let _ = reader.join();
    let seconds = t0.elapsed().as_secs_f64();
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
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
    Ok(if tally.errors > 0 {
        EXIT_LINE_ERRORS
    } else {
        0
    })
}
