//! `npuzzle pdb build` and `npuzzle pdb list`.

use super::Failure;
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::pdb::{
    self, BlankMode, PartitionSpec, PdbError, PdbOptions, PdbReporter, SharedReporter, Verdict,
};
use npuzzle::{GoalSpec, Scan, Shape};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

#[derive(clap::Args, Debug)]
pub struct PdbArgs {
    #[command(subcommand)]
    pub command: PdbCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum PdbCommand {
    /// Build (or load and check) a partition's databases ahead of time.
    Build(BuildArgs),
    /// List the cached databases and their sizes.
    List(DirArgs),
    /// Check every cached database against its definition by building it
    /// again and comparing every value (the checksum catches accidents,
    /// not edits). Exits 1 if any is wrong or unreadable.
    Verify(VerifyArgs),
    /// Score partitions before searching with them: the mean of their
    /// estimates over uniformly random boards, and the nodes an IDA*
    /// search would roughly expand against the first partition's (from
    /// the mean of b^-h, b the board's branching factor), each alone and
    /// maxed.
    Score(super::pdb_score::ScoreArgs),
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub dir: DirArgs,
    /// Most memory one rebuild may hold, e.g. 4G (default: 60% of the
    /// memory available).
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    pub max_memory: Option<u64>,
}

/// Where the cache lives.
#[derive(clap::Args, Debug, Clone)]
pub struct DirArgs {
    /// Pattern database cache directory (default: $XDG_CACHE_HOME/npuzzle).
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Board size, e.g. 4x4.
    #[arg(short, long, value_name = "RxC")]
    pub size: Shape,
    /// Partition: 7-8, 6-6-3, 5-5-5 (4x4), 6-6-6-6 (5x5), group sizes such
    /// as 4-4, tile groups such as 1,2,3/4,5,6,7,8, or auto.
    #[arg(short, long, default_value = "auto")]
    pub partition: PartitionSpec,
    /// The goal the databases are for (default blank-last).
    #[arg(short, long, num_args = 1..)]
    pub goal: Option<Vec<String>>,
    /// Which databases keep one value per region of the blank, as for
    /// solve and bench: auto, min or regions (bits loads the files of
    /// regions).
    #[arg(long, value_name = "MODE", default_value = "auto")]
    pub pdb_blank: BlankMode,
    /// Most memory a build may hold, e.g. 512M or 8G (default: 60% of the
    /// memory available); a build that needs more is refused before it starts.
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    pub max_memory: Option<u64>,
    #[command(flatten)]
    pub dir: DirArgs,
}

/// Progress on stderr: a bar per build when stderr is a terminal, one
/// line per build otherwise.
pub struct Reporter {
    bar: Mutex<Option<ProgressBar>>,
    tty: bool,
    /// The first database that could not be saved, for `pdb build` (whose
    /// whole point is the saved file).
    unsaved: Mutex<Option<String>>,
}

impl Reporter {
    pub fn new() -> Reporter {
        Reporter {
            bar: Mutex::new(None),
            tty: std::io::stderr().is_terminal(),
            unsaved: Mutex::new(None),
        }
    }

    /// The first save that failed, if any.
    fn take_unsaved(&self) -> Option<String> {
        self.unsaved
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// A reporter to hand to the library.
    pub fn shared() -> SharedReporter {
        SharedReporter(std::sync::Arc::new(Reporter::new()))
    }
}

impl PdbReporter for Reporter {
    fn note(&self, msg: &str) {
        eprintln!("npuzzle: pattern database: {msg}");
    }

    fn unsaved(&self, error: &PdbError) {
        let mut first = self.unsaved.lock().unwrap_or_else(PoisonError::into_inner);
        if first.is_none() {
            *first = Some(error.to_string());
        }
        drop(first);
        self.note(&format!(
            "{error}; using the database from memory (it will be built again next time)"
        ));
    }

