//! The properties the fuzz targets check, one module per target.
//!
//! Each module's `check` takes the fuzzer's bytes and panics (with the
//! input in the message) when a property fails. The repository's
//! `tests/fuzz_regressions.rs` includes these same files, so every crash
//! found and every file of the committed corpora is checked again by a
//! plain `cargo test`.

pub mod common;

/// The `npuzzle` command itself (the binary's `src/cli/`), for `cli_args`:
/// included here rather than moved into the library, which stays free of
/// the command line's crates. Its `plot` and `timely` parts are left out
/// (features this crate does not have).
/// The command itself, as `cli_args` runs it.
pub use npuzzle_cli as cli;

pub mod batch_lines;
pub mod board_text;
pub mod cli_args;
pub mod instance_file;
pub mod pdb_file;
pub mod space_checkpoint;

#[cfg(feature = "server")]
pub mod api_json;
