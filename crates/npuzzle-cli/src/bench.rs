//! `npuzzle bench FILE`: solve every instance of a benchmark file (such as
//! `korf100.txt`), check each length against the file, print what each
//! cost and the totals.

use super::bench_rows::{self, Row};
use super::solve::SearchArgs;
use super::Failure;
use npuzzle::HeuristicKind;
use npuzzle::Problem;
use npuzzle::{GoalSpec, InputError, Scan, Shape};
use npuzzle_io::instances;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Instance file: tiles in reading order, then the optimal length (as in
    /// data/korf100.txt and data/korf24_50.txt).
    pub file: PathBuf,

    /// Solve only the first N instances.
    #[arg(short, long, value_name = "N")]
    pub limit: Option<usize>,

    /// Solve only these instances (1-based numbers, comma-separated).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub only: Vec<usize>,

    /// The goal (default blank-first, Korf's convention used by the files).
    #[arg(short, long, default_value = "blank-first", num_args = 1..)]
    pub goal: Vec<String>,

    /// Board size, when the field count does not tell it.
    #[arg(short, long, value_name = "RxC")]
    pub size: Option<Shape>,

    #[command(flatten)]
    pub search: SearchArgs,

    /// `--checkpoint FILE`: the search of the instance under way in FILE,
    /// the instances finished in FILE.rows; `--resume` prints those again
    /// and goes on.
    #[command(flatten)]
    pub checkpoint: super::checkpoint::CheckpointArgs,
}

/// Instance files larger than this are refused (Korf's 100 is 6 KB; a
/// thousand 16x16 instances under a MB).
const MAX_FILE_BYTES: u64 = 64 << 20;

/// The instance file's text, read with a size limit (`/dev/zero` must not
/// fill memory).
fn read_file(path: &std::path::Path) -> Result<String, Failure> {
    use std::io::Read;
    let bad = |msg: String| Failure {
        code: super::EXIT_BAD_INPUT,
        error: anyhow::anyhow!("cannot read {}: {msg}", path.display()),
    };
    let file = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(bad(format!(
            "it is larger than {}",
            npuzzle::Bytes::from(MAX_FILE_BYTES)
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        bad(format!(
            "it is not text (UTF-8): byte {} is not valid",
            e.utf8_error().valid_up_to() + 1
        ))
    })
}

pub fn run(args: BenchArgs) -> Result<u8, Failure> {
    let chosen = chosen(&args)?;
    let Some(first) = chosen.first() else {
        println!("no instances");
        return Ok(0);
    };
    let spec: GoalSpec = args.goal.join(" ").parse().map_err(InputError::goal)?;
    let goal = spec.resolve(first.start.shape(), &mut Scan::new())?;
    let mut opts = args.search.options(false)?;
    // A benchmark of optimal lengths: `auto` means exact search here; an
    // inexact algorithm is measured against the lengths when asked for.
    if args.search.algo == npuzzle::Algorithm::Auto {
        opts = opts.with_optimal(true);
    }

    // What runs is the planner's choice, asked once for the first
    // instance (every instance has the same shape and goal).
    let plan = npuzzle::plan(&Problem::new(first.start.clone(), goal.clone())?, &opts)?;
    // Load (or build) the databases and the move-pruning automaton
    // before the clock starts.
    let t0 = Instant::now();
    plan.prepare(&goal, &opts)?;
    if plan.heuristic == Some(HeuristicKind::Pdb) {
        eprintln!(
            "pattern databases ready in {:.2} s",
            t0.elapsed().as_secs_f64()
        );
    }
    let label = plan.to_string();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {}, {label}",
        args.file.display(),
        super::count(chosen.len() as u64, "instance"),
    )?;
    writeln!(
        out,
        "{:>4} {:>6} {:>6} {:>14} {:>14} {:>10}",
        "#", "moves", "file", "expanded", "generated", "seconds"
    )?;
    // An instance file's lengths count single-tile moves. In pushes an
    // answer m is checked against them as m <= l <= m * (side - 1): a push
    // is one to side - 1 single moves, and a single move is a push.
    let per = match opts.metric {
        npuzzle::Metric::Mtm => {
            let shape = goal.shape();
            writeln!(
                out,
                "in pushes: each length is checked against the file's single-tile length l as m <= l <= {} m",
                shape.rows.max(shape.cols) - 1
            )?;
            Some((shape.rows.max(shape.cols) - 1) as i64)
        }
        npuzzle::Metric::Stm => None,
    };
    let mut tally = Tally {
        per,
        ..Tally::default()
    };
    let t_all = Instant::now();
    let checkpointing = args.checkpoint.checkpointing()?;
    let mut rows = match &checkpointing {
        Some(c) if c.resume => bench_rows::read(&c.path, &chosen)?,
        _ => Vec::new(),
    };
    for row in &rows {
        if let Some(inst) = chosen.iter().find(|i| i.number == row.number) {
            let ok = tally.add(inst, row);
            print_row(&mut out, inst, row, ok)?;
        }
    }
    // the first instance not done goes on from the checkpoint, if one is kept
    let mut resume = checkpointing
        .as_ref()
        .is_some_and(|c| c.resume && c.path.exists());
    let done: Vec<usize> = rows.iter().map(|r| r.number).collect();
    for inst in chosen.iter().filter(|i| !done.contains(&i.number)) {
        let problem = Problem::new(inst.start.clone(), goal.clone())?;
        let c = checkpointing.clone().map(|c| c.resuming(resume));
        resume = false;
        let sol = npuzzle::solve(&problem, &opts.clone().with_checkpoint(c));
        if let Err(e) = &sol {
            args.checkpoint.after(e);
        }
        let row = Row::of(inst, &sol?);
        let ok = tally.add(inst, &row);
        print_row(&mut out, inst, &row, ok)?;
        if let Some(c) = &checkpointing {
            rows.push(row);
            bench_rows::write(&c.path, &rows)?;
        }
    }
    if let Some(c) = &checkpointing {
        bench_rows::remove(&c.path);
    }
    tally.summary(&mut out, t_all.elapsed().as_secs_f64())?;
    tally.verdict(&mut out)
}

