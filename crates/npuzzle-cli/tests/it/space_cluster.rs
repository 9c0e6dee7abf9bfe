//! `npuzzle space --engine timely` as several processes on 127.0.0.1 that
//! do not go as planned: processes asked different things, a peer killed
//! mid-search, a peer that never comes, bad hostfiles, too many workers,
//! and what must stay JSON alone on standard output.

use crate::support::cli;
use crate::support::ports::{free_ports, hostfile};
use crate::support::procs::{cluster_process, wait};

use cli::npuzzle;
use predicates::prelude::*;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Output};
use std::sync::mpsc;
use std::time::Duration;

/// Far more than any of these runs takes; only a hang reaches it.
const LIMIT: Duration = Duration::from_secs(60);

fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("space-cluster-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("a temporary directory")
}

/// Process `i` of `n` of `npuzzle space --engine timely ARGS`.
fn spawn(hosts: &Path, n: usize, i: usize, args: &[&str]) -> Child {
    cluster_process(&["space"], hosts, n, i, args)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The one error line of a failed run (the first line of stderr only
/// says what the search needs); asserts there is nothing else, so no
/// panic message or backtrace.
fn error_line(out: &Output) -> String {
    let text = stderr(out);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("npuzzle: space: "))
        .collect();
    assert_eq!(lines.len(), 1, "one error line, not:\n{text}");
    assert!(!text.contains("panicked"), "{text}");
    assert!(!text.contains("backtrace"), "{text}");
    lines[0].to_string()
}

/// Two processes of `npuzzle space`, each with its own arguments.
fn pair(first: &[&str], second: &[&str]) -> (Output, Output, Vec<String>) {
    let dir = temp_dir();
    let (hosts, addresses) = hostfile(dir.path(), 2);
    let zero = spawn(&hosts, 2, 0, first);
    let one = spawn(&hosts, 2, 1, second);
    (wait(zero, LIMIT), wait(one, LIMIT), addresses)
}

#[test]
fn processes_asked_different_things_refuse_with_the_same_message() {
    for (first, second, what) in [
        (
            &["--size", "2x4"][..],
            &["--size", "2x5"][..],
            "--size: 2x4 and 2x5",
        ),
        (
            &["--size", "2x4", "--workers", "1"],
            &["--size", "2x4", "--workers", "2"],
            "--workers: 1 and 2",
        ),
        (
            &["--size", "2x4"],
            &["--size", "2x4", "--goal", "blank-first"],
            "--goal",
        ),
        (
            &["--size", "2x4"],
            &[
                "--size",
                "2x4",
                "--checkpoint",
                "/nonexistent/c",
                "--resume",
            ],
            "checkpointing: none and resume",
        ),
        (
            &["--size", "2x4"],
            &["--size", "2x4", "--metric", "mtm"],
            "--metric: stm and mtm",
        ),
    ] {
        let (zero, one, _) = pair(first, second);
        assert_eq!(zero.status.code(), Some(2), "{what}: {}", stderr(&zero));
        assert_eq!(one.status.code(), Some(2), "{what}: {}", stderr(&one));
        let (m0, m1) = (error_line(&zero), error_line(&one));
        assert_eq!(m0, m1);
        assert!(m0.contains("processes 0 and 1 disagree on"), "{m0}");
        assert!(m0.contains(what), "{what}: {m0}");
        assert!(zero.stdout.is_empty() && one.stdout.is_empty());
    }
}

#[test]
fn a_different_process_count_is_refused_by_the_processes_that_meet() {
    let dir = temp_dir();
    let (hosts, _) = hostfile(dir.path(), 2);
    let three = dir.path().join("three");
    let mut text = std::fs::read_to_string(&hosts).unwrap();
    text.push_str(&format!("127.0.0.1:{}\n", free_ports(1)[0]));
    std::fs::write(&three, text).unwrap();
    let zero = spawn(&hosts, 2, 0, &["--size", "2x3"]);
    let one = spawn(&three, 3, 1, &["--size", "2x3"]);
    let (zero, one) = (wait(zero, LIMIT), wait(one, LIMIT));
    for out in [&zero, &one] {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
        assert!(error_line(out).contains("disagree on --processes: 2 and 3"));
    }
}

#[test]
fn agreeing_processes_print_json_alone() {
    let local = npuzzle()
        .args(["space", "--size", "2x4", "--list", "3", "--json"])
        .output()
        .unwrap();
    let local: serde_json::Value = serde_json::from_slice(&local.stdout).unwrap();
    for report in [false, true] {
        let mut args = vec!["--size", "2x4", "--list", "3", "--json", "--workers", "1"];
        if report {
            args.push("--report");
        }
        let (zero, one, addresses) = pair(&args, &args);
        assert!(zero.status.success(), "{}", stderr(&zero));
        assert!(one.status.success(), "{}", stderr(&one));
        // the whole of standard output is one JSON document
        let v: serde_json::Value = serde_json::from_slice(&zero.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&zero.stdout)));
        assert_eq!(v["total"], 20160);
        assert_eq!(v["engine"], "timely");
        assert!(one.stdout.is_empty());
        assert_eq!(v["counts"], local["counts"]);
        assert_eq!(v["antipodes"], local["antipodes"]);
        // --report says who connected, on stderr
        let said = stderr(&zero).contains(&format!("process 1 ({}) connected", addresses[1]));
        assert_eq!(said, report, "{}", stderr(&zero));
    }
}

