//! Ranking colour arrangements of up to 16 cells kept as one `u64`, a
//! nibble a cell: the search's hot path.
//!
//! [`Ranker::rank`] walks the cells one after another, each step a read
//! that depends on the one before, so a rank costs some fifteen load
//! latencies before the database read it feeds can even start; on the
//! 15-puzzle that chain, not the read, was most of a node's time. Here an
//! arrangement is a word of nibbles that a move updates with one xor, and
//! its rank is two table reads: the lexicographic rank of an arrangement
//! is a sum over its cells of terms that depend only on the colours still
//! to be placed, so it splits into the part of the first cells (read from
//! `high`, indexed by their colours) plus the rank of the last eight among
//! arrangements of their own colours (read from `low`). The digits that
//! index both come from 16 bits of the word at a time (`digits`), four
//! reads that do not depend on each other.
//!
//! The tables hold `K^8` entries for `K` colours (the blank's counted):
//! 2.3 MB for the 15-puzzle's five, which the second-level cache holds.

use super::rank::Ranker;

/// Most colours (the blank's counted) ranked this way: `K^8` entries of
/// six bytes, 10 MB at six.
pub(super) const MAX_COLOURS: usize = 6;

/// Cells in the low part: the last eight.
const LOW: usize = 8;

/// The two-read ranker of one colouring.
#[derive(Clone, Debug)]
pub(super) struct PackedRanker {
    /// Cells of the board (9 to 16).
    cells: usize,
    /// `k^4`: what the first four digits of eight are worth.
    k4: usize,
    /// `digits[x]`: four nibbles `x` (the lowest first) as a base-`k`
    /// number, the lowest nibble its most significant digit; 0 where a
    /// nibble is not a colour (never read). A fixed array, so that a
    /// 16-bit index needs no bounds check.
    digits: Box<[u16; 1 << 16]>,
    /// The rank's part from the first `cells − 8` cells, by their digits
    /// (padded with zeros to eight).
    high: Vec<u32>,
    /// The last eight cells' rank among arrangements of their colours.
    low: Vec<u16>,
}

impl PackedRanker {
    /// For `ranker`'s colour counts on `cells` cells; `None` when the
    /// board or the colours do not fit the words or the tables.
    pub(super) fn new(ranker: &Ranker, cells: usize) -> Option<PackedRanker> {
        let counts = ranker.counts();
        let k = counts.len();
        if !(LOW + 1..=16).contains(&cells) || k > MAX_COLOURS || u32::try_from(ranker.total()).is_err() {
            return None;
        }
        let k4 = k.pow(4);
        let mut digits: Box<[u16; 1 << 16]> = vec![0u16; 1 << 16].into_boxed_slice().try_into().ok()?;
        for (x, d) in digits.iter_mut().enumerate() {
            let nib = |j: usize| (x >> (4 * j)) & 0xF;
            if (0..4).all(|j| nib(j) < k) {
                *d = (0..4).fold(0, |acc, j| acc * k + nib(j)) as u16;
            }
        }
        let colours_of = |index: usize| {
            // the eight digits, the most significant first
            let mut out = [0u8; LOW];
            let mut rest = index;
            for slot in out.iter_mut().rev() {
                *slot = (rest % k) as u8;
                rest /= k;
            }
            out
        };
        let head = cells - LOW;
        let mut high = vec![0u32; k4 * k4];
        let mut low = vec![0u16; k4 * k4];
        for index in 0..k4 * k4 {
            let colours = colours_of(index);
            if colours[head..].iter().all(|&c| c == 0) {
                if let Some(r) = ranker.prefix_rank(&colours[..head]) {
                    high[index] = r as u32;
                }
            }
            if let Some(r) = ranker.suffix_rank(&colours) {
                low[index] = r as u16;
            }
        }
        Some(PackedRanker {
            cells,
            k4,
            digits,
            high,
            low,
        })
    }

    /// The nibble that holds cell `i`: the first `cells − 8` cells in the
    /// low half of the word, the last eight in the high half.
    pub(super) fn nibble(&self, i: usize) -> usize {
        let head = self.cells - LOW;
        if i < head {
            i
        } else {
            LOW + (i - head)
        }
    }

    /// The word of the arrangement whose cell `i` has colour `colour(i)`.
    pub(super) fn pack(&self, colour: impl Fn(usize) -> u8) -> u64 {
        (0..self.cells).fold(0, |w, i| w | u64::from(colour(i)) << (4 * self.nibble(i)))
    }

    /// The rank of the arrangement in `word` (as [`Ranker::rank`] gives it).
    #[inline(always)]
    pub(super) fn rank(&self, word: u64) -> usize {
        let d = |shift: u32| usize::from(self.digits[usize::from((word >> shift) as u16)]);
        let high = d(0) * self.k4 + d(16);
        let low = d(32) * self.k4 + d(48);
        self.high[high] as usize + usize::from(self.low[low])
    }
}

