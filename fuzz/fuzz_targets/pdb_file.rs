//! See `npuzzle_fuzz::pdb_file` for what this target checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::pdb_file::check(data));