#[test]
fn two_processes_count_pushes_as_one_does() {
    let args = ["--size", "3x3", "--metric", "mtm", "--json", "--list", "3"];
    let local = npuzzle().arg("space").args(args).output().unwrap();
    let local: serde_json::Value = serde_json::from_slice(&local.stdout).unwrap();
    let (zero, one, _) = pair(&args, &args);
    assert!(zero.status.success(), "{}", stderr(&zero));
    assert!(one.status.success(), "{}", stderr(&one));
    let v: serde_json::Value = serde_json::from_slice(&zero.stdout).unwrap();
    assert_eq!(v["metric"], "mtm");
    assert_eq!(v["counts"], local["counts"]);
    assert_eq!(v["antipodes"], local["antipodes"]);
    // the published radius of the 8-puzzle in pushes
    assert_eq!(v["counts"].as_array().unwrap().len(), 25);
}

#[test]
fn a_peer_that_never_comes_ends_the_wait_at_the_timeout() {
    let dir = temp_dir();
    let (hosts, addresses) = hostfile(dir.path(), 2);
    for (i, absent) in [(0, 1), (1, 0)] {
        let out = wait(
            spawn(&hosts, 2, i, &["--size", "2x3", "--timeout", "1"]),
            // --timeout 1 used to wait 61 s
            Duration::from_secs(30),
        );
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        let line = error_line(&out);
        assert!(line.contains("never came"), "{line}");
        assert!(
            line.contains(&format!("process {absent} ({})", addresses[absent])),
            "{line}"
        );
    }
}

/// Reads a child's stderr lines as they come.
fn lines_of(child: &mut Child) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// What a process says when its peer is killed mid-search.
struct Killed {
    /// The survivor's exit, and its stderr lines after the kill.
    out: Output,
    rest: Vec<String>,
    addresses: Vec<String>,
    hosts: PathBuf,
}

/// Two processes of `ARGS --verbose`; `victim` is killed (SIGKILL) once
/// the other has expanded `level`.
fn kill_mid_search(dir: &Path, victim: usize, level: u32, args: &[&str]) -> Killed {
    let (hosts, addresses) = hostfile(dir, 2);
    let mut args = args.to_vec();
    args.push("--verbose");
    let mut procs = [spawn(&hosts, 2, 0, &args), spawn(&hosts, 2, 1, &args)];
    let lines = lines_of(&mut procs[1 - victim]);
    let mark = format!("level {level} expanded");
    let mut seen = Vec::new();
    loop {
        let line = lines
            .recv_timeout(LIMIT)
            .unwrap_or_else(|_| panic!("no '{mark}' in {seen:?}"));
        let done = line.contains(&mark);
        seen.push(line);
        if done {
            break;
        }
    }
    procs[victim].kill().unwrap();
    let [a, b] = procs;
    let (killed, other) = if victim == 0 { (a, b) } else { (b, a) };
    drop(wait(killed, LIMIT));
    let out = wait(other, Duration::from_secs(30));
    // the reader stops at the end of the survivor's stderr
    let rest = lines.iter().collect();
    Killed {
        out,
        rest,
        addresses,
        hosts,
    }
}

#[test]
fn a_peer_killed_mid_search_ends_the_other_with_one_line() {
    for victim in [1, 0] {
        let dir = temp_dir();
        let ckpt = dir.path().join("c");
        // 3x4 takes many seconds here; level 12 of 53 is done early, and
        // its checkpoint is written
        let args = ["--size", "3x4", "--workers", "1", "--checkpoint"];
        let args = [&args[..], &[ckpt.to_str().unwrap()]].concat();
        let k = kill_mid_search(dir.path(), victim, 12, &args);
        assert_eq!(k.out.status.code(), Some(1), "{:?}", k.rest);
        let errors: Vec<&String> = k
            .rest
            .iter()
            .filter(|l| !l.starts_with("npuzzle: space: "))
            .collect();
        assert_eq!(errors.len(), 1, "one error line, not {:?}", k.rest);
        let line = errors[0];
        let lost = format!("npuzzle: lost process {victim} ({})", k.addresses[victim]);
        assert!(line.starts_with(&lost), "{line}");
        assert!(line.contains("its connection broke"), "{line}");
        assert!(line.contains("the checkpoint holds level"), "{line}");
        assert!(k.out.stdout.is_empty());
    }
}

