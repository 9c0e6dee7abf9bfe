//! `npuzzle solve`.

use super::input::ProblemArgs;
use super::Failure;
use npuzzle::pdb::{BlankMode, Combine, PartitionSpec, PdbOptions};
use npuzzle::HeuristicKind;
use npuzzle::Pruning;
use npuzzle::{format_moves, Notation, PartialGoal};
use npuzzle::{Algorithm, Budget, Metric, Problem, Solution, SolveOptions};
use npuzzle_io::report::Report;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    /// Count the start as step 1 (the convention of some textbooks); -1 stays -1.
    #[arg(long)]
    pub count_start: bool,

    /// Print the moves as a UDLR string (the blank's direction) on line 2
    /// (streamed as they are produced on boards beyond 16x16).
    #[arg(short, long)]
    pub path: bool,

    /// Print every board along the optimal path.
    #[arg(short, long)]
    pub boards: bool,

    /// How paths are written: blank (the way the blank moves) or tile
    /// (the way the tiles move: blank U is tile D).
    #[arg(long, value_name = "NOTATION", default_value = "blank")]
    pub notation: Notation,

    /// Separate the moves of the path by spaces (boards of at most 16x16).
    #[arg(long)]
    pub spaced: bool,

    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,

    /// Print every optimal solution, one a line after the count (at most
    /// --max-solutions of them; the number of all is counted exactly).
    #[arg(long)]
    pub all: bool,

    /// With --all: the most solutions printed.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max_solutions: usize,

    /// Print what the search cost (nodes expanded and generated, peak states, time)
    /// and what ran, and why.
    #[arg(long)]
    pub stats: bool,

    /// Print what would run, and why, without running it.
    #[arg(long)]
    pub explain: bool,

    #[command(flatten)]
    pub search: SearchArgs,

    #[command(flatten)]
    pub checkpoint: super::checkpoint::CheckpointArgs,

    /// timely: workers per process (default and at most: every core).
    #[arg(long, value_name = "N", value_parser = super::cluster::at_least_one)]
    pub workers: Option<usize>,

    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Algorithm, heuristic and budgets, shared by every command that searches.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Algorithm: auto (the planner's choice: exact search up to 16 cells,
    /// anytime up to 25, fast beyond), table, bfs, bfs-hash, bfs-set (BFS
    /// with a hash set / an ordered set of visited states), bibfs, astar,
    /// idastar, wastar (within --weight of optimal), greedy (greedy
    /// best-first on the heuristic alone, not optimal), dfid (depth-first
    /// iterative deepening, no heuristic), anytime, fast (any size up to
    /// 4096x4096, not optimal; the only one beyond 16x16).
    #[arg(short, long, default_value = "auto", value_name = "ALGO")]
    pub algo: Algorithm,

    /// Heuristic for astar and idastar: auto, misplaced, manhattan,
    /// linear-conflict, pdb.
    #[arg(long, default_value = "auto", value_name = "H")]
    pub heuristic: HeuristicKind,

    /// Most states BFS, bidirectional BFS and A* may hold before stopping.
    #[arg(long, value_name = "N", default_value_t = Budget::DEFAULT_MAX_STATES)]
    pub max_states: u64,

    /// Most node expansions IDA* may make before stopping.
    #[arg(long, value_name = "N", default_value_t = Budget::DEFAULT_MAX_NODES)]
    pub max_nodes: u64,

    /// Stop any search after this many seconds (database builds included).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,

    /// Most memory one search may hold, e.g. 512M or 8G (default: 60% of
    /// the memory available, or of the process's limit if lower).
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    pub max_memory: Option<u64>,

    /// Pattern databases for --heuristic pdb: 7-8, 6-6-3, 5-5-5 (4x4),
    /// 6-6-6-6 (5x5), group sizes such as 4-4, tile groups such as
    /// 1,2,3/4,5,6,7,8, or auto (6-6-3 on 4x4, 6-6-6-6 on 5x5). With
    /// --metric mtm the groups are colours of one database over the whole
    /// board (tiles in no group share one more; auto: blocks of the board).
    #[arg(long, value_name = "PARTITION", default_value = "auto")]
    pub pdb: PartitionSpec,

    /// Another partition for --heuristic pdb (written as --pdb takes it;
    /// up to three times): the estimate is then the largest of the partitions'
    /// sums, each with its reflection (more pruning, each set's memory).
    #[arg(long, value_name = "PARTITION")]
    pub pdb_also: Vec<PartitionSpec>,

    /// More partitions for --heuristic pdb, one a line of FILE (as --pdb
    /// takes them; `#` starts a comment), after those of --pdb-also.
    #[arg(long, value_name = "FILE")]
    pub pdb_partitions: Option<PathBuf>,

    /// How several partitions combine: max (the largest of their sums; up
    /// to four), covers (the largest sum over every way their groups and
    /// the groups' transposes split the tiles; up to 64: more pruning,
    /// more lookups a node) or auto (max up to four, covers above).
    #[arg(long, value_name = "MODE", default_value = "auto")]
    pub pdb_combine: Combine,

    /// Pattern database cache directory (default: $XDG_CACHE_HOME/npuzzle).
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,

    /// Which databases keep one value per region of the blank: auto (on
    /// boards of up to 16 cells, those of at most 256 MiB), min (none:
    /// smallest), regions (all: most pruning) or bits (all, kept at one
    /// bit an entry: the pruning of regions in a quarter of its memory; not
    /// with --dual).
    #[arg(long, value_name = "MODE", default_value = "auto")]
    pub pdb_blank: BlankMode,

    /// Threads for one search (parallel IDA*); 0 means all cores.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,

    /// The weight W of --algo wastar: answers at most W times the fewest
    /// moves (at least 1).
    #[arg(long, value_name = "W", default_value_t = SolveOptions::DEFAULT_WEIGHT, value_parser = parse_weight)]
    pub weight: f64,

    /// Insist on a proven-optimal answer: auto never falls back to a faster
    /// answer that is not, and wastar or anytime are refused; a budget that
    /// runs out is exit 3.
    #[arg(long)]
    pub optimal: bool,

    /// IDA*'s move pruning: auto (the automaton of duplicate move strings
    /// where it is built), parent (only no move straight back), automaton.
    #[arg(long, value_name = "P", default_value = "auto")]
    pub prune: Pruning,

    /// With --heuristic pdb and IDA*: also look up the dual position (and
    /// its reflection), with bidirectional pathmax.
    #[arg(long)]
    pub dual: bool,

    /// How moves are counted: stm (single-tile: each tile slid one cell is
    /// a move) or mtm (multi-tile: sliding a run of tiles of the blank's
    /// row or column at once is one move).
    #[arg(long, value_name = "METRIC", default_value = "stm")]
    pub metric: Metric,
}

