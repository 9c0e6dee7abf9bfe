//! The output end: removes redundant moves over a bounded window and hands
//! the rest to the caller's sink in chunks.
//!
//! **Redundant moves.** The last [`WINDOW`] moves are held back. A move
//! that undoes the previous held move cancels it. More generally, when the
//! board after a new move equals the board after some held move (or before
//! the first held move), the moves in between form a cycle that changes
//! nothing, and all of them are dropped. Boards are compared by an
//! incremental hash (the sum over tiles of the cell times an odd number
//! drawn from the tile, updated with one multiplication per move); a hash
//! match is confirmed by checking that every
//! tile moved in the cycle has a net displacement of zero, so a collision
//! can never drop a move that matters. Dropping a cycle leaves the final
//! board unchanged, so the board the solver keeps stays right.
//!
//! Without the cycle check (large boards), the chunk being filled holds
//! the moves instead of the ring, and a move undoing the last one held
//! cancels it, as far back as the chunk goes (never less than [`WINDOW`]).
//!
//! Memory is bounded by the window and the chunk size, whatever the number
//! of moves.

use crate::board::Dir;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Moves held back for cycle removal.
pub(crate) const WINDOW: usize = 64;
/// Slots of the hash index (direct-mapped; a lost slot only misses a cycle).
const INDEX: usize = 4 * WINDOW;
/// Moves handed to the sink at once.
const CHUNK: usize = 1 << 14;
/// Pushes between looks at the cancel flag and the clock.
const POLL: u64 = 1 << 16;

/// Why the output stopped taking moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The sink returned an error (kept by the caller).
    Sink,
    Cancelled,
    Deadline,
}

#[derive(Clone, Copy)]
struct Entry {
    dir: Dir,
    tile: u32,
    /// Hash of the board after this move.
    hash: u64,
}

/// Receives a chunk of moves; `false` means the sink failed.
pub(crate) type Flush<'e> = &'e mut dyn FnMut(&[Dir]) -> bool;

/// Peephole window plus chunked output.
pub(crate) struct Emitter<'e> {
    flush: Flush<'e>,
    chunk: Vec<Dir>,
    ring: Vec<Entry>,
    /// Held moves are `ring[head..tail]` (absolute indices, mod WINDOW).
    head: u64,
    tail: u64,
    /// Hash of the board before the first held move.
    base_hash: u64,
    hash: u64,
    /// `(hash, k)`: the board after `k` absolute moves had this hash.
    index: Vec<(u64, u64)>,
    cycles: bool,
    /// Moves the sink has taken, and moves dropped.
    pub delivered: u64,
    pub removed: u64,
    pushes: u64,
    poll_at: u64,
    stop: Option<Stop>,
    cancel: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
}

/// The hash's weight of a tile: odd, so that the hash (the sum of weight
/// times cell) tells positions apart well; collisions are caught anyway.
#[inline]
fn weight(tile: u32) -> u64 {
    (u64::from(tile) ^ 0x5851_F42D).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
}

fn offset(d: Dir) -> (i32, i32) {
    match d {
        Dir::Up => (-1, 0),
        Dir::Down => (1, 0),
        Dir::Left => (0, -1),
        Dir::Right => (0, 1),
    }
}

impl<'e> Emitter<'e> {
    /// `cycles = false` keeps only the cancellation of a move by its inverse.
    pub(crate) fn new(
        flush: Flush<'e>,
        cycles: bool,
        cancel: Option<Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Emitter<'e> {
        let filler = Entry {
            dir: Dir::Up,
            tile: 0,
            hash: 0,
        };
        Emitter {
            flush,
            chunk: Vec::with_capacity(CHUNK),
            ring: vec![filler; WINDOW],
            head: 0,
            tail: 0,
            base_hash: 0,
            hash: 0,
            index: vec![(u64::MAX, u64::MAX); INDEX],
            cycles,
            delivered: 0,
            removed: 0,
            pushes: 0,
            poll_at: 1,
            stop: None,
            cancel,
            deadline,
        }
    }

