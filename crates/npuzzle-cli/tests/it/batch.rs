//! `npuzzle batch` and `npuzzle random`, end to end.

use crate::support::cli;
use cli::*;

use npuzzle::verify_path;
use npuzzle::TableSet;
use npuzzle::{parse_path, Board, Scan, Shape};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// Runs `npuzzle` with arguments and standard input; (stdout, stderr, status).
fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = npuzzle().args(args).write_stdin(stdin).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn random(args: &[&str]) -> String {
    let (out, err, code) = run(&[&["random"], args].concat(), "");
    assert_eq!(code, 0, "{err}");
    out
}

const MIXED: &str = "\
# instances for the test
1 2 3 4 5 6 7 8 0

2 8 3 1 6 4 7 0 5 | 1 2 3 8 0 4 7 6 5
1 2 3 4 5 6 8 7 0
1 2 3 4 5 6 7 8 9
\t# indented comment
2 6 4 1 3 7 0 5 8 8 1 5 7 3 6 4 0 2
283164705 | spiral
not a board
1 2 3 0 | 1 2 0 3
";

#[test]
fn one_line_per_instance_in_order_and_status_1_on_errors() {
    let (out, err, code) = run(&["batch"], MIXED);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert_eq!(lines[0], "0");
    assert_eq!(lines[1], "5");
    assert_eq!(lines[2], "-1");
    assert!(
        lines[3].starts_with("error: line 6: start board: no blank"),
        "{}",
        lines[3]
    );
    assert_eq!(lines[4], "31");
    assert_eq!(lines[5], "5");
    assert!(
        lines[6].starts_with("error: line 10: start board: 'not'"),
        "{}",
        lines[6]
    );
    assert_eq!(lines[7], "1");
    assert_eq!(code, 1);
    assert!(
        err.contains("6 answered (1 unreachable), 2 errors"),
        "summary: {err}"
    );
    // --quiet: no summary, but the failing status still has its reason
    let (out2, err2, _) = run(&["batch", "--quiet", "-"], MIXED);
    assert_eq!(out2, out);
    assert_eq!(
        err2,
        "npuzzle: batch: 2 instances of 8 failed (their lines say why)\n"
    );
}

#[test]
fn paths_count_start_and_jsonl() {
    let (out, _, code) = run(&["batch", "--path", "--count-start", "-q"], MIXED);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "1 ");
    let (moves, path) = lines[1].split_once(' ').unwrap();
    assert_eq!(moves, "6"); // seed 000 counts the start
    let start = npuzzle::parse_board("2 8 3 1 6 4 7 0 5", None).unwrap();
    let goal = Board::spiral(Shape::new(3, 3)).unwrap();
    assert!(verify_path(&start, &goal, &parse_path(path).unwrap()));
    assert_eq!(lines[2], "-1");

    let (out, _, _) = run(&["batch", "--jsonl", "--path", "-q"], MIXED);
    let objs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let line_numbers: Vec<u64> = objs.iter().map(|o| o["line"].as_u64().unwrap()).collect();
    assert_eq!(line_numbers, [2, 4, 5, 6, 8, 9, 10, 11]);
    assert_eq!(objs[1]["moves"], 5);
    assert_eq!(objs[1]["solvable"], true);
    assert_eq!(objs[1]["path"].as_str().unwrap().len(), 5);
    assert_eq!(objs[2]["solvable"], false);
    assert!(objs[2]["path"].is_null());
    assert!(objs[3]["error"].as_str().unwrap().contains("no blank"));
}

#[test]
fn same_output_with_one_job_and_four() {
    let mut input = random(&["--pairs", "-n", "20000", "--seed", "3"]);
    input.push_str("\n# comment\nbad\n1 2 3 0\n");
    let (one, _, c1) = run(&["batch", "--path", "--jobs", "1"], &input);
    let (four, _, c4) = run(&["batch", "--path", "--jobs", "4"], &input);
    assert_eq!(one.lines().count(), 20002);
    assert_eq!(one, four);
    assert_eq!((c1, c4), (1, 1));
}

#[test]
fn shards_merged_equal_the_unsharded_run() {
    let mut input = String::from("# header\n\n");
    input.push_str(&random(&["--pairs", "-n", "3000", "--seed", "4"]));
    input.push_str("oops\n");
    let (whole, _, _) = run(&["batch", "--jsonl", "-q"], &input);
    for n in [2, 5] {
        let mut merged: Vec<(u64, String)> = Vec::new();
        for i in 0..n {
            let shard = format!("{i}/{n}");
            let (part, _, _) = run(&["batch", "--jsonl", "-q", "--shard", &shard], &input);
            for l in part.lines() {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                merged.push((v["line"].as_u64().unwrap(), l.to_string()));
            }
        }
        merged.sort();
        let merged: Vec<String> = merged.into_iter().map(|(_, l)| l + "\n").collect();
        assert_eq!(merged.concat(), whole, "{n} shards");
    }
    for bad in ["2/2", "0/0", "x"] {
        let (_, err, code) = run(&["batch", "--shard", bad], "");
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("shard"), "{err}");
    }
}

