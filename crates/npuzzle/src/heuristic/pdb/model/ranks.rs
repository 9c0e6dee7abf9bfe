//! Ranking helpers of the zero-aware layout: binomial coefficients, the
//! rank of a subset of at most 16 cells by table, and division of small
//! ranks by reciprocals.

/// `C(a, b)` for `a ≤ 64`, `b ≤ 16`, saturating.
pub(in crate::heuristic::pdb) fn binomials() -> Box<[[u64; 17]; 65]> {
    let mut c = Box::new([[0u64; 17]; 65]);
    for a in 0..=64 {
        c[a][0] = 1;
        for b in 1..=16.min(a) {
            c[a][b] = c[a - 1][b - 1].saturating_add(if b < a { c[a - 1][b] } else { 0 });
        }
    }
    c
}

/// The colexicographic rank of a subset of at most 16 cells, `Σ C(c_t,
/// t + 1)` over its cells `c_0 < c_1 < …`, from two small tables: the
/// low byte's cells add what depends on that byte alone, the high byte's
/// what depends on it and on how many cells the low byte holds. The
/// tables take 5 KB and stay in the nearest cache, where a table of every
/// mask's entry took 512 KB and was read from the outer cache (Korf's 100
/// with 6-6-3: 1.596 s against 1.667 s, medians of five alternating runs;
/// 7-8 unchanged).
pub(in crate::heuristic::pdb) struct ByteRanks {
    low: [u16; 256],
    high: [[u16; 256]; 9],
}

impl ByteRanks {
    pub(in crate::heuristic::pdb) fn new(binom: &[[u64; 17]; 65]) -> Box<ByteRanks> {
        let mut t = Box::new(ByteRanks {
            low: [0; 256],
            high: [[0; 256]; 9],
        });
        // C(16, k) ≤ 12,870: every rank fits in 16 bits
        let part = |bits: u64, shift: usize, before: usize| -> u16 {
            let mut r = 0;
            let mut j = before + 1;
            let mut m = bits;
            // (combinations of more than 16 cells never occur)
            while m != 0 && j <= 16 {
                r += binom[m.trailing_zeros() as usize + shift][j];
                m &= m - 1;
                j += 1;
            }
            r as u16
        };
        for b in 0..256u64 {
            t.low[b as usize] = part(b, 0, 0);
            for (before, row) in t.high.iter_mut().enumerate() {
                row[b as usize] = part(b, 8, before);
            }
        }
        t
    }

    #[inline(always)]
    pub(in crate::heuristic::pdb) fn rank(&self, mask: u64) -> usize {
        let low = (mask & 0xff) as usize;
        let high = ((mask >> 8) & 0xff) as usize;
        usize::from(self.low[low]) + usize::from(self.high[low.count_ones() as usize][high])
    }
}

/// `⌈2^64 / b⌉` for `b` in 2..=16: `r / b == (r · RECIPROCAL[b]) >> 64`
/// for every `r < 2^32`, since the excess, below `r / 2^64 < 2^-32`, never
/// carries `r / b` past its next multiple of `1 / b`.
pub(in crate::heuristic::pdb) const RECIPROCAL: [u64; 17] = {
    let mut t = [0u64; 17];
    let mut b = 2;
    while b <= 16 {
        t[b] = u64::MAX / b as u64 + 1;
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reciprocals_divide_exactly_below_2_to_32() {
        let mut r = 0x9E37_79B9u64;
        for b in 2..=16u64 {
            let m = u128::from(RECIPROCAL[b as usize]);
            let edges = [
                0,
                1,
                b - 1,
                b,
                b + 1,
                u64::from(u32::MAX),
                u64::from(u32::MAX) - 1,
            ];
            for x in edges.into_iter().chain((0..100_000).map(|_| {
                // xorshift: any 32-bit dividend
                r ^= r << 13;
                r ^= r >> 7;
                r ^= r << 17;
                r & 0xFFFF_FFFF
            })) {
                for x in [x, x / b * b, (x / b * b).saturating_sub(1)] {
                    assert_eq!(((u128::from(x) * m) >> 64) as u64, x / b, "{x} / {b}");
                }
            }
        }
    }
}
