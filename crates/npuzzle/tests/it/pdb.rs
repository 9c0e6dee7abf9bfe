//! Pattern databases: admissible against the complete tables, at least
//! Manhattan, and a cache that survives damage and races.

use npuzzle_testkit as common;

use npuzzle::board::{Board, Shape};
use npuzzle::budget::{Budget, Clock};
use npuzzle::heuristic::pdb::{self, store, BlankMode, PdbHeuristic, PdbOptions, PdbReporter};
use npuzzle::heuristic::{Heuristic, Manhattan, TableHooks};
use npuzzle::table::TableSet;
use std::sync::Mutex;

/// A clock with no limits, for building outside a search.
fn clock() -> Clock<'static> {
    static UNLIMITED: std::sync::OnceLock<Budget> = std::sync::OnceLock::new();
    Clock::new(UNLIMITED.get_or_init(Budget::unlimited))
}

fn mem_opts(partition: &str) -> PdbOptions {
    PdbOptions::default()
        .with_partition(partition.parse().unwrap())
        .with_cache(false)
}

fn mode_opts(partition: &str, blank: BlankMode) -> PdbOptions {
    mem_opts(partition).with_blank(blank)
}

/// Walks `steps` random moves from `start`, and for each calls `each` with
/// the board after it and the move: `tile` went from `from` to `to` (where
/// the blank was).
fn walk(
    start: &Board,
    steps: usize,
    r: &mut impl rand::Rng,
    mut each: impl FnMut(&Board, u8, usize, usize),
) {
    let mut b = start.clone();
    for _ in 0..steps {
        let b2 = common::random_walk(&b, 1, r);
        let (from, to) = (b2.blank(), b.blank());
        each(&b2, b2.tiles()[to], from, to);
        b = b2;
    }
}

/// Every reachable state of `goal`'s board: PDB ≤ exact distance, PDB ≥
/// Manhattan; also checks that incremental updates equal a fresh evaluation
/// along random walks.
fn check_admissible(goal: &Board, partition: &str) {
    let min = check_mode(goal, partition, BlankMode::Min);
    let regions = check_mode(goal, partition, BlankMode::Regions);
    // zero-aware values are never weaker than the minimum over regions
    assert!(
        regions >= min,
        "{partition}: zero-aware {regions} < min {min}"
    );
}

/// Checks one blank mode; returns the sum of estimates over all states.
fn check_mode(goal: &Board, partition: &str, blank: BlankMode) -> u64 {
    let shape = goal.shape();
    let h = PdbHeuristic::new(
        goal,
        &mode_opts(partition, blank),
        &(),
        &Budget::unlimited(),
    )
    .unwrap();
    let mut total = 0u64;
    let md = Manhattan::new(goal);
    let set = TableSet::global();
    let mut exact_hits = 0;
    let mut checked = 0;
    for b in common::all_boards(shape) {
        let Some(d) = set.distance(shape, b.tiles(), goal.tiles()) else {
            continue;
        };
        let v = h.estimate(b.tiles());
        total += u64::from(v);
        assert!(
            v <= d,
            "{partition} {blank:?}: h={v} > d={d} for {}",
            b.to_row_string()
        );
        assert!(v >= md.estimate(b.tiles()), "{partition}: below Manhattan");
        exact_hits += usize::from(v == d);
        checked += 1;
    }
    assert_eq!(checked, common::all_boards(shape).len() / 2);
    assert!(exact_hits > 0);
    // incremental == fresh
    let mut r = common::rng(3);
    let mut b = goal.clone();
    let mut st = h.init(b.tiles());
    for _ in 0..2000 {
        let before = b.clone();
        let b2 = common::random_walk(&b, 1, &mut r);
        let from = b2.blank(); // the tile moved from the new blank cell...
        let to = before.blank(); // ...into the old one
        let tile = b2.tiles()[to];
        // the two-pass update (where to read found first) agrees
        let touched = h.touch(&st, tile, from, to);
        let st2 = h.update_touched(&st, &touched, &[], tile, from, to, u32::MAX);
        st = h.update(&st, b2.tiles(), tile, from, to);
        assert_eq!(h.value(&st), h.estimate(b2.tiles()));
        assert_eq!(h.value(&st2), h.value(&st));
        b = b2;
    }
    total
}

