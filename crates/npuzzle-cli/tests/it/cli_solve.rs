//! `npuzzle solve` as a user runs it: every input format, the seed stdin
//! forms, the output options, and each kind of bad input.

use crate::support::cli;
use cli::*;

use predicates::prelude::*;

const SEED0_START: &str = "2 8 3 1 6 4 7 0 5";
const SEED0_GOAL: &str = "1 2 3 8 0 4 7 6 5";

#[test]
fn seed_000_five_moves_and_six_counting_the_start() {
    npuzzle()
        .args(["solve", SEED0_START, "--goal", SEED0_GOAL])
        .assert()
        .success()
        .stdout("5\n");
    npuzzle()
        .args(["solve", SEED0_START, "--goal", SEED0_GOAL, "--count-start"])
        .assert()
        .success()
        .stdout("6\n");
    // the seed's own input: two 3x3 matrices on six lines
    npuzzle()
        .args(["solve", "--count-start"])
        .write_stdin("2 8 3\n1 6 4\n7 0 5\n1 2 3\n8 0 4\n7 6 5\n")
        .assert()
        .success()
        .stdout("6\n");
}

#[test]
fn seed_001_thirty_one_moves_from_stdin() {
    npuzzle()
        .arg("solve")
        .write_stdin("2 6 4 1 3 7 0 5 8\n8 1 5 7 3 6 4 0 2\n")
        .assert()
        .success()
        .stdout("31\n");
}

#[test]
fn every_input_format() {
    for start in [
        "2 8 3 1 6 4 7 0 5",
        "2,8,3,1,6,4,7,0,5",
        "2 8 3\n1 6 4\n7 0 5",
        "283164705",
        "2831647_5",
        "2 8 3/1 6 4/7 0 5",
        "2 8 3/1 6 4/7 . 5",
        "[[2,8,3],[1,6,4],[7,0,5]]",
    ] {
        for goal in [
            "1 2 3 8 0 4 7 6 5",
            "123804765",
            "1 2 3/8 _ 4/7 6 5",
            "spiral",
        ] {
            npuzzle()
                .args(["solve", start, "--goal", goal])
                .assert()
                .success()
                .stdout("5\n");
        }
    }
    // the start as unquoted words; the goal is one argument, and a goal
    // written as unquoted words (which would swallow a start after it) is
    // refused with the way to write it
    npuzzle()
        .args([
            "solve", "2", "8", "3", "1", "6", "4", "7", "0", "5", "--goal",
        ])
        .args(["1 2 3 8 0 4 7 6 5"])
        .assert()
        .success()
        .stdout("5\n");
    npuzzle()
        .args([
            "solve", "2", "8", "3", "1", "6", "4", "7", "0", "5", "--goal",
        ])
        .args(["1", "2", "3", "8", "0", "4", "7", "6", "5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--goal takes one board in one argument",
        ));
    npuzzle()
        .args(["solve", "283164705 | 123804765"])
        .assert()
        .success()
        .stdout("5\n");
    // stdin: two digit strings; a single board with the default goal
    npuzzle()
        .arg("solve")
        .write_stdin("283164705\n123804765\n")
        .assert()
        .success()
        .stdout("5\n");
    npuzzle()
        .arg("solve")
        .write_stdin("1 2 3\n4 5 6\n7 0 8\n")
        .assert()
        .success()
        .stdout("1\n");
}

