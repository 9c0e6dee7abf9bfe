//! Bidirectional breadth-first search: one search forward from the start,
//! one backward from the goal (moves are reversible, so "backward" is an
//! ordinary BFS from the goal), growing whichever frontier is smaller by one
//! whole layer at a time.
//!
//! **Meeting condition.** Let the forward side have finished layers up to
//! depth `a` and the backward side up to `b`, with no state yet on both
//! sides. Then the distance `d` is more than `a + b`: on an optimal path,
//! the state `min(a, d)` moves from the start would be within `a` of the
//! start and within `b` of the goal, so both sides would hold it. Expanding
//! the forward layer `a`, a new state found in the backward set lies within
//! `b` of the goal, so it closes a path of `a + 1 + b' ≤ a + 1 + b` moves;
//! since `d > a + b`, that is exactly `d`. So the first meeting gives an
//! optimal path — no "minus one" correction, and the tests check it against
//! the complete tables.

use super::observe::{self, Fate, Observer, Quiet, Visit};
use super::forecast::{states_forecast, FORECAST_MARGIN, FORECAST_MIN};
use super::moves::{dir_code, dir_from_code, slide, undo_slide, Neighbours};
use super::states::{StateCost, StateMap};
use super::{Limit, Problem, SearchError, Solution, SolveOptions, Solver, Stats};
use crate::board::Dir;
use crate::budget::{Clock, Interrupt, POLL_EVERY};
use crate::codec::{with_codec, Codec, WithCodec};

const NAME: &str = "bibfs";
const ROOT: u32 = u32::MAX;

/// The `bibfs` solver.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bibfs;

impl Solver for Bibfs {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solve(&self, problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
        search(problem, opts)
    }
}

struct Node<K> {
    key: K,
    parent: u32,
    blank: u8,
    /// The blank's move from the parent to this state (in this side's
    /// direction of search).
    dir: u8,
}

/// One direction of the search.
struct Side<K> {
    nodes: Vec<Node<K>>,
    index: StateMap<K, u32>,
    /// First node of the frontier (the last complete layer).
    layer_start: usize,
    depth: u32,
    /// Size of the layer before the frontier (for forecasts).
    prev_layer: usize,
}

impl<K: Clone + Eq + std::hash::Hash> Side<K> {
    fn new(key: K, blank: usize) -> Side<K> {
        let mut index = StateMap::default();
        index.insert(key.clone(), 0);
        Side {
            nodes: vec![Node {
                key,
                parent: ROOT,
                blank: blank as u8,
                dir: 0,
            }],
            index,
            layer_start: 0,
            depth: 0,
            prev_layer: 1,
        }
    }

    fn frontier(&self) -> usize {
        self.nodes.len() - self.layer_start
    }

    /// Moves from the root to node `i`.
    fn path_to(&self, mut i: u32) -> Vec<Dir> {
        let mut p = Vec::new();
        while i != ROOT {
            let n = &self.nodes[i as usize];
            if n.parent != ROOT {
                p.push(dir_from_code(n.dir));
            }
            i = n.parent;
        }
        p.reverse();
        p
    }

    /// Moves from node `i` back to the root.
    fn path_from(&self, i: u32) -> Vec<Dir> {
        let mut p = self.path_to(i);
        p.reverse();
        p.iter_mut().for_each(|d| *d = d.opposite());
        p
    }
}

/// A state found by both sides: the expanding side's node, the move, and
/// the other side's node.
struct Meet {
    here: u32,
    dir: Dir,
    there: u32,
}

/// Runs the search; with `opts.forecast = Some(d)` gives up early when
/// the growth so far plainly needs more than the state budget to meet at
/// depth `d`.
fn search(problem: &Problem, opts: &SolveOptions) -> Result<Solution, SearchError> {
    search_observed(problem, opts, &mut Quiet)
}

/// [`search`], telling `obs` where the two sides meet.
pub(crate) fn search_observed<O: Observer>(
    problem: &Problem,
    opts: &SolveOptions,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    struct Work<'a, O> {
        problem: &'a Problem,
        opts: &'a SolveOptions,
        obs: &'a mut O,
    }
    impl<O: Observer> WithCodec for Work<'_, O> {
        type Output = Result<Solution, SearchError>;
        fn run<C: Codec>(self, codec: C) -> Self::Output {
            run(codec, self.problem, self.opts, self.obs)
        }
    }
    with_codec(problem.start().len(), Work { problem, opts, obs })
}

