//! One timely worker of the distributed search: its dataflow, its part of
//! the array, and the rounds it takes part in (see the module above).

use super::watch::Watch;
use super::Job;
use crate::bits::{self, entries_with, level_code, PER_WORD};
use crate::checkpoint::{self, Expect, Header};
use crate::index::{Indexer, State};
use crate::SpaceError;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::{Exchange, Pipeline};
use timely::dataflow::operators::vec::Broadcast;
use timely::dataflow::operators::{Input, Operator, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// Words a worker scans between two calls into timely: bounds the buffer
/// of outgoing indices (at most 4 neighbours × 32 positions a word, 2 MB)
/// and lets incoming messages drain while it scans.
const CHUNK_WORDS: usize = 2048;

/// What a worker tells every other after a round.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Report {
    worker: u32,
    /// Handshake: the level this worker starts at.
    level: u32,
    /// Handshake: a checksum of the counts of the levels below `level`.
    tag: u32,
    /// Handshake: this worker's positions at `level`; after a level: its
    /// positions at the next one.
    count: u64,
    /// Handshake: positions closed in this worker's range.
    closed: u64,
    /// The first positions of the level just expanded, in this range.
    sample: Vec<u64>,
    cancelled: bool,
    /// Worker 0's decision: every worker saves its part after this round.
    save: bool,
    /// Why this worker cannot take part, if it cannot.
    failed: Option<String>,
}

/// One worker's part of the array, shared by its driver loop and its
/// marking operator (both on the worker's thread).
struct Part {
    first_word: u64,
    words: Vec<u64>,
    /// Positions newly marked at the level being discovered.
    new: u64,
}

impl Part {
    /// Marks position `m` (in this part) with `code` if unseen.
    #[inline]
    fn mark(&mut self, m: u64, code: u64) {
        let w = &mut self.words[(m / PER_WORD - self.first_word) as usize];
        let shift = 2 * (m % PER_WORD);
        if (*w >> shift) & 3 == 0 {
            *w |= code << shift;
            self.new += 1;
        }
    }
}

/// Worker `me` of `peers`'s checkpoint file: `PATH.me-of-peers`.
pub(crate) fn part_path(path: &Path, me: usize, peers: usize) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(format!(".{me}-of-{peers}"));
    PathBuf::from(s)
}

/// The counts of every level and the first antipodes' indices.
pub(super) type Outcome = (Vec<u64>, Vec<u64>);

/// A worker's inputs, probes, and the reports it has received.
struct Flow {
    marks: InputHandle<u64, CapacityContainerBuilder<Vec<u64>>>,
    reports: InputHandle<u64, CapacityContainerBuilder<Vec<Report>>>,
    mark_probe: ProbeHandle<u64>,
    report_probe: ProbeHandle<u64>,
    received: Rc<RefCell<Vec<(u64, Report)>>>,
    /// The latest time this worker has entered: marks of later times are
    /// held in `early` until it enters theirs, so that a peer already
    /// expanding the next level cannot touch this part while it is still
    /// being checkpointed (the file would hold the next level's codes).
    entered: Rc<Cell<u64>>,
    early: Rc<RefCell<Vec<(u64, u64)>>>,
    part: Rc<RefCell<Part>>,
    watch: Arc<Watch>,
}

