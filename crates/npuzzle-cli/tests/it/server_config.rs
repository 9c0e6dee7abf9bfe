//! `npuzzle serve` refuses, before it binds, any configuration it could not
//! serve: it exits 2 at once with one line naming the flag, instead of
//! starting and then failing (or quietly changing) what it was asked for.

use crate::support::cli;
use cli::*;

use std::time::Duration;

/// Long enough for a loaded machine to start the binary; a server that
/// started instead of refusing would run until this kills it.
const PROMPTLY: Duration = Duration::from_secs(60);

/// Runs `npuzzle serve ARGS` on an ephemeral port with a temporary cache and
/// returns its one-line error, checking that it exited 2 without serving.
fn refused(args: &[&str]) -> String {
    let cache = tempfile::tempdir().unwrap();
    let out = npuzzle()
        .args(["serve", "--addr", "127.0.0.1:0", "--pdb-dir"])
        .arg(cache.path())
        .args(args)
        .timeout(PROMPTLY)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "serve {args:?}: {stderr}");
    assert!(
        out.stdout.is_empty(),
        "serve {args:?} started: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("npuzzle: "), "{stderr}");
    stderr
}

/// It started, then answered every 4x4 request (even those not asking for
/// databases) with an error about the partition.
#[test]
fn serve_pdb_allow_with_a_tile_twice() {
    assert_eq!(
        refused(&["--pdb-allow", "4x4:1,1/2"]),
        "npuzzle: --pdb-allow 4x4:1,1/2: tile 1 is in two groups or out of range\n"
    );
}

/// It silently served one connection at a time.
#[test]
fn serve_max_connections_0() {
    let e = refused(&["--max-connections", "0"]);
    assert!(
        e.starts_with("npuzzle: --max-connections 0: must be between 1 and "),
        "{e}"
    );
}

/// It started, and a 2x2 request got "fast: asked for ...".
#[test]
fn serve_max_cells_0() {
    assert_eq!(
        refused(&["--max-cells", "0"]),
        "npuzzle: --max-cells 0: must be between 4 and 256 cells (2x2 to 16x16 boards)\n"
    );
}

#[test]
fn serve_pdb_allow_partitions_the_solver_refuses() {
    for (entry, why) in [
        (
            "4x4:7-7",
            "the partition has 14 tiles but a 4x4 board has 15",
        ),
        (
            "3x3:1,2,3/4,5,6,7,9",
            "tile 9 is in two groups or out of range",
        ),
        (
            "3x3:0,1,2,3/4,5,6,7,8",
            "tile 0 is in two groups or out of range",
        ),
        // 6-6-6-6: more entries than one request may build
        (
            "5x5:auto",
            "a group of 6 tiles on a 5x5 board needs 127512000 entries",
        ),
        ("4x4:15", "a group of 15 tiles on a 4x4 board needs"),
    ] {
        let e = refused(&["--pdb-allow", entry]);
        assert!(
            e.starts_with(&format!("npuzzle: --pdb-allow {entry}: {why}")),
            "{e}"
        );
    }
    // found by tests/cli_sweep.rs: a goal was made for the board to check
    // the partition against, and boards beyond 16x16 have none (a panic)
    for big in ["17x17:auto", "2x1000:auto", "4096x4096:auto"] {
        let e = refused(&["--pdb-allow", big]);
        assert_eq!(
            e,
            format!(
                "npuzzle: --pdb-allow {big}: pattern databases are for boards of 2x2 to 16x16\n"
            )
        );
    }
    let e = refused(&["--pdb-allow", "4x4:auto", "--pdb-allow", "4x4:5-5-5"]);
    assert!(e.contains("4x4 is already allowed as 4x4:auto"), "{e}");
    // never used: only the fast solver answers boards beyond --max-cells
    let e = refused(&["--pdb-allow", "6x6:auto"]);
    assert!(
        e.starts_with(
            "npuzzle: --pdb-allow 6x6:auto: 6x6 boards (36 cells) are beyond --max-cells 25"
        ),
        "{e}"
    );
}

#[test]
fn serve_caps_out_of_range_or_inconsistent() {
    for (args, start) in [
        (
            &["--max-cells", "3"][..],
            "--max-cells 3: must be between 4 and 256",
        ),
        (
            &["--max-cells", "257"],
            "--max-cells 257: must be between 4 and 256",
        ),
        (
            &["--max-cells", "200"],
            "--max-fast-cells 100: is below --max-cells 200",
        ),
        (
            &["--max-fast-cells", "16"],
            "--max-fast-cells 16: is below --max-cells 25",
        ),
        (
            &["--max-trace-events", "1000001"],
            "--max-trace-events 1000001: must be between 0 and 1000000 events",
        ),
        (&["--max-nodes", "0"], "--max-nodes 0: must be at least 1"),
        (&["--max-states", "0"], "--max-states 0: must be at least 1"),
        (
            &["--max-connections", "18446744073709551615"],
            "--max-connections 18446744073709551615: must be between 1 and 1048576",
        ),
        (&["--timeout", "0"], "--timeout must be a positive number"),
        (
            &["--max-fast-cells", "0"],
            "invalid value '0' for '--max-fast-cells",
        ),
    ] {
        let e = refused(args);
        assert!(e.starts_with(&format!("npuzzle: {start}")), "{args:?}: {e}");
    }
}

/// The largest caps there are, and tile groups the solver takes, are
/// served: the server binds and says where.
#[test]
fn serve_largest_caps_are_not_refused() {
    use std::io::BufRead;
    let cache = tempfile::tempdir().unwrap();
    let mut child = npuzzle_process()
        .args(["serve", "--addr", "127.0.0.1:0", "--max-cells", "256"])
        .args(["--max-fast-cells", "256", "--max-connections", "1048576"])
        .args(["--pdb-allow", "3x3:1,2,3/4,5,6,7,8", "--pdb-dir"])
        .arg(cache.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with("npuzzle serve: http://127.0.0.1:"),
        "{line:?}"
    );
}
