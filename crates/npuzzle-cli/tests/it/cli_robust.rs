//! Robustness of the command line as a user meets it: sizes no board
//! holds, messages that name the right board and the right argument, OS
//! errors said once, option combinations refused before any work, and
//! Ctrl-C (stop, say how far, exit 3, no partial file).

use crate::support::cli;
use cli::*;

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Korf's first 15-puzzle: 57 moves to blank-first, minutes for IDA* with
/// Manhattan distance and hours for BFS, so a search of it is still
/// running when Ctrl-C comes.
const HARD_4X4: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

/// Runs `npuzzle ARGS` and returns its exit status and standard error,
/// asserting that the error is one line and no panic.
fn one_line_error(args: &[&str]) -> (i32, String) {
    let out = npuzzle().args(args).output().expect("npuzzle runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
    (out.status.code().unwrap_or(-1), err)
}

#[test]
fn sizes_no_board_holds_are_a_clean_error_naming_the_size() {
    for size in ["17x17", "2x17", "17x2", "2x1000", "100x100"] {
        for command in [
            &["space", "--size", size][..],
            &["pdb", "build", "--size", size],
        ] {
            let (code, err) = one_line_error(command);
            assert_eq!(code, 2, "{command:?}: {err}");
            assert!(
                err.contains(&format!("a {size} board")),
                "{command:?}: {err}"
            );
            assert!(err.contains("from 2 to 16"), "{command:?}: {err}");
        }
    }
    // 16x16 boards are boards: pattern databases refuse them by their size
    let (code, err) = one_line_error(&["pdb", "build", "--size", "16x16"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.len() < 200, "a long message: {err}");
}

#[test]
fn a_repeated_tile_is_named_not_taken_for_two_boards() {
    let (code, err) = one_line_error(&["solve", "1", "1", "2", "0"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "npuzzle: start board: tile 1 appears twice (row 1, column 1 and row 1, column 2)\n"
    );
    // the API (shared with the web server) answers the same
    let e = npuzzle_io::input::problem_from_text("1 1 2 0", None, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "start board: tile 1 appears twice (row 1, column 1 and row 1, column 2)"
    );
}

#[test]
fn separate_multi_digit_numbers_are_never_read_as_digit_strings() {
    let (code, err) = one_line_error(&["solve", "11", "22", "33", "44"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "npuzzle: start board: number 11 at row 1, column 1 is out of range: a 2x2 board has tiles 1..3 and the blank 0\n"
    );
    // a digit string is still one
    npuzzle()
        .args(["solve", "1203"])
        .assert()
        .success()
        .stdout("1\n");
}

#[test]
fn a_goal_too_short_for_the_size_given_says_so() {
    let (code, err) = one_line_error(&["space", "--size", "3x3", "--goal", "1 2 3"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "npuzzle: goal board: 3 tiles do not fill a 3x3 board (9 cells)\n"
    );
    let (code, err) = one_line_error(&["pdb", "build", "--size", "3x3", "--goal", "1 2 3"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "npuzzle: goal board: 3 tiles do not fill a 3x3 board (9 cells)\n"
    );
    // against a start, too few tiles are counted against its shape too
    let (code, err) = one_line_error(&["solve", "1 2 3 4 5 6 7 0 8", "--goal", "1 2 3"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "npuzzle: goal board: 3 tiles do not fill a 3x3 board (9 cells)\n"
    );
}

#[test]
fn usage_errors_name_the_missing_argument() {
    let (code, err) = one_line_error(&["space", "--size", "3x3", "--resume"]);
    assert_eq!(code, 2);
    assert!(err.contains("--checkpoint <FILE>"), "{err}");
    // every command alike
    let (code, err) = one_line_error(&["bench"]);
    assert_eq!(code, 2);
    assert!(err.contains("<FILE>"), "{err}");
    let (code, err) = one_line_error(&["pdb", "build"]);
    assert_eq!(code, 2);
    assert!(err.contains("--size <RxC>"), "{err}");
}

#[test]
fn an_os_error_is_printed_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing").join("space.ckpt");
    let out = npuzzle()
        .args(["space", "--size", "2x2", "--resume", "--checkpoint"])
        .arg(&missing)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("(os error 2)").count(), 1, "{err}");
    assert!(err.contains(&missing.display().to_string()), "{err}");
}

#[test]
fn dual_with_one_bit_databases_is_refused_before_any_build() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, err) = one_line_error(&[
        "solve",
        HARD_4X4,
        "--goal",
        "blank-first",
        "--heuristic",
        "pdb",
        "--dual",
        "--pdb-blank",
        "bits",
        "--pdb-dir",
        d,
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("dual lookups") && err.contains("one bit an entry"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// The flags of the pattern databases, each with a value.
const PDB_FLAGS: [&[&str]; 3] = [
    &["--pdb-also", "4-4"],
    &["--dual"],
    &["--pdb-blank", "regions"],
];

/// What makes them not apply, and the word the refusal gives for it.
const NOT_PDB: [(&[&str], &str); 2] = [
    (&["--heuristic", "manhattan"], "manhattan"),
    (&["--algo", "bfs"], "bfs"),
];

#[test]
fn pattern_database_flags_that_cannot_apply_are_refused_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("lines.txt");
    std::fs::write(&lines, "1 2 3 4 5 6 7 0 8\n").unwrap();
    let lines = lines.to_str().unwrap();
    let commands: [&[&str]; 3] = [
        &["solve", "1 2 3 4 5 6 7 0 8"],
        &["batch", lines],
        &["bench", "data/korf100.txt", "--limit", "1"],
    ];
    for command in commands {
        for flag in PDB_FLAGS {
            for (other, why) in NOT_PDB {
                let args: Vec<&str> = [command, flag, other].concat();
                let (code, err) = one_line_error(&args);
                assert_eq!(code, 2, "{args:?}: {err}");
                assert!(
                    err.contains(&format!("{} does not apply", flag[0])) && err.contains(why),
                    "{args:?}: {err}"
                );
            }
        }
    }
    // compare runs every heuristic: it takes none of these flags
    let (code, err) = one_line_error(&["compare", "1 2 3 4 5 6 7 0 8", "--dual"]);
    assert_eq!(code, 2);
    assert!(err.contains("--dual"), "{err}");
}

/// Whether process `pid` catches SIGINT (its handler is installed).
fn catches_sigint(pid: u32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        // SIGINT is signal 2: bit 1
        .is_some_and(|mask| mask & (1 << 1) != 0)
}

/// Starts `npuzzle ARGS`, waits until it catches SIGINT, sends it one (as
/// Ctrl-C does) and returns its exit status and standard error. The wait
/// has a deterministic end (the handler is installed before any search
/// or build starts); the work is minutes long, so it is still running.
fn ctrl_c(args: &[&str]) -> (Option<i32>, String) {
    let mut child: Child = npuzzle_process()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("npuzzle starts");
    let t0 = Instant::now();
    while !catches_sigint(child.id()) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("{args:?} ended ({status}) before catching Ctrl-C");
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "{args:?} never caught Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The last line of standard error.
fn last_line(err: &str) -> &str {
    err.lines().last().unwrap_or("")
}

#[test]
fn ctrl_c_stops_a_search_with_how_far_it_got() {
    for algo in [
        &[
            "--algo",
            "idastar",
            "--heuristic",
            "manhattan",
            "--prune",
            "parent",
        ][..],
        &["--algo", "bfs"],
    ] {
        let args: Vec<&str> = [&["solve", HARD_4X4, "--goal", "blank-first"], algo].concat();
        let (code, err) = ctrl_c(&args);
        assert_eq!(code, Some(3), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("stopped by Ctrl-C after"), "{err}");
        assert!(err.contains("nodes expanded"), "{err}");
    }
}

#[test]
fn ctrl_c_stops_batch_bench_and_compare() {
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("lines.txt");
    std::fs::write(&lines, format!("{HARD_4X4}\n{HARD_4X4}\n")).unwrap();
    let lines = lines.to_str().unwrap();
    let manhattan = ["--algo", "idastar", "--heuristic", "manhattan"];
    let runs: [Vec<&str>; 3] = [
        [
            &["batch", lines, "--goal", "blank-first", "--timeout", "3600"][..],
            &manhattan,
        ]
        .concat(),
        [&["bench", "data/korf100.txt"][..], &manhattan].concat(),
        vec![
            "compare",
            HARD_4X4,
            "--goal",
            "blank-first",
            "--pdb-dir",
            dir.path().to_str().unwrap(),
        ],
    ];
    for args in &runs {
        let (code, err) = ctrl_c(args);
        assert_eq!(code, Some(3), "{args:?}: {err}");
        assert!(
            last_line(&err).contains("stopped by Ctrl-C"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn ctrl_c_stops_a_database_build_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, err) = ctrl_c(&[
        "pdb",
        "build",
        "--size",
        "4x4",
        "--partition",
        "7-8",
        "--pdb-dir",
        d,
    ]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        last_line(&err).contains("stopped by Ctrl-C; nothing of it is kept"),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

#[test]
fn ctrl_c_stops_the_whole_space_search_and_its_checkpoint_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("c");
    let ckpt = ckpt.to_str().unwrap();
    let (code, err) = ctrl_c(&["space", "--size", "3x4", "--checkpoint", ckpt, "--verbose"]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        last_line(&err).starts_with("npuzzle: space stopped by Ctrl-C while expanding level"),
        "{err}"
    );
    // whatever it had saved stays whole: resuming finishes the search
    if std::path::Path::new(ckpt).exists() {
        let out = npuzzle_process()
            .args([
                "space",
                "--size",
                "3x4",
                "--checkpoint",
                ckpt,
                "--resume",
                "--csv",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let csv = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            csv.lines().last(),
            Some("53,18"),
            "3x4's radius and antipodes"
        );
    }
}

#[test]
fn a_random_walk_is_bounded() {
    let (code, err) = one_line_error(&["random", "--moves", "4294967295"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("from 0 to 10000000"), "{err}");
}

#[test]
fn batch_refuses_a_goal_no_line_could_use_and_names_failed_lines() {
    let (code, err) = one_line_error(&["batch", "--goal", "1 2 3 4 5 6 7 8 8"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("goal board: tile 8 appears twice"), "{err}");
    let out = npuzzle()
        .args(["batch", "--quiet"])
        .write_stdin("1 2 3 x\n1 2 3 4 5 6 7 0 8\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 2, "one line per instance: {stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim(),
        "npuzzle: batch: 1 instance of 2 failed (their lines say why)"
    );
}

#[test]
fn bench_says_on_stderr_which_lengths_differ() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.txt");
    // one move from blank-first, but the file says 3
    std::fs::write(&file, "1 0 2 3 4 5 6 7 8 3\n").unwrap();
    let out = npuzzle_process()
        .args(["bench", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        last_line(&stderr).starts_with("npuzzle: bench: the lengths of instances 1 differ"),
        "{stderr}"
    );
}