/// One instance's line of the table.
fn print_row(
    out: &mut impl Write,
    inst: &instances::Instance,
    row: &Row,
    ok: bool,
) -> Result<(), Failure> {
    writeln!(
        out,
        "{:>4} {:>6} {:>6} {:>14} {:>14} {:>10.3}{}",
        inst.number,
        row.moves.map_or(-1, i64::from),
        inst.length.map_or("-".into(), |l| l.to_string()),
        row.expanded,
        row.generated,
        row.seconds,
        if ok { "" } else { "  WRONG" }
    )?;
    out.flush()?;
    Ok(())
}

impl Row {
    /// The row of `inst`'s answer `sol`.
    fn of(inst: &instances::Instance, sol: &npuzzle::Solution) -> Row {
        Row {
            number: inst.number,
            start: inst.start.tiles().to_vec(),
            moves: sol.moves,
            optimal: sol.optimal,
            expanded: sol.stats.expanded,
            generated: sol.stats.generated,
            seconds: sol.stats.elapsed.as_secs_f64(),
        }
    }
}

/// The instances of the file that `--only` and `--limit` choose.
fn chosen(args: &BenchArgs) -> Result<Vec<instances::Instance>, Failure> {
    let text = read_file(&args.file)?;
    let all = instances::parse(&text, args.size).map_err(|e| Failure {
        code: 2,
        error: anyhow::anyhow!("{}: {e}", args.file.display()),
    })?;
    Ok(all
        .into_iter()
        .filter(|i| args.only.is_empty() || args.only.contains(&i.number))
        .take(args.limit.unwrap_or(usize::MAX))
        .collect())
}

