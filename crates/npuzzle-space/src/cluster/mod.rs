//! The distributed engine, on timely dataflow: the same search as
//! [`super::analyze`] on worker threads, processes or machines.
//!
//! Every worker owns a contiguous range of words of the two-bit array (so a
//! range of ranks) and keeps only that range. Level `d` is one round at
//! timely time `d`: each worker scans its range for the level's positions,
//! marks the neighbours it owns itself, and sends the others' indices
//! through an exchange channel routed by owner; each owner marks what it
//! receives. Every worker also broadcasts a report: its count of the level,
//! its first positions (for the antipodes) and whether it was cancelled.
//! When the probes show that time `d` is complete everywhere (timely's
//! progress tracking: no message of time `d` is in flight or unprocessed),
//! every worker knows the level's total and its own share of level `d+1`,
//! and the next round begins. A round whose total is zero ends the search.
//!
//! Processes first meet and agree (see `connect`) over connections of
//! their own, which are then handed to timely; a peer lost after that is
//! reported once (see `watch`).

mod connect;
mod ida;
mod part;
mod rounds;
mod watch;
mod worker;

pub use connect::{parse_hostfile, DEFAULT_CONNECT_LIMIT, MAX_PROCESSES};
pub use ida::{checkpoint_path, solve, ClusterSolveError, Sharing, DEFAULT_SLICE};

use super::{boards_of, for_cells, Checkpointing, Progress, SpaceError, SpaceOptions, SpaceResult};
use connect::{Meeting, Terms};
use npuzzle::Board;
use std::net::TcpStream;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::initialize::{
    initialize_networking_from_sockets, CommsGuard,
};
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{AllocatorBuilder, Hooks, WorkerGuards};
use watch::{PeerStream, Watch};
use worker::run_worker;

/// At most this many workers in all (`workers × processes`): timely keeps
/// buffers for every pair of workers, so memory grows with the square.
pub const MAX_PEERS: usize = 4096;

/// After a failure, how long the workers have to stop before the run is
/// reported failed without them.
const LOST_GRACE: Duration = Duration::from_secs(2);

/// Where the workers run: timely's own configuration, under the names of
/// its command-line options.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// Worker threads per process (timely's `--threads`).
    pub workers: usize,
    /// Number of processes (`--processes`), at most [`MAX_PROCESSES`]; 1
    /// runs threads only.
    pub processes: usize,
    /// This process's number, `0..processes` (`--process`).
    pub process: usize,
    /// Every process's `host:port`, in process order (see
    /// [`parse_hostfile`]); empty means `localhost:2101`, `localhost:2102`,
    /// … as timely does.
    pub addresses: Vec<String>,
    /// How long to wait for every peer to connect and agree (besides the
    /// cancel flag); `None`: no limit but the flag.
    pub connect_limit: Option<Duration>,
}

impl Cluster {
    /// `workers` threads in this process.
    pub fn threads(workers: usize) -> Cluster {
        Cluster {
            workers,
            processes: 1,
            process: 0,
            addresses: Vec::new(),
            connect_limit: Some(DEFAULT_CONNECT_LIMIT),
        }
    }

    /// Every worker in the computation.
    pub fn peers(&self) -> usize {
        self.workers.saturating_mul(self.processes)
    }

    /// Checks the counts; returns every process's address.
    fn addresses(&self) -> Result<Vec<String>, SpaceError> {
        let bad = |msg: String| Err(SpaceError::BadCluster(msg));
        if self.workers == 0 || self.processes == 0 {
            return bad("--workers and --processes must be at least 1".into());
        }
        if self.processes > MAX_PROCESSES {
            return bad(format!(
                "--processes {} is more than {MAX_PROCESSES}",
                self.processes
            ));
        }
        if self.peers() > MAX_PEERS {
            return bad(format!(
                "{} workers in all ({} processes of {}) is more than {MAX_PEERS}",
                self.peers(),
                self.processes,
                self.workers
            ));
        }
        if self.process >= self.processes {
            return bad(format!(
                "--process {} is not below --processes {}",
                self.process, self.processes
            ));
        }
        if self.addresses.is_empty() {
            return Ok((0..self.processes)
                .map(|i| format!("localhost:{}", 2101 + i))
                .collect());
        }
        let addresses = parse_hostfile(&self.addresses.join("\n"), self.processes)?;
        Ok(addresses)
    }
}