#[test]
fn size_flag_and_rectangular_boards() {
    npuzzle()
        .args(["solve", "1 2 3 4 5 6 0 7", "--size", "2x4", "--path"])
        .assert()
        .success()
        .stdout("1\nR\n");
    npuzzle()
        .args(["solve", "1 2 3 4/5 6 0 7", "--path"])
        .assert()
        .success()
        .stdout("1\nR\n");
    npuzzle()
        .args(["solve", "1 2 3 4 5 6 0 7"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--size"));
}

#[test]
fn unreachable_is_minus_one_even_with_count_start() {
    npuzzle()
        .args(["solve", "1 2 3 4 5 6 8 7 0", "--count-start", "--path"])
        .assert()
        .success()
        .stdout("-1\n");
    // 16x16: parity answers at once
    let mut tiles: Vec<String> = (1..256)
        .map(|t| t.to_string())
        .chain(["0".into()])
        .collect();
    tiles.swap(0, 1);
    npuzzle()
        .args(["solve", &tiles.join(" ")])
        .assert()
        .success()
        .stdout("-1\n");
}

#[test]
fn path_boards_and_json() {
    let out = npuzzle()
        .args(["solve", SEED0_START, "--goal", SEED0_GOAL, "--path"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "5");
    assert_eq!(lines[1].len(), 5);
    assert!(lines[1].chars().all(|c| "UDLR".contains(c)));

    npuzzle()
        .args(["solve", SEED0_START, "--goal", SEED0_GOAL, "--boards"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1 2 3\n8 _ 4\n7 6 5"));

    let out = npuzzle()
        .args(["solve", SEED0_START, "--goal", SEED0_GOAL, "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["rows"], 3);
    assert_eq!(v["cols"], 3);
    assert_eq!(v["moves"], 5);
    assert_eq!(v["solvable"], true);
    // one query on a small board: a direct search, not a table build
    assert_eq!(v["algorithm"], "idastar");
    assert!(v["plan"]
        .as_str()
        .is_some_and(|p| p.starts_with("idastar + linear-conflict")));
    assert_eq!(v["start"][0], 2);
    assert_eq!(v["goal"][4], 0);
    assert_eq!(v["path"].as_str().unwrap().len(), 5);
    assert!(v["stats"]["expanded"].is_u64());
    assert!(v["stats"]["seconds"].is_f64());

    let out = npuzzle()
        .args(["solve", "1 2 3 4 5 6 8 7 0", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["moves"], -1);
    assert_eq!(v["solvable"], false);
    assert!(v["path"].is_null());
}

#[test]
fn stats_lines() {
    npuzzle()
        .args(["solve", SEED0_START, "--goal", SEED0_GOAL, "--stats"])
        .assert()
        .success()
        .stdout(predicate::str::contains("plan: idastar + linear-conflict"))
        .stdout(predicate::str::contains("nodes expanded:"));
    npuzzle()
        .args([
            "solve",
            SEED0_START,
            "--goal",
            SEED0_GOAL,
            "--stats",
            "--algo",
            "table",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("plan: table: asked for"))
        .stdout(predicate::str::contains("peak states: 181440"))
        .stdout(predicate::str::contains("iterations").not());
}

/// Each kind of bad input: exit status 2, one line on stderr naming the
/// board and the problem, nothing on stdout, no panic.
#[test]
fn bad_input_names_the_board_and_the_problem() {
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["solve", "1 2 3 4 5 6 7 7 0"],
            "",
            "start board: tile 7 appears twice",
        ),
        (&["solve", "1 2 3 4 5 6 7 9 0"], "", "start board: number 9"),
        (&["solve", "1 2 3 4 5 6 7 8 9"], "", "start board: no blank"),
        (
            &["solve", "1 2 3 4 5 6 7 0"],
            "",
            "start board: cannot infer the board size",
        ),
        (
            &["solve", "hello world"],
            "",
            "start board: 'hello' is not a tile",
        ),
        (&["solve", ""], "", "start board: no tiles"),
        (
            &["solve", "1 2 3/4 5/6 7 8 0 9"],
            "",
            "start board: row 2 has 2 tiles",
        ),
        (
            // a goal too short for any board is counted against the start
            &["solve", "1 2 3 4 5 6 7 8 0", "--goal", "1 2 3"],
            "",
            "goal board: 3 tiles do not fill a 3x3 board (9 cells)",
        ),
        (
            &["solve", "1 2 3 4 5 6 7 8 0", "--goal", "1 2 3 0"],
            "",
            "the start board is 3x3 but the goal board is 2x2",
        ),
        (
            &["solve", "1 2 3 4 5 6 7 8 0", "--goal", "1 2 3 4 5 6 7 0 0"],
            "",
            "goal board: tile 0 appears twice",
        ),
        (
            &["solve", "1 2 3 4 5 6 7 8 0", "--goal", "sideways"],
            "",
            "goal board: 'sideways' is not a goal name",
        ),
        (
            &["solve", "1 2 3 4 5 6 7 8 0", "--size", "2x9"],
            "",
            "start board: 9 tiles do not fill a 2x9 board",
        ),
        (
            &["solve", "1 2 3 4 5 6 7 8 0", "--size", "banana"],
            "",
            "banana",
        ),
        (
            &["solve", "--goal", "spiral"],
            "2 8 3 1 6 4 7 0 5 1 2 3 8 0 4 7 6 5",
            "already holds a goal",
        ),
        (
            &["solve"],
            "2 8 3\n1 6 4\n7 0 5\n1 2 3\n8 0 4\n7 6 6\n",
            "goal board: tile 6 appears twice",
        ),
        (&["solve"], "", "no tiles"),
        (
            &[
                "solve",
                "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
                "--pdb",
                "9-9",
            ],
            "",
            "the partition has 18 tiles but a 4x4 board has 15",
        ),
    ];
    for (args, stdin, msg) in cases {
        let assert = npuzzle().args(*args).write_stdin(*stdin).assert();
        let out = assert.get_output();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err:?} lacks {msg:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `--stats` and `--json` list IDA*'s iterations, the same in both, rising
/// to the answer and summing to the nodes expanded.
#[test]
fn iterations_in_stats_and_json() {
    let args = [
        "solve",
        SEED0_START,
        "--goal",
        SEED0_GOAL,
        "--algo",
        "idastar",
    ];
    let out = npuzzle().args(args).arg("--json").output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let its = v["iterations"].as_array().unwrap();
    let bounds: Vec<u64> = its.iter().map(|i| i["bound"].as_u64().unwrap()).collect();
    let nodes: Vec<u64> = its
        .iter()
        .map(|i| i["expanded"].as_u64().unwrap())
        .collect();
    assert!(bounds.windows(2).all(|w| w[0] < w[1]), "{bounds:?}");
    assert_eq!(bounds.last().copied(), v["moves"].as_u64());
    assert_eq!(
        nodes.iter().sum::<u64>(),
        v["stats"]["expanded"].as_u64().unwrap()
    );
    let out = npuzzle().args(args).arg("--stats").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("iterations: {}\n", its.len())),
        "{text}"
    );
    for (b, n) in bounds.iter().zip(&nodes) {
        assert!(
            text.contains(&format!("  bound {b}: {n} nodes expanded")),
            "{text}"
        );
    }
}
