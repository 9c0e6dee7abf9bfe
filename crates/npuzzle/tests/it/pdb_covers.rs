//! Partitions combined by their covers: never above the exact distance
//! (complete tables), never below the maximum over the same partitions,
//! the same value stepped along a walk as computed afresh, and IDA* with
//! it optimal.

use npuzzle_testkit as common;

use npuzzle::board::{Board, Shape};
use npuzzle::budget::Budget;
use npuzzle::heuristic::pdb::{BlankMode, Combine, CoverHeuristic, PdbHeuristic, PdbOptions};
use npuzzle::heuristic::{Heuristic, MaxOf, TableHooks};
use npuzzle::table::TableSet;

fn opts(first: &str, also: &[&str], blank: BlankMode) -> PdbOptions {
    PdbOptions::default()
        .with_partition(first.parse().unwrap())
        .with_also(also.iter().map(|p| p.parse().unwrap()).collect())
        .with_combine(Combine::Covers)
        .with_blank(blank)
        .with_cache(false)
}

/// Each partition alone, for the maximum to compare with.
fn alone(first: &str, blank: BlankMode) -> PdbHeuristic {
    let o = opts(first, &[], blank).with_combine(Combine::Max);
    PdbHeuristic::new(&goal_of(first), &o, &(), &Budget::unlimited()).unwrap()
}

fn goal_of(_: &str) -> Board {
    Board::blank_first(Shape::new(3, 3)).unwrap()
}

/// Every state of the 8-puzzle: the covers' value is admissible, at least
/// the partitions' maximum, and above it somewhere (groups of different
/// partitions combine).
#[test]
fn covers_are_admissible_and_beat_the_maximum_on_the_8_puzzle() {
    let goal = Board::blank_first(Shape::new(3, 3)).unwrap();
    // {1,2}, {3,4} of the first and {5,6}, {7,8} of the third make a
    // cover of their own
    let parts = ["1,2/3,4/5,6,7,8", "1,3/2,4/5,6,7,8", "1,2,3,4/5,6/7,8"];
    for blank in [BlankMode::Min, BlankMode::Regions] {
        let o = opts(parts[0], &parts[1..], blank);
        let h = CoverHeuristic::<16, 64>::load(&goal, &o, &(), &Budget::unlimited()).unwrap();
        assert!(h.covers() > parts.len(), "{} covers", h.covers());
        let each: Vec<PdbHeuristic> = parts.iter().map(|p| alone(p, blank)).collect();
        let set = TableSet::global();
        let (mut above, mut n) = (0, 0);
        for b in common::all_boards(goal.shape()) {
            let Some(d) = set.distance(goal.shape(), b.tiles(), goal.tiles()) else {
                continue;
            };
            let v = h.estimate(b.tiles());
            let max = each.iter().map(|e| e.estimate(b.tiles())).max().unwrap();
            assert!(v <= d, "{}: {v} > {d}", b.to_row_string());
            assert!(v >= max, "{}: {v} < {max}", b.to_row_string());
            above += usize::from(v > max);
            n += 1;
        }
        assert_eq!(n, 181_440);
        assert!(above > 0, "{blank:?}: never above the maximum");
    }
}

/// Along a random walk on the 15-puzzle (one-bit databases, which need
/// each lookup's value one move before), the stepped value equals a fresh
/// one, is at least the maximum over the partitions, and a bounded step
/// that stops early still says the node is pruned.
#[test]
fn stepped_values_agree_with_fresh_ones_on_4x4() {
    let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
    let parts = [
        "4-4-4-3",
        "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15",
        "1,4,5/2,3,6,7/8,9,12,13/10,11,14,15",
    ];
    let o = opts(parts[0], &parts[1..], BlankMode::Bits);
    let h = CoverHeuristic::<16, 64>::load(&goal, &o, &(), &Budget::unlimited()).unwrap();
    let max = MaxOf(alone4(parts[0]), MaxOf(alone4(parts[1]), alone4(parts[2])));
    let mut r = common::rng(3);
    let mut b = goal.clone();
    let mut s = h.init(b.tiles());
    let mut sm = max.init(b.tiles());
    for i in 0..4000 {
        let b2 = common::random_walk(&b, 1, &mut r);
        let (from, to) = (b2.blank(), b.blank());
        let tile = b2.tiles()[to];
        let limit = (i % 40) as u32;
        let bounded = h.update_bounded(&s, b2.tiles(), tile, from, to, limit);
        s = h.update(&s, b2.tiles(), tile, from, to);
        sm = max.update(&sm, b2.tiles(), tile, from, to);
        let fresh = h.init(b2.tiles());
        assert_eq!(h.value(&s), h.value(&fresh), "{}", b2.to_row_string());
        assert!(h.value(&s) >= max.value(&sm));
        assert_eq!(h.value(&bounded) > limit, h.value(&s) > limit);
        assert_eq!(h.tie(&s), h.tie(&fresh));
        b = b2;
    }
}