/// `N` lookups on packed words, as the search's inner loop reads them
/// (from [`super::ColourHeuristic::packed`]): a position is `N` words,
/// which a tile's move updates with a xor each, ranked by two table reads
/// each, their entries fetched ahead and read. `N` is a constant, so that
/// the words and ranks a search keeps for every node are arrays of their
/// own size and the loops over them unroll.
#[derive(Clone, Copy, Debug)]
pub struct Packed<'a, const N: usize> {
    lanes: [Lane<'a>; N],
}

/// One packed lookup: a database, its ranker and how a board is read
/// into its word.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lane<'a> {
    pub(super) ranker: &'a PackedRanker,
    pub(super) data: &'a [u8],
    /// `4 ×` the nibble of each board cell.
    pub(super) shift: [u8; 16],
    /// Each tile's colour (tiles below 16; the blank's at 0).
    pub(super) colour: [u8; 16],
}

impl<'a, const N: usize> Packed<'a, N> {
    pub(super) fn new(lanes: [Lane<'a>; N]) -> Packed<'a, N> {
        Packed { lanes }
    }

    /// The position `tiles` (at most 16 cells) as words.
    pub fn words(&self, tiles: &[u8]) -> [u64; N] {
        self.lanes.map(|l| {
            tiles.iter().enumerate().fold(0, |w, (cell, &t)| {
                w | u64::from(l.colour[usize::from(t) & 15]) << l.shift[cell & 15]
            })
        })
    }

    /// The words after `tile` slid from cell `from` onto the blank's cell
    /// `to`: in each, the tile's colour and the blank's trade places, a
    /// xor of the two at both cells.
    #[inline(always)]
    pub fn step(&self, words: &mut [u64; N], tile: u8, from: usize, to: usize) {
        for (w, l) in words.iter_mut().zip(&self.lanes) {
            let flip = u64::from(l.colour[usize::from(tile) & 15] ^ l.colour[0]);
            *w ^= flip << l.shift[from & 15] | flip << l.shift[to & 15];
        }
    }

    /// Each lookup's rank of the position in `words`.
    #[inline(always)]
    pub fn ranks(&self, words: &[u64; N]) -> [u32; N] {
        let mut out = [0; N];
        for ((r, &w), l) in out.iter_mut().zip(words).zip(&self.lanes) {
            *r = l.ranker.rank(w) as u32;
        }
        out
    }

    /// Asks the cache for the entries of `ranks`, so that reads of several
    /// positions overlap instead of waiting one after another.
    #[inline(always)]
    pub fn prefetch(&self, ranks: &[u32; N]) {
        for (&r, l) in ranks.iter().zip(&self.lanes) {
            if let Some(byte) = l.data.get(r as usize) {
                crate::heuristic::pdb::entry::prefetch(byte);
            }
        }
    }

    /// The largest entry of `ranks`, or the first above `limit` (a search
    /// that prunes above `limit` needs no more).
    #[inline(always)]
    pub fn value(&self, ranks: &[u32; N], limit: u32) -> u32 {
        let mut best = 0;
        for (&r, l) in ranks.iter().zip(&self.lanes) {
            let h = l.data.get(r as usize).map_or(0, |&h| u32::from(h));
            if h > limit {
                return h;
            }
            best = best.max(h);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pseudo-random arrangement of `counts` (a shuffle by a fixed
    /// linear congruential sequence).
    fn shuffled(counts: &[u8], seed: u64) -> Vec<u8> {
        let mut cells: Vec<u8> = counts
            .iter()
            .enumerate()
            .flat_map(|(c, &n)| std::iter::repeat_n(c as u8, usize::from(n)))
            .collect();
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        for i in (1..cells.len()).rev() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            cells.swap(i, (x >> 33) as usize % (i + 1));
        }
        cells
    }

    #[test]
    fn two_reads_give_the_walking_rank() {
        for counts in [
            vec![1u8, 2, 4, 5, 4],
            vec![1, 3, 4, 4, 4],
            vec![1, 11],
            vec![1, 2, 2, 2, 2, 2],
            vec![1, 4, 4, 3],
            vec![1, 8],
            vec![1, 2, 3, 3, 1, 2],
        ] {
            let n: usize = counts.iter().map(|&c| usize::from(c)).sum();
            let ranker = Ranker::new(&counts).unwrap();
            let packed = PackedRanker::new(&ranker, n).unwrap();
            for seed in 0..2000 {
                let a = shuffled(&counts, seed);
                let word = packed.pack(|i| a[i]);
                assert_eq!(packed.rank(word) as u64, ranker.rank(n, |i| a[i]), "{counts:?} {a:?}");
            }
        }
    }

    #[test]
    fn boards_too_small_or_too_many_colours_keep_the_walk() {
        let eight = Ranker::new(&[1, 3, 4]).unwrap();
        assert!(PackedRanker::new(&eight, 8).is_none());
        let seven = Ranker::new(&[1, 2, 2, 2, 2, 2, 2]).unwrap();
        assert!(PackedRanker::new(&seven, 13).is_none());
    }
}
