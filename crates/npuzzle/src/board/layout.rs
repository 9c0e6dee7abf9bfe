//! What makes a list of tiles a board, written once for both board types:
//! validation, permutation parity, reachability and the named goals. A
//! [`Board`](super::Board) (a byte a tile, at most 16×16) and a
//! [`Grid`](super::Grid) (four bytes a tile, any size) call the same
//! functions, generic over their tile type, so that they cannot disagree
//! on what they accept or on which goals can be reached.

use super::{BoardError, Cell, Shape, MAX_SIDE};

/// A tile as a board type stores it.
pub(crate) trait Tile: Copy {
    /// The tile's number.
    fn index(self) -> usize;
}

impl Tile for u8 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Tile for u16 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Tile for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

/// Cells a board of exact search has at most: buffers of this many live on
/// the stack, so that checking a small board allocates nothing (the batch
/// runner checks millions).
const SMALL: usize = MAX_SIDE * MAX_SIDE;

/// A zeroed scratch array of `n` entries: on the stack up to [`SMALL`].
fn scratch<T: Copy + Default, R>(n: usize, f: impl FnOnce(&mut [T]) -> R) -> R {
    if n <= SMALL {
        let mut a = [T::default(); SMALL];
        f(&mut a[..n])
    } else {
        f(&mut vec![T::default(); n])
    }
}

/// Checks that `tiles` (reading order) are a permutation of `0..rows·cols`
/// and returns the blank's cell. The error names the first thing wrong and
/// where: the count, a tile out of range, a repeated tile, or a board of
/// tiles `1..=n` with no blank. The shape is the caller's to check.
pub(crate) fn check_tiles<T: Tile>(
    rows: usize,
    cols: usize,
    tiles: &[T],
) -> Result<usize, BoardError> {
    let n = rows * cols;
    if tiles.len() != n {
        return Err(BoardError::WrongCount {
            count: tiles.len(),
            rows,
            cols,
        });
    }
    scratch(n, |first: &mut [u32]| {
        // `first[t]` is 1 + the cell where tile t was first seen.
        for (cell, &t) in tiles.iter().enumerate() {
            let t = t.index();
            if t >= n {
                // Tiles 1..n, each once, with no 0: the blank is missing,
                // rather than n being too big.
                if t == n && is_permutation_of_1_to_n(tiles) {
                    return Err(BoardError::NoBlank);
                }
                return Err(BoardError::OutOfRange {
                    value: t.to_string(),
                    rows,
                    cols,
                    cell: Cell::new(cell, cols),
                });
            }
            if first[t] != 0 {
                return Err(BoardError::Duplicate {
                    tile: t,
                    first: Cell::new(first[t] as usize - 1, cols),
                    second: Cell::new(cell, cols),
                });
            }
            first[t] = cell as u32 + 1;
        }
        // n entries, all in range, none repeated: 0 is among them.
        Ok(first[0] as usize - 1)
    })
}

/// Whether `tiles` holds every number `1..=len` once.
fn is_permutation_of_1_to_n<T: Tile>(tiles: &[T]) -> bool {
    let n = tiles.len();
    scratch(n + 1, |seen: &mut [bool]| {
        tiles.iter().all(|&t| {
            let t = t.index();
            (1..=n).contains(&t) && !std::mem::replace(&mut seen[t], true)
        })
    })
}

/// Parity of a permutation of `0..n`: `true` when odd, in O(n).
pub fn odd_permutation<T: Tile>(perm: &[T]) -> bool {
    if perm.len() <= 64 {
        // Inversions counted with a bit mask: branch-free, and the batch
        // runner's hot path on small boards.
        let mut seen: u64 = 0;
        let mut inversions = 0u32;
        for &v in perm {
            inversions += (seen >> v.index()).count_ones();
            seen |= 1u64 << v.index();
        }
        return inversions % 2 == 1;
    }
    // Otherwise by cycles: a cycle of even length is an odd permutation.
    scratch(perm.len(), |seen: &mut [bool]| {
        let mut odd = false;
        for start in 0..perm.len() {
            let mut len = 0usize;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = perm[i].index();
                len += 1;
            }
            if len != 0 && len.is_multiple_of(2) {
                odd = !odd;
            }
        }
        odd
    })
}

