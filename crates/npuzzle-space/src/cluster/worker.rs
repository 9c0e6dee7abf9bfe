//! One timely worker of the distributed search: its dataflow, its part of
//! the array, and the rounds it takes part in (see the module above).

use super::part::{part_path, Part, Report};
use super::watch::Watch;
use super::Job;
use crate::bits::{self, entries_with, level_code, PER_WORD};
use crate::checkpoint::{self, Expect, Header};
use crate::index::{Indexer, State};
use crate::SpaceError;
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

    /// Moves both inputs to `time` (no-op if there already), without
    /// admitting marks of `time`: see [`Flow::at`].
    fn advance(&mut self, time: u64) {
        if *self.marks.time() < time {
            self.marks.advance_to(time);
            self.reports.advance_to(time);
        }
    }

    /// Enters `time`: moves both inputs there and applies the marks held
    /// for it.
    fn at(&mut self, time: u64) {
        self.advance(time);
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
    /// (or the run has failed: a lost peer's progress never comes). The
    /// next time is not entered: a peer done with this round may already
    /// send the next level's marks, and they wait in `early` until this
    /// worker has saved its part.
    fn close(&mut self, worker: &mut Worker) -> Result<(), SpaceError> {
        let next = *self.marks.time() + 1;
        self.advance(next);
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
    let share = Share::<N>::new(job, worker.index(), worker.peers());
    // The dataflow exists on every worker before anything can fail, so a
    // failing worker leaves by closing its inputs and never stalls the
    // others' progress.
    let mut flow = Flow::build(worker, &share.part, share.per, &job.watch);
    let (start, all) = share.agree(worker, &mut flow)?;
    let (me, peers, leader) = (share.me, share.peers, share.leader);

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
    let mut scan = Scan::default();
    while total > 0 {
        counts.push(total);
        let d = u64::from(level);
        if leader {
            job.progress.level(level, mine, share.words());
        }
        flow.at(2 * d + 2);
        let (sample, cancelled) = share.scan_level(worker, &mut flow, level, &mut scan)?;
        flow.close(worker)?;
        closed += mine;
        mine = std::mem::take(&mut share.part.borrow_mut().new);
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
        if let Some(written) = pending.take() {
            saved = Some(share.commit_part(written)?);
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
            pending = Some(share.write_part(&c.path, level, &counts, mine, closed)?);
            last_save = Instant::now();
        }
    }
    Ok((counts, antipodes))
}

/// Allocates this worker's part and, when resuming, loads its checkpoint.
/// One worker's share of the array for the whole search: its range of
/// words, and what it needs to scan them.
struct Share<'a, const N: usize> {
    job: &'a Job,
    ix: Indexer<N>,
    part: Rc<RefCell<Part>>,
    me: usize,
    peers: usize,
    total_words: u64,
    /// Words per worker: equal ranges; the last may be shorter or empty.
    per: u64,
    first_word: u64,
    end_word: u64,
    /// The first worker of each process reports progress.
    leader: bool,
}

/// The buffers a worker's scans reuse, level after level.
#[derive(Default)]
struct Scan<const N: usize> {
    /// Neighbours in other workers' ranges, sent a chunk at a time.
    out: Vec<u64>,
    st: State<N>,
}

impl<'a, const N: usize> Share<'a, N> {
    fn new(job: &'a Job, me: usize, peers: usize) -> Self {
        let ix = Indexer::<N>::new(&job.goal).with_metric(job.metric);
        let total_words = bits::words_for(ix.count());
        let per = total_words.div_ceil(peers as u64).max(1);
        let first_word = (per * me as u64).min(total_words);
        let end_word = (first_word + per).min(total_words);
        let part = Rc::new(RefCell::new(Part {
            first_word,
            words: Vec::new(),
            new: 0,
        }));
        Share {
            job,
            ix,
            part,
            me,
            peers,
            total_words,
            per,
            first_word,
            end_word,
            leader: me.is_multiple_of(job.workers),
        }
    }

    /// Words in this worker's range.
    fn words(&self) -> u64 {
        self.end_word - self.first_word
    }

