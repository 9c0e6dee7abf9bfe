//! The whole-space search (`npuzzle_space`) against the published
//! distributions and an independent plain BFS, on the local engine and
//! under timely (two workers in one process); checkpoints and refusals.
//!
//! The 3×4 cases take about a minute of CPU in the test profile and are
//! `#[ignore]`d: `cargo test --release -p npuzzle-space --test it -- --ignored space::`.

use npuzzle_testkit as common;
use npuzzle_testkit::published;

use common::bfs_all;
use npuzzle::{Board, Shape};
use npuzzle_space::{self as space, Checkpointing, Progress, Silent, SpaceError, SpaceOptions};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

fn opts(list: usize) -> SpaceOptions {
    SpaceOptions {
        metric: npuzzle::Metric::Stm,
        list,
        ..SpaceOptions::default()
    }
}

fn local(goal: &Board, list: usize) -> space::SpaceResult {
    space::analyze(goal, &opts(list), &Silent, &AtomicBool::new(false)).expect("search")
}

fn timely(goal: &Board, list: usize, workers: usize) -> space::SpaceResult {
    use space::cluster::{analyze, Cluster};
    use std::sync::Arc;
    analyze(
        goal,
        &opts(list),
        &Cluster::threads(workers),
        Arc::new(Silent),
        Arc::new(AtomicBool::new(false)),
    )
    .expect("timely search")
}

fn blank_corner(r: usize, c: usize) -> Board {
    Board::blank_first(Shape::new(r, c)).unwrap()
}

/// The local engine equals the published list, from both corner goals;
/// the total is (R·C)!/2.
fn check_published(r: usize, c: usize) -> space::SpaceResult {
    let want = published::distribution(&format!("{r}x{c}")).expect("a full list");
    let got = local(&blank_corner(r, c), 10);
    assert_eq!(got.counts, want, "{r}x{c} blank-first");
    assert_eq!(
        u128::from(got.total()),
        space::memory::positions(Shape::new(r, c)).unwrap()
    );
    assert_eq!(
        local(&Board::blank_last(Shape::new(r, c)).unwrap(), 0).counts,
        want,
        "{r}x{c} blank-last"
    );
    got
}

#[test]
fn small_boards_match_the_published_distributions() {
    for (r, c) in [(2, 2), (2, 3), (2, 4), (3, 3), (2, 5)] {
        check_published(r, c);
    }
    // a transposed board has the same distribution
    assert_eq!(
        local(&blank_corner(5, 2), 0).counts,
        published::distribution("2x5").unwrap()
    );
}

/// Histogram of a plain BFS over whole boards.
fn plain_bfs_histogram(goal: &Board) -> Vec<u64> {
    let dist = bfs_all(goal);
    let max = dist.values().copied().max().unwrap_or(0) as usize;
    let mut h = vec![0u64; max + 1];
    for &d in dist.values() {
        h[d as usize] += 1;
    }
    h
}

#[test]
fn eight_puzzle_from_three_blank_cells() {
    let corner = Board::blank_last(Shape::new(3, 3)).unwrap();
    let centre = Board::spiral(Shape::new(3, 3)).unwrap();
    let mid_side = board("1 2 3/4 5 6/7 0 8");
    assert_eq!(centre.blank(), 4);
    assert_eq!(mid_side.blank(), 7);
    for (goal, published) in [
        (&corner, None),
        (&centre, Some(published::other_blank_start("in centre"))),
        (&mid_side, Some(published::other_blank_start("mid-side"))),
    ] {
        let reference = plain_bfs_histogram(goal);
        let got = local(goal, 1000);
        assert_eq!(got.counts, reference, "goal {}", goal.to_row_string());
        if let Some((radius, count)) = published {
            assert_eq!((got.radius(), got.antipode_count()), (radius, count));
        }
        // the antipodes are exactly the boards the plain BFS puts farthest
        let dist = bfs_all(goal);
        let mut far: Vec<Vec<u8>> = dist
            .iter()
            .filter(|(_, &d)| d == got.radius())
            .map(|(b, _)| b.clone())
            .collect();
        let mut listed: Vec<Vec<u8>> = got.antipodes.iter().map(|b| b.tiles().to_vec()).collect();
        far.sort();
        listed.sort();
        assert_eq!(listed, far);
    }
    assert_eq!(
        local(&corner, 0).counts,
        published::distribution("3x3").unwrap()
    );
}

