//! Walking distance: the fewest moves of the tiles between rows, and
//! between columns, when only which row (column) each tile stands in and
//! which it belongs to are remembered.
//!
//! **The abstraction.** For rows, a state is a matrix `m[r][g]` — how many
//! tiles stand in row `r` and belong in row `g` — and the blank's row.
//! A vertical move takes one tile of the row above or below the blank
//! into the blank's row; which tile of that row it is, the abstraction has
//! forgotten, so every goal row present there is a possible move. Columns
//! are the same on the transposed board. The distance of every state from
//! the goal's is found by a breadth-first search over the abstraction.
//!
//! **Why the two add up.** A horizontal move changes no tile's row and not
//! the blank's, so it leaves the row state alone; a vertical move leaves
//! the column state alone. Every path needs at least the row distance in
//! vertical moves and the column distance in horizontal ones.
//!
//! **Both metrics.** In the multi-tile metric a push of `k` tiles along a
//! column is `k` single vertical steps that cost one together: the search
//! over the abstraction then counts a push as one move, and the bound
//! holds push for push. The sum is at least the Manhattan distance split by
//! axis (each push lowers the tiles' summed row distances by at most the
//! tiles it moves), usually well above it.
//!
//! The tables are small for the boards exact search takes in this metric
//! (4×4: 24,964 row states); a board with a side above [`MAX_SIDE`] has
//! none, and [`WalkingDistance::new`] says so with `None`.

use super::Heuristic;
use crate::board::{Board, Metric};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

/// Longest side with walking-distance tables (the state's matrix is kept
/// in 4-bit counts of a 128-bit key).
pub const MAX_SIDE: usize = 5;

/// Most states one axis's table may hold (a budget on its build).
const MAX_STATES: usize = 4_000_000;

const NONE: u32 = u32::MAX;

/// One axis's table: lines are rows (or columns), `width` tiles a line.
#[derive(Clone, Debug)]
struct Axis {
    lines: usize,
    /// Distance of each state from the goal's.
    dist: Vec<u8>,
    /// `next[(id * 2 + forward) * lines + g]`: the state after the blank
    /// moves one line forward (down, right) or back, taking a tile that
    /// belongs in line `g`; [`NONE`] where no such tile is there.
    next: Next,
    ids: HashMap<u128, u32>,
}

/// [`Axis::next`], in 16 bits a state where they are few enough (a 4x4's
/// 24,964): the search reads it for every position it makes, and half the
/// bytes stay in the processor's caches the more.
#[derive(Clone, Debug)]
enum Next {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Next {
    fn new(next: Vec<u32>, states: usize) -> Next {
        if states < usize::from(u16::MAX) {
            Next::Narrow(next.iter().map(|&n| if n == NONE { u16::MAX } else { n as u16 }).collect())
        } else {
            Next::Wide(next)
        }
    }

