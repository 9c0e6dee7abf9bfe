//! Permutation ranking and unranking (perfect hashing), shared by the
//! complete distance tables and the pattern databases.
//!
//! The rank of a permutation is its Lehmer (Cantor) code read as a number in
//! the factorial base: digit `i` counts the values after position `i` that
//! are smaller than `p[i]`, equivalently the *unused* values below `p[i]`.
//! Counting unused values with a bit mask and `popcount` makes ranking O(n).
//!
//! A *k-permutation* (the cells of `k` distinct tiles among `n` cells, as a
//! pattern database stores them) ranks the same way with falling factorial
//! weights, giving a dense index in `0 .. n!/(n−k)!`.

/// Largest `n` whose factorial fits a `u64` (20! < 2^64).
pub(crate) const MAX_FACTORIAL: usize = 20;

/// `FACT[i] = i!` for `i ≤ 20`.
///
/// ```
/// use npuzzle::rank::FACT;
///
/// assert_eq!(FACT[5], 120);
/// assert_eq!(FACT[9] / 2, 181_440); // the 8-puzzle's reachable positions
/// assert_eq!(FACT[20], 2_432_902_008_176_640_000);
/// ```
pub const FACT: [u64; MAX_FACTORIAL + 1] = {
    let mut f = [1u64; MAX_FACTORIAL + 1];
    let mut i = 1;
    while i <= MAX_FACTORIAL {
        f[i] = f[i - 1] * i as u64;
        i += 1;
    }
    f
};

/// Rank of a permutation of `0..p.len()` (`p.len() ≤ 20`) in `0..n!`.
///
/// ```
/// use npuzzle::rank::{rank, FACT};
///
/// assert_eq!(rank(&[0, 1, 2, 3]), 0);
/// assert_eq!(rank(&[1, 0, 2, 3]), 6); // 1 × 3!
/// assert_eq!(rank(&[3, 2, 1, 0]), FACT[4] - 1);
/// ```
#[inline]
pub fn rank(p: &[u8]) -> u64 {
    let n = p.len();
    debug_assert!(n <= MAX_FACTORIAL);
    let mut used: u64 = 0;
    let mut r: u64 = 0;
    for (i, &v) in p.iter().enumerate() {
        let below = (used & ((1u64 << v) - 1)).count_ones() as u64;
        r += (u64::from(v) - below) * FACT[n - 1 - i];
        used |= 1u64 << v;
    }
    r
}

/// Writes the permutation of rank `r` into `out` (length `n ≤ 20`).
///
/// ```
/// use npuzzle::rank::{rank, unrank};
///
/// let mut p = [0u8; 5];
/// unrank(0, &mut p);
/// assert_eq!(p, [0, 1, 2, 3, 4]);
/// unrank(100, &mut p);
/// assert_eq!(rank(&p), 100);
/// ```
pub fn unrank(mut r: u64, out: &mut [u8]) {
    let n = out.len();
    let mut unused: u64 = if n == 64 { !0 } else { (1u64 << n) - 1 };
    for (i, slot) in out.iter_mut().enumerate() {
        let f = FACT[n - 1 - i];
        let d = (r / f) as u32;
        r %= f;
        let v = nth_set_bit(unused, d);
        *slot = v as u8;
        unused &= !(1u64 << v);
    }
}

/// Number of k-permutations of n: `n!/(n−k)!`, or `None` on overflow.
///
/// ```
/// use npuzzle::rank::partial_count;
///
/// // Placements of 6 tiles on 16 cells: one database of the 15-puzzle's 6-6-3.
/// assert_eq!(partial_count(16, 6), Some(5_765_760));
/// assert_eq!(partial_count(3, 5), Some(0));
/// assert_eq!(partial_count(64, 64), None); // 64! overflows
/// ```
pub fn partial_count(n: usize, k: usize) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let mut c: u64 = 1;
    for i in 0..k {
        c = c.checked_mul((n - i) as u64)?;
    }
    Some(c)
}

/// Weights for ranking k-permutations of `n` (`n ≤ 64`):
/// `w[i] = (n−1−i)! / (n−k)!`.
///
/// ```
/// use npuzzle::rank::PartialRanker;
///
/// // The cells of 4 tiles among 9: 9 × 8 × 7 × 6 ranks.
/// let ranker = PartialRanker::new(9, 4).ok_or("too large")?;
/// assert_eq!(ranker.count(), 3024);
/// assert_eq!(ranker.rank(&[0, 1, 2, 3]), 0);
/// let mut cells = [0u8; 4];
/// ranker.unrank(2023, &mut cells);
/// assert_eq!(ranker.rank(&cells), 2023);
/// assert!(PartialRanker::new(65, 1).is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct PartialRanker {
    n: usize,
    weights: Vec<u64>,
}

impl PartialRanker {
    /// Returns `None` when `n > 64` or the count overflows a `u64`.
    pub fn new(n: usize, k: usize) -> Option<PartialRanker> {
        if n > 64 || k > n {
            return None;
        }
        partial_count(n, k)?;
        let weights = (0..k)
            .map(|i| partial_count(n - 1 - i, k - 1 - i))
            .collect::<Option<Vec<u64>>>()?;
        Some(PartialRanker { n, weights })
    }

    /// Number of values ranked together (`k`).
    pub fn k(&self) -> usize {
        self.weights.len()
    }