/// Every answer checked: -1 exactly when parity forbids, and otherwise a
/// path that `verify_path` accepts, as long as the complete table says.
fn check_against_tables(shape: Shape, size_arg: &str) {
    let input = random(&["--pairs", "-n", "3000", "--seed", "5", "--size", size_arg]);
    let (out, err, code) = run(&["batch", "--path", "--size", size_arg], &input);
    assert_eq!(code, 0, "{err}");
    let mut scan = Scan::new();
    let mut answered = 0;
    for (line, answer) in input.lines().zip(out.lines()) {
        answered += 1;
        let (s, g) = scan.start_and_goal(line, Some(shape)).unwrap();
        let g = g.unwrap();
        if !s.can_reach(&g) {
            assert_eq!(answer, "-1", "{line}");
            continue;
        }
        let (moves, path) = answer.split_once(' ').unwrap();
        let path = parse_path(path).unwrap();
        assert!(verify_path(&s, &g, &path), "{line} -> {answer}");
        assert_eq!(moves.parse::<usize>().unwrap(), path.len());
        let want = TableSet::global().distance(shape, s.tiles(), g.tiles());
        assert_eq!(want, Some(path.len() as u32), "{line}");
    }
    assert_eq!(answered, 3000);
}

#[test]
fn answers_agree_with_the_tables_on_3x3() {
    check_against_tables(Shape::new(3, 3), "3x3");
}

#[test]
fn answers_agree_with_the_tables_on_2x4() {
    check_against_tables(Shape::new(2, 4), "2x4");
}

#[test]
fn random_is_deterministic_and_solvable() {
    let a = random(&["--size", "4x4", "-n", "200", "--seed", "11"]);
    assert_eq!(a, random(&["--size", "4x4", "-n", "200", "--seed", "11"]));
    assert_ne!(a, random(&["--size", "4x4", "-n", "200", "--seed", "12"]));
    let goal = Board::blank_last(Shape::new(4, 4)).unwrap();
    for line in a.lines() {
        let b = npuzzle::parse_board(line, None).unwrap();
        assert!(b.can_reach(&goal), "{line}");
    }
    // another goal is written on every line, so batch needs no --goal
    let s = random(&["--goal", "spiral", "-n", "500", "--seed", "1"]);
    let (out, _, code) = run(&["batch", "-q"], &s);
    assert_eq!(code, 0);
    assert!(out.lines().all(|l| l != "-1"));
    assert_eq!(out.lines().count(), 500);
    // pairs include unreachable goals
    let p = random(&["--pairs", "-n", "500", "--seed", "1", "--size", "2x3"]);
    let (out, _, _) = run(&["batch", "-q", "--size", "2x3"], &p);
    let unreachable = out.lines().filter(|l| *l == "-1").count();
    assert!(unreachable > 100 && unreachable < 400, "{unreachable}");
    // rectangular lines mark their rows, so they read back without --size
    let (plain, _, code) = run(&["batch", "-q"], &p);
    assert_eq!(code, 0);
    assert_eq!(plain, out);
    assert!(p.lines().all(|l| l.matches(" / ").count() == 2), "{p}");
    let tall = random(&["-n", "20", "--seed", "2", "--size", "5x2"]);
    let (out, _, code) = run(&["batch", "-q"], &tall);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().count(), 20);
}

#[test]
fn random_walks_stay_within_k_moves() {
    for k in ["0", "3", "12", "25"] {
        let text = random(&[
            "--moves",
            k,
            "-n",
            "300",
            "--seed",
            "2",
            "--goal",
            "blank-first",
        ]);
        let (out, _, code) = run(&["batch", "-q"], &text);
        assert_eq!(code, 0);
        let k: u32 = k.parse().unwrap();
        for d in out.lines() {
            let d: u32 = d.parse().unwrap();
            assert!(d <= k && d % 2 == k % 2, "k={k} d={d}");
        }
    }
}

