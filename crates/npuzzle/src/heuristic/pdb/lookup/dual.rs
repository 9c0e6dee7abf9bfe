//! The dual lookups of the pattern-database heuristic
//! ([`crate::heuristic::TableHooks::second`]).
//!
//! In the dual position each tile `t` stands on the goal
//! cell of the tile that stands on `t`'s goal cell. Follow an optimal
//! solution backwards, and let the tiles that start on the goal cells of a
//! group's tiles play those tiles: they walk from the dual placement to the
//! group's goal, one group-tile move per move of theirs, with the blank
//! starting on its goal cell. So the group's database value there (blank
//! on its goal cell) is at most the moves those tiles make, and the sets of
//! tiles are disjoint: the sum is a lower bound. Two corrections keep it
//! one: the group whose goal cells hold the blank would have it among its
//! walkers (each of its moves counted), so that group counts only the
//! Manhattan distances of its other walkers; and the walk ends with the
//! blank where it starts now, which may be a region of the free cells
//! other than the goal's when the group's tiles are home, so the distance
//! between those two (a zero-aware database has it; otherwise the
//! Manhattan count again) is taken off.

use super::db::PatternDb;
use crate::board::Board;
use crate::heuristic::pdb::MAX_CELLS;
use std::sync::Arc;

/// What the dual lookups need.
pub(in crate::heuristic::pdb) struct Dual {
    /// Cells of the board.
    pub(in crate::heuristic::pdb) n: usize,
    /// Goal cell of each tile (the blank's is `blank`).
    goal_cell: Vec<u8>,
    /// The goal's blank cell.
    blank: u8,
    /// `take[g][c]`: what group `g`'s dual value loses when the blank is on
    /// `c`; `u8::MAX` when the database cannot be used (count Manhattan).
    take: Vec<Vec<u8>>,
    /// `goal_cells[g]`: the goal cells of group `g`'s tiles.
    goal_cells: Vec<Vec<u8>>,
}

impl Dual {
    pub(in crate::heuristic::pdb) fn new(
        goal: &Board,
        groups: &[Vec<u8>],
        dbs: &[Arc<PatternDb>],
    ) -> Dual {
        let shape = goal.shape();
        let n = shape.cells();
        let goal_cell = goal.positions();
        let blank = goal.blank();
        let goal_cells: Vec<Vec<u8>> = groups
            .iter()
            .map(|g| g.iter().map(|&t| goal_cell[usize::from(t)]).collect())
            .collect();
        let take = goal_cells
            .iter()
            .zip(dbs)
            .map(|(cells, db)| {
                // the free cells with the group home, and the goal blank's
                // region among them
                let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
                let region = flood(shape, 1 << blank, !occ);
                (0..n)
                    .map(|a0| {
                        if occ >> a0 & 1 == 1 {
                            // the blank is one of the group's walkers
                            u8::MAX
                        } else if region >> a0 & 1 == 1 {
                            0
                        } else if db.zero_aware() {
                            // the group home, the blank in `a0`'s region:
                            // its distance from the goal region
                            let home: Vec<u8> = db
                                .tiles()
                                .iter()
                                .map(|&t| goal_cell[usize::from(t)])
                                .collect();
                            db.get(&home, a0).min(u8::MAX - 1)
                        } else {
                            u8::MAX
                        }
                    })
                    .collect()
            })
            .collect();
        Dual {
            n,
            goal_cell,
            blank: blank as u8,
            take,
            goal_cells,
        }
    }

    /// The dual lower bound for the board with tile `t` on `pos[t]`,
    /// from the databases `dbs` of the groups `members`; `md[t][c]` is
    /// tile `t`'s Manhattan distance from cell `c`.
    pub(in crate::heuristic::pdb) fn value(
        &self,
        dbs: &[Arc<PatternDb>],
        members: &[Vec<u8>],
        md: &[[u8; MAX_CELLS]; MAX_CELLS],
        pos: &[u8],
    ) -> u32 {
        let n = self.n;
        let mut board = [0u8; MAX_CELLS];
        for t in 0..n {
            board[usize::from(pos[t])] = t as u8;
        }
        let mut dpos = [0u8; MAX_CELLS];
        for t in 0..n {
            let u = board[usize::from(self.goal_cell[t])];
            dpos[t] = self.goal_cell[usize::from(u)];
        }
        // the lookups are made with the blank on its goal cell
        dpos[0] = self.blank;
        let a0 = usize::from(pos[0]);
        let mut sum = 0u32;
        for g in 0..dbs.len() {
            let take = self.take[g][a0];
            if take == u8::MAX {
                // the walkers' Manhattan distances (the blank not counted)
                for &c in &self.goal_cells[g] {
                    let u = usize::from(board[usize::from(c)]);
                    sum += u32::from(md[u][usize::from(c)]);
                }
                continue;
            }
            let v = dbs[g].lookup(
                &members[g],
                |t| dpos[usize::from(t)],
                usize::from(self.blank),
            );
            sum += u32::from(v.saturating_sub(take));
        }
        sum
    }
}

/// The cells of `free` connected to `seed` on a board of `shape`.
fn flood(shape: crate::board::Shape, seed: u64, free: u64) -> u64 {
    let mut r = seed & free;
    loop {
        let mut grown = r;
        for c in 0..shape.cells() {
            if r >> c & 1 == 1 {
                for d in crate::board::Dir::ALL {
                    if let Some(to) = d.step(c, shape.rows, shape.cols) {
                        grown |= 1 << to;
                    }
                }
            }
        }
        grown &= free;
        if grown == r {
            return r;
        }
        r = grown;
    }
}