fn run<C: Codec, O: Observer>(
    codec: C,
    problem: &Problem,
    opts: &SolveOptions,
    obs: &mut O,
) -> Result<Solution, SearchError> {
    let forecast = opts.forecast;
    let clock = Clock::new(&opts.budget);
    let max_states = opts.budget.max_states.min(u64::from(u32::MAX - 1));
    let nb = Neighbours::new(problem.start().shape());
    let mut stats = Stats::default();
    let finish = |path: Option<Vec<Dir>>, stats: Stats| {
        let moves = path.as_ref().map(|p| p.len() as u32);
        let path = if opts.want_path { path } else { None };
        Solution::found(NAME, None, moves, path, stats)
    };
    let start_key = codec.pack(problem.start().tiles());
    let goal_key = codec.pack(problem.goal().tiles());
    if start_key == goal_key {
        stats.peak_states = 1;
        stats.elapsed = clock.start.elapsed();
        obs.met(problem.start().tiles(), 0, 0);
        return Ok(finish(Some(Vec::new()), stats));
    }
    let mut fwd = Side::new(start_key, problem.start().blank());
    let mut bwd = Side::new(goal_key, problem.goal().blank());
    let mut tiles = vec![0u8; problem.start().len()];
    for side in [observe::Side::Forward, observe::Side::Backward] {
        obs.side(side);
        obs.layer(0, 1, true);
    }
    loop {
        let forward = fwd.frontier() <= bwd.frontier();
        obs.side(if forward {
            observe::Side::Forward
        } else {
            observe::Side::Backward
        });
        if let Some(d) = forecast {
            if let Some(need) = forecast_states(&fwd, &bwd, d) {
                if need > FORECAST_MARGIN * max_states as f64 {
                    stats.peak_states = (fwd.nodes.len() + bwd.nodes.len()) as u64;
                    stats.elapsed = clock.start.elapsed();
                    return Err(states_forecast(NAME, need, max_states, d, stats));
                }
            }
        }
        let (here, there) = if forward {
            (&mut fwd, &bwd)
        } else {
            (&mut bwd, &fwd)
        };
        if here.frontier() == 0 {
            // One side has seen everything it can reach: unreachable.
            stats.peak_states = (here.nodes.len() + there.nodes.len()) as u64;
            stats.elapsed = clock.start.elapsed();
            return Ok(finish(None, stats));
        }
        let limits = Limits {
            max_states,
            cost: StateCost::new(
                std::mem::size_of::<Node<C::Key>>(),
                std::mem::size_of::<(C::Key, u32)>(),
                codec.heap_bytes(problem.start().len()),
                2,
            ),
        };
        let layer = expand_layer(
            codec, &nb, here, there, &mut tiles, &mut stats, &clock, limits, obs,
        );
        let depth = fwd.depth + bwd.depth;
        let held = (fwd.nodes.len() + bwd.nodes.len()) as u64;
        stats.peak_states = stats.peak_states.max(held);
        match layer {
            Ok(None) => {
                let here = if forward { &fwd } else { &bwd };
                obs.layer(here.depth, here.frontier() as u64, true);
            }
            Ok(Some(m)) => {
                let (path, ahead) = meeting_path(&fwd, &bwd, forward, &m);
                if let Ok(board) = problem.start().apply_path(&path[..ahead]) {
                    let behind = (path.len() - ahead) as u32;
                    obs.met(board.tiles(), ahead as u32, behind);
                }
                stats.elapsed = clock.start.elapsed();
                return Ok(finish(Some(path), stats));
            }
            Err(i) => {
                stats.elapsed = clock.start.elapsed();
                return Err(i.error(NAME, &opts.budget, depth, stats));
            }
        }
    }
}

/// The whole path through meeting `m` (found by the forward side when
/// `forward`), and how many of its moves lead from the start to the
/// meeting board: the child of the expanding side's node, already held by
/// the other side.
fn meeting_path<K: Clone + Eq + std::hash::Hash>(
    fwd: &Side<K>,
    bwd: &Side<K>,
    forward: bool,
    m: &Meet,
) -> (Vec<Dir>, usize) {
    if forward {
        let mut p = fwd.path_to(m.here);
        p.push(m.dir);
        let ahead = p.len();
        p.extend(bwd.path_from(m.there));
        (p, ahead)
    } else {
        let mut p = fwd.path_to(m.there);
        let ahead = p.len();
        p.push(m.dir.opposite());
        p.extend(bwd.path_from(m.here));
        (p, ahead)
    }
}

/// What both sides together may hold.
#[derive(Clone, Copy)]
struct Limits {
    max_states: u64,
    cost: StateCost,
}

