//! Running library work without the GIL, interruptible by Ctrl-C.
//!
//! Python handles a signal only when the main thread runs Python code (or
//! calls `PyErr_CheckSignals`), so a search on the calling thread would
//! ignore Ctrl-C until it ended. Long work therefore runs on a helper
//! thread, with the GIL released, while the calling thread wakes every few
//! milliseconds to check for signals; on `KeyboardInterrupt` it raises the
//! work's cancel flag (the searches poll it), waits for the work to stop,
//! and re-raises. Small boards skip the helper thread ([`search`]).

use crossbeam_channel::{bounded, RecvTimeoutError};
use npuzzle::{Algorithm, Problem, SolveOptions};
use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Boards of at most this many cells (3×3, 2×4 and smaller) are searched
/// on the calling thread: their whole space is at most 181,440 positions,
/// so every search there but DFID ends within about a tenth of a second
/// (IDA* with misplaced tiles, the weakest, on the hardest 3×3 and 2×4
/// boards), and most end in microseconds — less than handing the work to
/// another thread would cost.
const INLINE_MAX_CELLS: usize = 9;

/// How often the calling thread looks for signals.
const POLL: Duration = Duration::from_millis(5);

/// Runs `work` on a helper thread with the GIL released; Ctrl-C raises
/// `cancel` (which `work` must watch) and is re-raised once `work` ends.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (tx, rx) = bounded(1);
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("npuzzle-search".to_string())
            .spawn_scoped(scope, move || {
                // The receiver is gone only once we gave up waiting.
                let _ = tx.send(work());
            })
            .map_err(|e| PyOSError::new_err(format!("cannot start a search thread: {e}")))?;
        loop {
            match py.detach(|| rx.recv_timeout(POLL)) {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Timeout) => {}
                // The work panicked: pass the panic on (pyo3 turns it into
                // a PanicException).
                Err(RecvTimeoutError::Disconnected) => {
                    return match handle.join() {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => Err(PyRuntimeError::new_err(
                            "the search thread ended without an answer",
                        )),
                    };
                }
            }
            if let Err(interrupt) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                // Searches poll the flag every few thousand nodes: this is
                // a wait of milliseconds.
                let _ = py.detach(move || handle.join());
                return Err(interrupt);
            }
        }
    })
}

/// A fresh cancel flag, and `opts` watching it.
pub fn cancellable(opts: SolveOptions) -> (SolveOptions, Arc<AtomicBool>) {
    let flag = Arc::new(AtomicBool::new(false));
    let budget = opts.budget.clone().with_cancel(Some(flag.clone()));
    (opts.with_budget(budget), flag)
}

/// Runs `work` on `problem` without the GIL: inline for small boards,
/// else on a helper thread that Ctrl-C can stop. `inline` false sends
/// small boards to the helper thread too (work that may be slow on any
/// board, such as a trace keeping many events).
pub fn search<T: Send>(
    py: Python<'_>,
    problem: &Problem,
    opts: SolveOptions,
    inline: bool,
    work: impl FnOnce(&Problem, &SolveOptions) -> T + Send,
) -> PyResult<T> {
    // DFID has no heuristic: it can take minutes on a hard 8-puzzle.
    let quick = problem.shape().cells() <= INLINE_MAX_CELLS && opts.algorithm != Algorithm::Dfid;
    if inline && quick {
        return Ok(py.detach(|| work(problem, &opts)));
    }
    let (opts, flag) = cancellable(opts);
    interruptible(py, &flag, || work(problem, &opts))
}