/// `--weight W`: a number from 1 to 100.
fn parse_weight(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(w) if (1.0..=100.0).contains(&w) => Ok(w),
        _ => Err(format!(
            "'{}' is not a weight; give a number from 1 to 100, e.g. 1.5",
            npuzzle::printable(text)
        )),
    }
}

impl SearchArgs {
    /// The partitions of `--pdb-also`, then those of `--pdb-partitions`.
    fn also(&self) -> Result<Vec<PartitionSpec>, Failure> {
        let mut also = self.pdb_also.clone();
        if let Some(path) = &self.pdb_partitions {
            also.extend(read_partitions(path)?);
        }
        Ok(also)
    }

    /// The library's options for these arguments, refused at once when
    /// they do not go together (before any database is built or search
    /// started), stopped by Ctrl-C from here on.
    pub fn options(&self, want_path: bool) -> Result<SolveOptions, Failure> {
        let timeout = parse_timeout(self.timeout)?;
        let opts = SolveOptions::default()
            .with_algorithm(self.algo)
            .with_heuristic(self.heuristic)
            .with_path(want_path)
            .with_budget(
                super::with_memory(Budget::default(), self.max_memory)
                    .with_max_states(self.max_states)
                    .with_max_nodes(self.max_nodes)
                    .with_timeout(timeout)
                    .with_cancel(Some(super::ctrl_c())),
            )
            .with_pdb(
                PdbOptions::default()
                    .with_partition(self.pdb.clone())
                    .with_also(self.also()?)
                    .with_combine(self.pdb_combine)
                    .with_dir(self.pdb_dir.clone())
                    .with_dual(self.dual)
                    .with_blank(self.pdb_blank)
                    .with_reporter(Some(super::pdb::Reporter::shared())),
            )
            // 0 is every core; the planner caps it at the machine's cores.
            .with_threads(self.threads)
            .with_weight(self.weight)
            .with_optimal(self.optimal)
            .with_pruning(self.prune)
            .with_metric(self.metric);
        opts.check()?;
        super::unused::refuse_unused(&opts)?;
        Ok(opts)
    }
}

