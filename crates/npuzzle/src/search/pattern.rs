//! Breadth-first search over the cells of a partial goal's tiles.
//!
//! The tiles a partial goal leaves free are interchangeable: what a move
//! does to the placed tiles and the blank does not depend on which free
//! tile stands where. So the state is the blank's cell and the placed
//! tiles' cells alone, and the fewest moves in that space are the fewest
//! on the board — exact, and small when few tiles are placed (the 15-puzzle's
//! first row: 16·15·14·13·12 = 524,160 states, where IDA* with their
//! Manhattan distance needs billions of nodes). Each state remembers the
//! move that reached it, one byte, so the path is read back.

use super::{Limit, SearchError, Stats};
use crate::board::{Board, Dir, Metric, PartialGoal};
use crate::rank::PartialRanker;
use std::time::Instant;

const UNSEEN: u8 = u8::MAX;
const START: u8 = u8::MAX - 1;

/// Bytes a state costs: its move and its place in the queue.
const BYTES_PER_STATE: u64 = 1 + 8;

/// The pattern space of `goal`, if it has at most `max_states` states.
pub(crate) struct Space {
    ranker: PartialRanker,
    /// The placed tiles (the blank first, whether placed or not).
    tiles: Vec<u8>,
    /// The cell each of `tiles` must reach (`None` for a free blank).
    home: Vec<Option<u8>>,
}

impl Space {
    /// `None` when the space has more states than `max_states` or bytes
    /// than `max_bytes` allow.
    pub(crate) fn new(goal: &PartialGoal, max_states: u64, max_bytes: u64) -> Option<Space> {
        let n = goal.shape().cells();
        let mut tiles = vec![0u8];
        let mut home = vec![None];
        for (cell, want) in goal.cells().iter().enumerate() {
            match *want {
                Some(0) => home[0] = Some(cell as u8),
                Some(t) => {
                    tiles.push(t);
                    home.push(Some(cell as u8));
                }
                None => {}
            }
        }
        let ranker = PartialRanker::new(n, tiles.len())?;
        let count = ranker.count();
        (count <= max_states && count.saturating_mul(BYTES_PER_STATE) <= max_bytes).then_some(
            Space {
                ranker,
                tiles,
                home,
            },
        )
    }

    /// The cells of `tiles` on `board`.
    fn cells_of(&self, board: &Board) -> Vec<u8> {
        let pos = board.positions();
        self.tiles.iter().map(|&t| pos[usize::from(t)]).collect()
    }

    fn is_home(&self, p: &[u8]) -> bool {
        p.iter().zip(&self.home).all(|(c, h)| h.is_none_or(|h| h == *c))
    }

    /// The blank of `p` moves one cell to `to`; a placed tile there takes
    /// its cell.
    fn step(p: &mut [u8], to: u8) {
        let from = p[0];
        if let Some(i) = p[1..].iter().position(|&c| c == to) {
            p[i + 1] = from;
        }
        p[0] = to;
    }

    /// The fewest moves of `metric` from `start` to a board meeting the
    /// goal, and the path; `None` moves when none can be reached.
    pub(crate) fn search(&self, start: &Board, metric: Metric) -> Result<(Option<Vec<Dir>>, Stats), SearchError> {
        let t0 = Instant::now();
        let shape = start.shape();
        let count = usize::try_from(self.ranker.count()).map_err(|_| SearchError::Budget {
            algorithm: "bfs",
            limit: Limit::States,
            limit_value: "the pattern space".to_string(),
            depth: 0,
            stats: Stats::default(),
        })?;
        let mut via = vec![UNSEEN; count];
        let mut queue: Vec<u64> = Vec::new();
        let mut p = self.cells_of(start);
        let root = self.ranker.rank(&p);
        via[root as usize] = START;
        queue.push(root);
        let mut head = 0;
        let mut found = None;
        while head < queue.len() && found.is_none() {
            let r = queue[head];
            head += 1;
            self.ranker.unrank(r, &mut p);
            if self.is_home(&p) {
                found = Some(r);
                break;
            }
            for (code, dir) in Dir::ALL.into_iter().enumerate() {
                let mut q = p.clone();
                let mut k = 0u8;
                while let Some(to) = dir.step(usize::from(q[0]), shape.rows, shape.cols) {
                    Space::step(&mut q, to as u8);
                    k += 1;
                    let next = self.ranker.rank(&q) as usize;
                    if via[next] == UNSEEN {
                        via[next] = (k << 2) | code as u8;
                        queue.push(next as u64);
                    }
                    if metric == Metric::Stm {
                        break;
                    }
                }
            }
        }
        let stats = Stats {
            expanded: head as u64,
            generated: queue.len() as u64,
            peak_states: queue.len() as u64,
            elapsed: t0.elapsed(),
        };
        let Some(mut r) = found else {
            return Ok((None, stats));
        };
        // Back from the goal: each state's move undone.
        let mut pushes = Vec::new();
        while via[r as usize] != START {
            let code = via[r as usize];
            let (dir, k) = (Dir::ALL[usize::from(code & 3)], code >> 2);
            self.ranker.unrank(r, &mut p);
            for _ in 0..k {
                if let Some(to) = dir.opposite().step(usize::from(p[0]), shape.rows, shape.cols) {
                    Space::step(&mut p, to as u8);
                }
            }
            pushes.push((dir, usize::from(k)));
            r = self.ranker.rank(&p);
        }
        let path = pushes
            .iter()
            .rev()
            .flat_map(|&(d, k)| std::iter::repeat_n(d, k))
            .collect();
        Ok((Some(path), stats))
    }
}
