//! Zero-aware databases at one bit an entry.
//!
//! In a zero-aware database every move of a group's tile changes the
//! group's distance `d` by exactly one: by at most one because the move can
//! be undone, and not by zero because `d` has the parity of the tiles'
//! Manhattan distance `md` (each move changes `md` by one). A nibble holds
//! `v = (d − md) / 2`, so after a move whose new Manhattan distance is
//! `md'` the two candidates `d ± 1` give two consecutive values of `v`, and
//! the parity of `v` tells them apart. The search knows `d` at the parent,
//! so one bit (`v`'s lowest) is enough there: a quarter of the memory for
//! the same values. The value of a position met without a parent (a search's
//! root) is found by walking downhill to the goal, one move at a time
//! ([`exact`]).
//!
//! A database with clamped entries (`v` cut to 15) breaks the one-move rule
//! and is kept as nibbles.

use crate::heuristic::pdb::entry::{bit, prefetch};
use crate::heuristic::pdb::model::indexing::Indexing;

/// What [`exact`] needs to know about one database.
pub(super) struct Walk<'a> {
    pub layout: &'a Indexing,
    pub data: &'a [u8],
    /// `md[i << 6 | c]`: the Manhattan distance of tile `i` on cell `c`.
    pub md: &'a [u8; 1024],
    /// The tiles' goal cells, in key order.
    pub home: &'a [u8],
    pub goal_blank: usize,
    /// The database's largest value: a longer walk means damage.
    pub max: u8,
}

/// The exact value of the group's tiles on `cells` (key order) with the
/// blank on `blank`: the number of moves of a walk to the goal that goes
/// one move nearer each time. A move of tile `i` to a cell of the blank's
/// region is one nearer exactly when its bit says so: `(d − md) / 2` keeps
/// its parity when `md` falls by one and `d` with it, and changes it when
/// `md` rises by one while `d` falls. Should the walk go astray (a damaged
/// database), the tiles' Manhattan distance is returned, still a lower
/// bound.
pub(super) fn exact(w: &Walk<'_>, cells: &[u8], blank: usize) -> u8 {
    let k = cells.len();
    let geo = &w.layout.geo;
    let mut at = [0u8; 16];
    at[..k].copy_from_slice(cells);
    let md_of = |at: &[u8]| -> u32 {
        at.iter()
            .enumerate()
            .map(|(i, &c)| u32::from(w.md[(i << 6 | usize::from(c)) & 1023]))
            .sum()
    };
    let start_md = md_of(&at[..k]);
    let mut blank = blank;
    let mut steps = 0u8;
    loop {
        let (order, mask) = w.layout.order_rank(&at[..k]);
        let free = geo.full() & !mask;
        let region = geo.flood(1 << blank, free);
        if at[..k] == *w.home && region >> w.goal_blank & 1 == 1 {
            return steps;
        }
        if steps >= w.max {
            return start_md as u8;
        }
        let here = bit(w.data, w.layout.state_of(mask, order, blank));
        let md = md_of(&at[..k]);
        // every move's entry asked for before any is read: their misses
        // overlap (a root's value takes a few hundred moves' lookups)
        let mut moves = [(0u8, 0u8, 0u64, false); 64];
        let mut count = 0;
        for i in 0..k {
            let from = at[i];
            let mut to_cells = geo.nbr[usize::from(from)] & region;
            while to_cells != 0 && count < moves.len() {
                let to = to_cells.trailing_zeros() as u8;
                to_cells &= to_cells - 1;
                at[i] = to;
                let md2 = md_of(&at[..k]);
                let (order2, mask2) = w.layout.order_rank(&at[..k]);
                let state = w.layout.state_of(mask2, order2, usize::from(from));
                at[i] = from;
                if let Some(byte) = w.data.get((state >> 3) as usize) {
                    prefetch(byte);
                }
                moves[count] = (i as u8, to, state, md2 < md);
                count += 1;
            }
        }
        let next = moves[..count]
            .iter()
            .find(|&&(_, _, state, nearer_md)| nearer_md == (bit(w.data, state) == here))
            .map(|&(i, to, _, _)| (usize::from(i), to));
        let Some((i, to)) = next else {
            return start_md as u8;
        };
        blank = usize::from(at[i]);
        at[i] = to;
        steps += 1;
    }
}