/// `--timeout` as a duration: a positive number of seconds.
pub fn parse_timeout(t: Option<f64>) -> Result<Option<Duration>, Failure> {
    t.map(|t| {
        Budget::seconds(t).map_err(|e| Failure {
            code: super::EXIT_BAD_INPUT,
            error: anyhow::anyhow!("--timeout {e}"),
        })
    })
    .transpose()
}

impl SolveArgs {
    /// What to print, for the solver of boards beyond 16x16.
    fn show(&self) -> super::large::Show {
        super::large::Show {
            count_start: self.count_start,
            path: self.path,
            boards: self.boards,
            json: self.json,
            notation: self.notation,
            stats: self.stats,
            explain: self.explain,
        }
    }
}

pub fn run(args: SolveArgs) -> Result<u8, Failure> {
    super::solve_timely::check(&args)?;
    let timely = args.cluster.engine == super::cluster::Engine::Timely;
    if let Some(goal) = args
        .problem
        .goal
        .as_deref()
        .filter(|g| PartialGoal::is_partial(g))
    {
        args.checkpoint.refuse("a partial goal")?;
        if timely {
            return Err(timely_refuses("a partial goal"));
        }
        return super::partial::run(&args, goal);
    }
    let (start, goal) = args.problem.grids()?;
    let want_path = args.path || args.boards || args.json;
    let opts = args
        .search
        .options(want_path)?
        .with_checkpoint(args.checkpoint.checkpointing()?);
    let problem = match (start.to_board(), goal.to_board()) {
        (Ok(s), Ok(g)) if start.is_small() => Problem::new(s, g)?,
        // beyond 16x16: the fast solver, streaming
        _ if args.spaced => {
            return Err(Failure {
                code: super::EXIT_BAD_INPUT,
                error: anyhow::anyhow!(
                    "--spaced is for boards of at most 16x16: larger paths are streamed as letters (this one is {}x{})",
                    start.rows(),
                    start.cols()
                ),
            })
        }
        _ if timely => return Err(timely_refuses("boards beyond 16x16")),
        _ => {
            args.checkpoint.refuse("the solver of boards beyond 16x16")?;
            return super::large::run(&args.show(), &start, &goal, &opts);
        }
    };
    if args.explain {
        let plan = npuzzle::plan(&problem, &opts)?;
        let mut out = std::io::stdout().lock();
        if args.json {
            serde_json::to_writer_pretty(&mut out, &plan)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{plan}")?;
        }
        return Ok(0);
    }
    if args.all {
        args.checkpoint.refuse("--all")?;
        return super::all::run(&args, &problem, &opts);
    }
    if timely {
        return match super::solve_timely::run(&args, &problem, &opts)? {
            Some(sol) => print(&args, &problem, &sol),
            None => Ok(0),
        };
    }
    // on a terminal, a long IDA* search shows how far it is
    let (budget, watcher) = super::progress::watch(opts.budget.clone());
    let sol = npuzzle::solve(&problem, &opts.clone().with_budget(budget));
    drop(watcher);
    if let Err(e) = &sol {
        args.checkpoint.after(e);
    }
    print(&args, &problem, &sol?)
}

