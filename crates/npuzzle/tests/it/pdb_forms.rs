//! The compact database form (half a byte per entry, `(d − md) / 2`, one
//! entry per region that exists) against an independent reference: a
//! 0-1 breadth-first search over concrete (group cells, blank cell)
//! states, where the blank moves freely through cells not held by the
//! group and swapping it with a group tile costs one. Every lookup must
//! equal the reference (zero-aware) or its minimum over the blank's cells
//! (not zero-aware), on every state of small boards.

use npuzzle::board::{Board, Shape};
use npuzzle::budget::{Budget, Clock};
use npuzzle::heuristic::pdb::{self, PdbOptions};
use std::collections::{HashMap, VecDeque};

/// Abstract distance of every (group cells, blank cell) state from the
/// goal's, by 0-1 BFS.
fn reference(shape: Shape, goal_cells: &[u8], goal_blank: u8) -> HashMap<(Vec<u8>, u8), u32> {
    let (rows, cols) = (shape.rows as i32, shape.cols as i32);
    let nbrs = |c: u8| {
        let (r, q) = (i32::from(c) / cols, i32::from(c) % cols);
        [(r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1)]
            .into_iter()
            .filter(move |&(a, b)| a >= 0 && a < rows && b >= 0 && b < cols)
            .map(move |(a, b)| (a * cols + b) as u8)
    };
    let mut dist = HashMap::new();
    let mut dq = VecDeque::new();
    let start = (goal_cells.to_vec(), goal_blank);
    dist.insert(start.clone(), 0u32);
    dq.push_back(start);
    while let Some((cells, blank)) = dq.pop_front() {
        let d = dist[&(cells.clone(), blank)];
        for e in nbrs(blank) {
            let (next, cost) = match cells.iter().position(|&c| c == e) {
                Some(i) => {
                    let mut c2 = cells.clone();
                    c2[i] = blank;
                    ((c2, e), 1)
                }
                None => ((cells.clone(), e), 0),
            };
            if dist.get(&next).is_none_or(|&old| old > d + cost) {
                dist.insert(next.clone(), d + cost);
                if cost == 0 {
                    dq.push_front(next);
                } else {
                    dq.push_back(next);
                }
            }
        }
    }
    dist
}

fn clock() -> Clock<'static> {
    static UNLIMITED: std::sync::OnceLock<Budget> = std::sync::OnceLock::new();
    Clock::new(UNLIMITED.get_or_init(Budget::unlimited))
}

fn check(goal: &Board, tiles: &[u8]) {
    let shape = goal.shape();
    let gpos = goal.positions();
    let cells: Vec<u8> = tiles.iter().map(|&t| gpos[usize::from(t)]).collect();
    let want = reference(shape, &cells, goal.blank() as u8);
    let opts = PdbOptions::default().with_cache(false);
    let za = pdb::load_or_build(goal, tiles, true, &opts, &(), &clock()).unwrap();
    let min = pdb::load_or_build(goal, tiles, false, &opts, &(), &clock()).unwrap();
    let mut least: HashMap<&[u8], u32> = HashMap::new();
    for ((c, blank), &d) in &want {
        assert_eq!(
            u32::from(za.get(c, usize::from(*blank))),
            d,
            "{shape} tiles {tiles:?} on {c:?}, blank {blank}"
        );
        let m = least.entry(c.as_slice()).or_insert(u32::MAX);
        *m = (*m).min(d);
    }
    for (c, blank) in want.keys() {
        assert_eq!(
            u32::from(min.get(c, usize::from(*blank))),
            least[c.as_slice()],
            "{shape} tiles {tiles:?} on {c:?} (minimum)"
        );
    }
    // every reachable placement and region was checked: the database
    // holds exactly that many entries (none wasted)
    let regions: std::collections::HashSet<_> = want
        .keys()
        .map(|(c, b)| (c.clone(), za_region(shape, c, *b)))
        .collect();
    assert_eq!(za.entries(), regions.len(), "{shape} {tiles:?}");
    assert_eq!(min.entries(), least.len(), "{shape} {tiles:?}");
    assert_eq!(za.clamped(), 0);
}

