//! `npuzzle space`: the whole-space analysis of one board size and goal.

mod output;

use super::cluster::{at_least_one, ClusterArgs, Engine};
use super::{Failure, EXIT_BAD_INPUT, EXIT_BUDGET};
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::{Board, GoalSpec, InputError, Metric, Scan, Shape};
use npuzzle_space::{
    self as space, memory, Bytes, Checkpointing, Progress, SpaceError, SpaceOptions, SpaceResult,
};
use output::{csv, json, plain, plot};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long after `--timeout` a search that has not stopped is ended (a
/// large checkpoint being written can take this long).
const TIMEOUT_GRACE: Duration = Duration::from_secs(60);

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Memory: two bits per position, (R*C)!/8 bytes: 60 MB for 3x4 and 2x6, \
                        10.9 GB for 2x7, 163 GB for 3x5, 2.6 TB for 4x4.\n\
                        Exit status: 2 for a size that does not fit, a damaged checkpoint, a bad \
                        hostfile or processes asked different things; 1 for a file that cannot be \
                        written or a lost peer; 3 when --timeout ran out (or peers never came)."
)]
pub struct SpaceArgs {
    /// Board size, e.g. 3x4.
    #[arg(short, long, value_name = "RxC")]
    pub size: Shape,
    /// How moves are counted: stm (single tiles) or mtm (a push of several
    /// tiles of a row or column is one move).
    #[arg(long, value_name = "METRIC", default_value = "stm")]
    pub metric: Metric,
    /// The goal: blank-last (default), blank-first, spiral, or a board.
    #[arg(short, long, num_args = 1..)]
    pub goal: Option<Vec<String>>,
    /// How many antipodes (positions farthest from the goal) to print, at
    /// most 100000.
    #[arg(long, value_name = "N", default_value_t = space::DEFAULT_LIST, value_parser = list_count)]
    pub list: usize,
    /// One JSON object on standard output.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// The distribution as CSV (distance,positions).
    #[arg(long)]
    pub csv: bool,
    /// Draw the distribution into an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Save the search after each level to FILE (through FILE.tmp); with
    /// --engine timely, each worker saves its part to FILE.I-of-W.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint file.
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
    /// Write a checkpoint only when this many seconds have passed since the
    /// last one (0: after every level).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0)]
    pub checkpoint_every: f64,
    /// Refuse sizes whose array needs more: bytes, or 8G, 500M (powers of
    /// 1024), 10GB (powers of 1000). Default: the available memory less a
    /// margin.
    #[arg(long, value_name = "BYTES", value_parser = memory::parse_bytes)]
    pub max_memory: Option<u64>,
    /// Stop after this many seconds (exit 3; the last checkpoint remains).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Threads (local) or timely workers per process (default and at most:
    /// every core).
    #[arg(long, value_name = "N", value_parser = at_least_one)]
    pub workers: Option<usize>,
    #[command(flatten)]
    pub cluster: ClusterArgs,
    /// One line per level on stderr (for logs; a terminal gets a bar).
    #[arg(short, long)]
    pub verbose: bool,
}

fn list_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n <= space::MAX_LIST => Ok(n),
        _ => Err(format!(
            "'{text}' is not a count from 0 to {}",
            space::MAX_LIST
        )),
    }
}

fn fail(code: u8, error: impl Into<anyhow::Error>) -> Failure {
    Failure {
        code,
        error: error.into(),
    }
}

pub(crate) fn space_failure(e: SpaceError) -> Failure {
    if let SpaceError::Cancelled { level, saved } = &e {
        if super::interrupted() {
            let saved = match saved {
                Some(l) => format!("; the checkpoint holds level {l} (resume with --resume)"),
                None => String::new(),
            };
            return fail(
                EXIT_BUDGET,
                super::CtrlC(format!(
                    "space stopped by Ctrl-C while expanding level {level}{saved}"
                )),
            );
        }
    }
    let code = match &e {
        SpaceError::Cancelled { .. } | SpaceError::NotConnected(_) => EXIT_BUDGET,
        e if e.is_bad_input() => EXIT_BAD_INPUT,
        _ => 1,
    };
    // The library's message names no flag; here is the one to use.
    let hint = match &e {
        SpaceError::TooBig { .. } => Some("--max-memory sets the limit"),
        SpaceError::Cancelled { saved: Some(_), .. } => Some("resume with --resume"),
        SpaceError::LostPeer { saved: Some(_), .. } => {
            Some("restart every process with --resume to go on")
        }
        _ => None,
    };
    match hint {
        Some(h) => fail(code, anyhow::anyhow!("{e} ({h})")),
        None => fail(code, e),
    }
}

/// Raises its flag when dropped: the command has returned.
struct Finished(Arc<AtomicBool>);

