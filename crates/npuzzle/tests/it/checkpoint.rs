//! IDA*'s checkpoints: a search stopped again and again and resumed each
//! time ends with the answer, the node count and the iterations of one
//! never stopped; a damaged, truncated or mismatched file is refused and
//! left as it is.

use npuzzle_testkit as common;

use npuzzle::board::{Board, Shape};
use npuzzle::budget::Budget;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{self, Algorithm, ErrorKind, Problem, SearchError, Solution, SolveOptions};
use npuzzle::{verify_path, Checkpointing};
use std::path::Path;
use std::time::Duration;

fn opts(h: HeuristicKind, threads: usize) -> SolveOptions {
    SolveOptions::default()
        .with_algorithm(Algorithm::Idastar)
        .with_heuristic(h)
        .with_threads(threads)
        .with_path(true)
}

/// `p` solved in slices of `slice` nodes: each run stops on its node
/// budget (leaving its checkpoint) and the next resumes it.
fn in_slices(p: &Problem, o: &SolveOptions, path: &Path, slice: u64) -> (Solution, usize) {
    let mut resume = false;
    for runs in 1.. {
        let c = Checkpointing::new(path, Duration::ZERO).resuming(resume);
        let budget = Budget::default().with_max_nodes(slice * runs as u64);
        let o = o.clone().with_checkpoint(Some(c)).with_budget(budget);
        match search::solve(p, &o) {
            Ok(sol) => return (sol, runs),
            Err(e @ SearchError::Budget { .. }) => {
                assert!(path.exists(), "a stopped search leaves its checkpoint: {e}");
                resume = true;
            }
            Err(e) => panic!("run {runs}: {e}"),
        }
        assert!(runs < 10_000, "no end in sight");
    }
    unreachable!()
}

#[test]
fn a_search_stopped_and_resumed_again_and_again_ends_as_one_never_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ida.ckpt");
    let mut rng = common::rng(41);
    // 3×3 against a complete BFS, 4×4 against IDA* run through
    for (shape, walk, h) in [
        (Shape::new(3, 3), 80, HeuristicKind::Manhattan),
        (Shape::new(3, 3), 80, HeuristicKind::Misplaced),
        (Shape::new(4, 4), 50, HeuristicKind::Manhattan),
        (Shape::new(4, 4), 60, HeuristicKind::LinearConflict),
    ] {
        let goal = Board::blank_last(shape).unwrap();
        let dist = (shape.cells() == 9).then(|| common::reference::bfs_all(&goal));
        for _ in 0..3 {
            let start = common::random_walk(&goal, walk, &mut rng);
            let p = Problem::new(start.clone(), goal.clone()).unwrap();
            let o = opts(h, 1);
            let whole = search::solve(&p, &o).unwrap();
            if let Some(d) = &dist {
                assert_eq!(whole.moves, d.get(start.tiles()).copied(), "{start}");
            }
            let slice = (whole.stats.expanded / 7).max(1);
            let (sol, runs) = in_slices(&p, &o, &path, slice);
            let what = format!("{h:?} from {start}, {runs} runs of {slice} nodes");
            assert!(runs >= 2 || whole.stats.expanded <= slice, "{what}");
            assert_eq!(sol.moves, whole.moves, "{what}");
            assert_eq!(sol.stats.expanded, whole.stats.expanded, "{what}");
            assert_eq!(sol.stats.generated, whole.stats.generated, "{what}");
            assert_eq!(sol.iterations, whole.iterations, "{what}");
            assert!(
                verify_path(&start, &goal, sol.path.as_deref().unwrap()),
                "{what}"
            );
            assert_eq!(sol.path, whole.path, "{what}");
            assert!(!path.exists(), "a finished search removes its checkpoint");
        }
    }
}

/// A checkpoint of a search of `start` stopped after 2000 nodes.
fn stopped_checkpoint(path: &Path, start: &Board) -> SolveOptions {
    let goal = Board::blank_last(start.shape()).unwrap();
    let p = Problem::new(start.clone(), goal).unwrap();
    let o = opts(HeuristicKind::Manhattan, 1);
    let c = Checkpointing::new(path, Duration::ZERO);
    let budget = Budget::default().with_max_nodes(2000);
    let e = search::solve(&p, &o.clone().with_checkpoint(Some(c)).with_budget(budget));
    assert!(matches!(e, Err(SearchError::Budget { .. })), "{e:?}");
    o
}