/// Whether `goal` can be reached from `start` (valid permutations of the
/// cells of `shape`).
///
/// A move is a transposition (flips the permutation's parity) and moves the
/// blank one cell (flips the parity of its distance to any fixed cell). So
/// the parity of `start∘goal⁻¹` must equal the parity of the blank's
/// distance between the two boards; on boards of at least 2×2 every such
/// pair is reachable.
pub(crate) fn can_reach<T: Tile>(shape: Shape, start: &[T], goal: &[T]) -> bool {
    let n = start.len();
    if goal.len() != n {
        return false;
    }
    let blank = |tiles: &[T]| tiles.iter().position(|t| t.index() == 0).unwrap_or(0);
    let blanks_odd = shape.distance(blank(start), blank(goal)) % 2 == 1;
    scratch(n, |gpos: &mut [u32]| {
        for (cell, &t) in goal.iter().enumerate() {
            gpos[t.index()] = cell as u32;
        }
        // relative[cell]: the goal cell of the tile standing on `cell`
        scratch(n, |relative: &mut [u32]| {
            for (r, &t) in relative.iter_mut().zip(start) {
                *r = gpos[t.index()];
            }
            odd_permutation(relative) == blanks_odd
        })
    })
}

/// The goals every board type has by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Named {
    /// `1 2 … n−1 0`.
    BlankLast,
    /// `0 1 … n−1` (Korf's convention).
    BlankFirst,
    /// Tiles `1..n−1` clockwise from the top-left corner, spiralling in;
    /// the blank on the last cell of the spiral.
    Spiral,
}

/// The tiles of a named goal of `shape`, in reading order.
pub(crate) fn named_goal(shape: Shape, which: Named) -> Vec<u32> {
    let n = shape.cells() as u32;
    match which {
        Named::BlankLast => (1..n).chain([0]).collect(),
        Named::BlankFirst => (0..n).collect(),
        Named::Spiral => {
            let mut tiles = vec![0u32; n as usize];
            for (i, cell) in spiral_order(shape).into_iter().enumerate() {
                tiles[cell] = if i as u32 + 1 == n { 0 } else { i as u32 + 1 };
            }
            tiles
        }
    }
}

/// The cells of `shape` in spiral order: clockwise from the top-left
/// corner, inward.
pub(crate) fn spiral_order(shape: Shape) -> Vec<usize> {
    let (rows, cols) = (shape.rows as isize, shape.cols as isize);
    let mut order = Vec::with_capacity(shape.cells());
    let (mut top, mut bottom, mut left, mut right) = (0isize, rows - 1, 0isize, cols - 1);
    while top <= bottom && left <= right {
        for c in left..=right {
            order.push((top * cols + c) as usize);
        }
        for r in top + 1..=bottom {
            order.push((r * cols + right) as usize);
        }
        if top < bottom {
            for c in (left..right).rev() {
                order.push((bottom * cols + c) as usize);
            }
        }
        if left < right {
            for r in (top + 1..bottom).rev() {
                order.push((r * cols + left) as usize);
            }
        }
        top += 1;
        bottom -= 1;
        left += 1;
        right -= 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_by_inversions_and_by_cycles_agree() {
        // Permutations of 70 elements go by cycles; their first 64 by the
        // bit mask. Each transposition flips both.
        let mut p: Vec<u32> = (0..70).collect();
        let mut x = 7u64;
        let mut odd = false;
        for _ in 0..500 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let (i, j) = ((x >> 33) as usize % 64, (x >> 45) as usize % 64);
            if i != j {
                p.swap(i, j);
                odd = !odd;
            }
            assert_eq!(odd_permutation(&p), odd);
            assert_eq!(odd_permutation(&p[..64]), odd);
            let small: Vec<u8> = p[..64].iter().map(|&t| t as u8).collect();
            assert_eq!(odd_permutation(&small), odd);
        }
    }

    #[test]
    fn a_board_of_tiles_one_to_n_has_no_blank() {
        assert_eq!(check_tiles(2, 2, &[1u8, 2, 3, 4]), Err(BoardError::NoBlank));
        assert_eq!(
            check_tiles(2, 2, &[4u32, 2, 3, 1]),
            Err(BoardError::NoBlank)
        );
        assert!(matches!(
            check_tiles(2, 2, &[1u16, 2, 4, 4]),
            Err(BoardError::OutOfRange { .. })
        ));
        assert_eq!(check_tiles(2, 2, &[1u8, 0, 3, 2]), Ok(1));
    }
}