/// Zero-aware databases kept at one bit an entry give the same values as
/// their nibbles: at a position met fresh (found by a walk to the goal) and
/// one move after another (from the bit), also through `touch`.
fn check_bits_equal_regions(goal: &Board, partition: &str) {
    let new = |blank| {
        PdbHeuristic::new(
            goal,
            &mode_opts(partition, blank),
            &(),
            &Budget::unlimited(),
        )
        .unwrap()
    };
    let (regions, bits) = (new(BlankMode::Regions), new(BlankMode::Bits));
    assert!(bits.databases().iter().all(|db| db.compact()));
    assert!(regions.databases().iter().all(|db| !db.compact()));
    let bytes = |h: &PdbHeuristic| h.databases().iter().map(|db| db.bytes()).sum::<u64>();
    assert!(bytes(&bits) * 4 <= bytes(&regions) + 4 * 8);
    let mut r = common::rng(7);
    // positions reached by walks of every length from the goal (so
    // solvable), up to far past the databases' largest values
    let fresh = (0..400).map(|i| common::random_walk(goal, i % 80, &mut r));
    for b in fresh {
        assert_eq!(
            bits.estimate(b.tiles()),
            regions.estimate(b.tiles()),
            "{partition} goal {}: {}",
            goal.to_row_string(),
            b.to_row_string()
        );
    }
    let (mut sb, mut sr) = (bits.init(goal.tiles()), regions.init(goal.tiles()));
    walk(goal, 3000, &mut r, |b2, tile, from, to| {
        let touched = bits.touch(&sb, tile, from, to);
        let via_touch = bits.update_touched(&sb, &touched, &[], tile, from, to, u32::MAX);
        sb = bits.update(&sb, b2.tiles(), tile, from, to);
        sr = regions.update(&sr, b2.tiles(), tile, from, to);
        assert_eq!(
            bits.value(&sb),
            regions.value(&sr),
            "{}",
            b2.to_row_string()
        );
        assert_eq!(bits.value(&via_touch), bits.value(&sb));
    });
}

#[test]
fn one_bit_databases_give_the_zero_aware_values() {
    let s = Shape::new(3, 3);
    for goal in [
        Board::blank_last(s).unwrap(),
        Board::blank_first(s).unwrap(),
        Board::from_tiles(3, 3, &[3, 0, 7, 1, 8, 2, 6, 5, 4]).unwrap(),
    ] {
        for partition in ["4-4", "3-5", "2-3-3", "8"] {
            check_bits_equal_regions(&goal, partition);
        }
    }
    for s in [Shape::new(2, 4), Shape::new(4, 2), Shape::new(3, 4)] {
        let mut r = common::rng(11);
        for goal in [
            Board::blank_first(s).unwrap(),
            common::random_board(s, &mut r),
        ] {
            let partition = if s.cells() == 12 { "5-6" } else { "3-4" };
            check_bits_equal_regions(&goal, partition);
        }
    }
}

#[test]
fn one_bit_databases_refuse_the_dual_lookups() {
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let opts = mode_opts("4-4", BlankMode::Bits).with_dual(true);
    let err = PdbHeuristic::new(&goal, &opts, &(), &Budget::unlimited())
        .err()
        .unwrap();
    // the library's message names no command-line flag
    let text = err.to_string();
    assert!(
        text.contains("dual lookups") && !text.contains("--"),
        "{err}"
    );
}

#[test]
fn admissible_on_3x3_for_several_partitions_and_goals() {
    let s = Shape::new(3, 3);
    let goals = [
        Board::blank_last(s).unwrap(),
        Board::spiral(s).unwrap(),
        Board::from_tiles(3, 3, &[3, 0, 7, 1, 8, 2, 6, 5, 4]).unwrap(),
    ];
    for goal in &goals {
        for partition in ["4-4", "3-5", "2-3-3", "8", "1-1-1-1-1-1-1-1"] {
            check_admissible(goal, partition);
        }
    }
    check_admissible(&goals[0], "1,5,6/2,3,4,7,8");
}

