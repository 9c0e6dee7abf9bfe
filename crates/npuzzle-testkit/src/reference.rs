//! Independent reference code for tests: plain breadth-first search over
//! boards (no ranking, no renaming), and random boards.

#![allow(dead_code)]

use npuzzle::{Board, Dir, Metric, Shape};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, VecDeque};

/// Distance from `goal` to every board reachable from it, by BFS over
/// whole boards stored in a hash map (moves are reversible, so this is the
/// distance *to* the goal).
pub fn bfs_all(goal: &Board) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::new();
    dist.insert(goal.tiles().to_vec(), 0);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[b.tiles()];
        for dir in Dir::ALL {
            if let Some(n) = b.moved(dir) {
                if !dist.contains_key(n.tiles()) {
                    dist.insert(n.tiles().to_vec(), d + 1);
                    queue.push_back(n);
                }
            }
        }
    }
    dist
}

/// The boards one move of `metric` away from `b`: in the multi-tile
/// metric, every push of one tile or more along the blank's row or column
/// (single steps repeated, nothing shared with the solver's code).
pub fn neighbours_in(b: &Board, metric: Metric) -> Vec<Board> {
    let mut out = Vec::new();
    for dir in Dir::ALL {
        let mut cur = b.clone();
        while let Some(n) = cur.moved(dir) {
            out.push(n.clone());
            if metric == Metric::Stm {
                break;
            }
            cur = n;
        }
    }
    out
}

/// [`bfs_all`] counting moves in `metric`.
pub fn bfs_all_in(goal: &Board, metric: Metric) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::new();
    dist.insert(goal.tiles().to_vec(), 0);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[b.tiles()];
        for n in neighbours_in(&b, metric) {
            if !dist.contains_key(n.tiles()) {
                dist.insert(n.tiles().to_vec(), d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Fewest moves of `metric` from `start` to `goal` by a plain BFS from the
/// start, or `None` when more than `max_states` states would be held.
pub fn bfs_distance_in(
    start: &Board,
    goal: &Board,
    metric: Metric,
    max_states: usize,
) -> Option<u32> {
    bfs_until(start, |b| b == goal, metric, max_states)
}

/// Fewest moves of `metric` from `start` to any board `done` accepts, by
/// a plain BFS (`None`: none within `max_states` states).
pub fn bfs_until(
    start: &Board,
    done: impl Fn(&Board) -> bool,
    metric: Metric,
    max_states: usize,
) -> Option<u32> {
    let mut dist = HashMap::new();
    dist.insert(start.tiles().to_vec(), 0u32);
    let mut queue = VecDeque::from([start.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[b.tiles()];
        if done(&b) {
            return Some(d);
        }
        for n in neighbours_in(&b, metric) {
            if !dist.contains_key(n.tiles()) {
                if dist.len() >= max_states {
                    return None;
                }
                dist.insert(n.tiles().to_vec(), d + 1);
                queue.push_back(n);
            }
        }
    }
    None
}

/// Every permutation of `0..n` as boards of `shape`.
pub fn all_boards(shape: Shape) -> Vec<Board> {
    let n = shape.cells();
    let mut out = Vec::new();
    let mut p: Vec<u8> = (0..n as u8).collect();
    permute(&mut p, 0, &mut |perm| {
        out.push(Board::from_tiles(shape.rows, shape.cols, perm).unwrap());
    });
    out
}

fn permute(p: &mut Vec<u8>, k: usize, f: &mut impl FnMut(&[u8])) {
    if k == p.len() {
        f(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permute(p, k + 1, f);
        p.swap(k, i);
    }
}

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A uniformly random permutation board (reachable or not).
pub fn random_board(shape: Shape, rng: &mut impl Rng) -> Board {
    let mut t: Vec<u8> = (0..shape.cells() as u8).collect();
    t.shuffle(rng);
    Board::from_tiles(shape.rows, shape.cols, &t).unwrap()
}

/// A random walk of `k` blank moves from `from`.
pub fn random_walk(from: &Board, k: usize, rng: &mut impl Rng) -> Board {
    let mut b = from.clone();
    let mut done = 0;
    while done < k {
        let d = Dir::ALL[rng.gen_range(0..4)];
        if b.apply(d) {
            done += 1;
        }
    }
    b
}
