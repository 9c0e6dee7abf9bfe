//! The parser's tests: every format, size inference, bad text, pairs.

use super::*;

fn tiles(text: &str, size: Option<Shape>) -> (usize, usize, Vec<u8>) {
    let b = parse_board(text, size).unwrap();
    (b.rows(), b.cols(), b.tiles().to_vec())
}

const SEED: [u8; 9] = [2, 8, 3, 1, 6, 4, 7, 0, 5];

#[test]
fn every_format_of_the_seed_board() {
    for text in [
        "2 8 3 1 6 4 7 0 5",
        "2,8,3,1,6,4,7,0,5",
        "2, 8, 3, 1, 6, 4, 7, 0, 5\n",
        "2 8 3\n1 6 4\n7 0 5\n",
        "2 8 3\r\n1 6 4\r\n7 0 5",
        "283164705",
        "2831647_5",
        "283164 7.5",
        "283/164/705",
        "2 8 3/1 6 4/7 0 5",
        "2 8 3 / 1 6 4 / 7 _ 5",
        "[[2,8,3],[1,6,4],[7,0,5]]",
        "[2, 8, 3, 1, 6, 4, 7, 0, 5]",
        "  2 8 3 1 6 4 7 . 5  ",
    ] {
        if text == "283164 7.5" {
            // mixed digit string and loose tokens is not a board
            assert!(parse_board(text, None).is_err(), "{text}");
            continue;
        }
        assert_eq!(tiles(text, None), (3, 3, SEED.to_vec()), "{text}");
    }
}

#[test]
fn size_inference() {
    assert_eq!(tiles("1 2 3 4/5 6 7 0", None).0, 2);
    assert_eq!(tiles("1234/5670", None).1, 4);
    assert_eq!(tiles("12345670", Some(Shape::new(2, 4))).1, 4);
    assert!(matches!(
        parse_board("1 2 3 4 5 6 7 0", None),
        Err(BoardError::CannotInferSize { count: 8 })
    ));
    assert!(matches!(
        parse_board("1 2 3 4/5 6 7 0", Some(Shape::new(4, 2))),
        Err(BoardError::RowsDisagreeWithSize { .. })
    ));
    assert!(matches!(
        parse_board("1 2 3/4 5/6 7 0", None),
        Err(BoardError::RaggedRows { row: 2, .. })
    ));
    // rows of different lengths are an error even when the count is square
    assert!(matches!(
        parse_board("1 2 3 4 5\n6 7 8 0", None),
        Err(BoardError::RaggedRows { row: 2, .. })
    ));
    assert!(matches!(
        parse_board("1 2 3 / 4 5 / 6 7 8 0", None),
        Err(BoardError::RaggedRows { row: 2, .. })
    ));
    // one number per line
    assert_eq!(tiles("1\n2\n3\n0\n", None).0, 2);
    let big: Vec<String> = (1..256).chain([0]).map(|t| t.to_string()).collect();
    assert_eq!(tiles(&big.join(" "), None).0, 16);
}

#[test]
fn bad_text() {
    assert!(matches!(parse_board("", None), Err(BoardError::Empty)));
    assert!(matches!(
        parse_board("1 2 x 0", None),
        Err(BoardError::BadToken { index: 3, .. })
    ));
    assert!(matches!(
        parse_board("1 2 3 4 5 6 7 8 99999999999", None),
        Err(BoardError::OutOfRange { value, .. }) if value == "99999999999"
    ));
    assert!(matches!(
        parse_board("1 2 3 4 5 6 7 8 9", None),
        Err(BoardError::NoBlank)
    ));
    assert!(matches!(
        parse_board("1 2 3 4 5 6 7 8 10", None),
        Err(BoardError::OutOfRange { value, .. }) if value == "10"
    ));
    assert!(matches!(
        parse_board("-1 2 3 0", None),
        Err(BoardError::BadToken { .. })
    ));
}

