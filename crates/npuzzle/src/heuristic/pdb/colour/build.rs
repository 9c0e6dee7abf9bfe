//! The breadth-first search that fills a colour database.
//!
//! One byte an arrangement: its distance, or `UNSEEN`. Each level scans
//! every entry for the current depth (a byte compare, cheap beside the
//! expansion), unranks the arrangement, makes each push of the blank (or
//! each single move), and marks every unseen child one deeper. Threads
//! share the table: they only ever write `depth + 1` into an `UNSEEN`
//! entry, so two threads reaching one child write the same value, and the
//! compare-exchange lets exactly one of them count it.

use super::packed::PackedRanker;
use super::rank::Ranker;
use super::Colouring;
use crate::board::{Dir, Metric};
use crate::budget::{Clock, Interrupt};
use crate::heuristic::pdb::PdbReporter;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

const UNSEEN: u8 = u8::MAX;
/// Entries one task scans before the clock is polled again.
const CHUNK: usize = 1 << 16;

/// The distances of every arrangement of `colouring`'s colours to the
/// goal's, in `metric`.
pub(super) fn build(
    colouring: &Colouring,
    ranker: &Ranker,
    metric: Metric,
    reporter: &dyn PdbReporter,
    clock: &Clock<'_>,
) -> Result<Vec<u8>, Interrupt> {
    let shape = colouring.shape;
    let (rows, cols, n) = (shape.rows, shape.cols, shape.cells());
    let total = ranker.total() as usize;
    let mut table: Vec<AtomicU8> = Vec::with_capacity(total);
    crate::system::advise_huge_pages(&table);
    table.extend((0..total).map(|_| AtomicU8::new(UNSEEN)));
    let goal = ranker.rank(n, |i| colouring.cells[i]);
    table[goal as usize].store(0, Ordering::Relaxed);
    let mut reached = 1u64;
    reporter.layer(0, 1, total as u64);
    let stopped = std::sync::atomic::AtomicBool::new(false);
    // children ranked from a word of nibbles where the board fits one
    // (see `packed`): the rank is most of an expansion's work
    let packed = PackedRanker::new(ranker, n);
    for depth in 0..UNSEEN - 1 {
        let new = AtomicU64::new(0);
        table.par_chunks(CHUNK).enumerate().for_each_init(
            || vec![0u8; n],
            |codes, (ci, chunk_entries)| {
                if stopped.load(Ordering::Relaxed) || clock.poll().is_err() {
                    stopped.store(true, Ordering::Relaxed);
                    return;
                }
                let base = ci * CHUNK;
                let mut found = 0;
                for (j, e) in chunk_entries.iter().enumerate() {
                    if e.load(Ordering::Relaxed) != depth {
                        continue;
                    }
                    ranker.unrank((base + j) as u64, codes);
                    let mut mark = |r: usize| {
                        let cell = &table[r];
                        if cell.load(Ordering::Relaxed) == UNSEEN
                            && cell
                                .compare_exchange(UNSEEN, depth + 1, Ordering::Relaxed, Ordering::Relaxed)
                                .is_ok()
                        {
                            found += 1;
                        }
                    };
                    match &packed {
                        Some(p) => expand_packed(p, &table, codes, rows, cols, metric, &mut mark),
                        None => expand(codes, rows, cols, metric, |child: &[u8]| {
                            mark(ranker.rank(n, |i| child[i]) as usize);
                        }),
                    }
                }
                new.fetch_add(found, Ordering::Relaxed);
            },
        );
        if stopped.load(Ordering::Relaxed) {
            return Err(clock.poll().err().unwrap_or(Interrupt::Cancelled));
        }
        let new = new.into_inner();
        if new == 0 {
            break;
        }
        reached += new;
        reporter.layer(u32::from(depth) + 1, new, reached);
    }
    // Arrangements never reached (the other parity class, when every colour
    // is a single tile) are never asked for; 0 keeps any lookup admissible.
    // (Collected in place: the huge pages stay.)
    Ok(table
        .into_iter()
        .map(|e| match e.into_inner() {
            UNSEEN => 0,
            d => d,
        })
        .collect())
}

/// Calls `child` with the rank of each arrangement one move from `codes`
/// (as [`expand`]), each made on the packed word by two xors; all are
/// ranked and their entries fetched into the cache before the first is
/// marked, so that the misses overlap.
fn expand_packed<T>(
    p: &PackedRanker,
    table: &[T],
    codes: &[u8],
    rows: usize,
    cols: usize,
    metric: Metric,
    mut child: impl FnMut(usize),
) {
    let Some(blank) = codes.iter().position(|&c| c == 0) else {
        return;
    };
    let shift = |i: usize| 4 * p.nibble(i) as u32;
    let word = p.pack(|i| codes[i]);
    // at most rows + cols − 2 children, and the board has at most 16 cells
    let mut ranks = [0usize; 16];
    let mut kids = 0;
    for dir in Dir::ALL {
        let (mut at, mut w) = (blank, word);
        while let Some(to) = dir.step(at, rows, cols) {
            // the colour on `to` slides onto the blank's cell `at`
            let c = (w >> shift(to)) & 0xF;
            w ^= c << shift(at) | c << shift(to);
            at = to;
            let r = p.rank(w);
            if let Some(e) = table.get(r) {
                crate::heuristic::pdb::entry::prefetch(e);
            }
            if kids < ranks.len() {
                ranks[kids] = r;
                kids += 1;
            } else {
                child(r);
            }
            if metric == Metric::Stm {
                break;
            }
        }
    }
    ranks[..kids].iter().for_each(|&r| child(r));
}

/// Calls `child` with each arrangement one move from `codes` (the blank is
/// colour 0): pushes of one tile up to the edge in the multi-tile metric,
/// one tile in the single-tile one. `codes` is left as it was.
fn expand(codes: &mut [u8], rows: usize, cols: usize, metric: Metric, mut child: impl FnMut(&[u8])) {
    let Some(blank) = codes.iter().position(|&c| c == 0) else {
        return;
    };
    for dir in Dir::ALL {
        let mut at = blank;
        while let Some(to) = dir.step(at, rows, cols) {
            codes.swap(at, to);
            at = to;
            child(codes);
            if metric == Metric::Stm {
                break;
            }
        }
        // undo: the blank walks back, each colour shifting back one cell
        let back = dir.opposite();
        while at != blank {
            let Some(prev) = back.step(at, rows, cols) else { break };
            codes.swap(at, prev);
            at = prev;
        }
    }
}
