//! One timely worker of the distributed IDA*: the iterations, each cut
//! into tasks and searched in rounds (see the module above).

use super::saved::{load, remove, save, State};
use super::serve::{Cmd, Finish, Link, Reply, Searched};
use crate::cluster::rounds::{stopped, Rounds};
use crate::cluster::watch::Watch;
use crate::SpaceError;
use npuzzle::{Dir, Interrupt, IterationCut, Limit, SearchError, Solution, Stats};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::{Duration, Instant};
use timely::worker::Worker;

/// Each iteration is cut deep enough for this many tasks per worker, so
/// that the last tasks of an iteration are small beside it and no worker
/// waits long for the others at its end.
const TASKS_PER_WORKER: usize = 64;
/// Deeper cuts cost more than they balance.
const MAX_DEPTH: u32 = 40;
/// The most tasks an iteration's cut is deepened to when its tasks were
/// uneven: each worker holds its cut's boards and paths, tens of MB at
/// this size (64 tasks for each of 4096 workers).
const MAX_TASKS: usize = 1 << 18;
/// An iteration whose tasks take fewer nodes than this each, on average,
/// is over too soon for its balance to matter.
const MIN_SHARE: u64 = 10_000;
/// The shortest round: a few exchanges' time on a local network.
const MIN_SLICE: Duration = Duration::from_millis(10);

/// What every worker of a run needs (the same on all of them).
#[derive(Clone, Debug)]
pub(super) struct Plan {
    /// Every worker of the run.
    pub peers: usize,
    /// Workers per process.
    pub workers: usize,
    /// The node budget over all workers.
    pub max_nodes: u64,
    /// A round's length: each worker starts no new task after this.
    pub slice: Duration,
    /// The cut depth of the first iteration (deepened as needed).
    pub depth: u32,
    /// When the answer started (for its time).
    pub t0: Instant,
    /// What run this is, as a checkpoint names it.
    pub run: String,
    /// This process's checkpoint file, how often to write it, and whether
    /// to start from it.
    pub checkpoint: Option<(PathBuf, Duration, bool)>,
}

/// What a worker tells every other after a round.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Report {
    /// The tasks it finished.
    done: Vec<u32>,
    expanded: u64,
    generated: u64,
    next_bound: u32,
    largest: u64,
    /// A solution, as [`Dir::ALL`] indices.
    found: Option<Vec<u8>>,
    /// Why it stopped, if a budget or the cancel flag stopped it.
    halted: Option<u8>,
    /// The checksum of its cut of the iteration: all must be equal.
    cut: u32,
}

/// A worker's answer: the search's own (a solution or a budget spent), or
/// the run's failure.
pub(super) type Outcome = Result<Solution, SearchError>;

/// The worker's side of the search, with its search thread.
struct Driver<'a> {
    worker: &'a mut Worker,
    link: Link,
    watch: Arc<Watch>,
    stop: Arc<AtomicBool>,
    rounds: Rounds<Report>,
    hello: Rounds<Result<Option<State>, String>>,
    time: u64,
    plan: Plan,
    /// Where the search is, the same on every worker after each round.
    st: State,
    /// This worker saves its process's checkpoint.
    saver: bool,
    last_save: Instant,
    /// When the workers agreed to start.
    started: Instant,
    /// The checksum of this worker's cut of the iteration under way.
    cut_sum: u32,
}

/// Runs the search on `worker`, asking its search thread through `link`.
/// Every worker takes the same decisions from the same reports, so all end
/// alike: with the same solution, or the same budget spent.
pub(super) fn drive(
    worker: &mut Worker,
    link: Link,
    watch: &Arc<Watch>,
    stop: &Arc<AtomicBool>,
    plan: Plan,
) -> Result<Outcome, SpaceError> {
    // every dataflow exists on every worker before anything can fail
    let rounds = Rounds::build(worker, watch);
    let hello = Rounds::build(worker, watch);
    let saver = worker.index().is_multiple_of(plan.workers.max(1)) && plan.checkpoint.is_some();
    let mut d = Driver {
        worker,
        link,
        watch: Arc::clone(watch),
        stop: Arc::clone(stop),
        rounds,
        hello,
        time: 1,
        st: State::default(),
        plan,
        saver,
        last_save: Instant::now(),
        started: Instant::now(),
        cut_sum: 0,
    };
    d.start()?;
    while d.st.bound != u32::MAX {
        if let Some(end) = d.iteration()? {
            return Ok(end);
        }
    }
    d.finish(None)
}