impl Flow {
    /// The dataflow: indices exchanged to their owners and marked there
    /// (a message at time `2d+2` marks level `d+1`), and reports broadcast.
    fn build(worker: &mut Worker, part: &Rc<RefCell<Part>>, per: u64, watch: &Arc<Watch>) -> Flow {
        let mut marks = InputHandle::new();
        let mut reports = InputHandle::new();
        let (mark_probe, report_probe) = (ProbeHandle::new(), ProbeHandle::new());
        let received: Rc<RefCell<Vec<(u64, Report)>>> = Rc::default();
        let entered: Rc<Cell<u64>> = Rc::default();
        let early: Rc<RefCell<Vec<(u64, u64)>>> = Rc::default();
        worker.dataflow::<u64, _, _>(|scope| {
            let p = Rc::clone(part);
            let (now, held) = (Rc::clone(&entered), Rc::clone(&early));
            scope
                .input_from(&mut marks)
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(move |m: &u64| (m / PER_WORD) / per),
                    "Mark",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|time, data| {
                                // Input handles always send under a time.
                                let Some(&t) = time.least() else { return };
                                if t > now.get() {
                                    held.borrow_mut().extend(data.iter().map(|&m| (t, m)));
                                    return;
                                }
                                let code = level_code((t / 2) as u32);
                                let mut p = p.borrow_mut();
                                for &m in data.iter() {
                                    p.mark(m, code);
                                }
                            });
                        }
                    },
                )
                .probe_with(&mark_probe);
            let r = Rc::clone(&received);
            scope
                .input_from(&mut reports)
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
        Flow {
            marks,
            reports,
            mark_probe,
            report_probe,
            received,
            entered,
            early,
            part: Rc::clone(part),
            watch: Arc::clone(watch),
        }
    }

    /// Moves both inputs to `time` (no-op if there already).
    fn at(&mut self, time: u64) {
        if *self.marks.time() < time {
            self.marks.advance_to(time);
            self.reports.advance_to(time);
        }
        if self.entered.get() < time {
            self.entered.set(time);
            let mut early = self.early.borrow_mut();
            if !early.is_empty() {
                let mut p = self.part.borrow_mut();
                early.retain(|&(t, m)| {
                    if t > time {
                        return true;
                    }
                    p.mark(m, level_code((t / 2) as u32));
                    false
                });
            }
        }
    }

    /// Ends the current time and waits until it is complete everywhere
    /// (or the run has failed: a lost peer's progress never comes).
    fn close(&mut self, worker: &mut Worker) -> Result<(), SpaceError> {
        let next = *self.marks.time() + 1;
        self.at(next);
        while self.mark_probe.less_than(&next) || self.report_probe.less_than(&next) {
            if self.watch.failed() {
                return Err(stopped());
            }
            worker.step_or_park(Some(Duration::from_millis(5)));
        }
        Ok(())
    }

    /// Sends `report` at `time`, ends the time, and returns every worker's
    /// report of it in worker order.
    fn round(
        &mut self,
        worker: &mut Worker,
        time: u64,
        report: Report,
    ) -> Result<Vec<Report>, SpaceError> {
        self.at(time);
        self.reports.send(report);
        self.close(worker)?;
        let mut all = Vec::new();
        self.received.borrow_mut().retain(|(t, r)| {
            if *t == time {
                all.push(r.clone());
            }
            *t != time
        });
        all.sort_by_key(|r| r.worker);
        Ok(all)
    }
}

/// A worker's error when the run failed elsewhere (the run reports the
/// failure itself).
fn stopped() -> SpaceError {
    SpaceError::Cluster("stopped: the run failed".into())
}

/// Where a worker starts.
struct Start {
    level: u32,
    /// Totals of the levels below `level`.
    counts: Vec<u64>,
    share: u64,
    closed: u64,
}

