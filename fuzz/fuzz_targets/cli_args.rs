//! See `npuzzle_fuzz::cli_args` for what this target checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::cli_args::check(data));