fn board(text: &str) -> Board {
    npuzzle::parse_board(text, None).expect("a board")
}

#[test]
fn antipodes_come_first_in_rank_order_and_are_bounded_by_list() {
    let goal = blank_corner(2, 5);
    let all = local(&goal, 100);
    assert_eq!(all.antipodes.len(), 2);
    let one = local(&goal, 1);
    assert_eq!(one.antipodes, all.antipodes[..1]);
    assert_eq!(local(&goal, 0).antipodes, vec![]);
}

#[test]
#[ignore = "about a minute of CPU in the test profile; cargo test --release -p npuzzle-space --test it -- --ignored space::"]
fn three_by_four_matches_the_published_distribution() {
    let got = check_published(3, 4);
    assert_eq!(got.radius(), 53);
}

#[test]
fn timely_with_two_workers_equals_the_local_run() {
    let goals = [
        Board::blank_last(Shape::new(3, 3)).unwrap(),
        Board::spiral(Shape::new(3, 3)).unwrap(),
        board("1 2 3/4 5 6/7 0 8"),
        blank_corner(2, 5),
        blank_corner(2, 2),
        blank_corner(2, 3),
    ];
    for goal in &goals {
        let want = local(goal, 50);
        for workers in [1, 2, 3] {
            assert_eq!(
                timely(goal, 50, workers),
                want,
                "{} on {workers} workers",
                goal.to_row_string()
            );
        }
    }
}

#[test]
#[ignore = "about a minute of CPU in the test profile; cargo test --release -p npuzzle-space --test it -- --ignored space::"]
fn timely_three_by_four_equals_the_published_distribution() {
    let got = timely(&blank_corner(3, 4), 20, 2);
    assert_eq!(got.counts, published::distribution("3x4").unwrap());
    assert_eq!(got, local(&blank_corner(3, 4), 20));
}

fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("space-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("a temporary directory")
}

/// Sets the cancel flag once a level has been expanded.
struct StopAfter<'a> {
    level: u32,
    cancel: &'a AtomicBool,
}

impl Progress for StopAfter<'_> {
    fn level_done(&self, level: u32, _found: u64) {
        if level == self.level {
            self.cancel.store(true, Ordering::Relaxed);
        }
    }
}

fn with_checkpoint(path: &std::path::Path, resume: bool) -> SpaceOptions {
    SpaceOptions {
        metric: npuzzle::Metric::Stm,
        list: 10,
        checkpoint: Some(Checkpointing {
            path: path.to_path_buf(),
            resume,
            every: Duration::ZERO,
        }),
        ..SpaceOptions::default()
    }
}

/// Runs 2×5 with checkpoints until level `stop` has been expanded and the
/// next level started, then cancels; returns the checkpoint's path.
fn interrupted_run(dir: &tempfile::TempDir, goal: &Board, stop: u32) -> PathBuf {
    let path = dir.path().join("ckpt");
    let cancel = AtomicBool::new(false);
    let err = space::analyze(
        goal,
        &with_checkpoint(&path, false),
        &StopAfter {
            level: stop,
            cancel: &cancel,
        },
        &cancel,
    )
    .expect_err("cancelled");
    match err {
        SpaceError::Cancelled { level, saved } => {
            assert_eq!((level, saved), (stop + 1, Some(stop + 1)));
        }
        e => panic!("{e}"),
    }
    path
}

#[test]
fn resuming_a_checkpoint_gives_the_uninterrupted_result() {
    let dir = temp_dir();
    let goal = blank_corner(2, 5);
    let want = local(&goal, 10);
    for stop in [0, 17, 40, 54] {
        let path = interrupted_run(&dir, &goal, stop);
        let cancel = AtomicBool::new(false);
        let got = space::analyze(&goal, &with_checkpoint(&path, true), &Silent, &cancel)
            .expect("resumed");
        assert_eq!(got, want, "resumed after level {stop}");
    }
}

