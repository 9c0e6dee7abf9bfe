//! Property tests: paths are legal and optimal-length, parsing round-trips,
//! parity agrees with reachability.

use npuzzle_testkit as common;

use npuzzle::board::{parse_board, Board, Shape};
use npuzzle::search::{self, Problem, SolveOptions};
use proptest::prelude::*;
use std::collections::HashMap;
use std::sync::OnceLock;

fn shape_strategy() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::new(2, 2)),
        Just(Shape::new(2, 3)),
        Just(Shape::new(3, 2)),
        Just(Shape::new(2, 4)),
        Just(Shape::new(3, 3)),
        Just(Shape::new(2, 5)),
    ]
}

/// A random permutation board of a random small shape.
fn board_strategy() -> impl Strategy<Value = Board> {
    shape_strategy().prop_flat_map(|s| {
        Just((0..s.cells() as u8).collect::<Vec<u8>>())
            .prop_shuffle()
            .prop_map(move |t| Board::from_tiles(s.rows, s.cols, &t).unwrap())
    })
}

fn pair_strategy() -> impl Strategy<Value = (Board, Board)> {
    shape_strategy().prop_flat_map(|s| {
        let perm = move || {
            Just((0..s.cells() as u8).collect::<Vec<u8>>())
                .prop_shuffle()
                .prop_map(move |t| Board::from_tiles(s.rows, s.cols, &t).unwrap())
        };
        (perm(), perm())
    })
}

fn any_board_strategy() -> impl Strategy<Value = Board> {
    (2usize..=16, 2usize..=16).prop_flat_map(|(r, c)| {
        Just((0..r * c).map(|x| x as u8).collect::<Vec<u8>>())
            .prop_shuffle()
            .prop_map(move |t| Board::from_tiles(r, c, &t).unwrap())
    })
}

/// Reachable sets of 2x2, 2x3 and 3x3 from their blank-last goals, by plain BFS.
type Distances = HashMap<Vec<u8>, u32>;

fn reachable(shape: Shape) -> &'static Distances {
    static SETS: OnceLock<Vec<(Shape, Distances)>> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        [Shape::new(2, 2), Shape::new(2, 3), Shape::new(3, 3)]
            .into_iter()
            .map(|s| (s, common::bfs_all(&Board::blank_last(s).unwrap())))
            .collect()
    });
    &sets.iter().find(|(s, _)| *s == shape).unwrap().1
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn returned_path_is_legal_reaches_the_goal_and_has_the_reported_length((start, goal) in pair_strategy()) {
        let problem = Problem::new(start.clone(), goal.clone()).unwrap();
        let opts = SolveOptions::default().with_path(true);
        let sol = search::solve(&problem, &opts).unwrap();
        match sol.moves {
            Some(m) => {
                let path = sol.path.unwrap();
                prop_assert_eq!(path.len() as u32, m);
                prop_assert!(search::verify_path(&start, &goal, &path));
            }
            None => {
                prop_assert!(!start.can_reach(&goal));
                prop_assert!(sol.path.is_none());
            }
        }
    }

    #[test]
    fn parse_of_format_is_the_board(b in any_board_strategy()) {
        let size = Some(b.shape());
        prop_assert_eq!(&parse_board(&b.to_row_string(), None).unwrap(), &b);
        prop_assert_eq!(&parse_board(&b.to_string(), None).unwrap(), &b);
        prop_assert_eq!(&parse_board(&b.to_flat_string(), size).unwrap(), &b);
        let commas = b.to_flat_string().replace(' ', ",");
        prop_assert_eq!(&parse_board(&commas, size).unwrap(), &b);
        if b.len() <= 10 {
            let digits: String = b.tiles().iter().map(|t| char::from(b'0' + t)).collect();
            prop_assert_eq!(&parse_board(&digits, size).unwrap(), &b);
        }
    }

    #[test]
    fn parity_agrees_with_reachability(b in board_strategy()) {
        if let Some(set) = [Shape::new(2, 2), Shape::new(2, 3), Shape::new(3, 3)]
            .into_iter()
            .find(|s| *s == b.shape())
            .map(reachable)
        {
            let goal = Board::blank_last(b.shape()).unwrap();
            prop_assert_eq!(b.can_reach(&goal), set.contains_key(b.tiles()));
        }
    }

    #[test]
    fn parsing_never_panics(text in "[0-9 ,/_.\\n\\[\\]x-]{0,60}") {
        let _ = parse_board(&text, None);
        let _ = npuzzle::Scan::new().pair(&text, None);
        let _ = parse_board(&text, Some(Shape::new(3, 3)));
    }
}