impl Drop for Finished {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

pub fn run(args: SpaceArgs) -> Result<u8, Failure> {
    let goal = match &args.goal {
        Some(words) => words
            .join(" ")
            .parse::<GoalSpec>()
            .map_err(InputError::goal)?,
        None => GoalSpec::default(),
    };
    let goal = goal.resolve_for_size(args.size, &mut Scan::new())?;
    args.cluster.check()?;
    let opts = options(&args)?;
    announce(&args, &goal, &opts)?;
    let workers = super::cluster::workers(args.workers, "space");
    // Ctrl-C and --timeout raise the same flag; `interrupted` tells them
    // apart.
    let cancel = super::ctrl_c();
    // read as every command reads it: a positive number of seconds
    let timeout = super::solve::parse_timeout(args.timeout)?;
    // The watchdog does nothing once this command has returned (whatever
    // the way), so that it never reaches into work that comes after it.
    let done = Arc::new(AtomicBool::new(false));
    let _finished = Finished(Arc::clone(&done));
    if let (Some(limit), Some(secs)) = (timeout, args.timeout) {
        watchdog(limit, secs, Arc::clone(&cancel), done);
    }
    let bars = Arc::new(Bars::new(args.verbose, args.cluster.report));
    let t0 = Instant::now();
    let (result, primary) = match args.cluster.engine {
        Engine::Local => (local(&goal, &opts, workers, &bars, &cancel)?, true),
        Engine::Timely => timely(&goal, &opts, &args, workers, bars.clone(), cancel)?,
    };
    bars.clear();
    let seconds = t0.elapsed().as_secs_f64();
    // Every position reachable from the goal is counted once; anything
    // else is a defect, never to be printed as a distribution (nor, in a
    // process that prints nothing, to pass for success).
    if memory::positions(args.size) != Some(u128::from(result.total())) {
        return Err(fail(
            1,
            anyhow::anyhow!(
                "the search counted {} positions, not {}!/2: the distribution is incomplete",
                result.total(),
                args.size.cells()
            ),
        ));
    }
    if primary {
        print(&args, &result, seconds)?;
    }
    Ok(0)
}

/// The search's options from the command line.
fn options(args: &SpaceArgs) -> Result<SpaceOptions, Failure> {
    let max_memory = match args.max_memory {
        Some(m) => m,
        None => memory::default_limit().unwrap_or(8 << 30),
    };
    let every = Duration::try_from_secs_f64(args.checkpoint_every).map_err(|_| {
        fail(
            EXIT_BAD_INPUT,
            anyhow::anyhow!(
                "--checkpoint-every {}: not a number of seconds",
                args.checkpoint_every
            ),
        )
    })?;
    Ok(SpaceOptions {
        metric: args.metric,
        max_memory,
        list: args.list,
        checkpoint: args.checkpoint.clone().map(|path| Checkpointing {
            path,
            resume: args.resume,
            every,
        }),
    })
}

/// Says what the search needs before anything else, and refuses what
/// does not fit: the memory, and files that could not be written.
fn announce(args: &SpaceArgs, goal: &Board, opts: &SpaceOptions) -> Result<(), Failure> {
    let shares = if args.cluster.engine == Engine::Timely {
        args.cluster.processes.max(1) as u128
    } else {
        1
    };
    let needed = space::bytes_needed(args.size);
    let positions =
        memory::positions(args.size).map_or("more than 10^38".into(), |p| p.to_string());
    eprintln!(
        "npuzzle: space: {} positions reachable from {}; two bits each: {}{} (limit {})",
        positions,
        // a 16x16 goal is 256 tiles on one line: its size says enough
        if goal.len() <= 25 {
            goal.to_row_string()
        } else {
            format!("the {}x{} goal", args.size.rows, args.size.cols)
        },
        Bytes(needed),
        if shares > 1 {
            format!(", {} per process", Bytes(needed.div_ceil(shares)))
        } else {
            String::new()
        },
        Bytes(u128::from(opts.max_memory))
    );
    space::check_size(args.size, opts.max_memory.saturating_mul(shares as u64))
        .map_err(space_failure)?;
    if let Some(c) = &opts.checkpoint {
        if !c.resume {
            probe_writable(&npuzzle_checkpoint_tmp(&c.path))?;
        }
    }
    if let Some(p) = &args.plot {
        probe_writable(p)?;
    }
    Ok(())
}

/// `--timeout`: raises the cancel flag after `limit`, and ends the process
/// if the search has not stopped a grace period later. Does nothing once
/// `done` is set.
fn watchdog(limit: Duration, secs: f64, flag: Arc<AtomicBool>, done: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        std::thread::sleep(limit);
        if done.load(Ordering::SeqCst) {
            return;
        }
        flag.store(true, Ordering::Relaxed);
        // The engines stop within a chunk of the flag, and processes
        // waiting for their peers at once; only a very large
        // checkpoint being written (its previous version stays whole)
        // can outlast this.
        std::thread::sleep(TIMEOUT_GRACE);
        if done.load(Ordering::SeqCst) {
            return;
        }
        eprintln!(
            "npuzzle: space: stopped by --timeout {secs} (the search did not stop within {} s \
             of it: a checkpoint being written)",
            TIMEOUT_GRACE.as_secs()
        );
        std::process::exit(i32::from(EXIT_BUDGET));
    });
}

