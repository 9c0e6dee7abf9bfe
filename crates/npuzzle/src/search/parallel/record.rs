//! The parallel search's checkpointing: which tasks of the iteration under
//! way are done, kept up to date as they finish and written when due.

use super::Ended;
use crate::heuristic::TableHooks;
use crate::search::checkpoint::{self, CheckpointError, Checkpointing, Counts, Due, Identity, Place, Saved};
use crate::search::{IterationSummary, Problem, SearchError, SolveOptions};
use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

/// A parallel search's checkpointing: the checkpoint, kept up to date as
/// tasks finish and written when due, and the tasks a resumed iteration
/// skips (done before the kill, identified by their moves from the start).
pub(super) struct Record {
    path: std::path::PathBuf,
    state: Mutex<(Saved, Due)>,
    pub(super) skip: HashSet<String>,
    failed: Mutex<Option<CheckpointError>>,
}

impl Record {
    /// The checkpointing `c` asks for, and what it resumes (refused unless
    /// it is a parallel checkpoint of this very search).
    pub(super) fn open<H: TableHooks>(
        c: &Checkpointing,
        h: &H,
        problem: &Problem,
        opts: &SolveOptions,
    ) -> Result<(Record, Option<Saved>), SearchError> {
        let identity = Identity::of(problem, opts, h.identity(), "parallel");
        let saved = if c.resume {
            Some(checkpoint::read(&c.path, &identity)?)
        } else {
            None
        };
        let template = Saved::empty(identity, Place::Parallel {
            split: 0,
            done: Vec::new(),
            counts: Counts::start(0, 0),
        });
        let record = Record {
            path: c.path.clone(),
            state: Mutex::new((template, Due::new(c.every))),
            skip: HashSet::new(),
            failed: Mutex::new(None),
        };
        Ok((record, saved))
    }

    /// A new iteration: the checkpoint says where it is (written now when
    /// it is the search's first or one is due); returns the counts it
    /// starts from (on resume, with its done tasks').
    pub(super) fn begin(
        &mut self,
        bound: u32,
        done: &[IterationSummary],
        at_start: Counts,
        split: u32,
        resume: Option<Saved>,
    ) -> Result<Counts, SearchError> {
        let first = lock(&self.state).0.bound == 0;
        let (tasks, counts) = match resume.map(|s| s.place) {
            Some(Place::Parallel { done, counts, .. }) => (done, counts),
            Some(Place::Serial { .. }) => {
                return Err(CheckpointError::Mismatch {
                    path: self.path.clone(),
                    field: "search",
                    saved: "serial".into(),
                    here: "parallel".into(),
                }
                .into())
            }
            None => (Vec::new(), at_start),
        };
        self.skip = tasks.iter().cloned().collect();
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        let (saved, due) = (&mut state.0, &mut state.1);
        saved.bound = bound;
        saved.iterations = done.to_vec();
        saved.at_start = at_start;
        saved.place = Place::Parallel {
            split,
            done: tasks,
            counts,
        };
        if first || due.now() {
            checkpoint::write(&self.path, saved)?;
        }
        Ok(counts)
    }

    /// The least `f` above the bound over the tasks done.
    pub(super) fn next_bound(&self) -> u32 {
        match &lock(&self.state).0.place {
            Place::Parallel { counts, .. } => counts.next_bound,
            Place::Serial { .. } => u32::MAX,
        }
    }

    /// The task `moves` searched its subtree at `cost`; `false` when the
    /// checkpoint then due could not be written (kept in `failed`).
    pub(super) fn finished(&self, moves: String, cost: Counts) -> bool {
        let mut state = lock(&self.state);
        let (saved, due) = &mut *state;
        if let Place::Parallel { done, counts, .. } = &mut saved.place {
            done.push(moves);
            counts.expanded += cost.expanded;
            counts.generated += cost.generated;
            counts.next_bound = counts.next_bound.min(cost.next_bound);
        }
        if !due.now() {
            return true;
        }
        match checkpoint::write(&self.path, saved) {
            Ok(()) => true,
            Err(e) => {
                *lock(&self.failed) = Some(e);
                false
            }
        }
    }

    /// After an iteration: a failed write reported; a search stopped by
    /// its budget saved for `--resume`; a finished one's file removed.
    pub(super) fn ended(&self, ended: &Ended, opts: &SolveOptions) -> Result<(), SearchError> {
        if let Some(e) = lock(&self.failed).take() {
            return Err(e.into());
        }
        match ended {
            Ended::Interrupted(_) => checkpoint::write(&self.path, &lock(&self.state).0)?,
            Ended::Found(_) => {
                if let Some(c) = &opts.checkpoint {
                    let _ = std::fs::remove_file(&c.path);
                }
            }
            Ended::Bound(_) => {}
        }
        Ok(())
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

