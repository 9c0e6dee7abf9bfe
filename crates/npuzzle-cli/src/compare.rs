//! `npuzzle compare`: every algorithm × heuristic on one problem, side by
//! side, with a check that they agree.

use super::input::ProblemArgs;
use super::Failure;
use npuzzle::pdb::{PartitionSpec, PdbOptions};
use npuzzle::{compare, CompareRow};
use npuzzle::{Budget, SolveOptions};
use std::io::Write;
use std::path::PathBuf;

/// Default `--max-states` for compare.
pub const COMPARE_MAX_STATES: u64 = 10_000_000;
/// Default `--max-nodes` for compare.
pub const COMPARE_MAX_NODES: u64 = 1_000_000_000;

#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    /// Print the rows as a JSON array instead of a table.
    #[arg(long)]
    pub json: bool,

    /// Most states BFS, bidirectional BFS and A* may hold (each run; smaller
    /// than `solve`'s default, as compare runs a dozen searches).
    #[arg(long, value_name = "N", default_value_t = COMPARE_MAX_STATES)]
    pub max_states: u64,

    /// Most node expansions IDA* may make (each run; about ten seconds).
    #[arg(long, value_name = "N", default_value_t = COMPARE_MAX_NODES)]
    pub max_nodes: u64,

    /// Stop each search after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,

    /// Most memory each search may hold, e.g. 512M or 8G (default: 60% of
    /// the memory available).
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    pub max_memory: Option<u64>,

    /// Pattern databases for the pdb rows (as for solve; default 6-6-3 on
    /// 4x4, automatic on smaller boards).
    #[arg(long, value_name = "PARTITION", default_value = "auto")]
    pub pdb: PartitionSpec,

    /// Pattern database cache directory (default: $XDG_CACHE_HOME/npuzzle).
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,

    /// How moves are counted: stm, or mtm (multi-tile: a push of a run of
    /// tiles is one move; the rows that count single moves only say so).
    #[arg(long, value_name = "METRIC", default_value = "stm")]
    pub metric: npuzzle::Metric,
}

pub fn run(args: CompareArgs) -> Result<u8, Failure> {
    let problem = args.problem.problem()?;
    let timeout = super::solve::parse_timeout(args.timeout)?;
    let opts = SolveOptions::default()
        .with_metric(args.metric)
        .with_budget(
            super::with_memory(Budget::default(), args.max_memory)
                .with_max_states(args.max_states)
                .with_max_nodes(args.max_nodes)
                .with_timeout(timeout)
                .with_cancel(Some(super::ctrl_c())),
        )
        .with_pdb(
            PdbOptions::default()
                .with_partition(args.pdb.clone())
                .with_dir(args.pdb_dir.clone())
                .with_reporter(Some(super::pdb::Reporter::shared())),
        );
    let cmp = compare(&problem, &opts);
    if super::interrupted() {
        // The rows after Ctrl-C are cancellations, not costs: no table.
        let done = cmp.rows.iter().filter(|r| r.moves.is_some()).count();
        return Err(super::CtrlC(format!(
            "compare stopped by Ctrl-C after {done} of {} searches answered",
            cmp.rows.len()
        ))
        .into());
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &cmp.rows)?;
        writeln!(out)?;
    } else {
        print_table(&mut out, &cmp.rows)?;
    }
    let answered: Vec<&CompareRow> = cmp.rows.iter().filter(|r| r.moves.is_some()).collect();
    let code = if answered.is_empty() {
        if !args.json {
            writeln!(out, "no algorithm answered within its budget")?;
        }
        super::EXIT_BUDGET
    } else if cmp.agree {
        if !args.json {
            let m = answered[0].moves.unwrap_or(-1);
            let what = if m < 0 {
                "the goal is unreachable (-1)".to_string()
            } else {
                format!("{m} moves")
            };
            writeln!(out, "all {} answers agree: {what}", answered.len())?;
        }
        0
    } else {
        if !args.json {
            let list: Vec<String> = answered
                .iter()
                .map(|r| {
                    format!(
                        "{}{}={}",
                        r.algorithm,
                        r.heuristic.map(|h| format!("+{h}")).unwrap_or_default(),
                        r.moves.unwrap_or(-1)
                    )
                })
                .collect();
            writeln!(out, "DISAGREEMENT: {}", list.join(", "))?;
        }
        1
    };
    Ok(code)
}

fn print_table(out: &mut impl Write, rows: &[CompareRow]) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<9} {:<16} {:>6} {:>14} {:>14} {:>12} {:>12}",
        "algorithm", "heuristic", "moves", "expanded", "generated", "peak states", "time"
    )?;
    for r in rows {
        let h = r.heuristic.unwrap_or("-");
        match (&r.moves, &r.skipped) {
            (Some(m), _) => writeln!(
                out,
                "{:<9} {:<16} {:>6} {:>14} {:>14} {:>12} {:>12}",
                r.algorithm,
                h,
                m,
                r.expanded,
                r.generated,
                r.peak_states,
                time(r.seconds)
            )?,
            (None, why) => writeln!(
                out,
                "{:<9} {:<16} {:>6} {}",
                r.algorithm,
                h,
                "-",
                why.as_deref().unwrap_or("no answer")
            )?,
        }
    }
    Ok(())
}

fn time(s: f64) -> String {
    if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
}
