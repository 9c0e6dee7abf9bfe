//! `npuzzle solve --engine timely`: IDA* on timely-dataflow workers, in
//! one process or across many (see `npuzzle_space::cluster::solve`).

use super::cluster::Engine;
use super::solve::SolveArgs;
use super::{Failure, EXIT_BAD_INPUT};
use npuzzle::{Algorithm, ErrorKind, Metric, Problem, Solution, SolveOptions};
use npuzzle_space::cluster::{self, ClusterSolveError, Sharing};
use npuzzle_space::SpaceError;

fn bad(msg: String) -> Failure {
    Failure {
        code: EXIT_BAD_INPUT,
        error: anyhow::anyhow!(msg),
    }
}

/// Refuses what the timely engine does not do, and `--workers` without it
/// (before any database is built or peer awaited).
pub fn check(args: &SolveArgs) -> Result<(), Failure> {
    args.cluster.check()?;
    if args.cluster.engine == Engine::Local {
        if args.workers.is_some() {
            return Err(bad(
                "--workers is an option of --engine timely; the local engine's search takes \
                 --threads"
                    .into(),
            ));
        }
        return Ok(());
    }
    let s = &args.search;
    if !matches!(s.algo, Algorithm::Auto | Algorithm::Idastar) {
        return Err(bad(format!(
            "--engine timely runs IDA* (--algo idastar), not --algo {}",
            s.algo
        )));
    }
    if s.metric != Metric::Stm {
        return Err(bad(
            "--engine timely counts single-tile moves (--metric stm): the multi-tile search has \
             no distributed form yet"
                .into(),
        ));
    }
    let refused = [
        (
            s.threads != 1,
            "--threads (the timely engine's threads are --workers)",
        ),
        (args.all, "--all"),
        (s.dual, "--dual"),
    ];
    if let Some((_, what)) = refused.iter().find(|(given, _)| *given) {
        return Err(bad(format!("--engine timely does not take {what}")));
    }
    Ok(())
}

/// The answer of the distributed search, on process 0; `None` on the
/// others (which print nothing, as every process has the same answer).
pub fn run(
    args: &SolveArgs,
    problem: &Problem,
    opts: &SolveOptions,
) -> Result<Option<Solution>, Failure> {
    let workers = super::cluster::workers(args.workers, "solve");
    // --timeout bounds the wait for the peers as it bounds the search
    let limit = Some(
        super::solve::parse_timeout(args.search.timeout)?.unwrap_or(cluster::DEFAULT_CONNECT_LIMIT),
    );
    let c = args.cluster.cluster(workers, limit)?;
    let opts = opts.clone().with_algorithm(Algorithm::Idastar);
    let report = Report(args.cluster.report);
    match cluster::solve(problem, &opts, &c, &Sharing::default(), &report) {
        Ok(sol) => Ok((c.process == 0).then_some(sol)),
        Err(ClusterSolveError::Search(e)) => {
            if let Some(path) = &args.checkpoint.checkpoint {
                if matches!(e.kind(), ErrorKind::Budget | ErrorKind::Cancelled) {
                    eprintln!(
                        "npuzzle: the search is saved in {} (one file a process); the same \
                         commands with --resume go on from it",
                        cluster::checkpoint_path(path, c.process, c.processes).display()
                    );
                }
            }
            Err(e.into())
        }
        Err(ClusterSolveError::Cluster(e)) => {
            if let (Some(path), SpaceError::LostPeer { .. }) = (&args.checkpoint.checkpoint, &e) {
                let saved = cluster::checkpoint_path(path, c.process, c.processes);
                if saved.exists() {
                    eprintln!(
                        "npuzzle: the search is saved in {} (one file a process); every process \
                         restarted with --resume goes on from it",
                        saved.display()
                    );
                }
            }
            Err(super::space::space_failure(e))
        }
    }
}

/// `--report`: how the processes connect, on stderr.
struct Report(bool);

impl npuzzle_space::Progress for Report {
    fn connecting(&self, note: &str) {
        if self.0 {
            eprintln!("npuzzle: solve: {note}");
        }
    }
}