fn timely_refuses(what: &str) -> Failure {
    Failure {
        code: super::EXIT_BAD_INPUT,
        error: anyhow::anyhow!(
            "--engine timely solves boards of at most 16x16 by IDA*, not {what}"
        ),
    }
}

/// The answer as asked: the count, the path, the boards, the figures.
fn print(args: &SolveArgs, problem: &Problem, sol: &Solution) -> Result<u8, Failure> {
    if let (Some(m), Some(lower)) = (sol.moves, sol.lower_bound) {
        // Line 1 stays the count; that it is not proven the fewest must not
        // go unsaid.
        eprintln!(
            "npuzzle: {m} moves, not proven optimal: the fewest is at least {lower}, so this is at most {:.3} times it{}",
            sol.max_ratio().unwrap_or(f64::INFINITY),
            if sol.algorithm == "wastar" {
                format!(" (weighted A* guarantees at most {} times)", args.search.weight)
            } else {
                String::new()
            }
        );
    }
    let mut report = Report::new(problem, sol, args.count_start, args.boards);
    // in the notation asked for, counted as the solver counted
    let written = |p: &[npuzzle::Dir]| format_moves(p, args.notation, sol.metric, args.spaced);
    report.path = sol.path.as_deref().map(written);
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
        return Ok(0);
    }
    writeln!(out, "{}", report.moves)?;
    if let Some(path) = &sol.path {
        if args.path {
            writeln!(out, "{}", written(path))?;
        }
        if args.boards {
            for (i, b) in problem.start().trajectory(path)?.iter().enumerate() {
                let label = match i {
                    0 => "start".to_string(),
                    _ => format!("move {i}: {}", args.notation.letter(path[i - 1])),
                };
                writeln!(out, "\n{label}\n{b}")?;
            }
        }
    }
    if args.stats {
        let s = sol.stats;
        if let Some(plan) = &report.plan {
            writeln!(out, "plan: {plan}")?;
        }
        writeln!(out, "algorithm: {}", sol.algorithm)?;
        writeln!(out, "heuristic: {}", sol.heuristic.unwrap_or("-"))?;
        writeln!(out, "nodes expanded: {}", s.expanded)?;
        writeln!(out, "nodes generated: {}", s.generated)?;
        writeln!(out, "peak states: {}", s.peak_states)?;
        writeln!(out, "time: {:.3} ms", s.elapsed.as_secs_f64() * 1e3)?;
        write_iterations(&mut out, &sol.iterations)?;
    }
    Ok(0)
}

/// IDA*'s iterations for `--stats`: each bound, its nodes, and how many
/// times the one before it they are (the growth that a long search's next
/// iteration can be estimated from).
fn write_iterations(
    out: &mut impl Write,
    its: &[npuzzle::IterationSummary],
) -> std::io::Result<()> {
    if its.is_empty() {
        return Ok(());
    }
    writeln!(out, "iterations: {}", its.len())?;
    let mut last: Option<u64> = None;
    for it in its {
        let growth = match last {
            Some(l) if l > 0 => format!(
                " ({:.2}x the iteration before)",
                it.expanded as f64 / l as f64
            ),
            _ => String::new(),
        };
        writeln!(
            out,
            "  bound {}: {} nodes expanded{growth}",
            it.bound, it.expanded
        )?;
        last = Some(it.expanded);
    }
    Ok(())
}

/// The partitions listed in `path`, one a line (blank lines and `#`
/// comments skipped): exit 1 when it cannot be read, 2 naming the line
/// that is no partition.
pub fn read_partitions(path: &std::path::Path) -> Result<Vec<PartitionSpec>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure {
        code: super::EXIT_ENVIRONMENT,
        error: anyhow::anyhow!("cannot read {}: {e}", path.display()),
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let spec = line.parse::<PartitionSpec>().map_err(|e| Failure {
            code: super::EXIT_BAD_INPUT,
            error: anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1),
        })?;
        out.push(spec);
    }
    Ok(out)
}
