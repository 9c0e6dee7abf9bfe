//! The search thread beside each timely worker: it holds the worker's
//! [`Subtrees`] (which borrow the process's heuristic, so they cannot live
//! on timely's own threads) and does what its worker asks, while the
//! worker keeps stepping timely.

use npuzzle::{Dir, Interrupt, IterationCut, IterationSummary, SearchError, Solution};
use npuzzle::{Stats, Subtrees, TaskEnd, TaskResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a worker asks of its search thread.
pub(super) enum Cmd {
    FirstBound,
    BoundAfter(u32),
    Cut {
        bound: u32,
        depth: u32,
    },
    /// Search these tasks of the last cut in order, starting a new one
    /// only while `slice` has not passed since the first began.
    Search {
        tasks: Vec<u32>,
        slice: Duration,
    },
    /// The answer: a path found (or none left), or the search halted.
    Finish(Finish),
}

pub(super) enum Finish {
    Solved {
        path: Option<Vec<Dir>>,
        stats: Stats,
        iterations: Vec<IterationSummary>,
    },
    Halted {
        why: Interrupt,
        last_done: u32,
        stats: Stats,
    },
}

/// The search thread's answers, one per [`Cmd`].
pub(super) enum Reply {
    Bound(u32),
    /// The cut, and a checksum of its tasks' moves (what every worker
    /// must hold alike).
    Cut(IterationCut, u32),
    Searched(Searched),
    Done(Box<Result<Solution, SearchError>>),
}

/// The tasks of one [`Cmd::Search`] that were finished (a task given up
/// for the stop flag is not), and what they cost.
#[derive(Default)]
pub(super) struct Searched {
    pub done: Vec<u32>,
    pub expanded: u64,
    pub generated: u64,
    pub next_bound: u32,
    /// The most nodes one task took.
    pub largest: u64,
    pub found: Option<Vec<Dir>>,
    pub halted: Option<Interrupt>,
}

/// A worker's end of the channels to its search thread.
pub(super) struct Link {
    pub tx: Sender<Cmd>,
    pub rx: Receiver<Reply>,
}

/// Serves `cmds` until its sender is gone or `quit` is raised (the run
/// ended while a worker was left behind).
pub(super) fn serve(
    mut s: Box<dyn Subtrees + '_>,
    cmds: &Receiver<Cmd>,
    replies: &Sender<Reply>,
    quit: &AtomicBool,
) {
    loop {
        let cmd = match cmds.recv_timeout(Duration::from_millis(100)) {
            Ok(cmd) => cmd,
            Err(RecvTimeoutError::Timeout) if !quit.load(Ordering::Relaxed) => continue,
            Err(_) => return,
        };
        let reply = match cmd {
            Cmd::FirstBound => Reply::Bound(s.first_bound()),
            Cmd::BoundAfter(next) => Reply::Bound(s.bound_after(next)),
            Cmd::Cut { bound, depth } => {
                let cut = s.cut(bound, depth);
                let sum = checksum(&*s, cut.tasks);
                Reply::Cut(cut, sum)
            }
            Cmd::Search { tasks, slice } => Reply::Searched(search(&mut *s, &tasks, slice)),
            Cmd::Finish(Finish::Solved {
                path,
                stats,
                iterations,
            }) => Reply::Done(Box::new(Ok(s.solution(path, stats, iterations)))),
            Cmd::Finish(Finish::Halted {
                why,
                last_done,
                stats,
            }) => Reply::Done(Box::new(Err(s.halted(why, last_done, stats)))),
        };
        if replies.send(reply).is_err() {
            return;
        }
    }
}

/// A CRC-32 of the count and the moves of a cut's tasks.
fn checksum(s: &dyn Subtrees, tasks: usize) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&(tasks as u64).to_le_bytes());
    for t in 0..tasks {
        h.update(s.task_moves(t).as_bytes());
        h.update(b"/");
    }
    h.finalize()
}

fn search(s: &mut dyn Subtrees, tasks: &[u32], slice: Duration) -> Searched {
    let t0 = Instant::now();
    let mut out = Searched {
        next_bound: u32::MAX,
        ..Searched::default()
    };
    for &t in tasks {
        if t0.elapsed() >= slice && !out.done.is_empty() {
            break;
        }
        let Some(TaskResult {
            expanded,
            generated,
            next_bound,
            end,
        }) = s.search(t as usize)
        else {
            // not a task of the cut: nothing to search
            out.done.push(t);
            continue;
        };
        // A task given up is searched again from its root (after a resume,
        // say): only finished tasks' nodes count, or they would count
        // twice.
        let finished = matches!(end, TaskEnd::Exhausted | TaskEnd::Found(_));
        if finished {
            out.done.push(t);
            out.expanded += expanded;
            out.generated += generated;
            out.largest = out.largest.max(expanded);
        }
        match end {
            TaskEnd::Exhausted => out.next_bound = out.next_bound.min(next_bound),
            TaskEnd::Found(path) => {
                out.found = Some(path);
                break;
            }
            TaskEnd::Halted(why) => {
                out.halted = Some(why);
                break;
            }
            TaskEnd::Stopped => break,
        }
    }
    out
}

/// Stops the searches of a process's search threads when dropped, so that
/// however the run ends, none is left searching.
pub(super) struct StopOnDrop(pub Arc<AtomicBool>, pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        self.1.store(true, Ordering::Relaxed);
    }
}