/// The answers so far, against the file's lengths.
#[derive(Default)]
struct Tally {
    expanded: u64,
    generated: u64,
    moves: u64,
    /// Instances answered.
    count: usize,
    /// Instances whose answer contradicts the file's length.
    wrong: Vec<usize>,
    /// For answers not proven optimal: their ratios to the file's lengths.
    ratios: Vec<f64>,
    /// Seconds searching, per instance.
    times: Vec<f64>,
    /// In pushes, the most single moves one push makes: the file's
    /// single-tile lengths then bound the answers rather than equal them.
    per: Option<i64>,
}

impl Tally {
    /// Counts one answer; returns whether it agrees with the file.
    fn add(&mut self, inst: &instances::Instance, sol: &Row) -> bool {
        let m = sol.moves.map_or(-1, i64::from);
        // An exact answer must equal the file's length; one not proven
        // optimal must be no shorter (shorter would be a wrong length in
        // the file, or a wrong path).
        let ok = match (inst.length, self.per) {
            (Some(l), Some(per)) if sol.optimal => m <= i64::from(l) && m * per >= i64::from(l),
            (Some(l), Some(per)) => m * per >= i64::from(l),
            (Some(l), None) if sol.optimal => m == i64::from(l),
            (Some(l), None) => {
                self.ratios.push(m as f64 / f64::from(l.max(1)));
                m >= i64::from(l)
            }
            (None, _) => true,
        };
        if !ok {
            self.wrong.push(inst.number);
        }
        self.count += 1;
        self.expanded += sol.expanded;
        self.generated += sol.generated;
        self.moves += m.max(0) as u64;
        self.times.push(sol.seconds);
        ok
    }

    /// The `total:` line (which `benches/ab.sh` reads), and the ratios of
    /// answers not proven optimal.
    fn summary(&self, out: &mut impl Write, wall: f64) -> Result<(), Failure> {
        let sum: f64 = self.times.iter().sum();
        let mut times = self.times.clone();
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let (n, expanded, generated) = (self.count, self.expanded, self.generated);
        writeln!(
            out,
            "total: {}, {} moves, {expanded} expanded ({:.0} per instance), {generated} generated, {sum:.3} s searching ({wall:.3} s wall), median {median:.4} s, {:.1} M expanded/s",
            super::count(n as u64, "instance"),
            self.moves,
            expanded as f64 / n as f64,
            expanded as f64 / sum.max(1e-9) / 1e6,
        )?;
        if !self.ratios.is_empty() {
            let mean = self.ratios.iter().sum::<f64>() / self.ratios.len() as f64;
            let worst = self.ratios.iter().copied().fold(0.0, f64::max);
            writeln!(
                out,
                "not proven optimal: {}; ratio to the file's lengths: mean {mean:.4}, worst {worst:.4}",
                super::count(self.ratios.len() as u64, "answer"),
            )?;
        }
        Ok(())
    }

    /// The last line and the exit status: 0 when every length agrees.
    fn verdict(&self, out: &mut impl Write) -> Result<u8, Failure> {
        let n = self.count;
        if self.wrong.is_empty() {
            if self.per.is_some() {
                writeln!(
                    out,
                    "all {n} lengths in pushes agree with the file's single-tile lengths"
                )?;
            } else if !self.ratios.is_empty() {
                writeln!(out, "no answer shorter than the file's length")?;
            } else if n == 1 {
                writeln!(out, "the length matches the file")?;
            } else {
                writeln!(out, "all {n} lengths match the file")?;
            }
            return Ok(0);
        }
        let list: Vec<String> = self.wrong.iter().map(ToString::to_string).collect();
        writeln!(out, "WRONG length on instances {}", list.join(", "))?;
        out.flush()?;
        // the status's reason on stderr too, for a caller reading only that
        eprintln!(
            "npuzzle: bench: the lengths of instances {} differ from the file's ({} of {n})",
            list.join(", "),
            self.wrong.len(),
        );
        Ok(1)
    }
}