#[test]
fn admissible_on_2x4_and_4x2() {
    for s in [Shape::new(2, 4), Shape::new(4, 2)] {
        for goal in [
            Board::blank_last(s).unwrap(),
            Board::blank_first(s).unwrap(),
        ] {
            for partition in ["4-3", "3-4", "2-2-3", "7"] {
                check_admissible(&goal, partition);
            }
        }
    }
}

#[test]
fn whole_board_database_is_exact() {
    // One group of all tiles: the database is the complete distance table.
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let h = PdbHeuristic::new(&goal, &mem_opts("8"), &(), &Budget::unlimited()).unwrap();
    let set = TableSet::global();
    for b in common::all_boards(goal.shape()).iter().step_by(7) {
        if let Some(d) = set.distance(goal.shape(), b.tiles(), goal.tiles()) {
            assert_eq!(h.estimate(b.tiles()), d);
        }
    }
}

#[test]
fn reflection_only_where_the_goal_allows_it() {
    let s = Shape::new(4, 4);
    let korf = Board::blank_first(s).unwrap();
    let h = PdbHeuristic::new(&korf, &mem_opts("5-5-5"), &(), &Budget::unlimited()).unwrap();
    assert!(h.reflects());
    assert!(h.label().contains("reflection"));
    let off = Board::spiral(s).unwrap();
    assert!(!pdb::reflection_applies(&off));
    assert!(!pdb::reflection_applies(
        &Board::blank_last(Shape::new(3, 4)).unwrap()
    ));
    // the reflected bound is admissible too: never above the table on 3x3
    check_admissible(&Board::blank_last(Shape::new(3, 3)).unwrap(), "3-5");
}

#[derive(Default)]
struct Notes(Mutex<Vec<String>>);

impl PdbReporter for Notes {
    fn note(&self, msg: &str) {
        self.0.lock().unwrap().push(msg.to_string());
    }
}

fn disk_opts(dir: &std::path::Path) -> PdbOptions {
    PdbOptions::default()
        .with_partition("4-4".parse().unwrap())
        .with_dir(Some(dir.to_path_buf()))
}

#[test]
fn cache_detects_damage_and_rebuilds() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let tiles = [1u8, 2, 3, 4];
    let fresh_db =
        pdb::load_or_build(&goal, &tiles, true, &mem_opts("4-4"), &(), &clock()).unwrap();
    let entries = fresh_db.entries() as u64;
    let fresh: Vec<u8> = common::all_boards(goal.shape())
        .iter()
        .map(|b| {
            let pos = b.positions();
            fresh_db.get(&tiles.map(|t| pos[usize::from(t)]), b.blank())
        })
        .collect();
    let key = store::Key {
        rows: 3,
        cols: 3,
        goal: goal.tiles().to_vec(),
        tiles: tiles.to_vec(),
        regions: true,
    };
    let file = || dir.path().join(key.file_name());
    let lookup_all = |db: &pdb::PatternDb| -> Vec<u8> {
        common::all_boards(goal.shape())
            .iter()
            .map(|b| {
                let pos = b.positions();
                db.get(&tiles.map(|t| pos[usize::from(t)]), b.blank())
            })
            .collect()
    };
    // first build writes the file
    pdb::load_or_build(&goal, &tiles, true, &disk_opts(dir.path()), &(), &clock()).unwrap();
    assert!(file().exists());
    let good = std::fs::read(file()).unwrap();
    let damages: Vec<(&str, Vec<u8>)> = vec![
        ("corrupt", {
            let mut b = good.clone();
            let i = b.len() - 100;
            b[i] ^= 0x55;
            b
        }),
        ("truncated", good[..good.len() / 2].to_vec()),
        ("longer", [&good[..], &[0]].concat()),
        ("another goal", {
            let other = store::Key {
                rows: 3,
                cols: 3,
                goal: vec![0, 1, 2, 3, 4, 5, 6, 7, 8],
                tiles: tiles.to_vec(),
                regions: true,
            };
            let d = tempfile::tempdir().unwrap();
            let contents = store::load(dir.path(), &key, entries).unwrap();
            let p = store::save(d.path(), &other, &contents).unwrap();
            std::fs::read(p).unwrap()
        }),
        ("the previous format", {
            // version 2 kept a byte per entry: the version says so
            let mut b = good.clone();
            b[8..12].copy_from_slice(&2u32.to_le_bytes());
            b
        }),
    ];
    // read whole, and packed to one bit an entry as it is read
    for blank in [BlankMode::Regions, BlankMode::Bits] {
        let opts = disk_opts(dir.path()).with_blank(blank);
        for (what, bytes) in &damages {
            std::fs::write(file(), bytes).unwrap();
            pdb::forget_loaded();
            let notes = Notes::default();
            let db = pdb::load_or_build(&goal, &tiles, true, &opts, &notes, &clock()).unwrap();
            let notes = notes.0.into_inner().unwrap();
            assert_eq!(notes.len(), 1, "{blank:?} {what}: {notes:?}");
            assert!(notes[0].contains("rebuilding"), "{what}: {notes:?}");
            assert_eq!(db.compact(), blank == BlankMode::Bits);
            assert_eq!(lookup_all(&db), fresh, "{blank:?} {what}");
            // and the file is whole again
            assert_eq!(std::fs::read(file()).unwrap(), good, "{what}");
        }
        // the whole file loads without a note
        pdb::forget_loaded();
        let notes = Notes::default();
        let db = pdb::load_or_build(&goal, &tiles, true, &opts, &notes, &clock()).unwrap();
        assert!(notes.0.into_inner().unwrap().is_empty());
        assert_eq!(lookup_all(&db), fresh, "{blank:?}");
    }
}

