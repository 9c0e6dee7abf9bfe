//! `instance_file`: any text as a benchmark instance file
//! (`npuzzle_io::instances::parse`).
//!
//! The input is a selector byte (the size given, [`super::common::SIZES`])
//! and the file's text. Checked: nothing panics; instances are numbered
//! 1, 2, … on strictly increasing lines of the file; every start is a
//! board of the size given (when one is) whose flat string reads back as
//! itself; an error message is free of raw control characters.

use super::board_text::round_trip;
use super::common::{assert_short, size, split};
use npuzzle::board::parse_board;
use npuzzle_io::instances::parse;

/// Runs every check on the fuzzer's bytes.
pub fn check(data: &[u8]) {
    let (selector, rest) = split(data);
    let size = size(selector);
    let text = String::from_utf8_lossy(rest);
    let text = text.as_ref();
    match parse(text, size) {
        Ok(instances) => {
            let lines = text.lines().count();
            let mut last_line = 0;
            for (i, inst) in instances.iter().enumerate() {
                assert_eq!(inst.number, i + 1, "{text:?}");
                assert!(
                    inst.line > last_line && inst.line <= lines,
                    "instance {} on line {} of {lines} ({text:?})",
                    inst.number,
                    inst.line
                );
                last_line = inst.line;
                if let Some(s) = size {
                    assert_eq!(inst.start.shape(), s, "{text:?}");
                }
                let flat = inst.start.to_flat_string();
                assert_eq!(
                    parse_board(&flat, Some(inst.start.shape())).as_ref(),
                    Ok(&inst.start),
                    "{flat:?} from {text:?}"
                );
                round_trip(&inst.start, text);
            }
        }
        Err(e) => assert_short("instances::parse", &e.to_string(), &text),
    }
}
