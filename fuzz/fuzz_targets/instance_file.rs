//! See `npuzzle_fuzz::instance_file` for what this target checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::instance_file::check(data));
