//! `npuzzle space` as a user runs it: the outputs, the refusals and their
//! exit statuses, and the timely engine as two processes on 127.0.0.1.

use crate::support::cli;
use npuzzle_testkit::published;

use cli::npuzzle;
use predicates::prelude::*;

fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("space-cli-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("a temporary directory")
}

/// The counts column of the plain output.
fn plain_counts(stdout: &str) -> Vec<u64> {
    stdout
        .lines()
        .skip(1)
        .map_while(|l| {
            let mut w = l.split_whitespace();
            let _distance: u64 = w.next()?.parse().ok()?;
            w.next()?.parse().ok()
        })
        .collect()
}

#[test]
fn plain_output_has_the_table_and_the_summary() {
    let out = npuzzle().args(["space", "--size", "2x4"]).output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        plain_counts(&stdout),
        published::distribution("2x4").unwrap()
    );
    assert!(
        stdout.contains("total: 20160 positions (8!/2)\n"),
        "{stdout}"
    );
    assert!(stdout.contains("radius: 36\nantipodes: 1\n"), "{stdout}");
    assert!(stdout.contains("mean distance: 22.678\n"), "{stdout}");
    // the memory it needs is said first, on stderr
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("20160 positions") && stderr.contains("two bits each"),
        "{stderr}"
    );
}

#[test]
fn json_and_csv() {
    let out = npuzzle()
        .args([
            "space", "--size", "3x3", "--goal", "spiral", "--json", "--list", "500",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (radius, count) = published::other_blank_start("in centre");
    assert_eq!(v["radius"], radius);
    assert_eq!(v["antipode_count"], count);
    assert_eq!(v["antipodes"].as_array().unwrap().len() as u64, count);
    assert_eq!(v["total"], 181440);
    assert_eq!(v["goal"], serde_json::json!([1, 2, 3, 8, 0, 4, 7, 6, 5]));

    let out = npuzzle()
        .args(["space", "--size", "2x3", "--csv"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("distance,positions"));
    let counts: Vec<u64> = lines
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts, published::distribution("2x3").unwrap());
}

#[test]
fn plot_writes_an_svg_bar_per_distance() {
    let dir = temp_dir();
    let svg = dir.path().join("d.svg");
    npuzzle()
        .args(["space", "--size", "2x3", "--plot"])
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..80.min(text.len())]);
    // the background plus one bar per distance 0..=21
    assert!(text.matches("<rect").count() >= 23, "{text}");
    assert!(text.contains("radius 21"));
}

