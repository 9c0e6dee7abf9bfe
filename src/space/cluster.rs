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

use super::bits::{self, entries_with, level_code, PER_WORD};
use super::index::{Indexer, State};
use super::{boards_of, for_cells, Progress, SpaceError, SpaceOptions, SpaceResult};
use crate::board::Board;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::{Exchange, Pipeline};
use timely::dataflow::operators::vec::Broadcast;
use timely::dataflow::operators::{Input, Operator, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// Words a worker scans between two calls into timely: bounds the buffer
/// of outgoing indices (at most 4 neighbours × 32 positions a word) and
/// lets incoming messages drain while it scans.
const CHUNK_WORDS: usize = 2048;

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
/// process's share of the array. Checkpoints are not supported here.
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
    let job = Arc::new(Job {
        goal: goal.clone(),
        list: opts.list,
        workers: cluster.workers,
        progress,
        cancel,
    });
    progress_start(&job, share);
    let guards = timely::execute(config, move |worker| {
        let job = Arc::clone(&job);
        for_cells!(job.goal.shape(), run_worker(worker, &job))
    })
    .map_err(SpaceError::Cluster)?;
    let mut first = None;
    for r in guards.join() {
        let r = r.map_err(SpaceError::Cluster)??;
        first.get_or_insert(r);
    }
    let (counts, sample) =
        first.ok_or_else(|| SpaceError::Cluster("no worker in this process".into()))?;
    Ok(SpaceResult {
        goal: goal.clone(),
        counts,
        antipodes: boards_of(goal, &sample)?,
    })
}

fn progress_start(job: &Job, bytes: u128) {
    job.progress.started(
        super::memory::positions(job.goal.shape()).unwrap_or(0) as u64,
        bytes,
    );
}

/// What every worker needs.
struct Job {
    goal: Board,
    list: usize,
    /// Workers per process.
    workers: usize,
    progress: Arc<dyn Progress + Send>,
    cancel: Arc<AtomicBool>,
}

/// One worker's report for one level: (worker, positions of the level in its
/// range, its first positions, cancelled).
type Report = (u32, u64, Vec<u64>, bool);

/// One worker's part of the array, shared by its driver loop and its
/// marking operator (both on the worker's thread).
struct Part {
    first_word: u64,
    words: Vec<u64>,
    /// Positions newly marked by messages of even and odd times.
    new: [u64; 2],
}

impl Part {
    /// Marks position `m` (in this part) with `code` if unseen.
    #[inline]
    fn mark(&mut self, m: u64, code: u64, slot: usize) {
        let w = &mut self.words[(m / PER_WORD - self.first_word) as usize];
        let shift = 2 * (m % PER_WORD);
        if (*w >> shift) & 3 == 0 {
            *w |= code << shift;
            self.new[slot] += 1;
        }
    }
}

/// The counts of every level and the first antipodes' indices.
type Outcome = (Vec<u64>, Vec<u64>);