    /// The weight of each position's digit, `(n−1−i)! / (n−k)!`.
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// Size of the range the values come from, `0..n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of distinct ranks, `n!/(n−k)!`.
    pub fn count(&self) -> u64 {
        self.weights.first().map_or(1, |&w| w * self.n as u64)
    }

    /// Rank of `k` distinct values in `0..n`.
    #[inline]
    pub fn rank(&self, p: &[u8]) -> u64 {
        debug_assert_eq!(p.len(), self.weights.len());
        let mut used: u64 = 0;
        let mut r: u64 = 0;
        for (&v, &w) in p.iter().zip(&self.weights) {
            let below = (used & ((1u64 << v) - 1)).count_ones() as u64;
            r += (u64::from(v) - below) * w;
            used |= 1u64 << v;
        }
        r
    }

    /// The k values of rank `r`.
    pub fn unrank(&self, r: u64, out: &mut [u8]) {
        // 32-bit division is several times faster than 64-bit on common
        // CPUs, and every database that fits in memory has fewer than 2^32
        // entries.
        if self.count() <= u64::from(u32::MAX) {
            return self.unrank32(r as u32, out);
        }
        self.unrank64(r, out);
    }

    fn unrank32(&self, mut r: u32, out: &mut [u8]) {
        let mut unused: u64 = if self.n == 64 {
            !0
        } else {
            (1u64 << self.n) - 1
        };
        for (slot, &w) in out.iter_mut().zip(&self.weights) {
            let w = w as u32;
            let d = r / w;
            r %= w;
            let v = nth_set_bit(unused, d);
            *slot = v as u8;
            unused &= !(1u64 << v);
        }
    }

    fn unrank64(&self, mut r: u64, out: &mut [u8]) {
        let mut unused: u64 = if self.n == 64 {
            !0
        } else {
            (1u64 << self.n) - 1
        };
        for (slot, &w) in out.iter_mut().zip(&self.weights) {
            let d = (r / w) as u32;
            r %= w;
            let v = nth_set_bit(unused, d);
            *slot = v as u8;
            unused &= !(1u64 << v);
        }
    }
}

/// Index of the `d`-th (0-based) set bit of `x`.
#[inline]
fn nth_set_bit(mut x: u64, d: u32) -> u32 {
    for _ in 0..d {
        x &= x - 1;
    }
    x.trailing_zeros()
}

/// Parity of a permutation of `0..n` given as a slice: `true` when odd,
/// in O(n). `perm` must be a permutation (every value below its length,
/// once), as a validated board's tiles are.
///
/// ```
/// use npuzzle::rank::permutation_parity;
///
/// assert!(!permutation_parity(&[0, 1, 2]));
/// assert!(permutation_parity(&[1, 0, 2]));
/// ```
pub fn permutation_parity(perm: &[u8]) -> bool {
    crate::board::layout::odd_permutation(perm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The textbook definition: count later smaller elements, O(n²).
    fn rank_naive(p: &[u8]) -> u64 {
        let n = p.len();
        let mut r = 0;
        for i in 0..n {
            let smaller = p[i + 1..].iter().filter(|&&x| x < p[i]).count() as u64;
            r += smaller * FACT[n - 1 - i];
        }
        r
    }

    #[test]
    fn all_permutations_of_six_round_trip() {
        let mut seen = vec![false; 720];
        let mut p = [0u8; 6];
        for r in 0..720 {
            unrank(r, &mut p);
            assert_eq!(rank(&p), r);
            assert_eq!(rank_naive(&p), r);
            assert!(!seen[r as usize]);
            seen[r as usize] = true;
        }
    }

    #[test]
    fn partial_ranks_are_dense() {
        let pr = PartialRanker::new(7, 3).unwrap();
        assert_eq!(pr.count(), 210);
        let mut seen = [false; 210];
        let mut out = [0u8; 3];
        for r in 0..210 {
            pr.unrank(r, &mut out);
            assert_eq!(pr.rank(&out), r);
            seen[r as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        // k = n is an ordinary permutation rank
        let full = PartialRanker::new(5, 5).unwrap();
        assert_eq!(full.rank(&[4, 3, 2, 1, 0]), rank(&[4, 3, 2, 1, 0]));
    }

    proptest! {
        #[test]
        fn rank_matches_definition(mut v in proptest::collection::vec(any::<u32>(), 1..=20)) {
            let n = v.len();
            // turn random keys into a permutation by argsort
            let mut idx: Vec<u8> = (0..n as u8).collect();
            idx.sort_by_key(|&i| v[i as usize]);
            v.clear();
            let r = rank(&idx);
            prop_assert_eq!(r, rank_naive(&idx));
            prop_assert!(r < FACT[n]);
            let mut back = vec![0u8; n];
            unrank(r, &mut back);
            prop_assert_eq!(back, idx);
        }

        #[test]
        fn partial_round_trip(n in 1usize..=25, seed in any::<u64>()) {
            let k = (seed as usize % n) + 1;
            let k = k.min(8);
            let pr = PartialRanker::new(n, k).unwrap();
            let r = seed % pr.count();
            let mut out = vec![0u8; k];
            pr.unrank(r, &mut out);
            prop_assert_eq!(pr.rank(&out), r);
        }
    }
}
