//! Two bits per position (Korf's two-bit breadth-first search).
//!
//! Entry `m` is bits `2(m mod 32)`, `2(m mod 32)+1` of word `m / 32`. Its
//! value is `00` unseen, `11` closed (expanded), or one of `01`, `10`: the
//! level being expanded and the level being discovered take these in turn
//! (level `d` is `01` when `d` is even), so no pass is needed between
//! levels to turn "next" into "current".

use super::SpaceError;
use std::sync::atomic::AtomicU64;

/// Positions per 64-bit word.
pub(crate) const PER_WORD: u64 = 32;

/// `01` in every entry.
const LOW: u64 = 0x5555_5555_5555_5555;

/// The code of the positions at level `d`.
#[inline]
pub(crate) fn level_code(d: u32) -> u64 {
    if d.is_multiple_of(2) {
        1
    } else {
        2
    }
}

/// Bit `2k` set for each entry `k` of `w` that holds `code` (`1` or `2`).
#[inline]
pub(crate) fn entries_with(w: u64, code: u64) -> u64 {
    let lo = w & LOW;
    let hi = (w >> 1) & LOW;
    if code == 1 {
        lo & !hi
    } else {
        hi & !lo
    }
}

/// Number of entries of `w` that hold `code` (`1`, `2` or `3`).
#[inline]
pub(crate) fn count_code(w: u64, code: u64) -> u32 {
    let lo = w & LOW;
    let hi = (w >> 1) & LOW;
    match code {
        1 => (lo & !hi).count_ones(),
        2 => (hi & !lo).count_ones(),
        _ => (lo & hi).count_ones(),
    }
}

/// Words needed for `entries` positions.
pub(crate) fn words_for(entries: u64) -> u64 {
    entries.div_ceil(PER_WORD)
}

/// A zeroed array of `words` atomic words, or a typed error when the
/// allocator refuses (instead of aborting the process).
pub(crate) fn alloc_atomic(words: u64) -> Result<Vec<AtomicU64>, SpaceError> {
    let n = usize::try_from(words).map_err(|_| SpaceError::Alloc {
        bytes: u128::from(words) * 8,
    })?;
    let mut v: Vec<AtomicU64> = Vec::new();
    v.try_reserve_exact(n).map_err(|_| SpaceError::Alloc {
        bytes: n as u128 * 8,
    })?;
    v.extend((0..n).map(|_| AtomicU64::new(0)));
    Ok(v)
}

/// A zeroed array of `words` plain words (one worker's part), or a typed
/// error when the allocator refuses.
pub(crate) fn alloc_plain(words: u64) -> Result<Vec<u64>, SpaceError> {
    let n = usize::try_from(words).map_err(|_| SpaceError::Alloc {
        bytes: u128::from(words) * 8,
    })?;
    let mut v: Vec<u64> = Vec::new();
    v.try_reserve_exact(n).map_err(|_| SpaceError::Alloc {
        bytes: n as u128 * 8,
    })?;
    v.resize(n, 0);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_select_their_entries() {
        // entries 0..4 hold 0, 1, 2, 3
        let w = 0b11_10_01_00u64;
        assert_eq!(entries_with(w, 1), 1 << 2);
        assert_eq!(entries_with(w, 2), 1 << 4);
        assert_eq!(count_code(w, 3), 1);
        assert_eq!(count_code(w, 1), 1);
        assert_eq!(count_code(!0, 3), 32);
        assert_eq!(level_code(0), 1);
        assert_eq!(level_code(7), 2);
        assert_eq!(words_for(12), 1);
        assert_eq!(words_for(33), 2);
    }
}