fn run_worker<const N: usize>(worker: &mut Worker, job: &Job) -> Result<Outcome, SpaceError> {
    let ix = Indexer::<N>::new(&job.goal);
    let (me, peers) = (worker.index(), worker.peers());
    let total_words = bits::words_for(ix.count());
    // Equal ranges of `per` words; the last may be shorter or empty.
    let per = total_words.div_ceil(peers as u64).max(1);
    let first_word = (per * me as u64).min(total_words);
    let end_word = (first_word + per).min(total_words);
    let owner = move |m: &u64| (m / PER_WORD) / per;
    let part = Rc::new(RefCell::new(Part {
        first_word,
        words: bits::alloc_plain(end_word - first_word)?,
        new: [0; 2],
    }));
    let reports: Rc<RefCell<Vec<(u64, Report)>>> = Rc::default();

    let mut marks = InputHandle::<u64, CapacityContainerBuilder<Vec<u64>>>::new();
    let mut report_in = InputHandle::<u64, CapacityContainerBuilder<Vec<Report>>>::new();
    let (mark_probe, report_probe) = (ProbeHandle::new(), ProbeHandle::new());
    worker.dataflow::<u64, _, _>(|scope| {
        let p = Rc::clone(&part);
        scope
            .input_from(&mut marks)
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Exchange::new(owner),
                "Mark",
                move |_, _| {
                    move |input, _output| {
                        input.for_each(|time, data| {
                            // Input handles always send under a time.
                            let Some(&d) = time.least() else { return };
                            let code = level_code(d as u32 + 1);
                            let mut p = p.borrow_mut();
                            for &m in data.iter() {
                                p.mark(m, code, (d % 2) as usize);
                            }
                        });
                    }
                },
            )
            .probe_with(&mark_probe);
        let r = Rc::clone(&reports);
        scope
            .input_from(&mut report_in)
            .broadcast()
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                Pipeline,
                "Reports",
                move |_, _| {
                    move |input, _output| {
                        input.for_each(|time, data| {
                            let Some(&t) = time.least() else { return };
                            r.borrow_mut().extend(data.drain(..).map(|rep| (t, rep)));
                        });
                    }
                },
            )
            .probe_with(&report_probe);
    });

    let g = ix.goal_index();
    let mut mine = 0;
    if owner(&g) == me as u64 {
        let mut p = part.borrow_mut();
        p.mark(g, level_code(0), 0);
        p.new[0] = 0;
        mine = 1;
    }
    // The first worker of each process reports progress.
    let leader = me % job.workers == 0;
    let mut counts = Vec::new();
    let mut last_sample = Vec::new();
    let mut out = Vec::with_capacity(CHUNK_WORDS * 32 * 4);
    let mut st = State::<N>::default();
    for d in 0u64.. {
        let (cur, next) = (level_code(d as u32), level_code(d as u32 + 1));
        let nwords = (end_word - first_word) as usize;
        if leader {
            job.progress.level(d as u32, mine, nwords as u64);
        }
        let mut sample = Vec::new();
        let cancelled = job.cancel.load(Relaxed);
        let mut start = 0;
        while start < nwords && !cancelled {
            let stop = (start + CHUNK_WORDS).min(nwords);
            {
                let mut p = part.borrow_mut();
                let slot = (d % 2) as usize;
                for w in start..stop {
                    let mask = entries_with(p.words[w], cur);
                    let mut rest = mask;
                    while rest != 0 {
                        let bit = u64::from(rest.trailing_zeros());
                        rest &= rest - 1;
                        let m = (first_word + w as u64) * PER_WORD + bit / 2;
                        if sample.len() < job.list {
                            sample.push(m);
                        }
                        ix.state(m, &mut st);
                        ix.neighbours(&st, |nb| {
                            if owner(&nb) == me as u64 {
                                p.mark(nb, next, slot);
                            } else {
                                out.push(nb);
                            }
                        });
                    }
                    p.words[w] |= mask * 3;
                }
            }
            marks.send_batch(&mut out);
            out.clear();
            worker.step();
            if leader {
                job.progress.advance((stop - start) as u64);
            }
            start = stop;
        }
        report_in.send((me as u32, mine, sample, cancelled));
        marks.advance_to(d + 1);
        report_in.advance_to(d + 1);
        while mark_probe.less_than(&(d + 1)) || report_probe.less_than(&(d + 1)) {
            worker.step_or_park(Some(Duration::from_millis(5)));
        }
        // Every message of time `d` has been processed everywhere.
        let mut level: Vec<Report> = Vec::new();
        reports.borrow_mut().retain(|(t, rep)| {
            if *t == d {
                level.push(rep.clone());
                false
            } else {
                true
            }
        });
        if level.len() != peers {
            return Err(SpaceError::Cluster(format!(
                "level {d}: {} of {peers} workers reported (a worker stopped)",
                level.len()
            )));
        }
        if level.iter().any(|r| r.3) {
            return Err(SpaceError::Cancelled {
                level: d as u32,
                saved: None,
            });
        }
        level.sort_by_key(|r| r.0);
        let total: u64 = level.iter().map(|r| r.1).sum();
        if total == 0 {
            break;
        }
        counts.push(total);
        let slot = (d % 2) as usize;
        mine = std::mem::take(&mut part.borrow_mut().new[slot]);
        if leader && d > 0 {
            job.progress.level_done(d as u32 - 1, total);
        }
        last_sample = level.into_iter().flat_map(|r| r.2).take(job.list).collect();
    }
    if leader {
        job.progress.level_done(counts.len() as u32 - 1, 0);
    }
    Ok((counts, last_sample))
}
