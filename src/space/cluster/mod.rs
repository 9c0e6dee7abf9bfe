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

mod worker;

use super::{boards_of, for_cells, Checkpointing, Progress, SpaceError, SpaceOptions, SpaceResult};
use crate::board::Board;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use worker::run_worker;

/// Where the workers run: timely's own configuration, under the names of
/// its command-line options.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// Worker threads per process (timely's `--threads`).
    pub workers: usize,
    /// Number of processes (`--processes`); 1 runs threads only.
    pub processes: usize,
    /// This process's number, `0..processes` (`--process`).
    pub process: usize,
    /// Every process's `host:port`, in process order (`--hostfile`, one a
    /// line); empty means `localhost:2101`, `localhost:2102`, … as timely
    /// does.
    pub addresses: Vec<String>,
    /// Report connection progress on stderr (`--report`).
    pub report: bool,
}

impl Cluster {
    /// `workers` threads in this process.
    pub fn threads(workers: usize) -> Cluster {
        Cluster {
            workers,
            processes: 1,
            process: 0,
            addresses: Vec::new(),
            report: false,
        }
    }

    /// Every worker in the computation.
    pub fn peers(&self) -> usize {
        self.workers * self.processes
    }

    fn config(&self) -> Result<timely::Config, SpaceError> {
        if self.workers == 0 || self.processes == 0 {
            return Err(SpaceError::Cluster(
                "--workers and --processes must be at least 1".into(),
            ));
        }
        if self.process >= self.processes {
            return Err(SpaceError::Cluster(format!(
                "--process {} is not below --processes {}",
                self.process, self.processes
            )));
        }
        let communication = if self.processes == 1 {
            timely::CommunicationConfig::Process(self.workers)
        } else {
            let addresses = if self.addresses.is_empty() {
                (0..self.processes)
                    .map(|i| format!("localhost:{}", 2101 + i))
                    .collect()
            } else if self.addresses.len() < self.processes {
                return Err(SpaceError::Cluster(format!(
                    "{} addresses for {} processes",
                    self.addresses.len(),
                    self.processes
                )));
            } else {
                self.addresses[..self.processes].to_vec()
            };
            timely::CommunicationConfig::Cluster {
                threads: self.workers,
                process: self.process,
                addresses,
                report: self.report,
                zerocopy: false,
            }
        };
        Ok(timely::Config {
            communication,
            worker: timely::WorkerConfig::default(),
        })
    }
}

/// The complete breadth-first search from `goal` on the workers of
/// `cluster`. Every process runs it with the same arguments (but its own
/// `process`) and gets the same result. The memory limit applies to this
/// process's share of the array. With `opts.checkpoint`, every worker
/// saves its part to `PATH.I-of-W` (`I` the worker, `W` all workers) on its
/// own machine; resuming needs the same number of workers.
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
    let config = cluster.config()?;
    progress.started(super::memory::positions(shape).unwrap_or(0) as u64, share);
    let job = Arc::new(Job {
        goal: goal.clone(),
        list: opts.list.min(super::MAX_LIST),
        workers: cluster.workers,
        checkpoint: opts.checkpoint.clone(),
        progress,
        cancel,
    });
    let guards = timely::execute(config, move |worker| {
        let job = Arc::clone(&job);
        for_cells!(job.goal.shape(), run_worker(worker, &job))
    })
    .map_err(SpaceError::Cluster)?;
    let mut first = None;
    let mut error = None;
    for r in guards.join() {
        match r.map_err(SpaceError::Cluster) {
            Ok(Ok(out)) => {
                first.get_or_insert(out);
            }
            // A worker's own failure says more than its peers' "a worker
            // failed".
            Ok(Err(e)) | Err(e) => {
                if error.is_none() || matches!(error, Some(SpaceError::Cluster(_))) {
                    error = Some(e);
                }
            }
        }
    }
    if let Some(e) = error {
        return Err(e);
    }
    let (counts, sample) =
        first.ok_or_else(|| SpaceError::Cluster("no worker in this process".into()))?;
    Ok(SpaceResult {
        goal: goal.clone(),
        counts,
        antipodes: boards_of(goal, &sample)?,
    })
}

/// What every worker needs.
struct Job {
    goal: Board,
    list: usize,
    /// Workers per process.
    workers: usize,
    checkpoint: Option<Checkpointing>,
    progress: Arc<dyn Progress + Send>,
    cancel: Arc<AtomicBool>,
}
