//! `npuzzle pdb score`: how strong partitions are before searching with
//! them, from their estimates of uniformly random boards (see
//! `npuzzle::pdb::Estimator` for the arithmetic).

use super::pdb::{DirArgs, Reporter};
use super::{Failure, EXIT_BAD_INPUT};
use npuzzle::pdb::{branching_factor, BlankMode, Estimator, PartitionSpec, PdbOptions};
use npuzzle::Shape;
use npuzzle_io::random::{Generator, Mode};
use std::sync::atomic::Ordering;

#[derive(clap::Args, Debug)]
pub struct ScoreArgs {
    /// Board size, e.g. 5x5.
    #[arg(short, long, value_name = "RxC")]
    pub size: Shape,
    /// A partition to score, as for `pdb build`; give it again for more
    /// (at most eight): each is scored alone, then the first ones maxed.
    #[arg(short, long, required = true, value_name = "PARTITION")]
    pub partition: Vec<PartitionSpec>,
    /// The goal (default blank-last).
    #[arg(short, long, num_args = 1..)]
    pub goal: Option<Vec<String>>,
    /// Uniformly random boards to estimate (at least 1).
    #[arg(long, default_value_t = 100_000)]
    pub samples: u64,
    /// Seed of the boards drawn (the same boards for every partition).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which databases keep one value per region of the blank: regions
    /// (the default here: the values of bits, read without walking), min
    /// or auto.
    #[arg(long, value_name = "MODE", default_value = "regions")]
    pub pdb_blank: BlankMode,
    /// Most memory a build may hold, e.g. 8G (default: 60% of the memory
    /// available).
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    pub max_memory: Option<u64>,
    #[command(flatten)]
    pub dir: DirArgs,
}

/// Most partitions one run scores (their databases are all held at once).
const MAX_PARTITIONS: usize = 8;

/// One row of the report: which partitions, their estimates' mean, and
/// the mean of `b^−h` (relative to the first row's, the nodes an IDA*
/// search would expand against the first partition's).
struct Row {
    label: String,
    mean: f64,
    weight: f64,
    /// The standard error of `weight` over the first row's `weight`,
    /// relative to that ratio (paired: the same boards for every row). The
    /// mean of `b^−h` rests on the few boards of low estimate, so it needs
    /// many samples.
    error: f64,
}

pub fn run(args: ScoreArgs) -> Result<u8, Failure> {
    let bad = |msg: String| Failure {
        code: EXIT_BAD_INPUT,
        error: anyhow::anyhow!(msg),
    };
    if args.samples == 0 {
        return Err(bad("--samples must be at least 1".into()));
    }
    if args.partition.len() > MAX_PARTITIONS {
        return Err(bad(format!(
            "at most {MAX_PARTITIONS} partitions can be scored at once, not {}",
            args.partition.len()
        )));
    }
    let goal = super::pdb::goal_of(args.goal.as_deref(), args.size)?;
    let budget = super::with_memory(npuzzle::Budget::default(), args.max_memory)
        .with_cancel(Some(super::ctrl_c()));
    let reporter = Reporter::new();
    let opts = |p: &PartitionSpec| {
        PdbOptions::default()
            .with_partition(p.clone())
            .with_blank(args.pdb_blank)
            .with_dir(args.dir.pdb_dir.clone())
    };
    let single: Vec<Estimator> = args
        .partition
        .iter()
        .map(|p| Estimator::new(&goal, &opts(p), &reporter, &budget))
        .collect::<Result<_, _>>()?;
    let b = branching_factor(goal.shape());
    let rows = score(&single, &goal, &args, b)?;
    println!(
        "{} boards of {} drawn uniformly (seed {}), branching factor {b:.4}",
        args.samples,
        goal.shape(),
        args.seed
    );
    println!("{:>7} {:>8} {:>6}  partitions", "mean h", "nodes", "±");
    let base = rows[0].weight;
    for r in &rows {
        println!(
            "{:>7.2} {:>8.4} {:>5.1}%  {}",
            r.mean,
            r.weight / base,
            100.0 * r.error,
            r.label
        );
    }
    println!("nodes: the mean of b^-h against the first partition's, roughly the nodes an IDA* search expands against it; ±: that ratio's standard error");
    Ok(0)
}

/// The rows: each partition alone, then the first two, three, … maxed.
fn score(
    single: &[Estimator],
    goal: &npuzzle::Board,
    args: &ScoreArgs,
    b: f64,
) -> Result<Vec<Row>, Failure> {
    let k = single.len();
    // sums of h and of b^-h, for each partition alone and each prefix maxed
    let zero = || vec![0f64; 2 * k];
    // and of its square and its product with the first partition's
    let (mut h, mut w, mut w2, mut w0) = (zero(), zero(), zero(), zero());
    let mut gen = Generator::new(goal, Mode::Solvable, args.seed, false);
    let cancel = super::ctrl_c();
    for i in 0..args.samples {
        if i % 4096 == 0 && cancel.load(Ordering::Relaxed) {
            return Err(anyhow::anyhow!("interrupted after {i} boards").into());
        }
        let (board, _) = gen.next_boards()?;
        let mut best = 0;
        let mut first = 0.0;
        for (j, e) in single.iter().enumerate() {
            let v = e.estimate(&board).unwrap_or(0);
            best = best.max(v);
            for (slot, x) in [(j, v), (k + j, best)] {
                let y = b.powf(-f64::from(x));
                if j == 0 {
                    first = y;
                }
                h[slot] += f64::from(x);
                w[slot] += y;
                w2[slot] += y * y;
                w0[slot] += y * first;
            }
        }
    }
    let n = args.samples as f64;
    // the ratio r = m / m0 of two paired means, by the delta method:
    // var(r) ≈ (var y + r² var y0 − 2 r cov(y, y0)) / (n m0²)
    let error = |j: usize| {
        let (m, m0) = (w[j] / n, w[0] / n);
        if m <= 0.0 || m0 <= 0.0 {
            return 0.0;
        }
        let r = m / m0;
        let var = w2[j] / n - m * m;
        let var0 = w2[0] / n - m0 * m0;
        let cov = w0[j] / n - m * m0;
        ((var + r * r * var0 - 2.0 * r * cov).max(0.0) / n).sqrt() / m0 / r
    };
    let mut rows = Vec::new();
    let names: Vec<String> = args.partition.iter().map(ToString::to_string).collect();
    for j in 0..k {
        rows.push(Row {
            label: format!("{} ({})", names[j], single[j].label()),
            mean: h[j] / n,
            weight: w[j] / n,
            error: error(j),
        });
    }
    for j in 1..k {
        rows.push(Row {
            label: format!("max of {}", names[..=j].join(" | ")),
            mean: h[k + j] / n,
            weight: w[k + j] / n,
            error: error(k + j),
        });
    }
    Ok(rows)
}
