//! See `npuzzle_fuzz::api_json` for what this target checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| npuzzle_fuzz::api_json::check(data));
