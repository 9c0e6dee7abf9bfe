//! IDA* on timely dataflow: one optimal solution, searched by the workers
//! of many processes.
//!
//! Every worker cuts each iteration's tree at the same depth into the same
//! numbered tasks ([`npuzzle::with_subtrees`]), so workers exchange task
//! numbers only. An iteration is a series of rounds at timely times 0, 1,
//! 2, …: in each, every worker searches the tasks of the pool dealt to it
//! (every `peers`-th from its own number) until a slice of time has passed,
//! then broadcasts which it finished, their nodes, the least `f` above the
//! bound they met, and any solution. When the round is complete everywhere
//! (timely's progress tracking), every worker holds the same reports and
//! takes the same decisions: the finished tasks leave the pool and the rest
//! is dealt again, so a worker whose tasks were quick takes over others'
//! the next round (tasks move between processes as freely as between
//! threads). The iteration ends when the pool is empty; its next bound is
//! the least over every worker's. A solution any worker finds ends the
//! search everywhere, and it is optimal: every smaller bound was searched
//! to exhaustion first. A task is never split once begun, so when one took
//! more than its share of an iteration the next iteration is cut deeper.
//!
//! Each worker's [`npuzzle::Subtrees`] borrows the process's heuristic
//! (its databases built or loaded once per process), so it lives on a
//! search thread of its own beside the worker (see `serve`); the worker
//! thread steps timely while its search thread searches.

mod drive;
mod saved;
mod serve;

use super::{connect, first_result, run_workers, Cluster, Terms};
use crate::{Progress, SpaceError};
use drive::{drive, Plan};
use npuzzle::{Problem, SearchError, Solution, SolveOptions};
pub use saved::process_path as checkpoint_path;
use serve::{serve, Link, StopOnDrop};
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a worker searches before it reports, at most: short enough
/// that the pool is redealt often, long enough that the exchanges cost
/// little. (The rounds of a search's first seconds are shorter.)
pub const DEFAULT_SLICE: Duration = Duration::from_millis(250);

/// Why a distributed search gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ClusterSolveError {
    /// The cluster failed: peers that disagree, never came or were lost.
    #[error(transparent)]
    Cluster(#[from] SpaceError),
    /// The search itself: a budget spent, the cancel flag, a heuristic that
    /// cannot be built, the multi-tile metric.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// How the workers share the search (beyond where they run).
#[derive(Clone, Debug)]
pub struct Sharing {
    /// See [`DEFAULT_SLICE`].
    pub slice: Duration,
    /// The first iteration's cut depth (deepened as the workers need).
    pub depth: u32,
}

impl Default for Sharing {
    fn default() -> Sharing {
        Sharing {
            slice: DEFAULT_SLICE,
            depth: 8,
        }
    }
}

/// The fewest moves from `problem`'s start to its goal by IDA* on the
/// workers of `cluster`, in single-tile moves, with the heuristic, move
/// pruning and budgets of `opts` (its node budget over all workers). Every
/// process runs it with the same arguments (but its own
/// `cluster.process`) and gets the same length; they first agree on the
/// board, goal, heuristic and its databases, pruning and workers, refusing
/// any difference ([`SpaceError::Disagree`]). A peer lost during the
/// search ends the others within seconds ([`SpaceError::LostPeer`]).
/// `progress` hears how the processes connect.
pub fn solve(
    problem: &Problem,
    opts: &SolveOptions,
    cluster: &Cluster,
    sharing: &Sharing,
    progress: &dyn Progress,
) -> Result<Solution, ClusterSolveError> {
    let t0 = Instant::now();
    let cancel = opts
        .budget
        .cancel
        .clone()
        .unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    npuzzle::with_subtrees(problem, opts, |src| {
        // Raised when the run ends, however it ends: `stop` gives up the
        // task under way, `quit` ends the search threads.
        let stop = Arc::new(AtomicBool::new(false));
        let quit = Arc::new(AtomicBool::new(false));
        std::thread::scope(|scope| {
            let _stop = StopOnDrop(Arc::clone(&stop), Arc::clone(&quit));
            let mut links = Vec::new();
            for _ in 0..cluster.workers.max(1) {
                let (cmd_tx, cmd_rx) = mpsc::channel();
                let (reply_tx, reply_rx) = mpsc::channel();
                let (stop, quit) = (Arc::clone(&stop), Arc::clone(&quit));
                scope.spawn(move || serve(src.searcher(stop), &cmd_rx, &reply_tx, &quit));
                links.push(Some(Link {
                    tx: cmd_tx,
                    rx: reply_rx,
                }));
            }
            let identity = src.identity();
            let net = connect(
                cluster,
                |a| terms(problem, opts, cluster, a, &identity),
                &cancel,
                progress,
            )?;
            // (the addresses are not among the run's terms)
            let run = run_name(&terms(problem, opts, cluster, &[], &identity));
            let plan = Plan {
                peers: cluster.peers(),
                workers: cluster.workers,
                max_nodes: opts.budget.max_nodes,
                slice: sharing.slice,
                depth: sharing.depth,
                t0,
                run,
                checkpoint: opts.checkpoint.as_ref().map(|c| {
                    let path = saved::process_path(&c.path, cluster.process, cluster.processes);
                    (path, c.every, c.resume)
                }),
            };
            let links = Arc::new(Mutex::new(links));
            let watch = Arc::clone(&net.watch);
            let workers = cluster.workers;
            let results = run_workers(net, move |worker| {
                let link = links
                    .lock()
                    .ok()
                    .and_then(|mut l| l.get_mut(worker.index() % workers)?.take())
                    .ok_or_else(|| SpaceError::Cluster("a worker without its search".into()))?;
                drive(worker, link, &watch, &stop, plan.clone())
            });
            Ok(first_result(results?)??)
        })
    })?
}

/// The terms a checkpoint must share to be gone on from (not the
/// addresses, the budget or the checkpointing, which may change).
const RUN_TERMS: [&str; 6] = [
    "--processes",
    "--workers",
    "the start",
    "the goal",
    "the heuristic",
    "--prune",
];

/// The run a checkpoint belongs to: its [`RUN_TERMS`] as `what: value`
/// parts.
fn run_name(terms: &Terms) -> String {
    let parts: Vec<String> = terms
        .0
        .iter()
        .filter(|(k, _)| RUN_TERMS.contains(&k.as_str()))
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    parts.join("; ")
}

/// What every process of a distributed search must have been asked alike.
fn terms(
    problem: &Problem,
    opts: &SolveOptions,
    cluster: &Cluster,
    addresses: &[String],
    identity: &str,
) -> Terms {
    let pairs: [(&str, String); 11] = [
        ("npuzzle version", env!("CARGO_PKG_VERSION").into()),
        ("the command", "solve".into()),
        ("--processes", cluster.processes.to_string()),
        ("the addresses", addresses.join(" ")),
        ("--workers", cluster.workers.to_string()),
        ("the start", problem.start().to_flat_string()),
        ("the goal", problem.goal().to_flat_string()),
        ("the heuristic", identity.to_string()),
        ("--prune", format!("{:?}", opts.pruning).to_lowercase()),
        ("--max-nodes", opts.budget.max_nodes.to_string()),
        ("checkpointing", checkpointing(opts).into()),
    ];
    Terms(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn checkpointing(opts: &SolveOptions) -> &'static str {
    match &opts.checkpoint {
        None => "none",
        Some(c) if c.resume => "resume",
        Some(_) => "save",
    }
}
