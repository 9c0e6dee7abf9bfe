//! See `npuzzle_fuzz::batch_lines` for what this target checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::batch_lines::check(data));