    fn expect(&self) -> Expect<'a> {
        Expect {
            goal: &self.job.goal,
            metric: self.job.metric,
            positions: self.ix.count(),
            total_words: self.total_words,
            first_word: self.first_word,
            words: self.words(),
            part: self.me as u32,
            parts: self.peers as u32,
        }
    }

    /// Sets this worker's part up (fresh, or from its checkpoint part) and
    /// agrees with every other worker on where the search starts; returns
    /// the start and every worker's first report.
    fn agree(
        &self,
        worker: &mut Worker,
        flow: &mut Flow,
    ) -> Result<(Start, Vec<Report>), SpaceError> {
        let start = setup(self.job, &self.ix, &self.part, &self.expect());
        let hello = match &start {
            Ok(s) => Report {
                worker: self.me as u32,
                level: s.level,
                tag: tag(&s.counts),
                count: s.share,
                closed: s.closed,
                ..Report::default()
            },
            Err(e) => Report {
                worker: self.me as u32,
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
        check_agreement(self.job, &all, self.peers, &start, self.me)?;
        Ok((start, all))
    }

    /// Expands every position of this worker's range at `level`, marking
    /// neighbours in its own range and sending the others on; returns the
    /// first positions expanded (up to `--list`) and whether it stopped
    /// for the cancel flag.
    fn scan_level(
        &self,
        worker: &mut Worker,
        flow: &mut Flow,
        level: u32,
        scan: &mut Scan<N>,
    ) -> Result<(Vec<u64>, bool), SpaceError> {
        let (cur, next) = (level_code(level), level_code(level + 1));
        let (first_word, end_word) = (self.first_word, self.end_word);
        let nwords = self.words() as usize;
        if scan.out.capacity() == 0 {
            scan.out.reserve(CHUNK_WORDS * PER_WORD as usize * 4);
        }
        let mut sample = Vec::new();
        let mut from = 0;
        while from < nwords {
            // Stop scanning at once; the round still completes, so that
            // every worker learns of it from the reports.
            if self.job.cancel.load(Relaxed) {
                return Ok((sample, true));
            }
            if self.job.watch.failed() {
                return Err(stopped());
            }
            let to = (from + CHUNK_WORDS).min(nwords);
            {
                let mut p = self.part.borrow_mut();
                for w in from..to {
                    let mask = entries_with(p.words[w], cur);
                    let mut rest = mask;
                    while rest != 0 {
                        let bit = u64::from(rest.trailing_zeros());
                        rest &= rest - 1;
                        let m = (first_word + w as u64) * PER_WORD + bit / 2;
                        if sample.len() < self.job.list {
                            sample.push(m);
                        }
                        self.ix.state(m, &mut scan.st);
                        self.ix.neighbours(&scan.st, |nb| {
                            if (first_word..end_word).contains(&(nb / PER_WORD)) {
                                p.mark(nb, next);
                            } else {
                                scan.out.push(nb);
                            }
                        });
                    }
                    // Close the expanded positions (see `local::expand`
                    // for why marks never touch them).
                    p.words[w] |= mask * 3;
                }
            }
            flow.marks.send_batch(&mut scan.out);
            scan.out.clear();
            worker.step();
            if self.leader {
                self.job.progress.advance((to - from) as u64);
            }
            from = to;
        }
        Ok((sample, false))
    }

    /// Renames a part written by [`Share::write_part`] over the
    /// checkpoint's part; returns its level.
    fn commit_part(&self, (path, level, seconds): (PathBuf, u32, f64)) -> Result<u32, SpaceError> {
        checkpoint::commit(&path)?;
        self.job.watch.saved(level);
        if self.leader {
            self.job.progress.checkpointed(&path, level, seconds);
        }
        Ok(level)
    }

    /// Writes this worker's part of the checkpoint at `level` to a
    /// temporary file, renamed over the part only once every worker has
    /// written its own (next round): a process lost while writing leaves
    /// every part at the level before, still one checkpoint. Returns the
    /// part's path, the level and the seconds taken.
    fn write_part(
        &self,
        path: &Path,
        level: u32,
        counts: &[u64],
        frontier: u64,
        closed: u64,
    ) -> Result<(PathBuf, u32, f64), SpaceError> {
        let t0 = Instant::now();
        let path = part_path(path, self.me, self.peers);
        let header = Header {
            goal: self.job.goal.clone(),
            metric: self.job.metric,
            level,
            counts: counts.to_vec(),
            total_words: self.total_words,
            first_word: self.first_word,
            words: self.words(),
            part: self.me as u32,
            parts: self.peers as u32,
            part_frontier: frontier,
            part_closed: closed,
        };
        let p = self.part.borrow();
        checkpoint::write_temp(&path, &header, |i| p.words[i])?;
        Ok((path, level, t0.elapsed().as_secs_f64()))
    }
}

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