    #[inline(always)]
    fn get(&self, slot: usize) -> u32 {
        match self {
            Next::Narrow(v) => v.get(slot).map_or(NONE, |&n| if n == u16::MAX { NONE } else { u32::from(n) }),
            Next::Wide(v) => v.get(slot).copied().unwrap_or(NONE),
        }
    }
}

/// The abstract state: counts `m[r][g]` at bits `4·(r·lines + g)`, the
/// blank's line above them.
fn key(m: &[u8], blank: usize, lines: usize) -> u128 {
    let mut k = blank as u128;
    for &c in m.iter().take(lines * lines) {
        k = (k << 4) | u128::from(c);
    }
    k
}

fn unkey(mut k: u128, lines: usize, m: &mut [u8]) -> usize {
    for i in (0..lines * lines).rev() {
        m[i] = (k & 15) as u8;
        k >>= 4;
    }
    k as usize
}

/// The blank moves one line (`forward`: to the next line) taking a tile of
/// class `g`; `None` where it cannot.
fn step(m: &mut [u8], blank: usize, lines: usize, forward: bool, g: usize) -> Option<usize> {
    let to = if forward {
        (blank + 1 < lines).then_some(blank + 1)?
    } else {
        blank.checked_sub(1)?
    };
    if m[to * lines + g] == 0 {
        return None;
    }
    m[to * lines + g] -= 1;
    m[blank * lines + g] += 1;
    Some(to)
}

impl Axis {
    /// Breadth first from the goal's state, a move of `metric` at a time;
    /// `None` past [`MAX_STATES`].
    fn build(goal_m: &[u8], goal_blank: usize, lines: usize, metric: Metric) -> Option<Axis> {
        let mut ids = HashMap::new();
        let mut states = vec![key(goal_m, goal_blank, lines)];
        let mut dist = vec![0u8];
        ids.insert(states[0], 0u32);
        let mut queue = VecDeque::from([0u32]);
        let mut m = vec![0u8; lines * lines];
        while let Some(id) = queue.pop_front() {
            let d = dist[id as usize];
            let blank = unkey(states[id as usize], lines, &mut m);
            let mut found = Vec::new();
            for forward in [false, true] {
                pushes(&mut m, blank, lines, forward, metric, &mut |m, b| {
                    found.push(key(m, b, lines));
                });
            }
            for k in found {
                if ids.contains_key(&k) {
                    continue;
                }
                if states.len() >= MAX_STATES {
                    return None;
                }
                let new = states.len() as u32;
                ids.insert(k, new);
                states.push(k);
                dist.push(d + 1);
                queue.push_back(new);
            }
        }
        let mut next = vec![NONE; states.len() * 2 * lines];
        for (id, &k) in states.iter().enumerate() {
            for forward in [false, true] {
                for g in 0..lines {
                    let blank = unkey(k, lines, &mut m);
                    if let Some(b) = step(&mut m, blank, lines, forward, g) {
                        let slot = (id * 2 + usize::from(forward)) * lines + g;
                        next[slot] = ids.get(&key(&m, b, lines)).copied().unwrap_or(NONE);
                    }
                }
            }
        }
        let next = Next::new(next, states.len());
        Some(Axis { lines, dist, next, ids })
    }
}

/// Calls `found` on every state one move of `metric` away in one
/// direction: one step in the single-tile metric, one to the edge in the
/// multi-tile one, each step any class of tile; `m` is restored.
fn pushes(
    m: &mut [u8],
    blank: usize,
    lines: usize,
    forward: bool,
    metric: Metric,
    found: &mut impl FnMut(&[u8], usize),
) {
    for g in 0..lines {
        let mut after = m.to_vec();
        if let Some(b) = step(&mut after, blank, lines, forward, g) {
            found(&after, b);
            if metric == Metric::Mtm {
                pushes(&mut after, b, lines, forward, metric, found);
            }
        }
    }
}

/// The walking distance toward one goal, in one metric.
///
/// ```
/// use npuzzle::{parse_board, Heuristic, Metric, WalkingDistance};
///
/// let goal = parse_board("1 2 3 4 5 6 7 8 0", None)?;
/// let wd = WalkingDistance::new(&goal, Metric::Stm).unwrap();
/// let start = parse_board("8 6 7 2 5 4 3 0 1", None)?; // 31 moves
/// let h = wd.estimate(start.tiles());
/// assert!(h <= 31 && h >= 21); // at least its Manhattan distance, 21
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct WalkingDistance {
    rows: Arc<Axis>,
    cols: Arc<Axis>,
    /// Goal row and column of each tile.
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
    width: usize,
}

impl WalkingDistance {
    /// The tables toward `goal`, counting moves in `metric`; `None` for a
    /// board with a side above [`MAX_SIDE`] or an abstraction too large.
    pub fn new(goal: &Board, metric: Metric) -> Option<WalkingDistance> {
        let shape = goal.shape();
        let (r, c) = (shape.rows, shape.cols);
        if r > MAX_SIDE || c > MAX_SIDE {
            return None;
        }
        let pos = goal.positions();
        let n = shape.cells();
        let goal_row: Vec<u8> = (0..n).map(|t| (usize::from(pos[t]) / c) as u8).collect();
        let goal_col: Vec<u8> = (0..n).map(|t| (usize::from(pos[t]) % c) as u8).collect();
        let rows = axis(&goal_counts(goal, &goal_row, r, |cell| cell / c), goal.blank() / c, r, metric)?;
        let cols = axis(&goal_counts(goal, &goal_col, c, |cell| cell % c), goal.blank() % c, c, metric)?;
        Some(WalkingDistance {
            rows,
            cols,
            goal_row,
            goal_col,
            width: c,
        })
    }

    fn id(axis: &Axis, m: &[u8], blank: usize) -> u32 {
        axis.ids.get(&key(m, blank, axis.lines)).copied().unwrap_or(NONE)
    }
}

/// Axis tables kept for the process: one per goal count matrix, blank line
/// and metric. Building one is a breadth-first search (tens of
/// milliseconds on a 4x4), which a batch of many boards toward one goal
/// would otherwise repeat for every board.
type AxisKey = (Vec<u8>, usize, usize, Metric);

/// Most axis tables kept (a 5x5's are a few megabytes each).
const KEPT_AXES: usize = 16;

fn axis(goal_m: &[u8], blank: usize, lines: usize, metric: Metric) -> Option<Arc<Axis>> {
    static AXES: OnceLock<Mutex<HashMap<AxisKey, Arc<Axis>>>> = OnceLock::new();
    let axes = AXES.get_or_init(Mutex::default);
    let key = (goal_m.to_vec(), blank, lines, metric);
    // A poisoned lock only means another thread panicked mid-insert: the
    // map itself is whole, each entry being inserted at once.
    if let Some(a) = axes.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&key) {
        return Some(Arc::clone(a));
    }
    let built = Arc::new(Axis::build(goal_m, blank, lines, metric)?);
    let mut map = axes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if map.len() >= KEPT_AXES {
        map.clear();
    }
    map.insert(key, Arc::clone(&built));
    Some(built)
}

