//! A whole batch as a stream: every answer written in input order as soon
//! as it and all before it are done, with memory bounded whatever the
//! input.
//!
//! A reader thread cuts the input into chunks ([`ChunkReader`]); the chunks
//! are cut into small tasks answered on a pool of worker threads; a task's
//! output goes back to the caller's thread, which keeps the outputs that
//! arrived early and writes the longest finished prefix at once. So one
//! slow line holds back only the lines after it, never the finished ones
//! before it, and a reader of the output (or a kill) gets every answer
//! already written. At most a fixed number of tasks is in flight, and the
//! reader runs at most two chunks ahead: memory stays flat.
//!
//! Tasks are sized from the time lines have been taking: a few
//! milliseconds of work each, one line when lines are slow (a 4×4 search
//! each), up to thousands when they take nanoseconds (table lookups), so
//! that neither the per-task overhead nor a long task dominates.

use super::{Answerer, BatchConfig, Chunk, ChunkReader, Shard, Tally};
use crossbeam_channel::{bounded, select, unbounded, Receiver, RecvTimeoutError, Sender};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// How to run a stream.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct StreamOptions {
    /// Which instances to answer.
    pub shard: Shard,
    /// Worker threads.
    pub threads: usize,
}

impl Default for StreamOptions {
    fn default() -> StreamOptions {
        StreamOptions {
            shard: Shard::ALL,
            threads: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        }
    }
}

impl StreamOptions {
    /// Answering only `shard`'s instances.
    pub fn with_shard(mut self, shard: Shard) -> StreamOptions {
        self.shard = shard;
        self
    }

    /// On `n` worker threads (at least one).
    pub fn with_threads(mut self, n: usize) -> StreamOptions {
        self.threads = n.max(1);
        self
    }
}

/// How far a stream has got, for a progress display.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Lines read from the input (blank and `#` lines included).
    pub lines_read: u64,
    /// Bytes read from the input.
    pub bytes_read: u64,
    /// What has been written so far.
    pub tally: Tally,
}