/// What every process of a run must have been asked alike.
fn terms(goal: &Board, opts: &SpaceOptions, cluster: &Cluster, addresses: &[String]) -> Terms {
    let checkpoint = match &opts.checkpoint {
        None => "none",
        Some(c) if c.resume => "resume",
        Some(_) => "save",
    };
    let pairs: [(&str, String); 9] = [
        ("npuzzle version", env!("CARGO_PKG_VERSION").into()),
        ("the command", "space".into()),
        ("--processes", cluster.processes.to_string()),
        ("the addresses", addresses.join(" ")),
        ("--size", goal.shape().to_string()),
        ("--goal", goal.to_flat_string()),
        ("--metric", opts.metric.name().into()),
        ("--workers", cluster.workers.to_string()),
        ("checkpointing", checkpoint.into()),
    ];
    Terms(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// The complete breadth-first search from `goal` on the workers of
/// `cluster`. Every process runs it with the same arguments (but its own
/// `process`) and gets the same result. The memory limit applies to this
/// process's share of the array. With `opts.checkpoint`, every worker
/// saves its part to `PATH.I-of-W` (`I` the worker, `W` all workers) on its
/// own machine; resuming needs the same number of workers.
///
/// With several processes, they first connect and compare what they were
/// asked, refusing any difference ([`SpaceError::Disagree`]) before any
/// work; waiting for them ends with the cancel flag or
/// `cluster.connect_limit` ([`SpaceError::NotConnected`]). A peer lost
/// during the search ends the run within seconds
/// ([`SpaceError::LostPeer`]); to keep timely's threads' panics quiet, a
/// panic hook is installed once per process that hands their panics to
/// the run and every other one to the hook that was there before.
pub fn analyze(
    goal: &Board,
    opts: &SpaceOptions,
    cluster: &Cluster,
    progress: Arc<dyn Progress + Send>,
    cancel: Arc<AtomicBool>,
) -> Result<SpaceResult, SpaceError> {
    let shape = goal.shape();
    let needed = super::bytes_needed(shape);
    let share = needed.div_ceil(cluster.processes.max(1) as u128);
    super::check_size(
        shape,
        opts.max_memory
            .saturating_mul(cluster.processes.max(1) as u64),
    )
    .map_err(|e| match e {
        SpaceError::TooBig { .. } => SpaceError::TooBig {
            shape,
            needed: share,
            limit: opts.max_memory,
        },
        e => e,
    })?;
    let net = connect(
        cluster,
        |a| terms(goal, opts, cluster, a),
        &cancel,
        &*progress,
    )?;
    progress.started(super::memory::positions(shape).unwrap_or(0) as u64, share);
    let job = Arc::new(Job {
        goal: goal.clone(),
        metric: opts.metric,
        list: opts.list.min(super::MAX_LIST),
        workers: cluster.workers,
        checkpoint: opts.checkpoint.clone(),
        progress,
        cancel,
        watch: Arc::clone(&net.watch),
    });
    let results = run_workers(net, move |worker| {
        for_cells!(job.goal.shape(), run_worker(worker, &job))
    })?;
    let (counts, sample) = first_result(results)?;
    Ok(SpaceResult {
        goal: goal.clone(),
        counts,
        antipodes: boards_of(goal, &sample)?,
    })
}

/// A run's processes met, agreed and connected: what its workers start
/// from.
struct Net {
    builders: Vec<AllocatorBuilder>,
    comms: Option<CommsGuard>,
    watch: Arc<Watch>,
}

/// Meets the other processes of `cluster` (none if it has one process)
/// and agrees with them on the terms `terms` makes of the addresses.
fn connect(
    cluster: &Cluster,
    terms: impl FnOnce(&[String]) -> Terms,
    cancel: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Net, SpaceError> {
    let addresses = cluster.addresses()?;
    let watch = Arc::new(Watch::new(addresses.clone()));
    if cluster.processes == 1 {
        let (builders, _) = timely::CommunicationConfig::Process(cluster.workers)
            .try_build()
            .map_err(SpaceError::Cluster)?;
        return Ok(Net {
            builders,
            comms: None,
            watch,
        });
    }
    let sockets = connect::meet(&Meeting {
        me: cluster.process,
        addresses: &addresses,
        terms: &terms(&addresses),
        limit: cluster.connect_limit,
        cancel,
        progress,
    })?;
    let (builders, comms) = network(sockets, cluster, &watch)?;
    Ok(Net {
        builders,
        comms: Some(comms),
        watch,
    })
}

/// Runs `work` on every worker of this process, each thread part of the
/// run's [`Watch`]; returns each worker's result, or the run's failure.
/// A worker that returns still steps its dataflows until every peer is
/// done with them (or the run failed), so that no peer stalls waiting for
/// its progress.
fn run_workers<T, F>(net: Net, work: F) -> Result<Vec<Result<T, SpaceError>>, SpaceError>
where
    T: Send + 'static,
    F: Fn(&mut timely::worker::Worker) -> Result<T, SpaceError> + Send + Sync + 'static,
{
    let Net {
        builders,
        comms,
        watch,
    } = net;
    let w = Arc::clone(&watch);
    let guards = timely::communication::initialize_from(builders, Box::new(()), move |a| {
        watch::enter(&w, None);
        let mut worker =
            timely::worker::Worker::new(timely::WorkerConfig::default(), a, Some(Instant::now()));
        let result = work(&mut worker);
        while worker.has_dataflows() && !w.failed() {
            worker.step_or_park(Some(Duration::from_millis(50)));
        }
        result
    })
    .map_err(SpaceError::Cluster)?;
    let results = wait_for(guards, &watch);
    let closed = comms.is_none_or(|c| close(c, &watch));
    if let Some(e) = watch.error() {
        return Err(e);
    }
    let (Some(results), true) = (results, closed) else {
        return Err(SpaceError::Cluster("the workers did not finish".into()));
    };
    Ok(results
        .into_iter()
        .map(|r| r.map_err(SpaceError::Cluster).and_then(|r| r))
        .collect())
}

/// The first worker's result, unless one failed: then the most telling
/// failure (a worker's own says more than its peers' "a worker failed").
fn first_result<T>(results: Vec<Result<T, SpaceError>>) -> Result<T, SpaceError> {
    let mut first = None;
    let mut error = None;
    for r in results {
        match r {
            Ok(out) => {
                first.get_or_insert(out);
            }
            Err(e) => {
                if error.is_none() || matches!(error, Some(SpaceError::Cluster(_))) {
                    error = Some(e);
                }
            }
        }
    }
    if let Some(e) = error {
        return Err(e);
    }
    first.ok_or_else(|| SpaceError::Cluster("no worker in this process".into()))
}

/// timely's send and receive threads over the agreed connections.
fn network(
    sockets: Vec<Option<TcpStream>>,
    cluster: &Cluster,
    watch: &Arc<Watch>,
) -> Result<(Vec<AllocatorBuilder>, CommsGuard), SpaceError> {
    let streams: Vec<Option<PeerStream>> = sockets
        .into_iter()
        .enumerate()
        .map(|(p, s)| s.map(|tcp| PeerStream::new(tcp, p, watch)))
        .collect();
    let hooks = Hooks::default();
    let local = ProcessBuilder::new_typed_vector(
        cluster.workers,
        hooks.refill.clone(),
        hooks.spill.clone(),
    );
    let (builders, comms) =
        initialize_networking_from_sockets(local, streams, cluster.process, cluster.workers, hooks)
            .map_err(|e| SpaceError::Cluster(format!("cannot start the network threads: {e}")))?;
    Ok((
        builders.into_iter().map(AllocatorBuilder::Tcp).collect(),
        comms,
    ))
}

type Results<T> = Vec<Result<T, String>>;

/// The workers' results; `None` if the run failed and they did not stop
/// within [`LOST_GRACE`] (they are left behind).
fn wait_for<T: Send + 'static>(guards: WorkerGuards<T>, watch: &Watch) -> Option<Results<T>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(guards.join());
    });
    until(&rx, watch)
}