#[test]
fn a_checkpoint_of_the_first_format_resumes_as_single_moves() {
    let dir = temp_dir();
    let goal = blank_corner(2, 5);
    let path = interrupted_run(&dir, &goal, 20);
    // version 1: no metric byte (after rows and columns), its own CRC
    let v2 = std::fs::read(&path).unwrap();
    let metric_at = 8 + 4 + 2;
    assert_eq!(v2[metric_at], 0, "single-tile");
    let mut v1: Vec<u8> = [&v2[..metric_at], &v2[metric_at + 1..v2.len() - 4]].concat();
    v1[8..12].copy_from_slice(&1u32.to_le_bytes());
    let crc = crc32fast::hash(&v1);
    v1.extend_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &v1).unwrap();
    let got = space::analyze(
        &goal,
        &with_checkpoint(&path, true),
        &Silent,
        &AtomicBool::new(false),
    )
    .expect("a version-1 checkpoint resumes");
    assert_eq!(got, local(&goal, 10));
}

#[test]
fn a_damaged_or_foreign_checkpoint_is_refused() {
    let dir = temp_dir();
    let goal = blank_corner(2, 5);
    let path = interrupted_run(&dir, &goal, 20);
    let good = std::fs::read(&path).unwrap();
    let resume = |bytes: &[u8], goal: &Board| {
        std::fs::write(&path, bytes).unwrap();
        space::analyze(
            goal,
            &with_checkpoint(&path, true),
            &Silent,
            &AtomicBool::new(false),
        )
    };
    let refused = |r: Result<space::SpaceResult, SpaceError>, what: &str| match r {
        Err(e @ SpaceError::BadCheckpoint { .. }) => {
            assert!(e.is_bad_input());
            let msg = e.to_string();
            assert!(msg.contains(what), "{msg}");
            assert!(msg.contains("ckpt"), "{msg}");
        }
        other => panic!("{what}: {other:?}"),
    };
    // one flipped bit in the words
    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x10;
    refused(resume(&flipped, &goal), "CRC-32");
    // a flipped checksum
    let mut crc = good.clone();
    let last = crc.len() - 1;
    crc[last] ^= 1;
    refused(resume(&crc, &goal), "CRC-32");
    // another level, every field after it shifted
    let mut level = good.clone();
    level[8 + 4 + 2 + 1 + 10] ^= 0x03;
    refused(resume(&level, &goal), "damaged");
    // truncated
    refused(resume(&good[..good.len() - 100], &goal), "bytes long");
    refused(resume(&good[..20], &goal), "truncated");
    // not a checkpoint
    refused(
        resume(b"hello, world", &goal),
        "not an npuzzle space checkpoint",
    );
    // another goal, another board
    refused(
        resume(&good, &Board::blank_last(Shape::new(2, 5)).unwrap()),
        "goal",
    );
    refused(resume(&good, &blank_corner(2, 4)), "2x5 board");
    // a consistent checksum over inconsistent contents
    let mut forged = good.clone();
    let body = forged.len() - 4;
    forged[body - 8] ^= 0b11;
    let crc = crc32fast::hash(&forged[..body]);
    forged[body..].copy_from_slice(&crc.to_le_bytes());
    refused(resume(&forged, &goal), "do not match its counts");
    // a missing file is an error of the environment, not a bad checkpoint
    std::fs::remove_file(&path).unwrap();
    let e = space::analyze(
        &goal,
        &with_checkpoint(&path, true),
        &Silent,
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(matches!(e, SpaceError::CheckpointRead { .. }), "{e}");
    // the intact file still resumes
    assert_eq!(resume(&good, &goal).unwrap(), local(&goal, 10));
}

#[test]
fn an_unwritable_checkpoint_is_an_error_with_the_path() {
    let dir = temp_dir();
    let path = dir.path().join("no-such-dir").join("ckpt");
    let e = space::analyze(
        &blank_corner(2, 3),
        &with_checkpoint(&path, false),
        &Silent,
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(matches!(e, SpaceError::CheckpointWrite { .. }), "{e}");
    assert!(!e.is_bad_input());
    assert!(e.to_string().contains("no-such-dir"), "{e}");
}

#[test]
fn sizes_that_do_not_fit_are_refused_with_the_figure() {
    let e = space::analyze(
        &blank_corner(3, 4),
        &SpaceOptions {
            metric: npuzzle::Metric::Stm,
            max_memory: 50_000_000,
            ..SpaceOptions::default()
        },
        &Silent,
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            SpaceError::TooBig {
                needed: 59_875_200,
                limit: 50_000_000,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("57.1 MiB"), "{e}");
    let e = space::analyze(
        &blank_corner(4, 4),
        &opts(1),
        &Silent,
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(e.to_string().contains("2.4 TiB"), "{e}");
    let e = space::analyze(
        &blank_corner(5, 5),
        &opts(1),
        &Silent,
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(matches!(e, SpaceError::TooBig { .. }), "{e}");
    // past 16 cells even an enormous limit is refused, for another reason
    let e = space::check_size(Shape::new(3, 6), u64::MAX).unwrap_err();
    assert!(matches!(e, SpaceError::TooManyCells { .. }), "{e}");
}

#[test]
fn a_cancelled_search_says_where_it_stopped() {
    let cancel = AtomicBool::new(true);
    let e = space::analyze(&blank_corner(2, 4), &opts(1), &Silent, &cancel).unwrap_err();
    assert!(
        matches!(
            e,
            SpaceError::Cancelled {
                level: 0,
                saved: None
            }
        ),
        "{e}"
    );
}

mod timely_checkpoints {
    use super::*;
    use space::cluster::{analyze, Cluster};
    use std::path::Path;
    use std::sync::Arc;

    struct StopAfterLevel {
        level: u32,
        cancel: Arc<AtomicBool>,
    }

    impl Progress for StopAfterLevel {
        fn level_done(&self, level: u32, _found: u64) {
            if level == self.level {
                self.cancel.store(true, Ordering::Relaxed);
            }
        }
    }

    fn run(
        goal: &Board,
        path: &Path,
        resume: bool,
        stop: Option<u32>,
    ) -> Result<space::SpaceResult, SpaceError> {
        let cancel = Arc::new(AtomicBool::new(false));
        let progress: Arc<dyn Progress + Send> = match stop {
            Some(level) => Arc::new(StopAfterLevel {
                level,
                cancel: Arc::clone(&cancel),
            }),
            None => Arc::new(Silent),
        };
        analyze(
            goal,
            &with_checkpoint(path, resume),
            &Cluster::threads(2),
            progress,
            cancel,
        )
    }

    fn part(path: &Path, i: usize) -> PathBuf {
        let mut s = path.as_os_str().to_owned();
        s.push(format!(".{i}-of-2"));
        PathBuf::from(s)
    }

    #[test]
    fn resuming_the_parts_gives_the_uninterrupted_result() {
        let dir = temp_dir();
        let path = dir.path().join("t");
        let goal = blank_corner(2, 5);
        let want = local(&goal, 10);
        for stop in [0, 30, 54] {
            match run(&goal, &path, false, Some(stop)) {
                Err(SpaceError::Cancelled { level, saved }) => {
                    assert_eq!((level, saved), (stop + 1, Some(stop + 1)));
                }
                other => panic!("{other:?}"),
            }
            assert!(part(&path, 0).exists() && part(&path, 1).exists());
            assert_eq!(
                run(&goal, &path, true, None).unwrap(),
                want,
                "after level {stop}"
            );
        }
    }

    #[test]
    fn parts_of_different_checkpoints_or_a_missing_part_are_refused() {
        let dir = temp_dir();
        let path = dir.path().join("t");
        let goal = blank_corner(2, 5);
        assert!(run(&goal, &path, false, Some(10)).is_err());
        let old = std::fs::read(part(&path, 1)).unwrap();
        assert!(run(&goal, &path, false, Some(20)).is_err());
        std::fs::write(part(&path, 1), &old).unwrap();
        let e = run(&goal, &path, true, None).unwrap_err();
        assert!(matches!(e, SpaceError::BadCheckpoint { .. }), "{e}");
        assert!(e.to_string().contains("not of one checkpoint"), "{e}");
        std::fs::remove_file(part(&path, 1)).unwrap();
        let e = run(&goal, &path, true, None).unwrap_err();
        assert!(matches!(e, SpaceError::CheckpointRead { .. }), "{e}");
        assert!(e.to_string().contains("t.1-of-2"), "{e}");
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// From any goal of a small board, the distribution is the plain
        /// BFS's, the total is (R·C)!/2, and every listed antipode lies at
        /// the radius.
        #[test]
        fn any_goal_matches_a_plain_bfs(
            shape in prop::sample::select(vec![(2usize, 3usize), (3, 2), (2, 4), (4, 2), (2, 2)]),
            keys in prop::collection::vec(any::<u32>(), 8),
        ) {
            let (r, c) = shape;
            let n = r * c;
            let mut tiles: Vec<u8> = (0..n as u8).collect();
            tiles.sort_by_key(|&t| keys[t as usize]);
            let goal = Board::from_tiles(r, c, &tiles).unwrap();
            let got = local(&goal, 3);
            prop_assert_eq!(&got.counts, &plain_bfs_histogram(&goal));
            prop_assert_eq!(u128::from(got.total()), space::memory::positions(goal.shape()).unwrap());
            let dist = bfs_all(&goal);
            for b in &got.antipodes {
                prop_assert_eq!(dist.get(b.tiles()).copied(), Some(got.radius()));
            }
        }
    }
}

/// The whole space in pushes from the blank-last goal.
fn local_mtm(r: usize, c: usize) -> space::SpaceResult {
    let opts = SpaceOptions {
        metric: npuzzle::Metric::Mtm,
        ..opts(0)
    };
    let goal = Board::blank_last(Shape::new(r, c)).unwrap();
    space::analyze(&goal, &opts, &Silent, &AtomicBool::new(false)).expect("local search")
}

#[test]
fn small_boards_in_pushes_match_the_published_distributions() {
    // In pushes the graph is not bipartite: the same two-bit search holds,
    // as every level is marked before the next one is found.
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5)] {
        let (lo, hi) = (r.min(c), r.max(c));
        let want = published::mtm_distribution(&format!("{lo}x{hi}")).expect("a published list");
        assert_eq!(local_mtm(r, c).counts, want, "{r}x{c}");
    }
    // the complete table of the core agrees, built apart
    let table = npuzzle::DistanceTable::build_in(Shape::new(3, 3), 8, npuzzle::Metric::Mtm);
    assert_eq!(table.histogram(), &local_mtm(3, 3).counts[..]);
}

#[test]
#[ignore = "heavy: two 239,500,800-position searches in pushes (about a minute each on two cores)"]
fn the_12_cell_boards_in_pushes_match_the_published_distributions() {
    for (r, c) in [(3, 4), (2, 6)] {
        let want = published::mtm_distribution(&format!("{r}x{c}")).unwrap();
        assert_eq!(local_mtm(r, c).counts, want, "{r}x{c}");
    }
}

#[test]
fn pushes_resume_from_checkpoints_and_run_on_timely() {
    use space::cluster::{analyze, Cluster};
    use std::sync::Arc;
    let mtm = npuzzle::Metric::Mtm;
    let goal = blank_corner(2, 5);
    let want = published::mtm_distribution("2x5").expect("a published list");
    let dir = temp_dir();
    let path = dir.path().join("ckpt");
    let in_pushes = |resume| SpaceOptions {
        metric: mtm,
        ..with_checkpoint(&path, resume)
    };
    // stopped after level 9, resumed: the published distribution
    let cancel = AtomicBool::new(false);
    let stop = StopAfter {
        level: 9,
        cancel: &cancel,
    };
    let e = space::analyze(&goal, &in_pushes(false), &stop, &cancel).expect_err("cancelled");
    assert!(
        matches!(
            e,
            SpaceError::Cancelled {
                saved: Some(10),
                ..
            }
        ),
        "{e}"
    );
    let got = space::analyze(&goal, &in_pushes(true), &Silent, &AtomicBool::new(false))
        .expect("resumed in pushes");
    assert_eq!(got.counts, want);
    // a checkpoint in pushes is not resumed as single moves
    let cancel = AtomicBool::new(false);
    let stop = StopAfter {
        level: 3,
        cancel: &cancel,
    };
    space::analyze(&goal, &in_pushes(false), &stop, &cancel).expect_err("cancelled");
    let e = space::analyze(
        &goal,
        &with_checkpoint(&path, true),
        &Silent,
        &AtomicBool::new(false),
    )
    .expect_err("another metric's checkpoint");
    let msg = e.to_string();
    assert!(
        msg.contains("it counts multi-tile moves, this search single-tile moves"),
        "{msg}"
    );
    assert!(e.is_bad_input());
    // two timely workers count pushes as the published lists do
    let opts = SpaceOptions {
        metric: mtm,
        ..opts(0)
    };
    for (r, c) in [(2, 4), (3, 3)] {
        let goal = Board::blank_last(Shape::new(r, c)).unwrap();
        let got = analyze(
            &goal,
            &opts,
            &Cluster::threads(2),
            Arc::new(Silent),
            Arc::new(AtomicBool::new(false)),
        )
        .expect("timely in pushes");
        let want = published::mtm_distribution(&format!("{r}x{c}")).unwrap();
        assert_eq!(got.counts, want, "{r}x{c}");
    }
}