#[test]
fn a_damaged_truncated_or_mismatched_checkpoint_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ida.ckpt");
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    let start = common::random_walk(&goal, 300, &mut common::rng(7));
    let o = stopped_checkpoint(&path, &start);
    let good = std::fs::read(&path).unwrap();
    let resume = |p: &Problem, o: &SolveOptions| {
        let c = Checkpointing::new(&path, Duration::ZERO).resuming(true);
        search::solve(p, &o.clone().with_checkpoint(Some(c)))
    };
    let p = Problem::new(start.clone(), goal.clone()).unwrap();
    let refused = |bytes: &[u8], p: &Problem, o: &SolveOptions, says: &str| {
        std::fs::write(&path, bytes).unwrap();
        let e = resume(p, o).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
        assert!(e.to_string().contains(says), "{e}");
        assert!(e.to_string().contains(&path.display().to_string()), "{e}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{e}: the file was changed"
        );
    };
    refused(&good[..good.len() - 3], &p, &o, "truncated");
    refused(&good[..good.len() / 2], &p, &o, "truncated");
    let mut flipped = good.clone();
    let at = good.len() / 2;
    flipped[at] = if flipped[at] == b'7' { b'8' } else { b'7' };
    refused(&flipped, &p, &o, "checksum");
    refused(b"hello\n", &p, &o, "does not begin with");
    // another start, goal, heuristic
    let other = common::random_walk(&goal, 301, &mut common::rng(8));
    let q = Problem::new(other, goal.clone()).unwrap();
    refused(&good, &q, &o, "its start is");
    let near = common::random_walk(&goal, 1, &mut common::rng(8));
    let q = Problem::new(start.clone(), near).unwrap();
    refused(&good, &q, &o, "its goal is");
    refused(
        &good,
        &p,
        &opts(HeuristicKind::LinearConflict, 1),
        "its heuristic is manhattan",
    );
    // what is left resumes
    std::fs::write(&path, &good).unwrap();
    let sol = resume(&p, &o).unwrap();
    assert_eq!(sol.moves, search::solve(&p, &o).unwrap().moves);
    // no file at all
    let e = resume(&p, &o).unwrap_err();
    assert!(e.to_string().contains("cannot read checkpoint"), "{e}");
}

#[test]
fn a_checkpoint_that_cannot_be_written_fails_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-dir").join("ida.ckpt");
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    let start = common::random_walk(&goal, 60, &mut common::rng(9));
    let p = Problem::new(start, goal).unwrap();
    let c = Checkpointing::new(&path, Duration::from_secs(60));
    let e = search::solve(
        &p,
        &opts(HeuristicKind::Manhattan, 1).with_checkpoint(Some(c)),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Environment, "{e}");
    assert!(e.to_string().contains("cannot write checkpoint"), "{e}");
}

#[test]
fn searches_that_keep_no_checkpoint_refuse_one() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    let start = common::random_walk(&goal, 30, &mut common::rng(10));
    let p = Problem::new(start, goal).unwrap();
    let c = Checkpointing::new(dir.path().join("c"), Duration::from_secs(60));
    let o = SolveOptions::default()
        .with_algorithm(Algorithm::Astar)
        .with_checkpoint(Some(c));
    let e = search::solve(&p, &o).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
    assert!(
        e.to_string().contains("checkpoints are kept by IDA*"),
        "{e}"
    );
}

#[test]
fn a_parallel_search_stopped_and_resumed_ends_with_the_fewest_moves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("par.ckpt");
    let mut rng = common::rng(43);
    let goal = Board::blank_last(Shape::new(3, 4)).unwrap();
    let mut tried = 0;
    for _ in 0..40 {
        let start = common::random_board(goal.shape(), &mut rng);
        let p = Problem::new(start.clone(), goal.clone()).unwrap();
        let serial = search::solve(&p, &opts(HeuristicKind::Manhattan, 1)).unwrap();
        // boards with subtrees to share out
        if !(20_000..2_000_000).contains(&serial.stats.expanded) {
            continue;
        }
        tried += 1;
        if tried > 4 {
            break;
        }
        let o = opts(HeuristicKind::Manhattan, 2);
        let slice = (serial.stats.expanded / 6).max(1);
        let (sol, runs) = in_slices(&p, &o, &path, slice);
        let what = format!("from {start}, {runs} runs of {slice} nodes");
        assert!(runs >= 2, "{what}");
        assert_eq!(sol.moves, serial.moves, "{what}");
        assert!(
            verify_path(&start, &goal, sol.path.as_deref().unwrap()),
            "{what}"
        );
        let bounds = |s: &Solution| s.iterations.iter().map(|i| i.bound).collect::<Vec<_>>();
        assert_eq!(bounds(&sol), bounds(&serial), "{what}");
        assert!(
            !path.exists(),
            "{what}: a finished search removes its checkpoint"
        );
    }
    assert!(tried >= 4, "{tried} boards");
}

#[test]
fn a_serial_checkpoint_is_not_resumed_on_several_threads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ida.ckpt");
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    let start = common::random_walk(&goal, 300, &mut common::rng(7));
    stopped_checkpoint(&path, &start);
    let p = Problem::new(start, goal).unwrap();
    let c = Checkpointing::new(&path, Duration::ZERO).resuming(true);
    let e = search::solve(
        &p,
        &opts(HeuristicKind::Manhattan, 2).with_checkpoint(Some(c)),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("its search is serial, this search's is parallel"),
        "{e}"
    );
}
