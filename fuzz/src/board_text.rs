//! `board_text`: any text as a board, a start and goal, or a problem.
//!
//! The input is a selector byte and text: the selector's low three bits
//! pick the size given ([`super::common::SIZES`]), the next two a goal given
//! apart (none, `blank-first`, `spiral`, or the text after the first 0xFF
//! byte, read as a goal name or board). Checked:
//!
//! * nothing panics;
//! * every board read formats back (`to_flat_string`, `to_row_string`,
//!   `Display`) to text that reads as the same board;
//! * a start and goal read together format back as `START | GOAL` and read
//!   the same;
//! * `problem_from_text` answers exactly what `Scan::start_and_goal` and the
//!   goal given apart imply (the same boards, or the same error);
//! * a scanner reused across inputs answers what a fresh one does;
//! * every error message is free of raw control characters.

use super::common::{assert_short, size, split};
use npuzzle::board::{parse_board, GoalSpec, InputError, Scan, Shape};
use npuzzle::{Board, Problem};
use npuzzle_io::input::problem_from_text;
use std::cell::RefCell;

thread_local! {
    /// One scanner for every input, as the batch runner keeps one per
    /// worker: its buffers must not leak from one text into the next.
    static SCAN: RefCell<Scan> = RefCell::new(Scan::new());
}

/// Runs every check on the fuzzer's bytes.
pub fn check(data: &[u8]) {
    let (selector, rest) = split(data);
    let size = size(selector);
    let (start_bytes, goal_bytes) = match rest.iter().position(|&b| b == 0xFF) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let text = String::from_utf8_lossy(start_bytes);
    let text = text.as_ref();

    match parse_board(text, size) {
        Ok(b) => {
            if let Some(s) = size {
                // A size that disagrees with the rows is an error, so a
                // board read with a size has that size.
                assert_eq!(b.shape(), s, "{text:?} read with size {s}");
            }
            round_trip(&b, text);
        }
        Err(e) => assert_short("parse_board", &e.to_string(), &text),
    }

    match Scan::new().pair(text, size) {
        Ok((s, g)) => {
            round_trip(&s, text);
            if let Some(g) = &g {
                round_trip(g, text);
                assert_eq!(s.shape(), g.shape(), "{text:?}");
            }
        }
        Err(e) => assert_short("Scan::pair", &e.to_string(), &text),
    }

    let fresh = Scan::new().start_and_goal(text, size);
    let reused = SCAN.with(|s| s.borrow_mut().start_and_goal(text, size));
    assert_eq!(fresh, reused, "a reused scanner differs on {text:?}");
    match &fresh {
        Ok((s, g)) => {
            round_trip(s, text);
            if let Some(g) = g {
                round_trip(g, text);
                pair_round_trip(s, g, text);
            }
        }
        Err(e) => assert_short("start_and_goal", &e.to_string(), &text),
    }

    // The goal given apart: none, a name, or the text after 0xFF.
    let goal_text = goal_bytes.map(String::from_utf8_lossy);
    let spec: Option<Result<GoalSpec, _>> = match (selector >> 3) & 3 {
        0 => None,
        1 => Some(Ok(GoalSpec::BlankFirst)),
        2 => Some(Ok(GoalSpec::Spiral)),
        _ => goal_text.as_deref().map(str::parse),
    };
    let spec = match spec {
        None => None,
        Some(Ok(spec)) => Some(spec),
        Some(Err(e)) => {
            assert_short("GoalSpec", &e.to_string(), &goal_text);
            None
        }
    };

    let got = problem_from_text(text, spec.as_ref(), size);
    let want = expected_problem(&fresh, spec.as_ref());
    assert_eq!(got, want, "problem_from_text({text:?}, {spec:?}, {size:?})");
    match &got {
        Ok(p) => {
            assert_eq!(p.start().shape(), p.goal().shape());
            round_trip(p.start(), text);
            round_trip(p.goal(), text);
        }
        Err(e) => assert_short("problem_from_text", &e.to_string(), &text),
    }
}

/// What `problem_from_text` must answer, from `start_and_goal`'s reading
/// and the goal given apart.
fn expected_problem(
    read: &Result<(Board, Option<Board>), InputError>,
    spec: Option<&GoalSpec>,
) -> Result<Problem, InputError> {
    let (start, inline) = read.clone()?;
    let goal = match (inline, spec) {
        (Some(_), Some(_)) => return Err(InputError::GoalGivenTwice),
        (Some(g), None) => g,
        (None, Some(spec)) => spec.resolve_for(&start, &mut Scan::new())?,
        (None, None) => Board::blank_last(start.shape()).map_err(InputError::goal)?,
    };
    Problem::new(start, goal)
}

/// A board formatted every way reads back as itself.
pub fn round_trip(b: &Board, input: &str) {
    let shape = b.shape();
    let forms = [
        (b.to_flat_string(), Some(shape)),
        (b.to_row_string(), None),
        (b.to_row_string(), Some(shape)),
        (b.to_string(), None),
    ];
    for (text, size) in forms {
        match parse_board(&text, size) {
            Ok(again) => assert_eq!(&again, b, "{text:?} (from {input:?})"),
            Err(e) => panic!("{text:?} (from {input:?}) does not read back: {e}"),
        }
    }
    if shape.rows == shape.cols {
        let flat = b.to_flat_string();
        assert_eq!(parse_board(&flat, None).as_ref(), Ok(b), "{flat:?}");
    }
}

/// A start and goal read together read back from `START | GOAL`.
fn pair_round_trip(s: &Board, g: &Board, input: &str) {
    let shape: Shape = s.shape();
    let mut forms = vec![(
        format!("{} | {}", s.to_row_string(), g.to_row_string()),
        None,
    )];
    // A goal written flat takes its shape from its own tile count when
    // that is a square (the size given is the start's), so only a square
    // board, or one whose count is not a square, reads back written flat.
    let n = shape.cells();
    let square_count = (2..=16).any(|k| k * k == n);
    if shape.rows == shape.cols || !square_count {
        forms.push((
            format!("{} | {}", s.to_flat_string(), g.to_flat_string()),
            Some(shape),
        ));
    }
    for (text, size) in forms {
        let again = Scan::new().start_and_goal(&text, size);
        assert_eq!(
            again,
            Ok((s.clone(), Some(g.clone()))),
            "{text:?} (from {input:?})"
        );
    }
}