#[test]
fn two_builders_at_once_leave_a_whole_file() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Board::blank_last(Shape::new(2, 4)).unwrap();
    let key = store::Key {
        rows: 2,
        cols: 4,
        goal: goal.tiles().to_vec(),
        tiles: vec![1, 2, 3, 4, 5],
        regions: false,
    };
    // The store checks framing and checksum, not the values: any bytes of
    // the right count do (5 tiles on 8 cells: 8!/3! entries, two a byte).
    let data = store::Contents {
        data: (0..3360u32).map(|i| (i % 23) as u8).collect(),
        entries: 6720,
        max: 20,
        clamped: 0,
    };
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..20 {
                    store::save(dir.path(), &key, &data).unwrap();
                }
            });
            s.spawn(|| {
                for _ in 0..20 {
                    match store::load(dir.path(), &key, data.entries) {
                        Ok(d) => assert_eq!(d, data),
                        Err(store::LoadError::Missing) => {}
                        Err(e) => panic!("reader saw a torn file: {e}"),
                    }
                }
            });
        }
    });
    assert_eq!(store::load(dir.path(), &key, data.entries).unwrap(), data);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "temporary files left"
    );
}

mod search_with_pdb {
    use super::*;
    use npuzzle::heuristic::HeuristicKind;
    use npuzzle::search::{self, Algorithm, Problem, SolveOptions};

    fn opts(partition: &str, threads: usize) -> SolveOptions {
        SolveOptions::default()
            .with_algorithm(Algorithm::Idastar)
            .with_heuristic(HeuristicKind::Pdb)
            .with_pdb(mem_opts(partition))
            .with_threads(threads)
            .with_path(true)
    }

    /// IDA* with linear conflict, the independent answer.
    fn lc() -> SolveOptions {
        SolveOptions::default()
            .with_algorithm(Algorithm::Idastar)
            .with_heuristic(HeuristicKind::LinearConflict)
    }

    fn solve_len(p: &Problem, o: &SolveOptions) -> u32 {
        let sol = search::solve(p, o).unwrap();
        let path = sol.path.unwrap();
        assert!(search::verify_path(p.start(), p.goal(), &path));
        assert_eq!(path.len() as u32, sol.moves.unwrap());
        sol.moves.unwrap()
    }

    #[test]
    fn optimal_against_the_tables_on_3x3_and_2x4() {
        let set = TableSet::global();
        let mut r = common::rng(11);
        for (shape, partition) in [
            (Shape::new(3, 3), "4-4"),
            (Shape::new(3, 3), "2-3-3"),
            (Shape::new(2, 4), "3-4"),
            (Shape::new(4, 2), "auto"),
        ] {
            for _ in 0..3 {
                let goal = common::random_board(shape, &mut r);
                for threads in [1, 2] {
                    let o = opts(partition, threads);
                    let mut n = 0;
                    while n < 60 {
                        let start = common::random_board(shape, &mut r);
                        let Some(d) = set.distance(shape, start.tiles(), goal.tiles()) else {
                            continue;
                        };
                        let p = Problem::new(start, goal.clone()).unwrap();
                        assert_eq!(solve_len(&p, &o), d, "{shape} {partition}");
                        n += 1;
                    }
                }
            }
        }
    }