/// Joins timely's network threads (they finish once every peer has said
/// it is done); whether they finished cleanly. After a failure they are
/// left to end on their own.
fn close(comms: CommsGuard, watch: &Arc<Watch>) -> bool {
    let (tx, rx) = mpsc::channel();
    let w = Arc::clone(watch);
    std::thread::spawn(move || {
        watch::enter(&w, None);
        // Joining panics if a network thread did: the loss is recorded.
        drop(comms);
        let _ = tx.send(());
    });
    if watch.failed() {
        return false;
    }
    until(&rx, watch).is_some()
}

/// What `rx` delivers, unless the run fails and [`LOST_GRACE`] passes
/// first (or the sender is gone).
fn until<T>(rx: &mpsc::Receiver<T>, watch: &Watch) -> Option<T> {
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(v) => return Some(v),
            Err(RecvTimeoutError::Disconnected) => return None,
            Err(RecvTimeoutError::Timeout) => {
                if watch.failed_at().is_some_and(|t| t.elapsed() >= LOST_GRACE) {
                    return None;
                }
            }
        }
    }
}

/// What every worker needs.
struct Job {
    goal: Board,
    metric: npuzzle::Metric,
    list: usize,
    /// Workers per process.
    workers: usize,
    checkpoint: Option<Checkpointing>,
    progress: Arc<dyn Progress + Send>,
    cancel: Arc<AtomicBool>,
    watch: Arc<Watch>,
}
