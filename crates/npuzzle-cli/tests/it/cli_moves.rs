//! The commands on written moves (`apply`, `verify`, `analyse`,
//! `simplify`, `invert`, `transpose`) and `solve --notation`, as a user
//! runs them. Optimal lengths come from a plain breadth-first search of the
//! whole puzzle (`npuzzle_testkit::reference::bfs_all`), never from the
//! program.

use crate::support::cli;
use cli::*;

use npuzzle::{parse_board, Board};
use npuzzle_testkit::reference::bfs_all;
use predicates::prelude::*;
use std::collections::HashMap;

const START: &str = "2 8 3/1 6 4/7 0 5";
const SPIRAL: &str = "1 2 3/8 0 4/7 6 5";

fn board(text: &str) -> Board {
    parse_board(text, None).expect("a board")
}

/// Every 8-puzzle position's distance to the spiral goal.
fn distances() -> HashMap<Vec<u8>, u32> {
    bfs_all(&board(SPIRAL))
}

fn distance(d: &HashMap<Vec<u8>, u32>, b: &Board) -> u32 {
    d[b.tiles()]
}

/// The blank's steps of a UDLR string.
fn steps(text: &str) -> Vec<npuzzle::Dir> {
    npuzzle::parse_path(text).expect("a path")
}

/// The number of runs of equal letters: a path's MTM length, counted here.
fn runs(text: &str) -> usize {
    let b = text.as_bytes();
    (0..b.len()).filter(|&i| i == 0 || b[i] != b[i - 1]).count()
}

/// An optimal path of START to the spiral, from `npuzzle solve --path`.
fn optimal_path() -> String {
    let out = stdout_of(&["solve", START, "--goal", SPIRAL, "--path"]);
    out.lines().nth(1).expect("the path line").to_string()
}

/// The optimal path with a detour `LR` inserted where `L` takes the goal
/// farther, and the 0-based step where it was put.
fn with_detour(d: &HashMap<Vec<u8>, u32>) -> (String, usize) {
    let path = optimal_path();
    let start = board(START);
    for k in 0..=path.len() {
        let here = start.apply_path(&steps(&path[..k])).expect("legal");
        if let Some(left) = here.moved(npuzzle::Dir::Left) {
            if distance(d, &left) > distance(d, &here) {
                return (format!("{}LR{}", &path[..k], &path[k..]), k);
            }
        }
    }
    panic!("no place for a detour in {path}");
}

fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_of(args)).expect("JSON")
}

#[test]
fn apply_prints_the_board_reached_in_either_notation() {
    npuzzle()
        .args(["apply", "1 2 3/4 5 6/7 8 0", "UUL"])
        .assert()
        .success()
        .stdout("1 _ 2\n4 5 3\n7 8 6\n");
    // the same moves in tile notation, with counts, as several words
    npuzzle()
        .args([
            "apply",
            "1 2 3/4 5 6/7 8 0",
            "d2",
            "R",
            "--notation",
            "tile",
        ])
        .assert()
        .success()
        .stdout("1 _ 2\n4 5 3\n7 8 6\n");
    let j = json_of(&["apply", "1 2 3/4 5 6/7 8 0", "U2L", "--json"]);
    assert_eq!(j["board"], "1 0 2/4 5 3/7 8 6");
    assert_eq!((j["stm"].as_u64(), j["mtm"].as_u64()), (Some(3), Some(2)));
}