    #[test]
    fn agrees_with_linear_conflict_on_3x4() {
        let shape = Shape::new(3, 4);
        let mut r = common::rng(12);
        for goal in [
            Board::blank_last(shape).unwrap(),
            Board::blank_first(shape).unwrap(),
            Board::spiral(shape).unwrap(),
        ] {
            for _ in 0..8 {
                let start = common::random_walk(&goal, 40, &mut r);
                let p = Problem::new(start, goal.clone()).unwrap();
                let want = search::solve(&p, &lc()).unwrap().moves.unwrap();
                assert_eq!(solve_len(&p, &opts("auto", 1)), want);
                assert_eq!(solve_len(&p, &opts("6-5", 2)), want);
            }
        }
    }

    /// The Korf instances that IDA* with Manhattan distance solved fastest.
    fn easy_korf() -> Vec<(Board, u32)> {
        let text = include_str!("../../../../data/korf100.txt");
        let mut v = npuzzle_io::instances::parse(text, None).unwrap();
        v.sort_by_key(|i| i.extra.first().copied().unwrap_or(u64::MAX));
        v.into_iter()
            .take(4)
            .map(|i| (i.start, i.length.unwrap()))
            .collect()
    }

    #[test]
    fn agrees_with_linear_conflict_on_easy_korf_instances() {
        let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
        for (start, length) in easy_korf() {
            let p = Problem::new(start, goal.clone()).unwrap();
            let want = search::solve(&p, &lc()).unwrap().moves.unwrap();
            assert_eq!(want, length);
            assert_eq!(solve_len(&p, &opts("5-5-5", 1)), want);
            assert_eq!(solve_len(&p, &opts("5-5-5", 3)), want);
        }
    }
}

/// `Plan::prepare` builds every partition the plan runs into the cache
/// (so a benchmark's clock times searches alone); nothing for a plan with
/// no databases.
#[test]
fn a_plan_prepares_its_databases_ahead() {
    use npuzzle::heuristic::HeuristicKind;
    use npuzzle::search::{plan, Algorithm, SolveOptions};
    use npuzzle::Problem;
    let dir = tempfile::tempdir().unwrap();
    let goal = Board::blank_last(Shape::new(3, 3)).unwrap();
    let start = goal.moved(npuzzle::Dir::Up).unwrap();
    let problem = Problem::new(start, goal.clone()).unwrap();
    let files = || std::fs::read_dir(dir.path()).unwrap().count();
    let opts = SolveOptions::default()
        .with_algorithm(Algorithm::Idastar)
        .with_heuristic(HeuristicKind::Pdb)
        .with_pdb(disk_opts(dir.path()).with_also(vec!["2-2-2-2".parse().unwrap()]));
    let p = plan(&problem, &opts).unwrap();
    p.prepare(&goal, &opts).unwrap();
    // 4-4 and 2-2-2-2: six databases
    assert_eq!(files(), 6);
    let manhattan = SolveOptions::default()
        .with_algorithm(Algorithm::Idastar)
        .with_heuristic(HeuristicKind::Manhattan)
        .with_pdb(disk_opts(dir.path()));
    plan(&problem, &manhattan)
        .unwrap()
        .prepare(&goal, &manhattan)
        .unwrap();
    assert_eq!(files(), 6);
}