pub(super) fn run_worker<const N: usize>(
    worker: &mut Worker,
    job: &Job,
) -> Result<Outcome, SpaceError> {
    let ix = Indexer::<N>::new(&job.goal);
    let (me, peers) = (worker.index(), worker.peers());
    let total_words = bits::words_for(ix.count());
    // Equal ranges of `per` words; the last may be shorter or empty.
    let per = total_words.div_ceil(peers as u64).max(1);
    let first_word = (per * me as u64).min(total_words);
    let end_word = (first_word + per).min(total_words);
    let part = Rc::new(RefCell::new(Part {
        first_word,
        words: Vec::new(),
        new: 0,
    }));
    // The dataflow exists on every worker before anything can fail, so a
    // failing worker leaves by closing its inputs and never stalls the
    // others' progress.
    let mut flow = Flow::build(worker, &part, per, &job.watch);
    let expect = Expect {
        goal: &job.goal,
        positions: ix.count(),
        total_words,
        first_word,
        words: end_word - first_word,
        part: me as u32,
        parts: peers as u32,
    };
    let start = setup(job, &ix, &part, &expect);
    let hello = match &start {
        Ok(s) => Report {
            worker: me as u32,
            level: s.level,
            tag: tag(&s.counts),
            count: s.share,
            closed: s.closed,
            ..Report::default()
        },
        Err(e) => Report {
            worker: me as u32,
            failed: Some(e.to_string()),
            ..Report::default()
        },
    };
    let all = flow.round(worker, 0, hello)?;
    let start = start?;
    if let Some(r) = all.iter().find(|r| r.failed.is_some()) {
        let why = r.failed.as_deref().unwrap_or_default();
        return Err(SpaceError::Cluster(format!("worker {}: {why}", r.worker)));
    }
    check_agreement(job, &all, peers, &start, me)?;

    let mut counts = start.counts;
    let mut level = start.level;
    let mut total: u64 = all.iter().map(|r| r.count).sum();
    let mut mine = start.share;
    let mut closed = start.closed;
    let mut antipodes = Vec::new();
    let mut saved = None;
    // A part written but not yet renamed: its path, level, seconds taken.
    let mut pending: Option<(PathBuf, u32, f64)> = None;
    let mut last_save = Instant::now();
    // The first worker of each process reports progress.
    let leader = me % job.workers == 0;
    let nwords = (end_word - first_word) as usize;
    let mut out = Vec::with_capacity(CHUNK_WORDS * PER_WORD as usize * 4);
    let mut st = State::<N>::default();
    while total > 0 {
        counts.push(total);
        let d = u64::from(level);
        let (cur, next) = (level_code(level), level_code(level + 1));
        if leader {
            job.progress.level(level, mine, nwords as u64);
        }
        flow.at(2 * d + 2);
        let mut sample = Vec::new();
        let mut cancelled = false;
        let mut from = 0;
        while from < nwords {
            // Stop scanning at once; the round still completes, so that
            // every worker learns of it from the reports.
            if job.cancel.load(Relaxed) {
                cancelled = true;
                break;
            }
            if job.watch.failed() {
                return Err(stopped());
            }
            let to = (from + CHUNK_WORDS).min(nwords);
            {
                let mut p = part.borrow_mut();
                for w in from..to {
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
                            if (first_word..end_word).contains(&(nb / PER_WORD)) {
                                p.mark(nb, next);
                            } else {
                                out.push(nb);
                            }
                        });
                    }
                    // Close the expanded positions (see `local::expand`
                    // for why marks never touch them).
                    p.words[w] |= mask * 3;
                }
            }
            flow.marks.send_batch(&mut out);
            out.clear();
            worker.step();
            if leader {
                job.progress.advance((to - from) as u64);
            }
            from = to;
        }
        flow.close(worker)?;
        closed += mine;
        mine = std::mem::take(&mut part.borrow_mut().new);
        let save = me == 0
            && job
                .checkpoint
                .as_ref()
                .is_some_and(|c| last_save.elapsed() >= c.every);
        let report = Report {
            worker: me as u32,
            count: mine,
            sample,
            cancelled,
            save,
            ..Report::default()
        };
        let all = flow.round(worker, 2 * d + 3, report)?;
        if all.len() != peers {
            return Err(SpaceError::Cluster(format!(
                "level {level}: {} of {peers} workers reported (a worker stopped)",
                all.len()
            )));
        }
        // Every worker reported after writing its part of the level saved
        // last round: the parts become the checkpoint together.
        if let Some((path, l, seconds)) = pending.take() {
            checkpoint::commit(&path)?;
            saved = Some(l);
            job.watch.saved(l);
            if leader {
                job.progress.checkpointed(&path, l, seconds);
            }
        }
        if all.iter().any(|r| r.cancelled) {
            return Err(SpaceError::Cancelled { level, saved });
        }
        total = all.iter().map(|r| r.count).sum();
        if leader {
            job.progress.level_done(level, total);
        }
        level += 1;
        antipodes = all
            .iter()
            .flat_map(|r| r.sample.iter().copied())
            .take(job.list)
            .collect();
        if let Some(c) = job.checkpoint.as_ref().filter(|_| all[0].save && total > 0) {
            let t0 = Instant::now();
            let path = part_path(&c.path, me, peers);
            let header = Header {
                goal: job.goal.clone(),
                level,
                counts: counts.clone(),
                total_words,
                first_word,
                words: end_word - first_word,
                part: me as u32,
                parts: peers as u32,
                part_frontier: mine,
                part_closed: closed,
            };
            // Renamed over the part only once every worker has written
            // its own (next round): a process lost while writing leaves
            // every part at the level before, still one checkpoint.
            let p = part.borrow();
            checkpoint::write_temp(&path, &header, |i| p.words[i])?;
            pending = Some((path, level, t0.elapsed().as_secs_f64()));
            last_save = Instant::now();
        }
    }
    Ok((counts, antipodes))
}

