//! `npuzzle trace` as users run it: the summary a person reads, `--json`
//! checked against a plain BFS over whole boards, `--jsonl` one event a
//! line within its cap, and algorithms that cannot be watched refused.

use crate::support::cli;
use cli::*;

use npuzzle::{parse_board, Board};
use npuzzle_testkit as common;
use serde_json::Value;

const START: &str = "2 8 3 / 1 6 4 / 7 0 5";
const GOAL: &str = "1 2 3 / 8 0 4 / 7 6 5";

#[test]
fn json_layers_are_a_plain_bfs_from_the_start() {
    let start: Board = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    let goal: Board = parse_board("1 2 3 4 5 6 7 8 0", None).unwrap();
    let text = stdout_of(&["trace", "8 6 7 2 5 4 3 0 1", "--algo", "bfs", "--json"]);
    let v: Value = serde_json::from_str(&text).unwrap();
    let dist = common::bfs_all(&start);
    let want = dist[goal.tiles()];
    assert_eq!(v["moves"], want);
    assert_eq!(v["algorithm"], "bfs");
    let layers: Vec<u64> = serde_json::from_value(v["layers"].clone()).unwrap();
    assert_eq!(layers.len(), want as usize + 1);
    for (d, &n) in layers.iter().enumerate().take(want as usize) {
        let plain = dist.values().filter(|&&x| x == d as u32).count() as u64;
        assert_eq!(n, plain, "depth {d}");
    }
    assert!(v["expanded"].as_u64().unwrap() > 0);
    assert!(v["generated"].as_u64().unwrap() >= v["expanded"].as_u64().unwrap());
    let b = v["branching_factor"].as_f64().unwrap();
    assert!(b > 1.0 && b < 3.0, "{b}");
}

#[test]
fn idastar_iterations_and_the_text_summary() {
    let text = stdout_of(&[
        "trace",
        START,
        "--goal",
        GOAL,
        "--algo",
        "idastar",
        "--heuristic",
        "misplaced",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["moves"], 5);
    let its = v["iterations"].as_array().unwrap();
    assert_eq!(its.last().unwrap()["bound"], 5);
    let sum: u64 = its.iter().map(|it| it["expanded"].as_u64().unwrap()).sum();
    assert_eq!(sum, v["expanded"].as_u64().unwrap());

    let text = stdout_of(&["trace", START, "--goal", GOAL, "--algo", "bfs"]);
    assert!(text.starts_with("bfs: 5 moves, "), "{text}");
    assert!(
        text.contains("depth  states first reached\n    0  1\n    1  3\n"),
        "{text}"
    );
    assert!(text.contains("(the goal found: cut short)"), "{text}");
}

#[test]
fn jsonl_writes_every_event_then_a_summary_within_its_cap() {
    let all = stdout_of(&["trace", START, "--goal", GOAL, "--algo", "astar", "--jsonl"]);
    let lines: Vec<Value> = all
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (summary, events) = lines.split_last().unwrap();
    assert_eq!(summary["event"], "summary");
    let expanded = events
        .iter()
        .filter(|e| e["event"] == "expanded" && e.get("goal").is_none())
        .count();
    assert_eq!(expanded as u64, summary["expanded"].as_u64().unwrap());
    assert_eq!(summary["events_dropped"], 0);
    // f = g + h of the nodes expanded never falls with a consistent
    // heuristic
    let fs: Vec<u64> = events
        .iter()
        .filter(|e| e["event"] == "expanded")
        .map(|e| e["g"].as_u64().unwrap() + e["h"].as_u64().unwrap())
        .collect();
    assert!(fs.windows(2).all(|w| w[0] <= w[1]), "{fs:?}");

    let few = stdout_of(&[
        "trace",
        START,
        "--goal",
        GOAL,
        "--algo",
        "astar",
        "--jsonl",
        "--max-events",
        "2",
    ]);
    let lines: Vec<Value> = few
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[..2], events[..2]);
    assert_eq!(
        lines[2]["events_dropped"].as_u64().unwrap(),
        events.len() as u64 - 2
    );
}

#[test]
fn bibfs_says_where_it_met() {
    let text = stdout_of(&["trace", START, "--goal", GOAL, "--algo", "bibfs", "--json"]);
    let v: Value = serde_json::from_str(&text).unwrap();
    let m = &v["meet"];
    assert_eq!(
        m["forward"].as_u64().unwrap() + m["backward"].as_u64().unwrap(),
        5
    );
    let text = stdout_of(&["trace", START, "--goal", GOAL, "--algo", "bibfs"]);
    assert!(text.contains("met at "), "{text}");
}

#[test]
fn a_search_that_cannot_be_watched_is_refused() {
    npuzzle()
        .args(["trace", START, "--goal", GOAL, "--algo", "anytime"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("anytime cannot be watched"));
}

#[test]
fn the_teaching_contrasts_and_the_visited_sets_side_by_side() {
    let greedy = stdout_of(&["trace", START, "--goal", GOAL, "--algo", "greedy", "--json"]);
    let greedy: Value = serde_json::from_str(&greedy).unwrap();
    assert_eq!(greedy["algorithm"], "greedy");
    let dfid = stdout_of(&["trace", START, "--goal", GOAL, "--algo", "dfid", "--json"]);
    let dfid: Value = serde_json::from_str(&dfid).unwrap();
    assert_eq!(
        (dfid["moves"].as_u64(), dfid["optimal"].as_bool()),
        (Some(5), Some(true))
    );
    assert_eq!(dfid["iterations"].as_array().map(Vec::len), Some(3)); // bounds 1, 3, 5
                                                                      // greedy's answer replays, and is marked optimal only if it is
    let path = npuzzle::parse_path(greedy["path"].as_str().unwrap()).unwrap();
    let (s, g) = (
        npuzzle::parse_board(START, None).unwrap(),
        npuzzle::parse_board(GOAL, None).unwrap(),
    );
    assert!(npuzzle::verify_path(&s, &g, &path));
    assert_eq!(greedy["optimal"].as_bool(), Some(path.len() == 5));
    let text = stdout_of(&["trace", START, "--goal", GOAL, "--sets"]);
    for set in ["rank bit array", "hash set", "ordered set"] {
        assert!(text.contains(set), "{text}");
    }
    assert_eq!(text.lines().count(), 4, "{text}");
}