/// The lowest cell of the blank's region (free cells reachable without
/// crossing the group).
fn za_region(shape: Shape, cells: &[u8], blank: u8) -> u8 {
    let cols = shape.cols as u8;
    let n = shape.cells() as u8;
    let mut seen = vec![blank];
    let mut i = 0;
    while i < seen.len() {
        let c = seen[i];
        let mut next = vec![];
        if c % cols > 0 {
            next.push(c - 1);
        }
        if c % cols < cols - 1 {
            next.push(c + 1);
        }
        if c >= cols {
            next.push(c - cols);
        }
        if c + cols < n {
            next.push(c + cols);
        }
        for e in next {
            if !cells.contains(&e) && !seen.contains(&e) {
                seen.push(e);
            }
        }
        i += 1;
    }
    seen.into_iter().min().unwrap_or(blank)
}

#[test]
fn every_entry_equals_the_reference_on_3x3_and_2x4() {
    let s = Shape::new(3, 3);
    for goal in [Board::blank_last(s).unwrap(), Board::spiral(s).unwrap()] {
        for tiles in [
            &[1u8, 2, 3, 4][..],
            &[5, 6, 7, 8],
            &[2, 4, 6],
            &[1],
            &[1, 2, 3, 4, 5],
        ] {
            check(&goal, tiles);
        }
    }
    for s in [Shape::new(2, 4), Shape::new(4, 2)] {
        for goal in [
            Board::blank_last(s).unwrap(),
            Board::blank_first(s).unwrap(),
        ] {
            for tiles in [&[1u8, 2, 3][..], &[4, 5, 6, 7], &[1, 3, 5, 7]] {
                check(&goal, tiles);
            }
        }
    }
}

#[test]
fn every_entry_equals_the_reference_on_3x4() {
    let s = Shape::new(3, 4);
    check(&Board::blank_first(s).unwrap(), &[1, 2, 3, 4, 5]);
    check(&Board::blank_last(s).unwrap(), &[3, 6, 9, 10]);
}

/// Korf's instances (the first 25) with 7-8 in each form: every length as
/// in the file, every path replayed.
#[test]
#[ignore]
fn korf100_with_7_8_in_every_form() {
    use npuzzle::heuristic::pdb::BlankMode;
    use npuzzle::heuristic::HeuristicKind;
    use npuzzle::search::{self, Algorithm, Problem, SolveOptions};
    let text = include_str!("../../../../data/korf100.txt");
    let all = npuzzle_io::instances::parse(text, None).unwrap();
    let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("heavy-pdb");
    for blank in [
        BlankMode::Min,
        BlankMode::Auto,
        BlankMode::Regions,
        BlankMode::Bits,
    ] {
        let opts = SolveOptions::default()
            .with_algorithm(Algorithm::Idastar)
            .with_heuristic(HeuristicKind::Pdb)
            .with_pdb(
                PdbOptions::default()
                    .with_partition("7-8".parse().unwrap())
                    .with_blank(blank)
                    .with_dir(Some(dir.clone())),
            )
            .with_path(true);
        for inst in all.iter().take(25) {
            let p = Problem::new(inst.start.clone(), goal.clone()).unwrap();
            let sol = search::solve(&p, &opts).unwrap();
            assert_eq!(sol.moves, inst.length, "{blank:?} #{}", inst.number);
            assert!(search::verify_path(p.start(), &goal, &sol.path.unwrap()));
        }
    }
}

/// A 6-tile group on 5×5, zero-aware and not: the minimum database holds,
/// for every placement tried, the least of the zero-aware values over the
/// blank's cells; nothing is clamped.
#[test]
#[ignore]
fn five_by_five_six_tiles_zero_aware_against_the_minimum() {
    use rand::{seq::SliceRandom, SeedableRng};
    let goal = Board::blank_first(Shape::new(5, 5)).unwrap();
    let tiles = [1u8, 2, 5, 6, 7, 10];
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("heavy-pdb");
    let opts = PdbOptions::default().with_dir(Some(dir));
    let za = pdb::load_or_build(&goal, &tiles, true, &opts, &(), &clock()).unwrap();
    let min = pdb::load_or_build(&goal, &tiles, false, &opts, &(), &clock()).unwrap();
    assert_eq!(za.clamped() + min.clamped(), 0);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut cells: Vec<u8> = (0..25).collect();
    for _ in 0..20_000 {
        cells.shuffle(&mut rng);
        let placed = &cells[..6];
        let least = cells[6..]
            .iter()
            .map(|&b| za.get(placed, usize::from(b)))
            .min()
            .unwrap();
        assert_eq!(min.get(placed, usize::from(cells[6])), least, "{placed:?}");
    }
}
