//! `solve --checkpoint`: a search killed (SIGKILL) at random moments and
//! resumed each time ends with the length and the node count of one never
//! killed; bad checkpoints are refused with their exit statuses.

use crate::support::cli::{npuzzle, npuzzle_process};
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A 24-puzzle of 64 moves, a few seconds of IDA* with linear conflicts
/// (`npuzzle random --size 5x5 --moves 100 --seed 5`, its fourth line).
const BOARD: &str = "6 14 0 15 5 2 13 3 1 9 7 18 20 4 10 21 12 24 8 23 11 17 16 22 19";

fn args(ckpt: &Path, resume: bool) -> Vec<String> {
    let mut a: Vec<String> = [
        "solve",
        BOARD,
        "--algo",
        "idastar",
        "--heuristic",
        "linear-conflict",
        "--path",
        "--stats",
        "--checkpoint-every",
        "0.05",
        "--checkpoint",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    a.push(ckpt.display().to_string());
    if resume {
        a.push("--resume".into());
    }
    a
}

/// The answer's lines: the count, the path, and the nodes expanded.
fn answer(stdout: &str) -> (String, String, String) {
    let mut lines = stdout.lines();
    let moves = lines.next().unwrap_or_default().to_string();
    let path = lines.next().unwrap_or_default().to_string();
    let nodes = stdout
        .lines()
        .find(|l| l.starts_with("nodes expanded:"))
        .unwrap_or_default()
        .to_string();
    (moves, path, nodes)
}

#[test]
fn a_search_killed_at_random_moments_and_resumed_ends_as_one_never_killed() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("k.ckpt");
    let t_whole = Instant::now();
    let whole = npuzzle()
        .args(args(&dir.path().join("whole.ckpt"), false))
        .output()
        .unwrap();
    // Kill moments are fractions of the uninterrupted run on this very
    // machine, not fixed times: a run killed at a fraction `k` has done
    // about `k` of the work, so two kills at a quarter at most come before
    // the end however fast the machine (and with room for the runs to go
    // twice as fast as the measured one, other tests running beside it).
    let whole_time = t_whole.elapsed();
    assert!(
        whole.status.success(),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let want = answer(&String::from_utf8_lossy(&whole.stdout));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(24);
    let mut kills = 0;
    let mut last = None;
    for _ in 0..6 {
        let mut child = npuzzle_process()
            .args(args(&ckpt, ckpt.exists()))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let at = whole_time.mul_f64(rng.gen_range(0.05..0.25));
        let t0 = Instant::now();
        while t0.elapsed() < at && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(10));
        }
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        let out = child.wait_with_output().unwrap();
        if out.status.success() {
            last = Some(out);
            break;
        }
    }
    let out = match last {
        Some(out) => out,
        None => npuzzle().args(args(&ckpt, ckpt.exists())).output().unwrap(),
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        kills >= 2,
        "{kills} kills: the search was not long enough to test"
    );
    assert_eq!(
        answer(&String::from_utf8_lossy(&out.stdout)),
        want,
        "{stderr}"
    );
    assert!(!ckpt.exists(), "a finished search removes its checkpoint");
    // the path solves the board (replayed by the command a user would use)
    npuzzle()
        .args(["verify", BOARD, &want.1])
        .assert()
        .success();
}

#[test]
fn bad_checkpoints_are_refused_with_their_statuses() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("k.ckpt");
    std::fs::write(&ckpt, "npuzzle IDA* checkpoint 1\n{\"version\":1}\n").unwrap();
    let out = npuzzle().args(args(&ckpt, true)).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is damaged: it is truncated"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&ckpt).unwrap(),
        "npuzzle IDA* checkpoint 1\n{\"version\":1}\n"
    );
    // no file to resume
    let none = dir.path().join("none.ckpt");
    let out = npuzzle().args(args(&none, true)).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot read checkpoint"), "{err}");
    // a directory that does not exist: the environment's fault, at once
    let nowhere = dir.path().join("no-such-dir").join("k.ckpt");
    let out = npuzzle().args(args(&nowhere, false)).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot write checkpoint") && err.contains("no-such-dir"),
        "{err}"
    );
    // where no checkpoint is kept
    let out = npuzzle()
        .args(["solve", "1 2 3 4 5 6 7 0 8", "--all", "--checkpoint"])
        .arg(&ckpt)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--all keeps none"));
}

#[test]
fn a_budget_stop_keeps_the_checkpoint_and_says_how_to_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("k.ckpt");
    let out = npuzzle()
        .args(args(&ckpt, false))
        .args(["--max-nodes", "200000"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("the same command with --resume goes on"),
        "{err}"
    );
    assert!(ckpt.exists());
    let out = npuzzle()
        .args(args(&ckpt, true))
        .args(["--max-nodes", "400000"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    // the node budget counts the nodes before the resume too
    assert!(err.contains("after 400000 nodes expanded"), "{err}");
}

/// The table's lines of a `bench` run, without the seconds.
fn table(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().take(5).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn bench_stopped_inside_an_instance_resumes_with_the_rows_it_had() {
    let dir = tempfile::tempdir().unwrap();
    // Korf's instances 2 and 1 (1.4 M and 2.8 M nodes with linear conflicts)
    let file = dir.path().join("two.txt");
    let korf =
        std::fs::read_to_string(crate::support::cli::root().join("data/korf100.txt")).unwrap();
    let lines: Vec<&str> = korf.lines().filter(|l| !l.starts_with('#')).collect();
    std::fs::write(&file, format!("{}\n{}\n", lines[1], lines[0])).unwrap();
    let ckpt = dir.path().join("b.ckpt");
    let bench = |extra: &[&str]| {
        npuzzle()
            .arg("bench")
            .arg(&file)
            .args(["--algo", "idastar", "--heuristic", "linear-conflict"])
            .args(extra)
            .output()
            .unwrap()
    };
    let whole = bench(&[]);
    assert!(whole.status.success());
    let want = table(&String::from_utf8_lossy(&whole.stdout));
    assert_eq!(want.len(), 2, "{want:?}");
    let c = ckpt.to_str().unwrap();
    let first = bench(&["--checkpoint", c, "--max-nodes", "2000000"]);
    assert_eq!(first.status.code(), Some(3));
    assert_eq!(table(&String::from_utf8_lossy(&first.stdout)), want[..1]);
    let rest = bench(&["--checkpoint", c, "--resume"]);
    let err = String::from_utf8_lossy(&rest.stderr);
    assert!(rest.status.success(), "{err}");
    assert_eq!(table(&String::from_utf8_lossy(&rest.stdout)), want, "{err}");
    assert!(!ckpt.exists() && !dir.path().join("b.ckpt.rows").exists());
}
