//! The `npuzzle` binary as the CLI tests run it: with its cache directory
//! (`XDG_CACHE_HOME`) under cargo's temporary folder for tests, so that no
//! test writes into the user's cache whatever the environment says.

#![allow(dead_code)]

use std::path::PathBuf;

/// `target/tmp/xdg-cache`: where spawned commands keep their caches.
pub fn test_cache_home() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xdg-cache")
}

/// The repository's root: commands run from there, as a user runs them
/// from a clone (`npuzzle bench data/korf100.txt`).
pub fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// `npuzzle` as an `assert_cmd` command, run from the repository's root.
pub fn npuzzle() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("npuzzle").expect("the npuzzle binary");
    c.env("XDG_CACHE_HOME", test_cache_home())
        .current_dir(root());
    c
}

/// `npuzzle` as a plain process (for streaming stdin/stdout by hand), run
/// from the repository's root.
pub fn npuzzle_process() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_npuzzle"));
    c.env("XDG_CACHE_HOME", test_cache_home())
        .current_dir(root());
    c
}

/// The standard output of `npuzzle ARGS`, which must succeed.
pub fn stdout_of(args: &[&str]) -> String {
    let out = npuzzle().args(args).output().expect("npuzzle runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}