use npuzzle_testkit::published;

#[test]
#[ignore = "a minute or more in the test profile; cargo test --release -p npuzzle-cli --test it -- --ignored space_cluster::"]
fn a_run_killed_while_checkpointing_resumes_from_one_checkpoint() {
    let dir = temp_dir();
    let ckpt = dir.path().join("c");
    let ckpt = ckpt.to_str().unwrap();
    // every level saved; the kill falls at the widest levels, most likely
    // while the parts are being written
    let args = ["--size", "3x4", "--workers", "1", "--checkpoint", ckpt];
    let k = kill_mid_search(dir.path(), 1, 30, &args);
    assert_eq!(k.out.status.code(), Some(1), "{:?}", k.rest);
    let resume = [&args[..], &["--resume", "--csv"]].concat();
    let zero = spawn(&k.hosts, 2, 0, &resume);
    let one = spawn(&k.hosts, 2, 1, &resume);
    let (zero, one) = (wait(zero, LIMIT * 10), wait(one, LIMIT * 10));
    assert!(zero.status.success(), "{}", stderr(&zero));
    assert!(one.status.success(), "{}", stderr(&one));
    let counts: Vec<u64> = String::from_utf8(zero.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts, published::distribution("3x4").unwrap());
}

#[test]
fn hostfiles_are_checked_line_by_line() {
    let dir = temp_dir();
    let [a, b, c] = free_ports(3)[..] else {
        unreachable!()
    };
    let (a, b, c) = (
        format!("127.0.0.1:{a}"),
        format!("127.0.0.1:{b}"),
        format!("127.0.0.1:{c}"),
    );
    let refused = [
        (
            format!("{a}\n{b}\n{c}\n"),
            "line 3: one address more than the 2 processes",
        ),
        (
            format!("{a}\n# note\n{a}\n"),
            &format!("line 3: {a} is already on line 1"),
        ),
        (format!("{a}\nfoo\n"), "line 2: 'foo' is not host:port"),
        (format!("{a}\n{b} {c}\n"), "line 2:"),
        (format!("{a}\nhost:0\n"), "line 2:"),
        (format!("{a}\n"), "1 address for 2 processes"),
    ];
    let path = dir.path().join("hosts");
    for (text, what) in refused {
        std::fs::write(&path, text).unwrap();
        npuzzle()
            .args(["space", "--size", "2x3", "--engine", "timely"])
            .args(["--processes", "2", "--process", "0", "--hostfile"])
            .arg(&path)
            .timeout(LIMIT)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(what));
    }
    // comments and blank lines are skipped
    std::fs::write(&path, format!("# the cluster\n\n{a}\n  # spare\n{b}\n\n")).unwrap();
    let args = ["--size", "2x3", "--csv", "--workers", "1"];
    let zero = spawn(&path, 2, 0, &args);
    let one = spawn(&path, 2, 1, &args);
    let (zero, one) = (wait(zero, LIMIT), wait(one, LIMIT));
    assert!(zero.status.success(), "{}", stderr(&zero));
    assert!(one.status.success(), "{}", stderr(&one));
    assert!(String::from_utf8(zero.stdout).unwrap().ends_with("21,1\n"));
}

#[test]
fn worker_counts_are_capped_at_the_cores() {
    for engine in ["local", "timely"] {
        for workers in ["100000", "2000"] {
            npuzzle()
                .args(["space", "--size", "2x3", "--csv", "--engine", engine])
                .args(["--workers", workers])
                .timeout(LIMIT)
                .assert()
                .success()
                .stdout(predicate::str::ends_with("21,1\n"))
                .stderr(predicate::str::contains(format!(
                    "--workers {workers} is more than this machine's"
                )));
        }
    }
    // and processes at 1024
    npuzzle()
        .args(["space", "--size", "2x3", "--engine", "timely"])
        .args(["--processes", "100000", "--process", "1"])
        .timeout(LIMIT)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("more than 1024"));
}

#[test]
fn timely_options_are_refused_with_the_local_engine() {
    for args in [
        &["--processes", "2"][..],
        &["--process", "1", "--processes", "2"],
        &["--hostfile", "hosts"],
        &["--report"],
    ] {
        npuzzle()
            .args(["space", "--size", "2x3"])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is an option of --engine timely"));
    }
}