#[test]
fn a_closed_pipe_is_an_error_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pairs.txt");
    std::fs::write(&file, random(&["--pairs", "-n", "300000", "--seed", "6"])).unwrap();
    let mut child = npuzzle_process()
        .args(["batch", "--path"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    {
        let mut out = BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut first).unwrap();
    } // our end of the pipe closes here
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!first.is_empty());
    assert!(!err.contains("panic"), "{err}");
    // the same one line, and status 1, from every command
    assert_eq!(
        err.trim_end(),
        "npuzzle: standard output was closed by its reader before everything was written"
    );
    assert_eq!(out.status.code(), Some(1), "{err}");

    let mut child = npuzzle_process()
        .args(["random", "-n", "5000000", "--seed", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        "npuzzle: standard output was closed by its reader before everything was written"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// Korf's instance 3 with Manhattan distance: 566 million nodes, far more
/// than a test waits for.
const HARD_LINE: &str = "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15";

#[test]
fn answers_before_a_slow_line_are_written_at_once() {
    let easy = random(&["--size", "3x3", "-n", "50000", "--seed", "12"]);
    let mut input = easy.clone();
    input.push_str(HARD_LINE);
    input.push('\n');
    input.push_str(&random(&["--size", "3x3", "-n", "100", "--seed", "13"]));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.txt");
    std::fs::write(&file, input).unwrap();
    let t = std::time::Instant::now();
    let mut child = npuzzle_process()
        .args([
            "batch",
            "-q",
            "--algo",
            "idastar",
            "--heuristic",
            "manhattan",
        ])
        .args(["--goal", "blank-first", "--timeout", "600"])
        .arg(&file)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut got = 0;
    let mut line = String::new();
    while got < 50_000 {
        line.clear();
        if out.read_line(&mut line).unwrap() == 0 {
            break;
        }
        got += 1;
    }
    let waited = t.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(got, 50_000, "the answers before the slow line");
    // 50,000 small searches take a few seconds; the slow line minutes.
    assert!(waited < std::time::Duration::from_secs(120), "{waited:?}");
}

#[test]
fn a_slow_line_spends_its_own_budget_and_the_batch_goes_on() {
    let input = format!("0 1 2 3\n{HARD_LINE}\n1 0 2 3\n");
    let (out, _, code) = run(
        &[
            "batch",
            "-q",
            "--algo",
            "idastar",
            "--heuristic",
            "manhattan",
            "--timeout",
            "0.5",
            "--goal",
            "blank-first",
        ],
        &input,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "0");
    assert!(
        lines[1].starts_with("error: line 2: idastar stopped: its time budget (0.5 s)"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "1");
    assert_eq!(code, 1);
}

#[test]
fn absurd_job_counts_still_answer() {
    let (out, _, code) = run(&["batch", "-q", "--jobs", "65535"], "1 2 3 0\n");
    assert_eq!((out.as_str(), code), ("0\n", 0));
}

#[test]
fn unreadable_input_is_status_2_naming_the_file() {
    let (out, err, code) = run(&["batch", "/no/such/instances.txt"], "");
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(err.contains("/no/such/instances.txt"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (_, err, code) = run(&["batch", d], "");
    assert_eq!(code, 2);
    assert!(err.contains("directory"), "{err}");
}

#[test]
fn empty_input_and_binary_lines() {
    let (out, err, code) = run(&["batch"], "");
    assert_eq!((out.as_str(), code), ("", 0));
    assert!(err.contains("0 answered"), "{err}");
    let (out, _, code) = run(&["batch", "-q"], "\n\n# nothing\n");
    assert_eq!((out.as_str(), code), ("", 0));
    // invalid UTF-8 and a huge line are that line's error
    let mut child = npuzzle_process()
        .args(["batch", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"1 2 3 \xff 0\n").unwrap();
        stdin.write_all(&vec![b'1'; 200_000]).unwrap();
        stdin.write_all(b"\n1 2 3 0\n").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("error: line 1: ") && lines[0].contains("UTF-8"));
    assert!(lines[1].starts_with("error: line 2: ") && lines[1].contains("longer"));
    assert_eq!(lines[2], "0");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn per_instance_algorithm_errors_do_not_stop_the_batch() {
    // A budget of one node cannot solve this 4x4 instance; whatever the
    // algorithm says (budget spent, or not available), the line gets an
    // error and the next line is still answered.
    let input = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n1 2 3 4 5 6 7 8 0\n";
    let (out, _, code) = run(
        &[
            "batch",
            "-q",
            "--algo",
            "idastar",
            "--max-nodes",
            "1",
            "--goal",
            "blank-first",
        ],
        input,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("error: line 1: "), "{out}");
    assert_eq!(code, 1);
}

/// The ten Korf (1985) instances with the fewest IDA* nodes, as a batch,
/// answered with their published optimal lengths (heavy: builds the 6-6-3
/// pattern databases); run with `cargo test --release -- --ignored korf`.
#[test]
#[ignore]
fn korf_ten_easiest_as_a_batch() {
    let data = include_str!("../../../../data/korf100.txt");
    let mut rows: Vec<(u64, String, String)> = data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[17].parse().unwrap(), f[..16].join(" "), f[16].to_string())
        })
        .collect();
    rows.sort();
    rows.truncate(10);
    let input: String = rows.iter().map(|r| r.1.clone() + "\n").collect();
    let (out, err, code) = run(
        &[
            "batch",
            "--algo",
            "idastar",
            "--goal",
            "blank-first",
            "--path",
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    for ((_, start, want), got) in rows.iter().zip(out.lines()) {
        let (moves, path) = got.split_once(' ').unwrap();
        assert_eq!(moves, want, "{start}");
        let s = npuzzle::parse_board(start, None).unwrap();
        let g = Board::blank_first(Shape::new(4, 4)).unwrap();
        assert!(verify_path(&s, &g, &parse_path(path).unwrap()));
    }
}

#[test]
fn answers_each_line_as_it_arrives() {
    // A producer that waits for each answer before writing the next line
    // must not deadlock: the batch answers what it has instead of waiting
    // for a full chunk.
    let mut child = npuzzle_process()
        .args(["batch", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for (line, want) in [("1 2 3 4 5 6 7 0 8", "1"), ("1 2 3 4 5 6 0 7 8", "2")] {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        assert_eq!(answer.trim_end(), want);
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
