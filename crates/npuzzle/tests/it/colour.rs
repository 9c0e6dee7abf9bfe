//! Colour databases for the multi-tile metric, checked against a plain
//! breadth-first search over colour arrangements written here, and against
//! true distances: every value of every 3×3 and 2×4 position is at most the
//! fewest moves, and the symmetric lookups agree on symmetric positions.

use npuzzle_testkit as common;

use common::reference::bfs_all_in;
use npuzzle::board::{Board, Metric, Shape};
use npuzzle::budget::Budget;
use npuzzle::heuristic::pdb::colour::{ColourHeuristic, Colouring, Packed};
use npuzzle::heuristic::pdb::{PartitionSpec, PdbOptions};
use std::collections::{HashMap, VecDeque};

fn opts(spec: &str) -> PdbOptions {
    PdbOptions::default()
        .with_cache(false)
        .with_partition(spec.parse().unwrap())
}

/// Distances of every colour arrangement reachable from `start` (0 is the
/// blank), pushes made one cell at a time.
fn abstract_bfs(start: Vec<u8>, rows: usize, cols: usize, metric: Metric) -> HashMap<Vec<u8>, u32> {
    let mut dist = HashMap::from([(start.clone(), 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(a) = queue.pop_front() {
        let d = dist[&a];
        let b = a.iter().position(|&c| c == 0).unwrap();
        let (r, c) = (b / cols, b % cols);
        for (dr, dc) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
            let mut cur = a.clone();
            let (mut rr, mut cc) = (r as i32, c as i32);
            loop {
                let (nr, nc) = (rr + dr, cc + dc);
                if nr < 0 || nc < 0 || nr >= rows as i32 || nc >= cols as i32 {
                    break;
                }
                cur.swap(
                    (rr as usize) * cols + cc as usize,
                    (nr as usize) * cols + nc as usize,
                );
                (rr, cc) = (nr, nc);
                if !dist.contains_key(&cur) {
                    dist.insert(cur.clone(), d + 1);
                    queue.push_back(cur.clone());
                }
                if metric == Metric::Stm {
                    break;
                }
            }
        }
    }
    dist
}

/// The colour of each tile: that of its goal cell under `cells`.
fn paint(b: &Board, goal: &Board, cells: &[u8]) -> Vec<u8> {
    let pos = goal.positions();
    b.tiles()
        .iter()
        .map(|&t| {
            if t == 0 {
                0
            } else {
                cells[usize::from(pos[usize::from(t)])]
            }
        })
        .collect()
}

/// `b` transposed, each tile renamed to the goal's tile on the transpose
/// of its goal cell.
fn transposed(b: &Board, goal: &Board) -> Board {
    let n = b.shape().rows;
    let pos = goal.positions();
    let tr = |x: usize| (x % n) * n + x / n;
    let mut tiles = vec![0u8; n * n];
    for (x, &t) in b.tiles().iter().enumerate() {
        tiles[tr(x)] = goal.tiles()[tr(usize::from(pos[usize::from(t)]))];
    }
    Board::from_tiles(n, n, &tiles).unwrap()
}

fn check(goal: &Board, spec: &str, cells: &[u8], metric: Metric) {
    let shape = goal.shape();
    let h = ColourHeuristic::load(goal, metric, &opts(spec), &Budget::default()).unwrap();
    let want = abstract_bfs(cells.to_vec(), shape.rows, shape.cols, metric);
    let truth = bfs_all_in(goal, metric);
    let square = shape.rows == shape.cols;
    let b0 = goal.blank();
    let diagonal = square && b0 % shape.cols == b0 / shape.cols;
    for (tiles, &d) in &truth {
        let b = Board::from_tiles(shape.rows, shape.cols, tiles).unwrap();
        let parts = h.parts(tiles);
        assert_eq!(
            parts[0],
            want[&paint(&b, goal, cells)],
            "{spec} {metric:?} {tiles:?}"
        );
        assert!(
            parts.iter().all(|&p| p <= d),
            "{spec} {metric:?} {tiles:?}: {parts:?} > {d}"
        );
        assert_eq!(h.value(tiles), *parts.iter().max().unwrap());
        if diagonal {
            let t = transposed(&b, goal);
            assert_eq!(truth[t.tiles()], d, "the transpose is as far");
            assert_eq!(h.value(t.tiles()), h.value(tiles), "{spec} {tiles:?}");
        }
    }
}

#[test]
fn values_are_the_colour_distances_and_never_exceed_the_true_ones() {
    let s33 = Shape::new(3, 3);
    // blank last, blank first, blank in the middle (every symmetry keeps it)
    let goals = [
        Board::blank_last(s33).unwrap(),
        Board::from_tiles(3, 3, &[0, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap(),
        Board::from_tiles(3, 3, &[1, 2, 3, 4, 0, 5, 6, 7, 8]).unwrap(),
    ];
    for goal in &goals {
        for metric in Metric::ALL {
            // rows: tiles 1-3, 4-6, 7-8 by goal cell
            let pos = goal.positions();
            let mut cells = vec![0u8; 9];
            let groups: [&[u8]; 3] = [&[1, 2, 3], &[4, 5, 6], &[7, 8]];
            let mut spec = Vec::new();
            for (g, tiles) in groups.iter().enumerate() {
                for &t in *tiles {
                    cells[usize::from(pos[usize::from(t)])] = g as u8 + 1;
                }
                let names: Vec<String> = tiles.iter().map(ToString::to_string).collect();
                spec.push(names.join(","));
            }
            check(goal, &spec.join("/"), &cells, metric);
        }
    }
    // 2×4, tiles left out of every group share a colour
    let goal = Board::blank_last(Shape::new(2, 4)).unwrap();
    let pos = goal.positions();
    let mut cells = vec![3u8; 8];
    cells[usize::from(pos[0])] = 0;
    for t in [1, 2] {
        cells[usize::from(pos[t])] = 1;
    }
    for t in [5, 6] {
        cells[usize::from(pos[t])] = 2;
    }
    for metric in Metric::ALL {
        check(&goal, "1,2/5,6", &cells, metric);
    }
}

#[test]
fn the_automatic_colouring_cuts_the_board_into_blocks_within_the_cap() {
    // the 15-puzzle: rows or quadrants, four colours, 252,252,000
    // arrangements; or (what is picked) four dominoes and the rest shared
    let c = Colouring::blocks(Shape::new(4, 4), 15, 1 << 28, false).unwrap();
    assert_eq!((c.colours(), c.entries()), (4, Some(252_252_000)));
    let c = Colouring::blocks(Shape::new(4, 4), 15, 1 << 28, true).unwrap();
    assert_eq!((c.colours(), c.entries()), (5, Some(259_459_200)));
    // smaller caps give coarser colourings, never over the cap
    for cap in [1_000u64, 100_000, 10_000_000] {
        let c = Colouring::blocks(Shape::new(4, 4), 0, cap, true).unwrap();
        assert!(c.entries().unwrap() <= cap, "{cap}");
    }
    assert!(Colouring::blocks(Shape::new(5, 5), 24, 1 << 28, false).is_none_or(|c| c.colours() < 4));
    // 5×5: only a few colours fit, the rest of the tiles share one
    let c = Colouring::blocks(Shape::new(5, 5), 24, 1 << 28, true).unwrap();
    assert!(
        c.entries().unwrap() <= 1 << 28 && c.colours() >= 3,
        "{}",
        c.label()
    );
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    let err = Colouring::resolve(&goal, &PartitionSpec::Auto, 10).unwrap_err();
    assert!(
        err.to_string().contains("arrangements") || err.to_string().contains("board"),
        "{err}"
    );
}

/// The packed words the search keeps (a step's two xors, a rank from four
/// digit reads and two table reads) give, along random walks, the value
/// of the walking ranker on the board itself: on 3×3 (the smallest board
/// they take), 3×4, 4×3 and 2×5, both metrics, with the transpose's
/// lookup where the goal has one.
#[test]
fn packed_words_follow_the_board_and_rank_as_the_walk() {
    let cases: [(Board, &str); 5] = [
        (
            Board::blank_last(Shape::new(3, 3)).unwrap(),
            "1,2,3/4,5,6/7,8",
        ),
        (
            Board::from_tiles(3, 3, &[0, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap(),
            "1,2/3,4,5/6,7,8",
        ),
        (
            Board::blank_last(Shape::new(3, 4)).unwrap(),
            "1,2,3/4,5,6/7,8/9,10,11",
        ),
        (
            Board::blank_last(Shape::new(4, 3)).unwrap(),
            "1,2,3,4/5,6,7/8,9,10,11",
        ),
        (
            Board::blank_last(Shape::new(2, 5)).unwrap(),
            "1,2/3,4,5/6,7,8,9",
        ),
    ];
    for (goal, spec) in &cases {
        for metric in Metric::ALL {
            let h = ColourHeuristic::load(goal, metric, &opts(spec), &Budget::default()).unwrap();
            match h.packed_lookups() {
                Some(1) => walk_packed(&h, h.packed::<1>().unwrap(), goal, spec, metric),
                Some(2) => walk_packed(&h, h.packed::<2>().unwrap(), goal, spec, metric),
                other => panic!("{spec}: {other:?} packed lookups"),
            }
        }
    }
}

/// A random walk from `goal`, its words stepped and checked against the
/// board's at each step, and their values against the walking ranker's.
fn walk_packed<const N: usize>(
    h: &ColourHeuristic,
    p: Packed<'_, N>,
    goal: &Board,
    spec: &str,
    metric: Metric,
) {
    let shape = goal.shape();
    let mut tiles = goal.tiles().to_vec();
    let mut words = p.words(&tiles);
    let mut blank = goal.blank();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for step in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (r, c) = (blank / shape.cols, blank % shape.cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(blank - shape.cols);
        }
        if r + 1 < shape.rows {
            next.push(blank + shape.cols);
        }
        if c > 0 {
            next.push(blank - 1);
        }
        if c + 1 < shape.cols {
            next.push(blank + 1);
        }
        let to = next[(x % next.len() as u64) as usize];
        let tile = tiles[to];
        tiles.swap(blank, to);
        p.step(&mut words, tile, to, blank);
        blank = to;
        assert_eq!(p.words(&tiles), words, "{spec} step {step}");
        let ranks = p.ranks(&words);
        let v = h.value(&tiles);
        assert_eq!(p.value(&ranks, u32::MAX), v, "{spec} {metric:?} {tiles:?}");
        if v > 0 {
            // a limit below the value: some part above it comes back
            assert!(p.value(&ranks, v - 1) > v - 1);
        }
    }
}
