//! The one-machine engine: one shared two-bit array, each level expanded in
//! parallel over ranges of words (rayon).

use super::bits::{self, entries_with, level_code, PER_WORD};
use super::checkpoint::{self, Expect, Header};
use super::index::{Indexer, State};
use super::{boards_of, check_size, for_cells, Progress, SpaceError, SpaceOptions, SpaceResult};
use npuzzle::Board;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Words scanned per parallel task: 64 Ki positions, small enough to
/// balance two to dozens of cores and to notice a cancellation quickly.
pub(crate) const CHUNK_WORDS: usize = 2048;

/// The complete breadth-first search from `goal` on this machine, on every
/// core. Refuses (before allocating) a board whose two-bit array needs more
/// than `opts.max_memory`; stops between chunks once `cancel` is set.
pub fn analyze(
    goal: &Board,
    opts: &SpaceOptions,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<SpaceResult, SpaceError> {
    let needed = check_size(goal.shape(), opts.max_memory)?;
    for_cells!(goal.shape(), run(goal, opts, progress, cancel, needed))
}

/// One chunk's share of a level: positions discovered, and its first
/// frontier indices.
#[derive(Default)]
struct Found {
    new: u64,
    sample: Vec<u64>,
}

impl Found {
    /// Combines two shares; the sample stays the lowest `cap` indices
    /// whatever the order shares are combined in.
    fn merge(mut self, other: Found, cap: usize) -> Found {
        self.new += other.new;
        if !other.sample.is_empty() {
            self.sample.extend(other.sample);
            self.sample.sort_unstable();
            self.sample.truncate(cap);
        }
        self
    }
}

fn run<const N: usize>(
    goal: &Board,
    opts: &SpaceOptions,
    progress: &dyn Progress,
    cancel: &AtomicBool,
    needed: u128,
) -> Result<SpaceResult, SpaceError> {
    let ix = Indexer::<N>::new(goal).with_metric(opts.metric);
    let total_words = bits::words_for(ix.count());
    progress.started(ix.count(), needed);
    let words = bits::alloc_atomic(total_words)?;

    let (mut level, mut counts) = match &opts.checkpoint {
        Some(c) if c.resume => {
            let h = resume(&c.path, goal, opts.metric, &words, total_words, ix.count())?;
            progress.resumed(&c.path, h.level);
            let mut counts = h.counts;
            counts.push(h.part_frontier);
            (h.level, counts)
        }
        _ => {
            let g = ix.goal_index();
            words[(g / PER_WORD) as usize].store(level_code(0) << (2 * (g % PER_WORD)), Relaxed);
            (0, vec![1])
        }
    };
    let mut saved = None;
    let mut last_save = Instant::now();
    let mut sample = Vec::new();
    let chunks = words.len().div_ceil(CHUNK_WORDS);
    let list = opts.list.min(super::MAX_LIST);
    while counts[level as usize] > 0 {
        progress.level(level, counts[level as usize], total_words);
        let (cur, next) = (level_code(level), level_code(level + 1));
        let found = (0..chunks)
            .into_par_iter()
            .map(|c| {
                if cancel.load(Relaxed) {
                    return Found::default();
                }
                let range = c * CHUNK_WORDS..((c + 1) * CHUNK_WORDS).min(words.len());
                let n = range.len() as u64;
                let f = expand(&ix, &words, range, cur, next, list);
                progress.advance(n);
                f
            })
            .reduce(Found::default, |a, b| a.merge(b, list));
        if cancel.load(Relaxed) {
            return Err(SpaceError::Cancelled { level, saved });
        }
        progress.level_done(level, found.new);
        sample = found.sample;
        counts.push(found.new);
        level += 1;
        if let Some(c) = &opts.checkpoint {
            if found.new > 0 && last_save.elapsed() >= c.every {
                let t0 = Instant::now();
                let closed: u64 = counts[..level as usize].iter().sum();
                let header = Header {
                    goal: goal.clone(),
                    metric: opts.metric,
                    level,
                    counts: counts[..level as usize].to_vec(),
                    total_words,
                    first_word: 0,
                    words: total_words,
                    part: 0,
                    parts: 1,
                    part_frontier: found.new,
                    part_closed: closed,
                };
                checkpoint::write(&c.path, &header, |i| words[i].load(Relaxed))?;
                saved = Some(level);
                last_save = Instant::now();
                progress.checkpointed(&c.path, level, t0.elapsed().as_secs_f64());
            }
        }
    }
    counts.pop();
    Ok(SpaceResult {
        goal: goal.clone(),
        counts,
        antipodes: boards_of(goal, &sample)?,
    })
}

/// Expands the positions of `words[range]` that hold `cur`: marks their
/// unseen neighbours `next` and closes them. Returns the positions newly
/// marked and the first `cap` expanded indices.
///
/// Ranges run in parallel and a neighbour may lie in another range's word,
/// so every write is an atomic OR, which composes with the other writers'
/// ORs into the same word. It is sound because a thread ORs `next` only
/// into an entry it has just seen unseen (`00`): every position of level
/// `d` was written during level `d − 1`, before the join that ended it, so
/// no thread ever ORs `next` into a position still waiting to be expanded
/// (which would turn `cur` into `closed` and lose it), and the `cur`
/// entries a thread reads and closes in its own words are written by no
/// one else. In single moves the graph is bipartite and a neighbour lies at
/// level `d ± 1`; in pushes it may also lie at level `d` — already marked
/// `cur` or `closed`, so seen and left alone.
/// Within a level every entry only goes up (unseen → next, cur → closed), so
/// a relaxed load that sees a nonzero entry may skip the write; the counts
/// stay exact because only the OR that finds the entry unseen counts it.
/// Relaxed ordering suffices: levels are separated by the join at the end
/// of the parallel loop, which orders all of one level's writes before the
/// next level's reads.
fn expand<const N: usize>(
    ix: &Indexer<N>,
    words: &[AtomicU64],
    range: std::ops::Range<usize>,
    cur: u64,
    next: u64,
    cap: usize,
) -> Found {
    let mut found = Found::default();
    let mut st = State::<N>::default();
    for w in range {
        let mask = entries_with(words[w].load(Relaxed), cur);
        if mask == 0 {
            continue;
        }
        let mut rest = mask;
        while rest != 0 {
            let bit = u64::from(rest.trailing_zeros());
            rest &= rest - 1;
            let m = w as u64 * PER_WORD + bit / 2;
            if found.sample.len() < cap {
                found.sample.push(m);
            }
            ix.state(m, &mut st);
            ix.neighbours(&st, |nb| {
                let word = &words[(nb / PER_WORD) as usize];
                let shift = 2 * (nb % PER_WORD);
                // The load is what keeps the search sound in pushes (above),
                // not only a saving.
                if (word.load(Relaxed) >> shift) & 3 == 0 {
                    let old = word.fetch_or(next << shift, Relaxed);
                    if (old >> shift) & 3 == 0 {
                        found.new += 1;
                    }
                }
            });
        }
        // `cur` is 01 or 10; OR-ing 11 into those entries closes them.
        words[w].fetch_or(mask * 3, Relaxed);
    }
    found
}

/// Loads a checkpoint into `words` and checks it against its counts.
fn resume(
    path: &std::path::Path,
    goal: &Board,
    metric: npuzzle::Metric,
    words: &[AtomicU64],
    total_words: u64,
    positions: u64,
) -> Result<Header, SpaceError> {
    let expect = Expect {
        goal,
        metric,
        positions,
        total_words,
        first_word: 0,
        words: total_words,
        part: 0,
        parts: 1,
    };
    let h = checkpoint::read(path, &expect, |i, w| words[i].store(w, Relaxed))?;
    checkpoint::check_counts(path, &h, level_code(h.level), |code| {
        words
            .par_iter()
            .map(|w| u64::from(bits::count_code(w.load(Relaxed), code)))
            .sum()
    })?;
    Ok(h)
}