/// Allocates this worker's part and, when resuming, loads its checkpoint.
fn setup<const N: usize>(
    job: &Job,
    ix: &Indexer<N>,
    part: &Rc<RefCell<Part>>,
    expect: &Expect<'_>,
) -> Result<Start, SpaceError> {
    let mut p = part.borrow_mut();
    p.words = bits::alloc_plain(expect.words)?;
    match &job.checkpoint {
        Some(c) if c.resume => {
            let path = part_path(&c.path, expect.part as usize, expect.parts as usize);
            let words = &mut p.words;
            let h = checkpoint::read(&path, expect, |i, w| words[i] = w)?;
            checkpoint::check_counts(&path, &h, level_code(h.level), |code| {
                words
                    .iter()
                    .map(|&w| u64::from(bits::count_code(w, code)))
                    .sum()
            })?;
            job.progress.resumed(&path, h.level);
            Ok(Start {
                level: h.level,
                counts: h.counts,
                share: h.part_frontier,
                closed: h.part_closed,
            })
        }
        _ => {
            let g = ix.goal_index();
            let mine = g / PER_WORD >= expect.first_word
                && g / PER_WORD < expect.first_word + expect.words;
            if mine {
                p.mark(g, level_code(0));
                p.new = 0;
            }
            Ok(Start {
                level: 0,
                counts: Vec::new(),
                share: u64::from(mine),
                closed: 0,
            })
        }
    }
}

/// A checksum of the counts below a level, for the workers to compare.
fn tag(counts: &[u64]) -> u32 {
    let bytes: Vec<u8> = counts.iter().flat_map(|c| c.to_le_bytes()).collect();
    crc32fast::hash(&bytes)
}

/// Every worker starts from the same level with the same counts, and the
/// parts together close exactly the positions of the levels below.
fn check_agreement(
    job: &Job,
    all: &[Report],
    peers: usize,
    start: &Start,
    me: usize,
) -> Result<(), SpaceError> {
    if all.len() != peers {
        return Err(SpaceError::Cluster(format!(
            "{} of {peers} workers started",
            all.len()
        )));
    }
    let Some(c) = job.checkpoint.as_ref().filter(|c| c.resume) else {
        return Ok(());
    };
    let bad = |reason: String| SpaceError::BadCheckpoint {
        path: part_path(&c.path, me, peers),
        reason,
    };
    if let Some(r) = all
        .iter()
        .find(|r| (r.level, r.tag) != (start.level, tag(&start.counts)))
    {
        return Err(bad(format!(
            "the parts are not of one checkpoint: worker {me} has level {}, worker {} level {} \
             (or other counts)",
            start.level, r.worker, r.level
        )));
    }
    let closed: u64 = all.iter().map(|r| r.closed).sum();
    let below: u64 = start.counts.iter().sum();
    let frontier: u64 = all.iter().map(|r| r.count).sum();
    if closed != below || frontier == 0 {
        return Err(bad(format!(
            "the parts hold {closed} closed positions and {frontier} at level {}; the levels below \
             it have {below}",
            start.level
        )));
    }
    Ok(())
}