#[test]
fn stdin_pairs() {
    let six_lines = "2 8 3\n1 6 4\n7 0 5\n1 2 3\n8 0 4\n7 6 5\n";
    let (s, g) = Scan::new().pair(six_lines, None).unwrap();
    assert_eq!(s.tiles(), &SEED);
    assert_eq!(g.unwrap().tiles(), &[1, 2, 3, 8, 0, 4, 7, 6, 5]);
    let two_lines = "2 6 4 1 3 7 0 5 8\n8 1 5 7 3 6 4 0 2\n";
    let (s, g) = Scan::new().pair(two_lines, None).unwrap();
    assert_eq!(s.tiles()[0], 2);
    assert_eq!(g.unwrap().tiles()[0], 8);
    let (_, g) = Scan::new().pair("283164705\n123804765", None).unwrap();
    assert_eq!(g.unwrap().tiles()[3], 8);
    let (s, g) = Scan::new().pair("1 2 3 4 5 6 7 8 0", None).unwrap();
    assert_eq!(s.rows(), 3);
    assert!(g.is_none());
    // a whole 4x4 board on four lines is one board, not two 2x4 boards
    let (s, g) = Scan::new().pair("1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0", None).unwrap();
    assert_eq!(s.rows(), 4);
    assert!(g.is_none());
    // two 2x4 boards on four lines
    let (s, g) = Scan::new().pair("1 2 3 4\n5 6 7 0\n0 1 2 3\n4 5 6 7", None).unwrap();
    assert_eq!((s.rows(), s.cols()), (2, 4));
    assert!(g.is_some());
    // the error names the goal when the goal is the broken one
    let err = Scan::new().pair("2 8 3 1 6 4 7 0 5\n1 2 3 8 0 4 7 6 6", None).unwrap_err();
    assert!(err.to_string().starts_with("goal board"), "{err}");
}

#[test]
fn separate_numbers_stay_numbers() {
    // four numbers or more are tiles as written, not digit strings
    let e = parse_board("11 22 33 44", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "number 11 at row 1, column 1 is out of range: a 2x2 board has tiles 1..3 and the blank 0"
    );
    let e = Scan::new().pair("11 22 33 44", None).unwrap_err();
    assert!(
        e.to_string().starts_with("start board: number 11 at"),
        "{e}"
    );
    // a few digit strings on a line, or one per row, are still rows
    assert_eq!(tiles("283 164 705", None), (3, 3, SEED.to_vec()));
    assert_eq!(tiles("1234 5670", None).1, 4);
    assert_eq!(
        tiles("12\n34\n56\n70", None),
        (4, 2, vec![1, 2, 3, 4, 5, 6, 7, 0])
    );
}

#[test]
fn halves_too_small_for_boards_are_no_pair() {
    // one board with a repeated tile, not two boards of two tiles
    let e = Scan::new().pair("1 1 2 0", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "start board: tile 1 appears twice (row 1, column 1 and row 1, column 2)"
    );
    let e = Scan::new().pair("1 2 3 0 1 2", None).unwrap_err();
    assert!(e.to_string().contains("6 tiles"), "{e}");
    // two digit strings are still a pair
    let (_, g) = Scan::new().pair("1230 1203", None).unwrap();
    assert_eq!(g.unwrap().tiles(), &[1, 2, 0, 3]);
}

#[test]
fn shapes() {
    assert_eq!("3x4".parse::<Shape>().unwrap(), Shape::new(3, 4));
    assert_eq!("4".parse::<Shape>().unwrap(), Shape::new(4, 4));
    assert!("3x".parse::<Shape>().is_err());
    assert!("1x9".parse::<Shape>().is_err());
    // any size a Grid holds; a Board checks its own limit
    assert_eq!("17x17".parse::<Shape>().unwrap(), Shape::new(17, 17));
    assert!("5000x5000".parse::<Shape>().is_err());
}