fn alone4(p: &str) -> PdbHeuristic {
    let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
    let o = opts(p, &[], BlankMode::Bits).with_combine(Combine::Max);
    PdbHeuristic::new(&goal, &o, &(), &Budget::unlimited()).unwrap()
}

/// The covers counted independently: every set of the groups (and their
/// transposes) that holds each tile once, found by trying every subset.
#[test]
fn the_covers_are_every_exact_cover() {
    let goal = Board::blank_first(Shape::new(3, 3)).unwrap();
    let parts = ["1,2/3,4/5,6,7,8", "1,3/2,4/5,6,7,8", "1,2,3,4/5,6/7,8"];
    let o = opts(parts[0], &parts[1..], BlankMode::Min);
    let h = CoverHeuristic::<16, 64>::load(&goal, &o, &(), &Budget::unlimited()).unwrap();
    // the transpose of tile t's goal cell holds tile mt(t)
    let mt = |t: u32| (t % 3) * 3 + t / 3;
    let mut sets: Vec<u32> = Vec::new();
    for p in parts {
        for g in p.split('/') {
            let tiles: Vec<u32> = g.split(',').map(|t| t.parse().unwrap()).collect();
            for m in [
                tiles.iter().fold(0, |m, &t| m | 1 << t),
                tiles.iter().fold(0, |m, &t| m | 1 << mt(t)),
            ] {
                if !sets.contains(&m) {
                    sets.push(m);
                }
            }
        }
    }
    let all = 0b1_1111_1110u32;
    let covers = (0u32..1 << sets.len())
        .filter(|pick| {
            let chosen: Vec<u32> = (0..sets.len())
                .filter(|i| pick >> i & 1 == 1)
                .map(|i| sets[i])
                .collect();
            chosen.iter().fold(0, |m, &s| m | s) == all
                && chosen.iter().map(|s| s.count_ones()).sum::<u32>() == 8
        })
        .count();
    assert_eq!(h.covers(), covers);
}

/// IDA* with partitions combined by their covers finds the optimal length
/// (the complete tables') on boards that reflect and boards that do not,
/// on one thread and two, with and without the dual lookups.
#[test]
fn ida_with_covers_is_optimal() {
    use npuzzle::heuristic::HeuristicKind;
    use npuzzle::search::{self, Algorithm, Problem, SolveOptions};
    let set = TableSet::global();
    let mut r = common::rng(21);
    for (shape, parts) in [
        (
            Shape::new(3, 3),
            &["1,2/3,4/5,6,7,8", "1,3/2,4/5,6,7,8", "1,2,3,4/5,6/7,8"][..],
        ),
        (
            Shape::new(2, 4),
            &["3-4", "1,2,5/3,4,6,7", "1,2/3,4,5,6,7"][..],
        ),
    ] {
        let goal = common::random_board(shape, &mut r);
        for (threads, dual) in [(1, false), (2, false), (1, true)] {
            let blank = if dual {
                BlankMode::Regions
            } else {
                BlankMode::Bits
            };
            let o = SolveOptions::default()
                .with_algorithm(Algorithm::Idastar)
                .with_heuristic(HeuristicKind::Pdb)
                .with_pdb(opts(parts[0], &parts[1..], blank).with_dual(dual))
                .with_threads(threads)
                .with_path(true);
            let mut n = 0;
            while n < 40 {
                let start = common::random_board(shape, &mut r);
                let Some(d) = set.distance(shape, start.tiles(), goal.tiles()) else {
                    continue;
                };
                let p = Problem::new(start, goal.clone()).unwrap();
                let sol = search::solve(&p, &o).unwrap();
                let path = sol.path.unwrap();
                assert!(search::verify_path(p.start(), p.goal(), &path));
                assert_eq!(sol.moves, Some(d), "{shape} threads {threads} dual {dual}");
                assert_eq!(path.len() as u32, d);
                n += 1;
            }
        }
    }
}

/// Four partitions are maxed unless covers are asked for; more are
/// combined by their covers unless the maximum is asked for, which is
/// refused.
#[test]
fn the_combination_follows_the_count() {
    let goal = Board::blank_first(Shape::new(3, 3)).unwrap();
    let four = ["4-4", "2-3-3", "3-5", "1-7"];
    let o = opts(four[0], &four[1..], BlankMode::Min);
    assert!(o.by_covers());
    assert!(!o.clone().with_combine(Combine::Auto).by_covers());
    let five = opts("4-4", &["2-3-3", "3-5", "1-7", "2-2-2-2"], BlankMode::Min)
        .with_combine(Combine::Auto);
    assert!(five.by_covers());
    let label = npuzzle::heuristic::pdb::PdbLayout::resolve(&goal, &five)
        .unwrap()
        .label();
    assert!(
        label.ends_with("and 4 more partitions, by their covers"),
        "{label}"
    );
    let err = npuzzle::heuristic::pdb::PdbLayout::resolve(&goal, &five.with_combine(Combine::Max));
    assert!(matches!(
        err,
        Err(npuzzle::heuristic::pdb::PdbError::TooManyPartitions(5))
    ));
}