/// Expands the whole frontier of `here`; returns the first state also held
/// by `there`.
#[allow(clippy::too_many_arguments)]
// (kept out of line, as it was before it took an observer: inlined into
// its caller it ran 2.8% more instructions)
#[inline(never)]
fn expand_layer<C: Codec, O: Observer>(
    codec: C,
    nb: &Neighbours,
    here: &mut Side<C::Key>,
    there: &Side<C::Key>,
    tiles: &mut [u8],
    stats: &mut Stats,
    clock: &Clock<'_>,
    limits: Limits,
    obs: &mut O,
) -> Result<Option<Meet>, Interrupt> {
    let end = here.nodes.len();
    for i in here.layer_start..end {
        if stats.expanded.is_multiple_of(POLL_EVERY) {
            clock.poll()?;
        }
        let node = &here.nodes[i];
        let (key, blank, came, is_root) = (
            node.key.clone(),
            usize::from(node.blank),
            dir_from_code(node.dir),
            node.parent == ROOT,
        );
        codec.unpack(&key, tiles);
        obs.frontier((here.nodes.len() - i - 1) as u64, i as u64);
        let (via, g) = ((!is_root).then_some(came), here.depth);
        obs.expanded(&Visit { tiles, g, h: None, via });
        stats.expanded += 1;
        let moves = nb.of(blank);
        for m in 0..usize::from(moves.len) {
            let dir = moves.dirs[m];
            if !is_root && dir == came.opposite() {
                continue;
            }
            let to = usize::from(moves.cells[m]);
            stats.generated += 1;
            let tile = slide(tiles, blank, to);
            let child = codec.slide(&key, tiles, tile, to, blank);
            if O::ACTIVE {
                // (looked up twice when watched, so that the unwatched
                // search is the same code as before)
                let fate = if here.index.contains_key(&child) {
                    Fate::Duplicate
                } else {
                    Fate::Queued
                };
                let g = here.depth + 1;
                obs.generated(&Visit { tiles, g, h: None, via: Some(dir) }, fate);
            }
            undo_slide(tiles, blank, to, tile);
            if here.index.contains_key(&child) {
                continue;
            }
            if let Some(&j) = there.index.get(&child) {
                return Ok(Some(Meet {
                    here: i as u32,
                    dir,
                    there: j,
                }));
            }
            let held = here.nodes.len() + there.nodes.len();
            if held as u64 >= limits.max_states {
                return Err(Interrupt::Limit(Limit::States));
            }
            limits.cost.check(clock.budget(), held + 1)?;
            let idx = here.nodes.len() as u32;
            here.index.insert(child.clone(), idx);
            here.nodes.push(Node {
                key: child,
                parent: i as u32,
                blank: to as u8,
                dir: dir_code(dir),
            });
        }
    }
    here.prev_layer = end - here.layer_start;
    here.layer_start = end;
    here.depth += 1;
    Ok(None)
}

/// States both sides will hold before they meet at depth `d`, if the
/// growth of each side's last layer continues (none while the sides are
/// still small).
fn forecast_states<K: Clone + Eq + std::hash::Hash>(
    fwd: &Side<K>,
    bwd: &Side<K>,
    d: u32,
) -> Option<f64> {
    let held = (fwd.nodes.len() + bwd.nodes.len()) as f64;
    let (mut f, mut b) = (fwd.frontier() as f64, bwd.frontier() as f64);
    if f.max(b) < FORECAST_MIN {
        return None;
    }
    let rf = f / fwd.prev_layer.max(1) as f64;
    let rb = b / bwd.prev_layer.max(1) as f64;
    // Layers still to expand before a meeting is possible: d − 1 − (a + b).
    let steps = d.saturating_sub(1 + fwd.depth + bwd.depth);
    let mut need = held;
    for _ in 0..steps {
        if f <= b {
            f *= rf;
            need += f;
        } else {
            b *= rb;
            need += b;
        }
        if need > 1e30 {
            break;
        }
    }
    Some(need)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Shape};

    fn solve(start: &[u8]) -> Solution {
        let p = Problem::new(
            Board::from_tiles(3, 3, start).unwrap(),
            Board::blank_last(Shape::new(3, 3)).unwrap(),
        )
        .unwrap();
        search(&p, &SolveOptions::default().with_path(true)).unwrap()
    }

    #[test]
    fn short_distances_are_exact() {
        // 0, 1 and 2 moves: the cases an off-by-one would get wrong.
        assert_eq!(solve(&[1, 2, 3, 4, 5, 6, 7, 8, 0]).moves, Some(0));
        assert_eq!(solve(&[1, 2, 3, 4, 5, 6, 7, 0, 8]).moves, Some(1));
        assert_eq!(solve(&[1, 2, 3, 4, 5, 6, 0, 7, 8]).moves, Some(2));
        assert_eq!(solve(&[1, 2, 3, 4, 0, 6, 7, 5, 8]).moves, Some(2));
    }

    #[test]
    fn holds_far_fewer_states_than_bfs() {
        let s = solve(&[8, 6, 7, 2, 5, 4, 3, 0, 1]);
        assert_eq!(s.moves, Some(31));
        assert!(s.stats.peak_states < 40_000, "{:?}", s.stats);
    }
}
