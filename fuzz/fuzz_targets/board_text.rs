//! See `npuzzle_fuzz::board_text` for what this target checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::board_text::check(data));