    /// Why the output stopped, if it has.
    pub(crate) fn stopped(&self) -> Option<Stop> {
        self.stop
    }

    /// Takes one move: the blank went `dir` from cell `from` to cell `to`,
    /// and tile `tile` slid from `to` to `from`.
    // Always inlined: once per move, measurably faster so.
    #[inline(always)]
    pub(crate) fn push(&mut self, dir: Dir, tile: u32, from: u32, to: u32) {
        self.pushes += 1;
        if self.pushes >= self.poll_at {
            self.poll();
        }
        // (Once stopped, moves still come until the solver notices, but
        // none reaches the sink: see `flush_chunk` and `finish`.)
        if !self.cycles {
            self.push_plain(dir);
            return;
        }
        // the tile goes from `to` to `from`
        let h = self
            .hash
            .wrapping_add(weight(tile).wrapping_mul(u64::from(from).wrapping_sub(u64::from(to))));
        if self.tail > self.head {
            let last = self.ring[(self.tail - 1) as usize % WINDOW];
            if last.dir == dir.opposite() {
                self.tail -= 1;
                self.hash = h;
                self.removed += 2;
                return;
            }
        }
        if let Some(k) = self.find(h) {
            if self.is_identity(k, dir, tile) {
                self.removed += self.tail - k + 1;
                self.tail = k;
                self.hash = h;
                return;
            }
        }
        if self.tail - self.head == WINDOW as u64 {
            self.emit_oldest();
        }
        self.ring[self.tail as usize % WINDOW] = Entry { dir, tile, hash: h };
        self.tail += 1;
        self.index[h as usize % INDEX] = (h, self.tail);
        self.hash = h;
    }

    /// Without the cycle check the chunk itself holds the moves: a move
    /// that undoes the last one held cancels it, and a full chunk hands
    /// on all but its last [`WINDOW`] moves, so a cancellation can always
    /// reach that far back. (The ring and its bookkeeping cost about a
    /// tenth of the solver's time on large boards, for nothing more.)
    #[inline(always)]
    fn push_plain(&mut self, dir: Dir) {
        if self.chunk.last() == Some(&dir.opposite()) {
            self.chunk.pop();
            self.removed += 2;
            return;
        }
        self.chunk.push(dir);
        if self.chunk.len() == CHUNK {
            self.flush_held(CHUNK - WINDOW);
        }
    }

    /// Hands the first `n` moves of the chunk to the sink and keeps the rest.
    #[cold]
    fn flush_held(&mut self, n: usize) {
        if self.stop.is_none() {
            if (self.flush)(&self.chunk[..n]) {
                self.delivered += n as u64;
            } else {
                self.stop = Some(Stop::Sink);
            }
        }
        self.chunk.drain(..n);
    }

    /// The number `k` of absolute moves after which the board had hash `h`,
    /// if that board is still in the window (`head ≤ k ≤ tail`).
    #[inline]
    fn find(&self, h: u64) -> Option<u64> {
        if h == self.base_hash {
            return Some(self.head);
        }
        let (hh, k) = self.index[h as usize % INDEX];
        (hh == h
            && k > self.head
            && k <= self.tail
            && self.ring[(k - 1) as usize % WINDOW].hash == h)
            .then_some(k)
    }

    /// Whether the held moves from absolute index `k` on, then `(dir, tile)`,
    /// leave every tile where it was.
    #[cold]
    fn is_identity(&self, k: u64, dir: Dir, tile: u32) -> bool {
        let mut net: Vec<(u32, i32, i32)> = Vec::new();
        let moves = (k..self.tail)
            .map(|i| {
                let e = self.ring[i as usize % WINDOW];
                (e.dir, e.tile)
            })
            .chain(std::iter::once((dir, tile)));
        for (d, t) in moves {
            // The tile moves against the blank.
            let (dr, dc) = offset(d);
            match net.iter_mut().find(|e| e.0 == t) {
                Some(e) => {
                    e.1 -= dr;
                    e.2 -= dc;
                }
                None => net.push((t, -dr, -dc)),
            }
        }
        net.iter().all(|&(_, r, c)| r == 0 && c == 0)
    }