/// The count matrix of `board`'s tiles by the line they stand in
/// (`line_of(cell)`) and the line they belong in (`goal_line[tile]`).
fn goal_counts(board: &Board, goal_line: &[u8], lines: usize, line_of: impl Fn(usize) -> usize) -> Vec<u8> {
    let mut m = vec![0u8; lines * lines];
    for (cell, &t) in board.tiles().iter().enumerate() {
        if t != 0 {
            m[line_of(cell) * lines + usize::from(goal_line[usize::from(t)])] += 1;
        }
    }
    m
}

impl Heuristic for WalkingDistance {
    /// The row state's and the column state's ids.
    type State = (u32, u32);

    const READS_TILES: bool = false;

    fn name(&self) -> &'static str {
        "walking-distance"
    }

    fn init(&self, tiles: &[u8]) -> (u32, u32) {
        let c = self.width;
        let (rl, cl) = (self.rows.lines, self.cols.lines);
        let mut rm = vec![0u8; rl * rl];
        let mut cm = vec![0u8; cl * cl];
        let mut blank = 0;
        for (cell, &t) in tiles.iter().enumerate() {
            if t == 0 {
                blank = cell;
                continue;
            }
            let t = usize::from(t);
            rm[(cell / c) * rl + usize::from(self.goal_row[t])] += 1;
            cm[(cell % c) * cl + usize::from(self.goal_col[t])] += 1;
        }
        (
            WalkingDistance::id(&self.rows, &rm, blank / c),
            WalkingDistance::id(&self.cols, &cm, blank % c),
        )
    }

    #[inline]
    fn value(&self, &(r, c): &(u32, u32)) -> u32 {
        // A state outside the tables (an unreachable goal) estimates 0.
        let at = |axis: &Axis, id: u32| axis.dist.get(id as usize).map_or(0, |&d| u32::from(d));
        at(&self.rows, r) + at(&self.cols, c)
    }

    #[inline]
    fn update(&self, &(r, c): &(u32, u32), _: &[u8], tile: u8, from: usize, to: usize) -> (u32, u32) {
        // The blank went from `to` to `from`.
        let w = self.width;
        let t = usize::from(tile);
        let follow = |axis: &Axis, id: u32, forward: bool, g: u8| {
            let slot = (id as usize * 2 + usize::from(forward)) * axis.lines + usize::from(g);
            axis.next.get(slot)
        };
        if from / w == to / w {
            (r, follow(&self.cols, c, from > to, self.goal_col[t]))
        } else {
            (follow(&self.rows, r, from > to, self.goal_row[t]), c)
        }
    }
}

impl WalkingDistance {
    /// [`Heuristic::update`] for a tile that moved across (to another
    /// column) or not (to another row), the blank going `forward` (right
    /// or down) or back: the same state, without working out from the
    /// cells which way the move went.
    #[inline(always)]
    pub(crate) fn step(&self, (r, c): (u32, u32), across: bool, forward: bool, tile: u8) -> (u32, u32) {
        let t = usize::from(tile);
        let follow = |axis: &Axis, id: u32, g: u8| {
            let slot = (id as usize * 2 + usize::from(forward)) * axis.lines + usize::from(g);
            axis.next.get(slot)
        };
        if across {
            (r, follow(&self.cols, c, self.goal_col[t]))
        } else {
            (follow(&self.rows, r, self.goal_row[t]), c)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Dir, Shape};
    use crate::heuristic::Manhattan;

    #[test]
    fn updates_agree_with_a_fresh_evaluation_and_bound_manhattan() {
        let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
        let wd = WalkingDistance::new(&goal, Metric::Stm).unwrap();
        assert_eq!(wd.rows.dist.len(), 24_964);
        let md = Manhattan::new(&goal);
        let mut b = goal.clone();
        let mut s = wd.init(b.tiles());
        for i in 0..2000usize {
            let d = Dir::ALL[(i * 7 + i / 3) % 4];
            let blank = b.blank();
            if b.apply(d) {
                let tile = b.tiles()[blank];
                s = wd.update(&s, b.tiles(), tile, b.blank(), blank);
                assert_eq!(s, wd.init(b.tiles()));
                assert!(wd.value(&s) >= md.estimate(b.tiles()));
            }
        }
    }
}