    fn building(&self, what: &str, entries: u64) {
        let what = format!("building pattern database for {what}");
        if self.tty {
            let bar = ProgressBar::new(entries);
            bar.set_style(
                ProgressStyle::with_template(
                    "{msg} [{bar:30}] {percent}% layer {prefix} ({elapsed})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_message(what);
            *self.bar.lock().unwrap_or_else(PoisonError::into_inner) = Some(bar);
        } else {
            eprintln!("npuzzle: {what} ({entries} entries)");
        }
    }

    fn layer(&self, depth: u32, reached: u64, _total: u64) {
        if let Some(bar) = &*self.bar.lock().unwrap_or_else(PoisonError::into_inner) {
            bar.set_prefix(depth.to_string());
            bar.set_position(reached);
        }
    }

    fn built(&self, what: &str, seconds: f64) {
        if let Some(bar) = self
            .bar
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            bar.finish_and_clear();
        }
        eprintln!("npuzzle: built pattern database for {what} in {seconds:.1} s");
    }
}

pub fn run(args: PdbArgs) -> Result<u8, Failure> {
    match args.command {
        PdbCommand::Build(b) => build(b),
        PdbCommand::List(d) => list(d),
        PdbCommand::Verify(v) => verify(v),
        PdbCommand::Score(s) => super::pdb_score::run(s),
    }
}

/// The goal a `--goal` of `pdb build` or `pdb score` names for boards of
/// `size` (blank-last without one).
pub(super) fn goal_of(words: Option<&[String]>, size: Shape) -> Result<npuzzle::Board, Failure> {
    let goal = match words {
        Some(words) => words
            .join(" ")
            .parse::<GoalSpec>()
            .map_err(npuzzle::InputError::goal)?,
        None => GoalSpec::default(),
    };
    Ok(goal.resolve_for_size(size, &mut Scan::new())?)
}

fn build(args: BuildArgs) -> Result<u8, Failure> {
    let goal = goal_of(args.goal.as_deref(), args.size)?;
    let opts = PdbOptions::default()
        .with_partition(args.partition)
        .with_blank(args.pdb_blank)
        .with_dir(args.dir.pdb_dir.clone());
    let t0 = std::time::Instant::now();
    let reporter = Reporter::new();
    let budget = super::with_memory(npuzzle::Budget::default(), args.max_memory)
        .with_cancel(Some(super::ctrl_c()));
    let built = pdb::build(&goal, &opts, &reporter, &budget)?;
    if let Some(e) = reporter.take_unsaved() {
        // Building ahead of time is for the cache: not saving is a failure
        // of the environment.
        return Err(Failure {
            code: super::EXIT_ENVIRONMENT,
            error: anyhow::anyhow!("{e}"),
        });
    }
    println!(
        "{} for goal {} ({:.1} s), in {}",
        built.label,
        goal.to_row_string(),
        t0.elapsed().as_secs_f64(),
        opts.cache_dir().display()
    );
    for db in &built.databases {
        let tiles: Vec<String> = db.tiles.iter().map(ToString::to_string).collect();
        println!(
            "  tiles {:<24} {:>12} entries  max {}",
            tiles.join(","),
            db.entries,
            db.max
        );
    }
    Ok(0)
}

fn list(args: DirArgs) -> Result<u8, Failure> {
    let dir = args.pdb_dir.unwrap_or_else(npuzzle::pdb::default_dir);
    let files = npuzzle::pdb::list(&dir)
        .map_err(|e| anyhow::anyhow!("cannot list {}: {e}", dir.display()))?;
    let colours = npuzzle::pdb::list_colour(&dir)
        .map_err(|e| anyhow::anyhow!("cannot list {}: {e}", dir.display()))?;
    println!("{}", dir.display());
    if files.is_empty() && colours.is_empty() {
        println!("  (no pattern databases cached)");
    }
    let mut total = 0;
    for f in &files {
        let tiles: Vec<String> = f.tiles.iter().map(ToString::to_string).collect();
        let goal: Vec<String> = f.goal.iter().map(ToString::to_string).collect();
        println!(
            "  {}x{}  goal {}  tiles {}  {} entries  {:.1} MiB  {}",
            f.rows,
            f.cols,
            goal.join(" "),
            tiles.join(","),
            f.entries,
            f.bytes as f64 / (1 << 20) as f64,
            f.path
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        );
        total += f.bytes;
    }
    for f in &colours {
        println!(
            "  {}x{}  {}  {}  {} entries  {:.1} MiB  {}",
            f.rows,
            f.cols,
            f.label,
            f.metric,
            f.entries,
            f.bytes as f64 / (1 << 20) as f64,
            f.path
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        );
        total += f.bytes;
    }
    println!(
        "  total {:.1} MiB in {} files",
        total as f64 / (1 << 20) as f64,
        files.len() + colours.len()
    );
    Ok(0)
}

fn verify(args: VerifyArgs) -> Result<u8, Failure> {
    let dir = args.dir.pdb_dir.unwrap_or_else(npuzzle::pdb::default_dir);
    let files = npuzzle::pdb::list(&dir)
        .map_err(|e| anyhow::anyhow!("cannot list {}: {e}", dir.display()))?;
    let budget = super::with_memory(npuzzle::Budget::default(), args.max_memory)
        .with_cancel(Some(super::ctrl_c()));
    let reporter = Reporter::new();
    println!("{}", dir.display());
    if files.is_empty() {
        println!("  (no pattern databases cached)");
    }
    let mut bad = 0;
    for f in &files {
        let name = f
            .path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let verdict = pdb::verify(&dir, f, &reporter, &budget)?;
        match verdict {
            Verdict::Sound => println!("  ok      {name}"),
            Verdict::Unreadable(why) => {
                bad += 1;
                println!("  DAMAGED {name}: {why}");
            }
            Verdict::Wrong { entries, first } => {
                bad += 1;
                let what = if entries == 1 {
                    "1 value differs from its definition".to_string()
                } else {
                    format!("{entries} values differ from their definition")
                };
                println!(
                    "  WRONG   {name}: {what} (the first at entry {first}); delete the file to have it rebuilt"
                );
            }
        }
    }
    if bad == 0 {
        println!("{} sound", super::count(files.len() as u64, "database"));
        Ok(0)
    } else {
        println!(
            "{} of {} wrong or damaged",
            bad,
            super::count(files.len() as u64, "database")
        );
        Ok(super::EXIT_ENVIRONMENT)
    }
}