    fn emit_oldest(&mut self) {
        let e = self.ring[self.head as usize % WINDOW];
        self.head += 1;
        self.base_hash = e.hash;
        self.chunk.push(e.dir);
        if self.chunk.len() == CHUNK {
            self.flush_chunk();
        }
    }

    fn flush_chunk(&mut self) {
        if self.stop.is_none() {
            if (self.flush)(&self.chunk) {
                self.delivered += self.chunk.len() as u64;
            } else {
                self.stop = Some(Stop::Sink);
            }
        }
        self.chunk.clear();
    }

    #[cold]
    fn poll(&mut self) {
        self.poll_at = self.pushes + POLL;
        if self.stop.is_some() {
            return;
        }
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            self.stop = Some(Stop::Cancelled);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop = Some(Stop::Deadline);
        }
    }

    /// Hands every held move to the sink; returns why it stopped, if it did.
    pub(crate) fn finish(&mut self) -> Option<Stop> {
        if self.stop.is_none() {
            while self.head < self.tail {
                self.emit_oldest();
            }
            self.flush_chunk();
        }
        self.stop
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Dir::*;

    /// Runs moves on a 3×3 board (blank at cell `blank`) through an emitter
    /// and returns what comes out.
    fn run(blank: usize, moves: &[Dir], cycles: bool) -> Vec<Dir> {
        let mut tiles: Vec<u32> = (0..9).collect();
        tiles.swap(0, blank);
        let mut b = blank;
        let mut out = Vec::new();
        let mut sink = |c: &[Dir]| {
            out.extend_from_slice(c);
            true
        };
        let mut e = Emitter::new(&mut sink, cycles, None, None);
        for &d in moves {
            let to = d.step(b, 3, 3).unwrap();
            let t = tiles[to];
            tiles.swap(b, to);
            e.push(d, t, b as u32, to as u32);
            b = to;
        }
        assert_eq!(e.finish(), None);
        out
    }

    #[test]
    fn inverse_moves_cancel() {
        assert_eq!(run(4, &[Up, Down, Left, Right, Down], false), [Down]);
        assert_eq!(run(4, &[Up, Left, Right, Down, Down], false), [Down]);
    }

    #[test]
    fn inverse_moves_cancel_across_a_flush() {
        // Laps round a 2×2 block (no move undoes the one before), past a
        // full chunk, then the last WINDOW of them undone one by one: every
        // undoing move cancels, though the chunk was handed on meanwhile.
        let lap = [Up, Left, Down, Right];
        let n = CHUNK + 4 * 25;
        let mut moves: Vec<Dir> = lap.iter().cycle().take(n).copied().collect();
        let undo: Vec<Dir> = moves[n - WINDOW..]
            .iter()
            .rev()
            .map(|d| d.opposite())
            .collect();
        moves.extend(&undo);
        let out = run(4, &moves, false);
        assert_eq!(out, &moves[..n - WINDOW]);
    }

    #[test]
    fn cycles_that_change_nothing_are_dropped() {
        // Around a 2×2 block three times: every tile back in place.
        let lap = [Up, Left, Down, Right];
        let three: Vec<Dir> = lap.iter().cycle().take(12).copied().collect();
        assert_eq!(run(4, &three, true), []);
        assert_eq!(run(4, &three, false), three);
        // Once around moves three tiles: kept.
        assert_eq!(run(4, &lap, true), lap);
        let mut with_tail = three.clone();
        with_tail.extend([Up, Right]);
        assert_eq!(run(4, &with_tail, true), [Up, Right]);
    }
}