/// The plot, then the distribution on standard output as asked.
fn print(args: &SpaceArgs, result: &SpaceResult, seconds: f64) -> Result<(), Failure> {
    if let Some(p) = &args.plot {
        let svg = plot(result).map_err(|e| fail(1, anyhow::anyhow!("plot: {e}")))?;
        std::fs::write(p, svg)
            .map_err(|e| fail(1, anyhow::anyhow!("cannot write {}: {e}", p.display())))?;
    }
    let mut out = std::io::stdout().lock();
    let text = if args.json {
        json(result, args.cluster.engine, args.metric, seconds)
    } else if args.csv {
        csv(result)
    } else {
        plain(result)
    };
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| fail(1, anyhow::anyhow!("standard output: {e}")))
}

/// Where the library writes a checkpoint before renaming it.
fn npuzzle_checkpoint_tmp(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

/// Fails early (exit 1, with the path and the OS error) when `path` cannot
/// be created, rather than after an hour of search.
fn probe_writable(path: &Path) -> Result<(), Failure> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| fail(1, anyhow::anyhow!("cannot write {}: {e}", path.display())))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Threads or workers per process: `--workers`, at most (and by default)
/// the machine's cores; more would only add threads (and, for timely,
/// buffers for every pair of workers).
fn local(
    goal: &Board,
    opts: &SpaceOptions,
    workers: usize,
    bars: &Bars,
    cancel: &AtomicBool,
) -> Result<SpaceResult, Failure> {
    let go = || space::analyze(goal, opts, bars, cancel);
    rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .map_err(|e| fail(1, anyhow::anyhow!("cannot start {workers} threads: {e}")))?
        .install(go)
        .map_err(space_failure)
}

fn timely(
    goal: &Board,
    opts: &SpaceOptions,
    args: &SpaceArgs,
    workers: usize,
    bars: Arc<Bars>,
    cancel: Arc<AtomicBool>,
) -> Result<(SpaceResult, bool), Failure> {
    use npuzzle_space::cluster;
    // --timeout bounds the wait through the cancel flag.
    let limit = args
        .timeout
        .is_none()
        .then_some(cluster::DEFAULT_CONNECT_LIMIT);
    let cluster = args.cluster.cluster(workers, limit)?;
    let result = cluster::analyze(goal, opts, &cluster, bars, cancel).map_err(space_failure)?;
    Ok((result, args.cluster.process == 0))
}

/// A bar per level on a terminal; with `--verbose`, a line per level.
struct Bars {
    tty: bool,
    verbose: bool,
    /// Say how the processes connect (`--report`).
    report: bool,
    bar: Mutex<Option<ProgressBar>>,
    since: Mutex<Instant>,
}

impl Bars {
    fn new(verbose: bool, report: bool) -> Bars {
        Bars {
            tty: std::io::stderr().is_terminal(),
            verbose,
            report,
            bar: Mutex::new(None),
            since: Mutex::new(Instant::now()),
        }
    }

    fn clear(&self) {
        if let Some(bar) = self
            .bar
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
        {
            bar.finish_and_clear();
        }
    }

    fn note(&self, msg: &str) {
        match &*self
            .bar
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            Some(bar) => bar.println(format!("npuzzle: space: {msg}")),
            None => eprintln!("npuzzle: space: {msg}"),
        }
    }
}

impl Progress for Bars {
    fn connecting(&self, note: &str) {
        if self.report {
            self.note(note);
        }
    }

    fn resumed(&self, path: &Path, level: u32) {
        self.note(&format!(
            "resuming from {} at level {level}",
            path.display()
        ));
    }

    fn level(&self, level: u32, frontier: u64, words: u64) {
        *self
            .since
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Instant::now();
        if !self.tty {
            return;
        }
        self.clear();
        let bar = ProgressBar::new(words);
        bar.set_style(
            ProgressStyle::with_template("level {prefix} [{bar:30}] {percent}% {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_prefix(level.to_string());
        bar.set_message(format!("{frontier} positions"));
        *self
            .bar
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(bar);
    }

    fn advance(&self, words: u64) {
        if let Some(bar) = &*self
            .bar
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            bar.inc(words);
        }
    }

    fn level_done(&self, level: u32, found: u64) {
        if self.verbose {
            let secs = self
                .since
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .elapsed()
                .as_secs_f64();
            self.note(&format!(
                "level {level} expanded in {secs:.1} s; {found} positions at level {}",
                level + 1
            ));
        }
    }

    fn checkpointed(&self, path: &Path, level: u32, seconds: f64) {
        if self.tty || self.verbose {
            self.note(&format!(
                "checkpoint of level {level} written to {} in {seconds:.1} s",
                path.display()
            ));
        }
    }
}