/// The 16-cell form of the heuristic (a smaller node state) says what the
/// wide form says: the same values and the same tie-breaks, at fresh
/// positions and along a walk through `update` and through `touch`, on a
/// 4×4 goal that reflects and one that does not; and the planner's check
/// keeps it to the boards and partitions it holds.
#[test]
fn the_narrow_form_agrees_with_the_wide_one() {
    let k = Board::blank_first(Shape::new(4, 4)).unwrap();
    let last = Board::blank_last(Shape::new(4, 4)).unwrap();
    for (goal, partition) in [(&k, "4-4-4-3"), (&last, "4-4-4-3"), (&k, "5-5-5")] {
        let opts = mode_opts(partition, BlankMode::Bits);
        let wide = PdbHeuristic::new(goal, &opts, &(), &Budget::unlimited()).unwrap();
        let narrow = PdbHeuristic::<16, 4>::load(goal, &opts, &(), &Budget::unlimited()).unwrap();
        let mut r = common::rng(11);
        for i in 0..300 {
            let b = common::random_walk(goal, i % 90, &mut r);
            assert_eq!(narrow.estimate(b.tiles()), wide.estimate(b.tiles()));
        }
        let (mut sn, mut sw) = (narrow.init(goal.tiles()), wide.init(goal.tiles()));
        walk(goal, 3000, &mut r, |b2, tile, from, to| {
            let touched = narrow.touch(&sn, tile, from, to);
            let via_touch = narrow.update_touched(&sn, &touched, &[], tile, from, to, u32::MAX);
            sn = narrow.update(&sn, b2.tiles(), tile, from, to);
            sw = wide.update(&sw, b2.tiles(), tile, from, to);
            assert_eq!(narrow.value(&sn), wide.value(&sw), "{}", b2.to_row_string());
            assert_eq!(narrow.value(&via_touch), narrow.value(&sn));
            assert_eq!(narrow.tie(&sn), wide.tie(&sw));
            assert_eq!(narrow.tie(&via_touch), narrow.tie(&sn));
            // the tie-break's first key is the tiles' Manhattan distance
            let fresh = narrow.init(b2.tiles());
            assert_eq!(narrow.tie(&fresh), narrow.tie(&sn));
            assert_eq!(
                narrow.tie(&sn) >> 16,
                Manhattan::new(goal).estimate(b2.tiles())
            );
        });
    }
    let five = Board::blank_first(Shape::new(5, 5)).unwrap();
    let fits = |goal: &Board, p: &str| PdbHeuristic::<16, 4>::fits(goal, &mem_opts(p)).unwrap();
    assert!(fits(&k, "6-6-3"));
    assert!(!fits(&k, "3-3-3-3-3"), "five groups");
    assert!(!fits(&five, "6-6-6-6"));
    let fits32 = |p: &str, also: &str| {
        let o = mem_opts(p).with_also(vec![also.parse().unwrap()]);
        PdbHeuristic::<32, 8>::fits(&five, &o).unwrap()
    };
    assert!(fits32("6-6-6-6", "4-4-4-4-4-4"));
    assert!(fits32("6-6-6-6", "3-3-3-3-3-3-3-3"));
    assert!(
        !fits32("6-6-6-6", "3-3-3-3-3-3-2-2-2"),
        "the second partition has nine groups"
    );
}

/// The 32-cell form says what the wide form says on the 24-puzzle,
/// along a walk through `touch` (6×6 is left to the wide form).
#[test]
fn the_32_cell_form_agrees_on_5x5() {
    let goal = Board::blank_first(Shape::new(5, 5)).unwrap();
    let opts = mode_opts("4-4-4-4-4-4", BlankMode::Bits);
    let wide = PdbHeuristic::new(&goal, &opts, &(), &Budget::unlimited()).unwrap();
    let mid = PdbHeuristic::<32, 8>::load(&goal, &opts, &(), &Budget::unlimited()).unwrap();
    let mut r = common::rng(5);
    let (mut sm, mut sw) = (mid.init(goal.tiles()), wide.init(goal.tiles()));
    walk(&goal, 2000, &mut r, |b2, tile, from, to| {
        sm = if mid.touches() {
            let touched = mid.touch(&sm, tile, from, to);
            mid.update_touched(&sm, &touched, &[], tile, from, to, u32::MAX)
        } else {
            mid.update(&sm, b2.tiles(), tile, from, to)
        };
        sw = wide.update(&sw, b2.tiles(), tile, from, to);
        assert_eq!(mid.value(&sm), wide.value(&sw), "{}", b2.to_row_string());
        assert_eq!(mid.tie(&sm), wide.tie(&sw));
        assert_eq!(mid.value(&sm), mid.estimate(b2.tiles()));
    });
    let six = Board::blank_first(Shape::new(6, 6)).unwrap();
    assert!(!PdbHeuristic::<32, 8>::fits(&six, &mem_opts("5-5-5-5-5-5-5")).unwrap());
}