#[test]
fn refusals_and_their_exit_statuses() {
    // a size that does not fit: 2, with the figure
    npuzzle()
        .args(["space", "--size", "4x4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("2.4 TiB"));
    npuzzle()
        .args(["space", "--size", "3x4", "--max-memory", "10M"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("57.1 MiB").and(predicate::str::contains("10.0 MiB")));
    npuzzle()
        .args(["space", "--size", "3x4", "--max-memory", "lots"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'lots' is not a size"));
    // files that cannot be written: 1, with the path and the OS error
    let dir = temp_dir();
    let missing = dir.path().join("missing").join("file");
    for flag in ["--checkpoint", "--plot"] {
        npuzzle()
            .args(["space", "--size", "2x2", flag])
            .arg(&missing)
            .assert()
            .code(1)
            .stderr(
                predicate::str::contains(missing.display().to_string())
                    .and(predicate::str::contains("No such file")),
            );
    }
    // --resume needs --checkpoint
    npuzzle()
        .args(["space", "--size", "2x2", "--resume"])
        .assert()
        .code(2);
    // counts out of range
    for args in [
        &["--list", "100001"][..],
        &["--workers", "0"],
        &["--processes", "0"],
        &["--processes", "2", "--process", "2"],
    ] {
        npuzzle()
            .args(["space", "--size", "2x2", "--engine", "timely"])
            .args(args)
            .assert()
            .code(2);
    }
    // a bad goal
    npuzzle()
        .args(["space", "--size", "2x2", "--goal", "1 2 3 4"])
        .assert()
        .code(2);
}

#[test]
fn checkpoint_resume_and_damage_from_the_command_line() {
    let dir = temp_dir();
    let ckpt = dir.path().join("2x5.ckpt");
    let full = npuzzle()
        .args(["space", "--size", "2x5", "--checkpoint"])
        .arg(&ckpt)
        .output()
        .unwrap();
    assert!(full.status.success());
    // the last checkpoint holds the last level, not yet expanded: resuming
    // from it finishes the search with the same output
    npuzzle()
        .args(["space", "--size", "2x5", "--resume", "--checkpoint"])
        .arg(&ckpt)
        .assert()
        .success()
        .stdout(String::from_utf8(full.stdout).unwrap())
        .stderr(
            predicate::str::contains("resuming from").and(predicate::str::contains("level 55")),
        );
    // another goal: refused, exit 2
    npuzzle()
        .args([
            "space",
            "--size",
            "2x5",
            "--goal",
            "blank-first",
            "--resume",
            "--checkpoint",
        ])
        .arg(&ckpt)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("it is for the goal"));
    // its level changed (which shifts every field after it): damaged, not
    // another search's
    let good = std::fs::read(&ckpt).unwrap();
    let mut bytes = good.clone();
    // magic, version, rows and columns, metric, the goal's ten tiles
    let level_at = 8 + 4 + 2 + 1 + 10;
    assert_eq!(bytes[level_at], 55);
    bytes[level_at] = 30;
    std::fs::write(&ckpt, &bytes).unwrap();
    npuzzle()
        .args(["space", "--size", "2x5", "--resume", "--checkpoint"])
        .arg(&ckpt)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("damaged: its CRC-32 does not match")
                .and(predicate::str::contains("holds words").not()),
        );
    // damaged: refused, exit 2
    let mut bytes = good;
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&ckpt, &bytes).unwrap();
    npuzzle()
        .args(["space", "--size", "2x5", "--resume", "--checkpoint"])
        .arg(&ckpt)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("damaged"));
    // no temporary file is left behind
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

#[test]
fn a_timeout_stops_with_status_3() {
    npuzzle()
        .args(["space", "--size", "2x6", "--timeout", "0.2"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("stopped while expanding level"));
    npuzzle()
        .args([
            "space",
            "--size",
            "2x6",
            "--timeout",
            "0.2",
            "--engine",
            "timely",
            "--workers",
            "2",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("stopped while expanding level"));
}

#[test]
fn timely_in_one_process_prints_what_local_prints() {
    let local = npuzzle()
        .args(["space", "--size", "3x3", "--list", "2"])
        .output()
        .unwrap();
    npuzzle()
        .args([
            "space",
            "--size",
            "3x3",
            "--list",
            "2",
            "--engine",
            "timely",
            "--workers",
            "2",
        ])
        .assert()
        .success()
        .stdout(String::from_utf8(local.stdout).unwrap());
    // checkpoints, one part per worker, and a resume from them
    let dir = temp_dir();
    let ckpt = dir.path().join("c");
    let timely = [
        "space",
        "--size",
        "3x3",
        "--list",
        "2",
        "--engine",
        "timely",
        "--workers",
        "2",
    ];
    let first = npuzzle()
        .args(timely)
        .arg("--checkpoint")
        .arg(&ckpt)
        .output()
        .unwrap();
    assert!(first.status.success());
    for part in ["c.0-of-2", "c.1-of-2"] {
        assert!(dir.path().join(part).exists(), "{part}");
    }
    npuzzle()
        .args(timely)
        .args(["--resume", "--checkpoint"])
        .arg(&ckpt)
        .assert()
        .success()
        .stdout(String::from_utf8(first.stdout).unwrap())
        .stderr(predicate::str::contains("resuming from"));
}

/// The timely engine as two processes on 127.0.0.1.
mod processes {
    use super::*;
    use crate::support::ports::free_ports;
    use crate::support::procs::wait;
    use cli::npuzzle_process;
    use std::process::Stdio;
    use std::time::Duration;

    /// `npuzzle space ARGS` as two timely processes of two workers each on
    /// 127.0.0.1; returns process 0's standard output (which is the
    /// result alone: nothing of the connecting goes there).
    fn two_processes(args: &[&str], limit: Duration) -> String {
        let dir = temp_dir();
        let hosts = dir.path().join("hosts");
        let [p0, p1] = free_ports(2)[..] else {
            unreachable!()
        };
        std::fs::write(&hosts, format!("127.0.0.1:{p0}\n127.0.0.1:{p1}\n")).unwrap();
        let spawn = |i: usize| {
            npuzzle_process()
                .args([
                    "space",
                    "--engine",
                    "timely",
                    "--workers",
                    "2",
                    "--processes",
                    "2",
                ])
                .args(["--process", &i.to_string(), "--hostfile"])
                .arg(&hosts)
                .args(args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let zero = spawn(0);
        let one = spawn(1);
        let out0 = wait(zero, limit);
        let out1 = wait(one, limit);
        assert!(
            out0.status.success(),
            "{}",
            String::from_utf8_lossy(&out0.stderr)
        );
        assert!(
            out1.status.success(),
            "{}",
            String::from_utf8_lossy(&out1.stderr)
        );
        assert!(out1.stdout.is_empty());
        String::from_utf8(out0.stdout).unwrap()
    }

    #[test]
    fn timely_as_two_processes_on_loopback_prints_what_local_prints() {
        for (size, goal) in [
            ("3x3", "blank-last"),
            ("3x3", "spiral"),
            ("2x5", "blank-first"),
        ] {
            let args = ["--size", size, "--goal", goal, "--list", "3"];
            let local = npuzzle().arg("space").args(args).output().unwrap();
            let got = two_processes(&args, Duration::from_secs(120));
            assert_eq!(
                got,
                String::from_utf8(local.stdout).unwrap(),
                "{size} {goal}"
            );
        }
    }

    #[test]
    #[ignore = "a minute or more in the test profile; cargo test --release -p npuzzle-cli --test it -- --ignored space_cli::"]
    fn timely_three_by_four_as_two_processes() {
        let got = two_processes(&["--size", "3x4", "--csv"], Duration::from_secs(900));
        let counts: Vec<u64> = got
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(counts, published::distribution("3x4").unwrap());
    }
}