#[test]
fn an_illegal_move_is_named_with_the_board_it_was_on() {
    npuzzle()
        .args(["apply", "1 2 3/4 5 6/7 8 0", "UUU"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "move 3 (U, blank notation) cannot be made on 1 2 0/4 5 3/7 8 6: the blank is at the edge",
        ));
    // in MTM the move is the push, as written
    npuzzle()
        .args(["verify", "1 2 3/4 5 6/7 8 0", "D R3", "--notation", "tile"])
        .args(["--metric", "mtm"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "move 2 (R3, tile notation) cannot be made on 1 2 3/4 5 0/7 8 6: no tile is there to slide",
        ));
    for (moves, says) in [
        ("UX", "'X' (move 2)"),
        ("U R0", "'R0' (character 3)"),
        ("2U", "character 1"),
    ] {
        npuzzle()
            .args(["apply", "1 2 3/4 5 6/7 8 0", moves])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

#[test]
fn verify_says_solved_with_both_lengths_and_how_far_from_optimal() {
    let d = distances();
    let path = optimal_path();
    assert_eq!(path.len() as u32, distance(&d, &board(START)));
    npuzzle()
        .args(["verify", START, &path, "--goal", SPIRAL])
        .assert()
        .success()
        .stdout(format!(
            "solves it: {} moves stm, {} mtm\noptimal: {} moves stm (this is optimal)\n",
            path.len(),
            runs(&path),
            path.len()
        ));
    let (detour, _) = with_detour(&d);
    npuzzle()
        .args(["verify", START, &detour, "--goal", SPIRAL])
        .assert()
        .success()
        .stdout(predicate::str::contains("(this is 2 moves more)"));
    let j = json_of(&["verify", START, &detour, "--goal", SPIRAL, "--json"]);
    assert_eq!(j["solves"], true);
    assert_eq!(
        j["optimal"].as_u64(),
        Some(u64::from(distance(&d, &board(START))))
    );
    assert_eq!(j["wasted"].as_i64(), Some(2));
}

#[test]
fn verify_exits_4_when_the_moves_do_not_solve_it() {
    npuzzle()
        .args(["verify", START, "UUL", "--goal", SPIRAL])
        .assert()
        .code(4)
        .stdout("does not solve it: after 3 moves stm, 2 mtm the board is\n_ 2 3\n1 8 4\n7 6 5\n")
        .stderr(
            predicate::str::contains("not a solution").and(predicate::str::contains(
                "end on 0 2 3/1 8 4/7 6 5, not the goal 1 2 3/8 0 4/7 6 5",
            )),
        );
    // an unreachable goal is never solved
    npuzzle()
        .args(["verify", "1 2 3/4 5 6/8 7 0", "", "--goal", "blank-last"])
        .assert()
        .code(4);
}

#[test]
fn verify_beyond_16_cells_does_not_search_for_the_optimum() {
    let start = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24";
    npuzzle()
        .args(["verify", start, "R"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "optimal length unknown: exact distances",
        ));
    npuzzle()
        .args(["analyse", start, "R"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 16 cells"));
}

#[test]
fn analyse_finds_nothing_wasted_on_an_optimal_path() {
    let d = distances();
    let path = optimal_path();
    let j = json_of(&["analyse", START, &path, "--goal", SPIRAL, "--json"]);
    assert_eq!(j["moves"].as_u64(), Some(path.len() as u64));
    assert_eq!(j["optimal"].as_u64(), Some(path.len() as u64));
    assert_eq!(j["wasted"].as_u64(), Some(0));
    assert_eq!(j["detours"].as_array().map(Vec::len), Some(0));
    let per_move = j["per_move"].as_array().expect("per_move");
    assert_eq!(per_move.len(), path.len());
    let start = board(START);
    for (i, m) in per_move.iter().enumerate() {
        let after = start.apply_path(&steps(&path[..=i])).expect("legal");
        assert_eq!(m["index"].as_u64(), Some(i as u64 + 1));
        assert_eq!(m["move"], path[i..=i]);
        assert_eq!(
            m["distance_after"].as_u64(),
            Some(u64::from(distance(&d, &after)))
        );
        assert_eq!(m["progress"], true);
    }
}

#[test]
fn analyse_finds_the_two_moves_of_a_detour() {
    let d = distances();
    let (path, k) = with_detour(&d);
    let j = json_of(&["analyse", START, &path, "--goal", SPIRAL, "--json"]);
    assert_eq!(j["wasted"].as_u64(), Some(2));
    let detours = j["detours"].as_array().expect("detours");
    assert_eq!(detours.len(), 1, "{j}");
    // moves k+1 (L, farther) and k+2 (R, back), 1-based
    assert_eq!(detours[0]["first"].as_u64(), Some(k as u64 + 1));
    assert_eq!(detours[0]["last"].as_u64(), Some(k as u64 + 2));
    assert_eq!(detours[0]["moves"], "L R");
    let per_move = j["per_move"].as_array().expect("per_move");
    let wasted: Vec<usize> = (0..per_move.len())
        .filter(|&i| per_move[i]["detour"] == true)
        .map(|i| i + 1)
        .collect();
    assert_eq!(wasted, [k + 1, k + 2]);
    let not_closer: Vec<usize> = (0..per_move.len())
        .filter(|&i| per_move[i]["progress"] == false)
        .map(|i| i + 1)
        .collect();
    assert_eq!(not_closer, [k + 1]);
    let text = stdout_of(&["analyse", START, &path, "--goal", SPIRAL]);
    assert!(
        text.contains(&format!("detour: moves {}-{} (L R)", k + 1, k + 2)),
        "{text}"
    );
    assert!(text.contains(", 2 wasted"), "{text}");
}

#[test]
fn notations_round_trip_through_the_command_line() {
    let blank = optimal_path();
    let out = stdout_of(&[
        "solve",
        START,
        "--goal",
        SPIRAL,
        "--path",
        "--notation",
        "tile",
    ]);
    let tile = out.lines().nth(1).expect("the path").to_string();
    let flipped: String = blank
        .chars()
        .map(|c| match c {
            'U' => 'D',
            'D' => 'U',
            'L' => 'R',
            _ => 'L',
        })
        .collect();
    assert_eq!(tile, flipped);
    // the tile path, read as tiles, solves it; written back as blank
    // letters it is the blank path
    npuzzle()
        .args([
            "verify",
            START,
            &tile,
            "--goal",
            SPIRAL,
            "--notation",
            "tile",
        ])
        .assert()
        .success();
    let back = stdout_of(&["simplify", &tile, "--notation", "tile", "--to", "blank"]);
    assert_eq!(back.trim_end(), blank);
    // MTM with counts and spaces reads back to the same steps
    let mtm = stdout_of(&[
        "simplify",
        &tile,
        "--notation",
        "tile",
        "--metric",
        "mtm",
        "--spaced",
    ]);
    assert!(mtm.contains(' ') || runs(&blank) == 1, "{mtm}");
    let again = stdout_of(&["simplify", mtm.trim_end(), "--notation", "tile"]);
    assert_eq!(again.trim_end(), tile);
    let spaced = stdout_of(&["solve", START, "--goal", SPIRAL, "--path", "--spaced"]);
    assert_eq!(
        spaced.lines().nth(1).map(|l| l.replace(' ', "")),
        Some(blank)
    );
}

#[test]
fn simplify_invert_and_transpose() {
    npuzzle()
        .args(["simplify", "UDL"])
        .assert()
        .success()
        .stdout("L\n");
    npuzzle()
        .args(["simplify", "ULRD"])
        .assert()
        .success()
        .stdout("\n");
    npuzzle()
        .args([
            "simplify",
            "R2 R L",
            "--metric",
            "mtm",
            "--notation",
            "tile",
        ])
        .assert()
        .success()
        .stdout("R2\n");
    npuzzle()
        .args(["invert", "UUL", "--spaced"])
        .assert()
        .success()
        .stdout("R D D\n");
    // the inverse undoes: start, the moves, then their inverse
    let path = optimal_path();
    let inverse = stdout_of(&["invert", &path]);
    npuzzle()
        .args(["verify", SPIRAL, inverse.trim_end(), "--goal", START])
        .assert()
        .success();
    // transposed moves solve the transposed puzzle
    let t = |b: &str| -> String {
        let b = board(b);
        (0..3)
            .map(|c| {
                (0..3)
                    .map(|r| b.tiles()[r * 3 + c].to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("/")
    };
    let transposed = stdout_of(&["transpose", &path]);
    npuzzle()
        .args([
            "verify",
            &t(START),
            transposed.trim_end(),
            "--goal",
            &t(SPIRAL),
        ])
        .assert()
        .success();
}

#[test]
fn solve_streams_tile_notation_beyond_16x16() {
    let board = stdout_of(&["random", "--size", "17x17", "--seed", "3", "-n", "1"]);
    let path = |notation: &str| {
        let out = npuzzle()
            .args(["solve", "--path", "--notation", notation])
            .write_stdin(board.clone())
            .output()
            .expect("runs");
        assert!(out.status.success());
        String::from_utf8(out.stdout)
            .expect("UTF-8")
            .lines()
            .nth(1)
            .map(str::to_string)
    };
    let blank = path("blank").expect("a path");
    let tile = path("tile").expect("a path");
    assert_eq!(blank.len(), tile.len());
    let opposite = |c| match c {
        'U' => 'D',
        'D' => 'U',
        'L' => 'R',
        _ => 'L',
    };
    assert!(blank
        .chars()
        .zip(tile.chars())
        .all(|(b, t)| opposite(b) == t));
    npuzzle()
        .args(["solve", "--path", "--spaced"])
        .write_stdin(board)
        .assert()
        .code(2);
}

#[test]
fn the_readme_documents_exit_status_4() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(readme.contains("| 4 |"), "README.md's exit statuses lack 4");
}

#[test]
fn batch_writes_paths_in_the_notation_and_metric_asked_for() {
    use npuzzle::{Metric, Notation};
    use npuzzle_testkit::reference::bfs_all_in;
    let goal = Board::blank_last(npuzzle::Shape::new(3, 3)).unwrap();
    let starts = [
        "8 6 7 2 5 4 3 0 1",
        "1 2 3 4 5 6 0 7 8",
        "6 4 7 8 5 0 3 2 1",
        "1 2 3 4 5 6 7 8 0",
    ];
    let input = format!("{}\n", starts.join("\n"));
    for metric in Metric::ALL {
        let dist = bfs_all_in(&goal, metric);
        for (notation, spaced) in [("blank", false), ("tile", false), ("tile", true)] {
            let mut args = vec!["batch", "-", "--path", "-q", "--notation", notation];
            args.extend(["--metric", metric.name()]);
            if spaced {
                args.push("--spaced");
            }
            let out = npuzzle()
                .args(&args)
                .write_stdin(input.clone())
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}");
            let text = String::from_utf8(out.stdout).unwrap();
            for (line, start) in text.lines().zip(starts) {
                let (moves, path) = line.split_once(' ').expect("moves and a path");
                let moves: usize = moves.parse().unwrap();
                let start = board(start);
                assert_eq!(moves as u32, dist[start.tiles()], "{args:?}: {line}");
                // read back in the notation named, replayed, recounted
                let n: Notation = notation.parse().unwrap();
                let steps = npuzzle::parse_moves(path, n).unwrap();
                assert_eq!(start.apply_path(&steps).unwrap(), goal, "{args:?}: {line}");
                assert_eq!(metric.length(&steps), moves, "{args:?}: {line}");
                assert_eq!(path.contains(' '), spaced && moves > 1, "{args:?}: {line}");
                if metric == Metric::Mtm {
                    // a push is written once, with its count
                    assert_eq!(
                        path.chars().filter(char::is_ascii_alphabetic).count(),
                        moves,
                        "{line}"
                    );
                }
            }
        }
    }
}