/// Why a stream stopped before the end of its input.
#[derive(Debug, Error)]
pub enum StreamError {
    /// The input could not be read (after `done` was written).
    #[error("cannot read the input: {source}")]
    Read {
        /// What was written before the failure.
        done: Tally,
        /// What the system said.
        source: io::Error,
    },
    /// The output could not be written (a closed pipe, a full disk).
    #[error("cannot write the answers")]
    Write(#[source] io::Error),
    /// The budget's cancel flag was raised (Ctrl-C): the answers finished
    /// before it were written, none after.
    #[error("stopped after {} lines answered", done.lines())]
    Cancelled {
        /// What was written before the stop.
        done: Tally,
    },
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {message}")]
    Threads {
        /// How many were asked for.
        threads: usize,
        /// What the system said.
        message: String,
    },
}

/// Lines of the first tasks, before anything is known about their cost.
const FIRST_TASK_LINES: usize = 8;
/// Most lines per task.
const MAX_TASK_LINES: usize = 4096;
/// Aim for tasks of this much work.
const TASK_SECONDS: f64 = 0.004;
/// Tasks in flight per worker thread.
const TASKS_PER_THREAD: usize = 8;
/// Largest chunk the reader hands over, in bytes of kept text.
const MAX_CHUNK_BYTES: usize = 4 << 20;

/// A task's answer: its number, its output lines and their tally, and how
/// long it took.
type Done = (u64, Vec<u8>, Tally, Duration, usize);

/// Answers every instance line of `input` and writes the answers to
/// `output` in input order, each as soon as it and all before it are done.
/// `progress` hears about every write. Returns what was written.
pub fn run<R, W>(
    input: R,
    output: &mut W,
    cfg: &BatchConfig,
    opts: &StreamOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Tally, StreamError>
where
    R: Read + Send + 'static,
    W: Write,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .thread_name(|i| format!("npuzzle-batch-{i}"))
        .build()
        .map_err(|e| StreamError::Threads {
            threads: opts.threads,
            message: e.to_string(),
        })?;
    let cfg = Arc::new(cfg.clone());
    let chunks = spawn_reader(input, opts.shard, cfg.max_line);
    let mut tasks = Tasks::new(pool, cfg, opts.threads * TASKS_PER_THREAD);
    let mut reading = true;
    let mut read_error = None;
    loop {
        // Nothing more once cancelled: the tasks still running answer
        // their lines as cancelled, which are no answers to write.
        if tasks.cancelled() {
            output.flush().map_err(StreamError::Write)?;
            progress(&tasks.state);
            return Err(StreamError::Cancelled {
                done: tasks.state.tally,
            });
        }
        tasks.hand_out();
        if !reading && tasks.idle() {
            break;
        }
        // What is written reaches the reader before we wait for more.
        if tasks.dirty {
            output.flush().map_err(StreamError::Write)?;
            tasks.dirty = false;
        }
        match tasks.wait(reading, &chunks) {
            Event::Chunk(Some(Ok((chunk, lines_read)))) => tasks.take(chunk, lines_read),
            Event::Chunk(Some(Err(e))) => {
                reading = false;
                read_error = Some(e);
            }
            Event::Chunk(None) => reading = false,
            // Answers that arrive after the cancel flag may be
            // cancellations: the check at the top of the loop drops them.
            Event::Done(Some(_)) if tasks.cancelled() => {}
            Event::Tick => {}
            Event::Done(Some(done)) => {
                tasks.write_ready(done, output)?;
                progress(&tasks.state);
            }
            // Cannot happen while `done_tx` lives here; stop rather than spin.
            Event::Done(None) => break,
        }
    }
    output.flush().map_err(StreamError::Write)?;
    progress(&tasks.state);
    match read_error {
        Some(source) => Err(StreamError::Read {
            done: tasks.state.tally,
            source,
        }),
        None => Ok(tasks.state.tally),
    }
}

/// The tasks of one [`run`]: those handed out, the answers waiting for the
/// ones before them, and what has been written.
struct Tasks {
    pool: rayon::ThreadPool,
    cfg: Arc<BatchConfig>,
    done_tx: Sender<Done>,
    done_rx: Receiver<Done>,
    /// Most tasks in flight.
    window: usize,
    state: Progress,
    pending: BTreeMap<u64, (Vec<u8>, Tally)>,
    next_task: u64,
    next_write: u64,
    in_flight: usize,
    task_lines: usize,
    /// Written since the last flush.
    dirty: bool,
    /// The chunk being cut into tasks, and how far.
    current: Option<(Arc<Chunk>, usize)>,
}

impl Tasks {
    fn new(pool: rayon::ThreadPool, cfg: Arc<BatchConfig>, window: usize) -> Tasks {
        let (done_tx, done_rx) = unbounded::<Done>();
        Tasks {
            pool,
            cfg,
            done_tx,
            done_rx,
            window,
            state: Progress::default(),
            pending: BTreeMap::new(),
            next_task: 0,
            next_write: 0,
            in_flight: 0,
            task_lines: FIRST_TASK_LINES,
            dirty: false,
            current: None,
        }
    }

    fn cancelled(&self) -> bool {
        self.cfg.opts.budget.cancelled()
    }

    /// Nothing in flight and nothing left to cut.
    fn idle(&self) -> bool {
        self.in_flight == 0 && self.current.is_none()
    }

    /// Hands out tasks while there is room in the window.
    fn hand_out(&mut self) {
        while self.in_flight < self.window {
            let Some((chunk, from)) = self.current.take() else {
                break;
            };
            let to = (from + self.task_lines).min(chunk.lines.len());
            let (seq, cfg, tx) = (self.next_task, Arc::clone(&self.cfg), self.done_tx.clone());
            let task_chunk = Arc::clone(&chunk);
            self.pool.spawn(move || {
                let t = Instant::now();
                let mut answerer = Answerer::new(&cfg);
                let lines = &task_chunk.lines[from..to];
                let mut out = Vec::with_capacity(lines.len() * 8);
                let mut tally = Tally::default();
                for line in lines {
                    tally.add(answerer.answer_line(&task_chunk, line, &mut out));
                }
                // The receiver outlives every task (it waits for all).
                let _ = tx.send((seq, out, tally, t.elapsed(), lines.len()));
            });
            self.next_task += 1;
            self.in_flight += 1;
            if to < chunk.lines.len() {
                self.current = Some((chunk, to));
            }
        }
    }