impl Driver<'_> {
    /// Agrees with every worker on where the search starts: afresh, or
    /// from the most advanced checkpoint of any process.
    fn start(&mut self) -> Result<(), SpaceError> {
        let Reply::Bound(bound) = self.ask(Cmd::FirstBound)? else {
            return Err(confused());
        };
        let fresh = State::iteration(self.plan.run.clone(), bound, self.plan.depth);
        let mine = match &self.plan.checkpoint {
            Some((path, _, true)) => Some(load(path, &self.plan.run)),
            _ => None,
        };
        // A process that has no file yet (lost before it first saved) goes
        // on from another's: every state is the whole run's.
        let mut missing = None;
        let (mine, failed) = match mine {
            Some(Ok(s)) => (Ok(Some(s)), None),
            Some(Err(SpaceError::CheckpointRead { path, source }))
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                missing = Some(SpaceError::CheckpointRead { path, source });
                (Ok(None), None)
            }
            Some(Err(e)) => (Err(e.to_string()), Some(e)),
            None => (Ok(None), None),
        };
        let all = self.hello.round(self.worker, 0, mine)?;
        if let Some(e) = failed {
            return Err(e);
        }
        if all.len() != self.plan.peers {
            return Err(SpaceError::Cluster(format!(
                "{} of {} workers started",
                all.len(),
                self.plan.peers
            )));
        }
        let workers = self.plan.workers.max(1);
        if let Some((w, why)) = all
            .iter()
            .enumerate()
            .find_map(|(w, r)| r.as_ref().err().map(|why| (w, why)))
        {
            return Err(SpaceError::Disagree(format!(
                "process {} cannot resume: {why}",
                w / workers
            )));
        }
        let all: Vec<State> = all.into_iter().filter_map(Result::ok).flatten().collect();
        if all.is_empty() {
            if let Some(e) = missing {
                // no process has a checkpoint to go on from
                return Err(e);
            }
        }
        let mut best: Option<State> = None;
        for s in all {
            if best.as_ref().is_none_or(|b| s.ahead_of(b)) {
                best = Some(s);
            }
        }
        self.st = best.unwrap_or(fresh);
        self.last_save = Instant::now();
        self.started = Instant::now();
        Ok(())
    }

    /// Searches the iteration under way to its end; the answer if it
    /// found one or a budget ran out.
    fn iteration(&mut self) -> Result<Option<Outcome>, SpaceError> {
        let bound = self.st.bound;
        // a fresh iteration is cut from the base depth, as deep as its
        // tasks need; a resumed one where it was
        let from = if self.st.cut_counted {
            self.st.depth
        } else {
            self.st.base
        };
        let (cut, depth) = self.cut(bound, from, !self.st.cut_counted)?;
        self.st.depth = depth;
        if !self.st.cut_counted {
            self.st.cut_counted = true;
            self.st.nodes += cut.expanded;
            self.count(cut.expanded, cut.generated);
            self.st.next = self.st.next.min(cut.next_bound);
            if let Some(path) = cut.found {
                return self.solved(path).map(Some);
            }
        }
        let mut done = self.st.done.clone();
        done.sort_unstable();
        let mut pool: Vec<u32> = (0..cut.tasks as u32)
            .filter(|t| done.binary_search(t).is_err())
            .collect();
        while !pool.is_empty() {
            let all = self.round(&pool)?;
            let mut done: Vec<u32> = Vec::new();
            for r in &all {
                done.extend_from_slice(&r.done);
                self.st.nodes += r.expanded;
                self.count(r.expanded, r.generated);
                self.st.next = self.st.next.min(r.next_bound);
                self.st.largest = self.st.largest.max(r.largest);
            }
            self.st.done.extend_from_slice(&done);
            // the lowest worker's solution, the same on every worker
            if let Some(path) = all.iter().find_map(|r| r.found.as_deref()) {
                let path = path.iter().map(|&i| Dir::ALL[usize::from(i & 3)]).collect();
                return self.solved(path).map(Some);
            }
            if let Some(why) = all.iter().find_map(|r| r.halted) {
                return self.halt(interrupt(why)).map(Some);
            }
            if self.st.expanded >= self.plan.max_nodes {
                return self.halt(Interrupt::Limit(Limit::Nodes)).map(Some);
            }
            done.sort_unstable();
            pool.retain(|t| done.binary_search(t).is_err());
            self.save(false)?;
        }
        let nodes = self.st.nodes;
        self.st.iterations.push((bound, nodes));
        self.st.last_done = bound;
        // A task that took more than its share of the iteration would
        // leave the others waiting in the next, larger one: cut deeper,
        // unless the iteration was too small to matter or the cut (held
        // whole in memory) would grow too large: two moves deeper is
        // about 4.5 times the tasks.
        let share = nodes / (self.plan.peers * TASKS_PER_WORKER) as u64;
        let mut base = self.st.base;
        let worth = share >= MIN_SHARE && cut.tasks.saturating_mul(5) <= MAX_TASKS;
        if self.st.largest > share && worth && self.st.depth + 2 <= MAX_DEPTH {
            base = self.st.depth + 2;
        }
        let Reply::Bound(next) = self.ask(Cmd::BoundAfter(self.st.next))? else {
            return Err(confused());
        };
        let st = State::iteration(self.plan.run.clone(), next, base);
        self.st = State {
            iterations: std::mem::take(&mut self.st.iterations),
            last_done: self.st.last_done,
            expanded: self.st.expanded,
            generated: self.st.generated,
            ..st
        };
        self.save(false)?;
        Ok(None)
    }

    /// Writes this process's checkpoint if this worker keeps it and its
    /// interval has passed (or `now`).
    fn save(&mut self, now: bool) -> Result<(), SpaceError> {
        let Some((path, every, _)) = self.plan.checkpoint.as_ref().filter(|_| self.saver) else {
            return Ok(());
        };
        if now || self.last_save.elapsed() >= *every {
            save(path, &self.st)?;
            self.last_save = Instant::now();
        }
        Ok(())
    }

    /// Sends `cmd` to the search thread and waits for its reply, stepping
    /// timely meanwhile; if the run fails, the search is stopped.
    fn ask(&mut self, cmd: Cmd) -> Result<Reply, SpaceError> {
        self.link
            .tx
            .send(cmd)
            .map_err(|_| SpaceError::Cluster("a search thread ended".into()))?;
        loop {
            match self.link.rx.recv_timeout(Duration::from_millis(2)) {
                Ok(reply) => return Ok(reply),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(SpaceError::Cluster("a search thread ended".into()))
                }
                Err(RecvTimeoutError::Timeout) => {
                    if self.watch.failed() {
                        self.stop.store(true, Ordering::Relaxed);
                        return Err(stopped());
                    }
                    self.worker.step();
                }
            }
        }
    }

    /// Iteration `bound` cut at `depth` or (if `deepen`) deeper, until it
    /// has tasks enough for every worker; the cut and its depth. A resumed
    /// iteration is cut at its saved depth, so its tasks keep their
    /// numbers.
    fn cut(
        &mut self,
        bound: u32,
        mut depth: u32,
        deepen: bool,
    ) -> Result<(IterationCut, u32), SpaceError> {
        loop {
            let Reply::Cut(cut, sum) = self.ask(Cmd::Cut { bound, depth })? else {
                return Err(confused());
            };
            self.cut_sum = sum;
            let enough = cut.tasks >= self.plan.peers * TASKS_PER_WORKER;
            let deepest = depth >= bound.min(MAX_DEPTH);
            if !deepen || cut.found.is_some() || cut.tasks == 0 || enough || deepest {
                return Ok((cut, depth));
            }
            depth += 1;
        }
    }

    /// One round: this worker searches its deal of `pool` (every
    /// `peers`-th task from its own number) for a slice, and all reports
    /// are exchanged.
    fn round(&mut self, pool: &[u32]) -> Result<Vec<Report>, SpaceError> {
        let me = self.worker.index();
        let mine: Vec<u32> = pool
            .iter()
            .skip(me)
            .step_by(self.plan.peers)
            .copied()
            .collect();
        let searched = if mine.is_empty() {
            Searched {
                next_bound: u32::MAX,
                ..Searched::default()
            }
        } else {
            // Short searches take short rounds: a worker searches on
            // through its slice after another found the solution, so the
            // slice grows with the search, to a tenth of its time so far.
            let slice =
                (self.started.elapsed() / 10).clamp(MIN_SLICE, self.plan.slice.max(MIN_SLICE));
            match self.ask(Cmd::Search { tasks: mine, slice })? {
                Reply::Searched(s) => s,
                _ => return Err(confused()),
            }
        };
        let report = Report {
            done: searched.done,
            expanded: searched.expanded,
            generated: searched.generated,
            next_bound: searched.next_bound,
            largest: searched.largest,
            found: searched
                .found
                .map(|p| p.iter().map(|&d| dir_index(d)).collect()),
            halted: searched.halted.map(interrupt_code),
            cut: self.cut_sum,
        };
        let all = self.rounds.round(self.worker, self.time, report)?;
        self.time += 1;
        // Workers that cut an iteration differently would exchange task
        // numbers that mean different subtrees: a defect, never a wrong
        // answer.
        if let Some((w, r)) = all.iter().enumerate().find(|(_, r)| r.cut != self.cut_sum) {
            return Err(SpaceError::Cluster(format!(
                "worker {w} cut the iteration of bound {} unlike worker {me} (checksums {:08x} and \
                 {:08x}): the processes do not search the same tree",
                self.st.bound, r.cut, self.cut_sum
            )));
        }
        if all.len() != self.plan.peers {
            return Err(SpaceError::Cluster(format!(
                "{} of {} workers reported (a worker stopped)",
                all.len(),
                self.plan.peers
            )));
        }
        Ok(all)
    }

    fn count(&mut self, expanded: u64, generated: u64) {
        self.st.expanded += expanded;
        self.st.generated += generated;
    }

    fn stats(&self) -> Stats {
        Stats {
            expanded: self.st.expanded,
            generated: self.st.generated,
            // a worker's stack holds at most a path of the bound's length
            peak_states: u64::from(self.st.bound.min(u32::MAX - 1)) + 1,
            elapsed: self.plan.t0.elapsed(),
        }
    }

    /// The iteration under way found `path`: the answer, and the
    /// checkpoint is no longer needed.
    fn solved(&mut self, path: Vec<Dir>) -> Result<Outcome, SpaceError> {
        let (bound, nodes) = (self.st.bound, self.st.nodes);
        self.st.iterations.push((bound, nodes));
        self.finish(Some(path))
    }

    fn finish(&mut self, path: Option<Vec<Dir>>) -> Result<Outcome, SpaceError> {
        let cmd = Cmd::Finish(Finish::Solved {
            path,
            stats: self.stats(),
            iterations: self.st.summaries(),
        });
        if let Some((p, _, _)) = self.plan.checkpoint.as_ref().filter(|_| self.saver) {
            remove(p);
        }
        self.done(cmd)
    }

    /// A budget ran out or the cancel flag was raised: the checkpoint
    /// keeps where the search is, and the answer is the error.
    fn halt(&mut self, why: Interrupt) -> Result<Outcome, SpaceError> {
        self.save(true)?;
        let cmd = Cmd::Finish(Finish::Halted {
            why,
            last_done: self.st.last_done,
            stats: self.stats(),
        });
        self.done(cmd)
    }

    fn done(&mut self, cmd: Cmd) -> Result<Outcome, SpaceError> {
        match self.ask(cmd)? {
            Reply::Done(out) => Ok(*out),
            _ => Err(confused()),
        }
    }
}

fn confused() -> SpaceError {
    SpaceError::Cluster("a search thread answered out of turn".into())
}

fn dir_index(d: Dir) -> u8 {
    Dir::ALL.iter().position(|&x| x == d).unwrap_or(0) as u8
}

fn interrupt_code(i: Interrupt) -> u8 {
    match i {
        Interrupt::Cancelled => 0,
        Interrupt::Limit(Limit::States) => 1,
        Interrupt::Limit(Limit::Nodes) => 2,
        Interrupt::Limit(Limit::Time) => 3,
        Interrupt::Limit(Limit::Memory) => 4,
    }
}

fn interrupt(code: u8) -> Interrupt {
    match code {
        1 => Interrupt::Limit(Limit::States),
        2 => Interrupt::Limit(Limit::Nodes),
        3 => Interrupt::Limit(Limit::Time),
        4 => Interrupt::Limit(Limit::Memory),
        _ => Interrupt::Cancelled,
    }
}
