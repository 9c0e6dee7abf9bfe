//! Ranking arrangements of a multiset: a board whose tiles are known only
//! by their colour, one colour (the blank) held once.
//!
//! Written by hand rather than taken from a combinatorics crate: this runs
//! once for each node of the search and each child of the build, and a
//! general ranker would recompute multinomials every time. Here every
//! partial sum is read from one table, indexed by the counts still to be
//! placed (a mixed-radix number) and the colour placed next.

/// Ranks and unranks arrangements of colours `0..k` with fixed counts.
#[derive(Clone, Debug)]
pub(super) struct Ranker {
    /// Colours of each kind in a whole arrangement.
    counts: Vec<u8>,
    /// The mixed-radix weight of each colour in a counts index.
    stride: Vec<usize>,
    /// The index of the full counts.
    full: usize,
    /// `below[idx * (k + 1) + c]`: arrangements of the counts `idx` that
    /// start with a colour below `c`; at `c = k`, all of them.
    below: Vec<u64>,
    /// Arrangements of the full counts.
    total: u64,
}

/// Most count vectors a ranker tabulates (its table is this times `k + 1`
/// numbers).
pub(super) const MAX_COUNT_VECTORS: usize = 1 << 18;

impl Ranker {
    /// For `counts[c]` cells of colour `c`; `None` when the arrangements do
    /// not fit a `u64` or the table would be too large.
    pub(super) fn new(counts: &[u8]) -> Option<Ranker> {
        let k = counts.len();
        let mut stride = Vec::with_capacity(k);
        let mut vectors = 1usize;
        for &c in counts {
            stride.push(vectors);
            vectors = vectors.checked_mul(usize::from(c) + 1)?;
        }
        if vectors > MAX_COUNT_VECTORS {
            return None;
        }
        // Arrangements of each count vector, smaller vectors first: the
        // first colour placed is any colour left.
        let mut arrangements = vec![0u64; vectors];
        let mut below = vec![0u64; vectors * (k + 1)];
        arrangements[0] = 1;
        for idx in 0..vectors {
            let mut sum = 0u64;
            for c in 0..k {
                below[idx * (k + 1) + c] = sum;
                let left = (idx / stride[c]) % (usize::from(counts[c]) + 1);
                if left > 0 {
                    sum = sum.checked_add(arrangements[idx - stride[c]])?;
                }
            }
            below[idx * (k + 1) + k] = sum;
            if idx > 0 {
                arrangements[idx] = sum;
            }
        }
        let full = vectors - 1;
        Some(Ranker {
            counts: counts.to_vec(),
            stride,
            full,
            total: arrangements[full],
            below,
        })
    }

    /// Arrangements in all: the ranks are `0..total`.
    pub(super) fn total(&self) -> u64 {
        self.total
    }

    /// The rank of the arrangement whose `i`-th colour is `colour(i)`, for
    /// `i` in `0..n`; the arrangement must have exactly the ranker's counts.
    #[inline]
    pub(super) fn rank(&self, n: usize, colour: impl Fn(usize) -> u8) -> u64 {
        let w = self.counts.len() + 1;
        let mut idx = self.full;
        let mut rank = 0;
        // the last cell holds the one colour left: it adds nothing
        for i in 0..n - 1 {
            let c = usize::from(colour(i));
            rank += self.below[idx * w + c];
            idx -= self.stride[c];
        }
        rank
    }

    /// How many cells of each colour.
    pub(super) fn counts(&self) -> &[u8] {
        &self.counts
    }

    /// What the first cells, coloured `prefix`, add to the rank of any
    /// arrangement that starts so; `None` if `prefix` holds more of a
    /// colour than there is.
    pub(super) fn prefix_rank(&self, prefix: &[u8]) -> Option<u64> {
        self.walk(self.full, prefix)
    }

    /// The rank of `cells` among the arrangements of its own colours (the
    /// rest of a rank whose first cells [`Ranker::prefix_rank`] counted);
    /// `None` if it holds more of a colour than there is.
    pub(super) fn suffix_rank(&self, cells: &[u8]) -> Option<u64> {
        let mut idx = 0;
        let mut held = vec![0u8; self.counts.len()];
        for &c in cells {
            let c = usize::from(c);
            *held.get_mut(c)? += 1;
            if held[c] > self.counts[c] {
                return None;
            }
            idx += self.stride[c];
        }
        self.walk(idx, cells)
    }

    /// The rank's terms for `cells` placed from the counts index `idx`.
    fn walk(&self, mut idx: usize, cells: &[u8]) -> Option<u64> {
        let w = self.counts.len() + 1;
        let mut rank = 0;
        for &c in cells {
            let c = usize::from(c);
            let left = (idx / self.stride.get(c)?) % (usize::from(self.counts[c]) + 1);
            if left == 0 {
                return None;
            }
            rank += self.below[idx * w + c];
            idx -= self.stride[c];
        }
        Some(rank)
    }

    /// The arrangement of rank `rank` (below [`Ranker::total`]) into `out`.
    pub(super) fn unrank(&self, mut rank: u64, out: &mut [u8]) {
        let k = self.counts.len();
        let w = k + 1;
        let mut idx = self.full;
        for slot in out.iter_mut() {
            let row = &self.below[idx * w..idx * w + w];
            // colour c holds the ranks [row[c], row[c + 1]), empty for a
            // colour none of is left: the one block that holds `rank`
            // (compares only: this runs once for every entry of a build)
            let c = row[1..].iter().take_while(|&&end| end <= rank).count().min(k - 1);
            rank -= row[c];
            idx -= self.stride[c];
            *slot = c as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every arrangement of a small multiset, in lexicographic order.
    fn all(counts: &mut Vec<u8>, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if counts.iter().all(|&c| c == 0) {
            out.push(prefix.clone());
            return;
        }
        for c in 0..counts.len() {
            if counts[c] > 0 {
                counts[c] -= 1;
                prefix.push(c as u8);
                all(counts, prefix, out);
                prefix.pop();
                counts[c] += 1;
            }
        }
    }

    #[test]
    fn ranks_are_the_lexicographic_order_and_unrank_inverts_them() {
        for counts in [vec![1, 2, 3], vec![1, 1, 1, 1], vec![1, 4], vec![1, 2, 2, 1], vec![2, 0, 3]] {
            let r = Ranker::new(&counts).unwrap();
            let mut list = Vec::new();
            all(&mut counts.clone(), &mut Vec::new(), &mut list);
            assert_eq!(r.total(), list.len() as u64, "{counts:?}");
            let n = list[0].len();
            for (i, a) in list.iter().enumerate() {
                assert_eq!(r.rank(n, |j| a[j]), i as u64, "{counts:?} {a:?}");
                let mut back = vec![0; n];
                r.unrank(i as u64, &mut back);
                assert_eq!(&back, a, "{counts:?} rank {i}");
            }
        }
    }

    #[test]
    fn the_15_puzzle_in_four_colours_fits() {
        let r = Ranker::new(&[1, 3, 4, 4, 4]).unwrap();
        // 16! / (3! 4! 4! 4!)
        assert_eq!(r.total(), 252_252_000);
        assert!(Ranker::new(&[1; 20]).is_none());
    }
}