    /// The next thing to happen: a chunk read (when one is wanted), a task
    /// done, or a tick. Waits are cut short now and then to see the cancel
    /// flag (a read can wait for as long as a person takes to type a line).
    fn wait(&self, reading: bool, chunks: &Receiver<io::Result<(Chunk, u64)>>) -> Event {
        let need_chunk = reading && self.current.is_none() && self.in_flight < self.window;
        if need_chunk {
            select! {
                recv(chunks) -> c => Event::Chunk(c.ok()),
                recv(self.done_rx) -> d => Event::Done(d.ok()),
                default(CANCEL_POLL) => Event::Tick,
            }
        } else {
            match self.done_rx.recv_timeout(CANCEL_POLL) {
                Ok(d) => Event::Done(Some(d)),
                Err(RecvTimeoutError::Timeout) => Event::Tick,
                Err(RecvTimeoutError::Disconnected) => Event::Done(None),
            }
        }
    }

    /// A chunk read, to be cut into tasks.
    fn take(&mut self, chunk: Chunk, lines_read: u64) {
        self.state.lines_read = lines_read;
        self.state.bytes_read += chunk.bytes_read;
        if !chunk.lines.is_empty() {
            self.current = Some((Arc::new(chunk), 0));
        }
    }

    /// Files `done` and every other answer that has arrived, then writes
    /// the answers now in order.
    fn write_ready<W: Write>(&mut self, done: Done, output: &mut W) -> Result<(), StreamError> {
        self.file(done);
        while let Ok(done) = self.done_rx.try_recv() {
            self.file(done);
        }
        while let Some((out, tally)) = self.pending.remove(&self.next_write) {
            output.write_all(&out).map_err(StreamError::Write)?;
            self.state.tally.add(tally);
            self.next_write += 1;
            self.dirty = true;
        }
        Ok(())
    }

    fn file(&mut self, (seq, out, tally, took, lines): Done) {
        self.in_flight -= 1;
        self.task_lines = next_task_lines(took, lines);
        self.pending.insert(seq, (out, tally));
    }
}

enum Event {
    Chunk(Option<io::Result<(Chunk, u64)>>),
    Done(Option<Done>),
    /// Nothing arrived within [`CANCEL_POLL`].
    Tick,
}

/// How often a waiting stream looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(50);

/// Lines for the next task, from the cost of the last one.
fn next_task_lines(took: Duration, lines: usize) -> usize {
    let per_line = took.as_secs_f64() / lines.max(1) as f64;
    ((TASK_SECONDS / per_line.max(1e-9)) as usize).clamp(1, MAX_TASK_LINES)
}

/// Reads chunks on a thread of its own (a read can block for as long as a
/// person takes to type a line), at most two chunks ahead.
fn spawn_reader<R: Read + Send + 'static>(
    input: R,
    shard: Shard,
    max_line: usize,
) -> Receiver<io::Result<(Chunk, u64)>> {
    let (tx, rx) = bounded(2);
    let spawned = std::thread::Builder::new()
        .name("npuzzle-reader".into())
        .spawn(move || {
            let mut reader = ChunkReader::new(input, shard).max_line(max_line);
            loop {
                let msg = match reader.next_chunk(MAX_TASK_LINES, MAX_CHUNK_BYTES) {
                    Ok(Some(c)) => Ok((c, reader.lines_read())),
                    Ok(None) => break,
                    Err(e) => Err(e),
                };
                let failed = msg.is_err();
                if tx.send(msg).is_err() || failed {
                    break;
                }
            }
        });
    if let Err(e) = spawned {
        // No reader: report it as a read error of the input.
        let (tx, rx) = bounded(1);
        let _ = tx.send(Err(e));
        return rx;
    }
    rx
}
