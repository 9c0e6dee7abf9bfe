//! See `npuzzle_fuzz::space_checkpoint` for what this target checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::space_checkpoint::check(data));
