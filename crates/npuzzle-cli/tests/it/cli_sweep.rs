//! Every subcommand driven with generated arguments: sizes from 0x0 to far
//! beyond 16x16 for every option that takes a board size, boundary and
//! malformed numbers for every numeric option, empty and malformed boards,
//! goals, partitions and files. Every run must end with a documented status
//! (0, 1, 2 or 3) and, when not 0, an error on standard error: its last
//! line, starting `npuzzle:` (the lines before it, if any, the command's
//! own notes, starting `npuzzle`); never a panic (exit 101, "panicked at"), a signal or a hang
//! (a run still going after [`HANG`] is killed and fails the test).
//!
//! The table is generated (no randomness): each subcommand has a quick
//! baseline command line, and each case changes one option of it (one
//! factor at a time), so that a failure names the option at fault. Every
//! run has its own temporary directory as working directory, `HOME`,
//! `XDG_CACHE_HOME` and `--pdb-dir`; standard input is empty; standard
//! output is read and dropped, and closed after [`MAX_OUTPUT`] bytes (a
//! command asked for endless output then stops on the closed pipe).
//! Run with `--nocapture` for the tally of statuses.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A run still going after this long is a hang (generous: the machine
/// may be busy; every case is meant to end within a second or two).
const HANG: Duration = Duration::from_secs(20);
/// Standard output is closed after this many bytes.
const MAX_OUTPUT: usize = 16 << 20;

/// Board sizes, well-formed or not, for every option that takes one.
const SIZES: &[&str] = &[
    "0x0",
    "1x1",
    "1x2",
    "2x1",
    "2x2",
    "2x3",
    "3x3",
    "4x4",
    "5x5",
    "16x16",
    "17x17",
    "2x1000",
    "4096x4096",
    "4097x4097",
    "100000x1",
    "1x100000",
    "65536x65536",
    "18446744073709551616x2",
    "4294967296x4294967296",
    "-3x3",
    "3x-3",
    "3x",
    "x3",
    "3*3",
    "3",
    "",
    " ",
    "3x3x3",
    "3X3",
    "३x३",
];

/// Numbers for every numeric option: boundaries, beyond, malformed.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "255",
    "256",
    "257",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "-0",
    "0.5",
    "1e3",
    "NaN",
    "inf",
    "-inf",
    "1e309",
    "1e-320",
    "",
    " 1",
    "0x10",
    "one",
];

/// Byte sizes (`--max-memory`, `--pdb-memory`, `--pdb-disk`).
const BYTE_SIZES: &[&str] = &[
    "0",
    "1",
    "1K",
    "64M",
    "16E",
    "17E",
    "18446744073709551615",
    "18446744073709551616",
    "1.5G",
    "-1G",
    "NaNG",
    "infG",
    "1e309",
    "",
    "G",
    "8Q",
];

/// Boards (starts and goals), well-formed or not.
const BOARDS: &[&str] = &[
    "",
    " ",
    "x",
    "0",
    "1 0",
    "1 2 3 0",
    "1 2 3 4 5 6 7 8 0",
    "1 2 3 4 5 6 7 8 8",
    "1 2 3 4 5 6 7 8 9",
    "0 0 0 0",
    "1 2 3/4 5 6/7 8 0",
    "1 2 3/4 5/6 7 8 0",
    "1,2,3,4,5,6,7,8,0",
    "1 2 3 | 4 5 6",
    "| |",
    "1 2 3 4 5 6 7 8 0 | 1 2 3 4 5 6 7 8 0",
    "99999999999999999999 0 1 2",
    "-1 2 3 0",
    "1 2 3 4 5 6 7 _ 8",
    "blank-first",
    "spiral",
    "1\u{7} 2 3 0",
    "١ ٢ ٣ ٠",
];

/// Goal names and boards.
const GOALS: &[&str] = &[
    "blank-last",
    "blank-first",
    "spiral",
    "snail",
    "korf",
    "",
    "bogus",
    "1 2 3 4 5 6 7 8 0",
    "0 1 2 3 4 5 6 7 8",
    "1 2 3 4 5 6 7 8 8",
    "1 2 3 0",
    "1 2 3\u{1b}[2J",
];

/// Partitions.
const PARTITIONS: &[&str] = &[
    "auto",
    "default",
    "",
    "0",
    "8",
    "4-4",
    "5-3",
    "1-1-1-1-1-1-1-1",
    "9",
    "4-4-0",
    "1,2,3,4/5,6,7,8",
    "1,1/2",
    "0,1,2,3/4,5,6,7,8",
    "1,2,3/4,5,6/7,8,9",
    "255",
    "256",
    "18446744073709551616",
    "-",
    "/",
    "6-6-3",
    "7-8",
    "6-6-6-6",
];

/// Files, relative to the run's directory or absolute.
const FILES: &[&str] = &[
    "",
    "missing.txt",
    ".",
    "/",
    "/dev/null",
    "empty.txt",
    "garbage.bin",
    "boards.txt",
    "bad-boards.txt",
    "bench.txt",
    "-",
    "dir/with/no/parent",
];

/// One command line and what it may take.
#[derive(Clone, Debug)]
struct Case {
    args: Vec<String>,
}

/// A command line under construction: its subcommand words, its options
/// in order (a flag, and its value unless it is a switch) and its
/// positional arguments.
#[derive(Clone, Debug)]
struct Line {
    sub: Vec<&'static str>,
    opts: Vec<(String, Option<String>)>,
    positional: Vec<String>,
}

impl Line {
    fn new(sub: &[&'static str]) -> Line {
        Line {
            sub: sub.to_vec(),
            opts: Vec::new(),
            positional: Vec::new(),
        }
    }

    /// With `flag` set to `value` (replacing any earlier value).
    fn set(mut self, flag: &str, value: &str) -> Line {
        self.opts.retain(|(f, _)| f != flag);
        self.opts.push((flag.to_string(), Some(value.to_string())));
        self
    }

    fn switch(mut self, flag: &str) -> Line {
        self.opts.push((flag.to_string(), None));
        self
    }

    fn positional(mut self, words: &[&str]) -> Line {
        self.positional = words.iter().map(|w| (*w).to_string()).collect();
        self
    }

    /// The arguments: `--flag=value` (so that values starting with `-`
    /// and empty values reach the option's parser), positionals last.
    fn case(&self) -> Case {
        let mut args: Vec<String> = self.sub.iter().map(|s| (*s).to_string()).collect();
        for (flag, value) in &self.opts {
            match value {
                Some(v) => args.push(format!("{flag}={v}")),
                None => args.push(flag.clone()),
            }
        }
        if !self.positional.is_empty() {
            args.push("--".into());
            args.extend(self.positional.iter().cloned());
        }
        Case { args }
    }
}

/// Cases changing `flag` of `base` to each of `values`, and leaving its
/// value out.
fn vary(cases: &mut Vec<Case>, base: &Line, flag: &str, values: &[&str]) {
    for v in values {
        cases.push(base.clone().set(flag, v).case());
    }
    let mut missing = base.case();
    missing.args.retain(|a| !a.starts_with(&format!("{flag}=")));
    missing.args.insert(base.sub.len(), flag.to_string());
    cases.push(missing);
}

/// A start of `rows`x`cols` a few moves from the goal with the blank
/// last, as one argument (rows separated by `/`).
fn board_of(rows: usize, cols: usize) -> String {
    let n = rows * cols;
    let mut tiles: Vec<usize> = (1..n).chain([0]).collect();
    let mut blank = n - 1;
    // a fixed walk: left, up, left, up, ... (legal while it stays inside)
    for step in 0..8 {
        let next = if step % 2 == 0 && !blank.is_multiple_of(cols) {
            blank - 1
        } else if blank >= cols {
            blank - cols
        } else {
            continue;
        };
        tiles.swap(blank, next);
        blank = next;
    }
    tiles
        .chunks(cols)
        .map(|r| {
            r.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The options `solve`, `batch` and `bench` share (SearchArgs).
fn search_options(cases: &mut Vec<Case>, base: &Line) {
    for (flag, values) in [
        (
            "--algo",
            &[
                "auto", "fast", "table", "bfs", "bibfs", "astar", "idastar", "wastar", "bogus", "",
            ][..],
        ),
        (
            "--heuristic",
            &[
                "auto",
                "manhattan",
                "linear-conflict",
                "pdb",
                "misplaced",
                "zero",
                "bogus",
                "",
            ],
        ),
        ("--max-states", NUMBERS),
        ("--max-nodes", NUMBERS),
        ("--timeout", NUMBERS),
        ("--max-memory", BYTE_SIZES),
        ("--pdb", PARTITIONS),
        ("--pdb-also", PARTITIONS),
        (
            "--pdb-dir",
            &[
                "",
                ".",
                "/proc/npuzzle",
                "/dev/null",
                "empty.txt",
                "new/dir",
            ],
        ),
        (
            "--pdb-blank",
            &["auto", "on", "off", "zero", "regions", "bogus", ""],
        ),
        ("--threads", NUMBERS),
        ("--weight", NUMBERS),
        ("--prune", &["auto", "on", "off", "none", "bogus", ""]),
    ] {
        vary(cases, base, flag, values);
    }
    for switch in ["--optimal", "--dual"] {
        cases.push(base.clone().switch(switch).case());
    }
}

/// Quick budgets every search case starts from.
fn budgeted(line: Line) -> Line {
    line.set("--timeout", "2")
        .set("--max-nodes", "2000000")
        .set("--max-states", "200000")
        .set("--max-memory", "256M")
        .set("--pdb-dir", "pdb")
}

fn solve_cases(cases: &mut Vec<Case>) {
    let base = budgeted(Line::new(&["solve"])).positional(&["1 2 3 4 5 6 7 0 8"]);
    search_options(cases, &base);
    vary(cases, &base, "--size", SIZES);
    vary(cases, &base, "--goal", GOALS);
    for board in BOARDS {
        cases.push(base.clone().positional(&[board]).case());
        cases.push(base.clone().set("--goal", board).case());
    }
    // a start of each size that has one small enough to write
    for (r, c) in [
        (2, 2),
        (2, 3),
        (3, 2),
        (4, 4),
        (5, 5),
        (16, 16),
        (17, 17),
        (2, 1000),
        (40, 40),
    ] {
        let board = board_of(r, c);
        let size = format!("{r}x{c}");
        for goal in ["blank-last", "blank-first", "spiral"] {
            cases.push(
                base.clone()
                    .positional(&[&board])
                    .set("--goal", goal)
                    .case(),
            );
        }
        cases.push(
            base.clone()
                .positional(&[&board])
                .set("--size", &size)
                .case(),
        );
        cases.push(
            base.clone()
                .positional(&[&board])
                .set("--size", &size)
                .set("--algo", "fast")
                .switch("--path")
                .case(),
        );
    }
    for switch in [
        "--count-start",
        "--path",
        "--boards",
        "--json",
        "--stats",
        "--explain",
    ] {
        cases.push(base.clone().switch(switch).case());
    }
    // no start: standard input, which is empty
    cases.push(budgeted(Line::new(&["solve"])).case());
}

fn batch_cases(cases: &mut Vec<Case>) {
    let base = budgeted(Line::new(&["batch"]))
        .set("--jobs", "1")
        .positional(&["boards.txt"]);
    search_options(cases, &base);
    vary(cases, &base, "--size", SIZES);
    vary(cases, &base, "--goal", GOALS);
    vary(cases, &base, "--jobs", NUMBERS);
    vary(
        cases,
        &base,
        "--shard",
        &[
            "0/1",
            "1/1",
            "1/2",
            "2/2",
            "3/2",
            "0/0",
            "1/0",
            "-1/2",
            "18446744073709551616/2",
            "1/18446744073709551616",
            "a/b",
            "1",
            "",
            "/",
        ],
    );
    for file in FILES {
        cases.push(base.clone().positional(&[file]).case());
    }
    for switch in ["--path", "--count-start", "--jsonl", "--quiet"] {
        cases.push(base.clone().switch(switch).case());
    }
    cases.push(budgeted(Line::new(&["batch"])).case());
}

fn random_cases(cases: &mut Vec<Case>) {
    let base = Line::new(&["random"])
        .set("--seed", "1")
        .set("--count", "1");
    // 4096x4096 is a legitimate 16 M-cell board, but drawing one takes
    // seconds: left out to keep the sweep quick (larger ones are refused)
    let sizes: Vec<&str> = SIZES
        .iter()
        .copied()
        .filter(|s| *s != "4096x4096")
        .collect();
    vary(cases, &base, "--size", &sizes);
    vary(cases, &base, "--count", NUMBERS);
    vary(cases, &base, "--seed", NUMBERS);
    vary(cases, &base, "--goal", GOALS);
    vary(cases, &base, "--moves", NUMBERS);
    cases.push(base.clone().switch("--pairs").case());
    cases.push(base.clone().switch("--pairs").set("--moves", "3").case());
    for size in ["2x1000", "17x17", "100x100", "1000x1000"] {
        cases.push(base.clone().set("--size", size).set("--count", "1").case());
        cases.push(
            base.clone()
                .set("--size", size)
                .set("--count", "1")
                .set("--moves", "100")
                .case(),
        );
    }
}

fn compare_cases(cases: &mut Vec<Case>) {
    let base = budgeted(Line::new(&["compare"])).positional(&["1 2 3 4 5 6 7 0 8"]);
    for (flag, values) in [
        ("--max-states", NUMBERS),
        ("--max-nodes", NUMBERS),
        ("--timeout", NUMBERS),
        ("--max-memory", BYTE_SIZES),
        ("--pdb", PARTITIONS),
        ("--pdb-dir", &["", "/proc/npuzzle", "/dev/null"][..]),
        ("--size", SIZES),
        ("--goal", GOALS),
    ] {
        vary(cases, &base, flag, values);
    }
    for board in BOARDS {
        cases.push(base.clone().positional(&[board]).case());
    }
    for (r, c) in [(2, 2), (4, 4), (5, 5), (17, 17)] {
        cases.push(base.clone().positional(&[&board_of(r, c)]).case());
    }
    cases.push(base.clone().switch("--json").case());
    cases.push(budgeted(Line::new(&["compare"])).case());
}

/// `serve` never gets an address it could listen on: a configuration it
/// accepts then fails to bind `busy` (exit 1) instead of serving forever.
fn serve_cases(cases: &mut Vec<Case>, busy: &str) {
    let base = Line::new(&["serve"])
        .set("--addr", busy)
        .set("--pdb-dir", "pdb");
    for (flag, values) in [
        ("--timeout", NUMBERS),
        ("--max-nodes", NUMBERS),
        ("--max-states", NUMBERS),
        ("--max-cells", NUMBERS),
        ("--max-fast-cells", NUMBERS),
        ("--max-trace-events", NUMBERS),
        ("--pdb-memory", BYTE_SIZES),
        ("--pdb-disk", BYTE_SIZES),
        ("--max-connections", NUMBERS),
        ("--pdb-dir", &["", "/proc/npuzzle", "/dev/null"][..]),
        (
            "--addr",
            &[
                "",
                "localhost",
                "127.0.0.1",
                "127.0.0.1:65536",
                "127.0.0.1:-1",
                "[::1]",
                "x:80",
            ],
        ),
    ] {
        vary(cases, &base, flag, values);
    }
    let mut allow: Vec<String> = Vec::new();
    for size in SIZES {
        allow.push(format!("{size}:auto"));
    }
    for p in PARTITIONS {
        allow.push(format!("3x3:{p}"));
        allow.push(format!("4x4:{p}"));
    }
    allow.extend(["", ":", "4x4", "4x4:", ":auto", "4x4:auto:auto"].map(String::from));
    for a in &allow {
        cases.push(base.clone().set("--pdb-allow", a).case());
    }
}

fn pdb_cases(cases: &mut Vec<Case>) {
    let base = Line::new(&["pdb", "build"])
        .set("--size", "2x3")
        .set("--max-memory", "2M")
        .set("--pdb-dir", "pdb");
    for (flag, values) in [
        ("--size", SIZES),
        ("--partition", PARTITIONS),
        ("--goal", GOALS),
        (
            "--pdb-blank",
            &["auto", "on", "off", "zero", "regions", "bogus", ""][..],
        ),
        ("--max-memory", BYTE_SIZES),
        (
            "--pdb-dir",
            &["", ".", "/proc/npuzzle", "/dev/null", "empty.txt"],
        ),
    ] {
        vary(cases, &base, flag, values);
    }
    for (size, partition) in [("3x3", "8"), ("3x3", "4-4"), ("2x4", "1,2,3/4,5,6,7")] {
        cases.push(
            base.clone()
                .set("--size", size)
                .set("--partition", partition)
                .case(),
        );
    }
    for sub in ["list", "verify"] {
        let base = Line::new(&["pdb", sub]).set("--pdb-dir", "pdb");
        cases.push(base.case());
        vary(
            cases,
            &base,
            "--pdb-dir",
            &[
                "",
                ".",
                "/proc/npuzzle",
                "/dev/null",
                "empty.txt",
                "garbage-pdb",
            ],
        );
        if sub == "verify" {
            vary(cases, &base, "--max-memory", BYTE_SIZES);
        }
    }
    cases.push(Line::new(&["pdb"]).case());
    cases.push(Line::new(&["pdb", "bogus"]).case());
}

fn bench_cases(cases: &mut Vec<Case>) {
    let base = budgeted(Line::new(&["bench"])).positional(&["bench.txt"]);
    search_options(cases, &base);
    vary(cases, &base, "--size", SIZES);
    vary(cases, &base, "--goal", GOALS);
    vary(cases, &base, "--limit", NUMBERS);
    vary(
        cases,
        &base,
        "--only",
        &[
            "1",
            "0",
            "2",
            "1,1",
            "1,",
            ",",
            "",
            "-1",
            "18446744073709551616",
            "1,2,3",
        ],
    );
    for file in FILES {
        cases.push(base.clone().positional(&[file]).case());
    }
    cases.push(base.clone().positional(&["/dev/zero"]).case());
    cases.push(budgeted(Line::new(&["bench"])).case());
}

fn space_cases(cases: &mut Vec<Case>) {
    let base = Line::new(&["space"])
        .set("--size", "2x3")
        .set("--max-memory", "16M")
        .set("--timeout", "5");
    for (flag, values) in [
        ("--size", SIZES),
        ("--goal", GOALS),
        ("--list", NUMBERS),
        ("--max-memory", BYTE_SIZES),
        ("--timeout", NUMBERS),
        ("--checkpoint-every", NUMBERS),
        ("--engine", &["local", "timely", "bogus", ""][..]),
        ("--workers", NUMBERS),
        ("--processes", NUMBERS),
        ("--process", NUMBERS),
        (
            "--plot",
            &["", "out.svg", "/proc/x.svg", "dir/with/no/parent.svg", "."],
        ),
        (
            "--checkpoint",
            &["", "ck", "/proc/ck", "garbage.bin", "empty.txt", "."],
        ),
        ("--hostfile", FILES),
    ] {
        vary(cases, &base, flag, values);
    }
    for switch in ["--json", "--csv", "--report", "--verbose", "--resume"] {
        cases.push(base.clone().switch(switch).case());
    }
    cases.push(base.clone().switch("--json").switch("--csv").case());
    for file in ["garbage.bin", "empty.txt", "missing.ck"] {
        cases.push(
            base.clone()
                .set("--checkpoint", file)
                .switch("--resume")
                .case(),
        );
    }
    cases.push(
        base.clone()
            .set("--engine", "timely")
            .set("--processes", "2")
            .set("--process", "5")
            .case(),
    );
}

fn top_level_cases(cases: &mut Vec<Case>) {
    for args in [
        &[][..],
        &["--help"],
        &["--version"],
        &["help"],
        &["help", "solve"],
        &["bogus"],
        &[""],
        &["-"],
        &["--"],
        &["solve", "--help"],
        &["batch", "--help"],
        &["random", "--help"],
        &["compare", "--help"],
        &["serve", "--help"],
        &["pdb", "build", "--help"],
        &["bench", "--help"],
        &["space", "--help"],
        &["solve", "--bogus"],
        &["solve", "\u{1b}[2J"],
    ] {
        cases.push(Case {
            args: args.iter().map(|s| (*s).to_string()).collect(),
        });
    }
}

/// How one run ended.
#[derive(Debug)]
struct Outcome {
    status: Option<i32>,
    stderr: String,
    elapsed: Duration,
    hung: bool,
}

/// Runs `npuzzle ARGS` in `dir` (working directory, home, cache), with
/// empty standard input, killed after [`HANG`].
fn run(case: &Case, dir: &Path, fixtures: &Path) -> Outcome {
    for f in [
        "boards.txt",
        "bad-boards.txt",
        "bench.txt",
        "empty.txt",
        "garbage.bin",
    ] {
        std::fs::copy(fixtures.join(f), dir.join(f)).unwrap();
    }
    std::fs::create_dir_all(dir.join("garbage-pdb")).unwrap();
    std::fs::copy(
        fixtures.join("garbage.bin"),
        dir.join("garbage-pdb/4x4-0123456789abcdef.pdb"),
    )
    .unwrap();
    let stderr_path = dir.join(".stderr");
    let t = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(&case.args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        let mut total = 0;
        while total < MAX_OUTPUT {
            match stdout.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
        // dropping `stdout` closes the pipe
    });
    let mut hung = false;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > HANG {
            hung = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = t.elapsed();
    reader.join().unwrap();
    let stderr = String::from_utf8_lossy(&std::fs::read(&stderr_path).unwrap()).into_owned();
    Outcome {
        status: status.code(),
        stderr,
        elapsed,
        hung,
    }
}

/// What is wrong with an outcome, if anything.
fn fault(o: &Outcome) -> Option<String> {
    if o.hung {
        return Some(format!("still running after {} s", HANG.as_secs()));
    }
    if o.stderr.contains("panicked at") || o.status == Some(101) {
        let line = o
            .stderr
            .lines()
            .find(|l| l.contains("panicked at"))
            .unwrap_or("");
        let next = o
            .stderr
            .lines()
            .skip_while(|l| !l.contains("panicked at"))
            .nth(1)
            .unwrap_or("");
        return Some(format!("panic: {line} {next}"));
    }
    let Some(code) = o.status else {
        return Some("killed by a signal".into());
    };
    if !(0..=3).contains(&code) {
        return Some(format!("exit status {code}"));
    }
    if code != 0 {
        // The error is the last line; notes the command wrote before it
        // (a database being built, the size of a search) are its own too.
        let text = o.stderr.trim_end_matches('\n');
        let last = text.lines().last().unwrap_or("");
        if !last.starts_with("npuzzle:") {
            return Some(format!(
                "exit {code} without an npuzzle: line last: {text:?}"
            ));
        }
        if let Some(stray) = text.lines().find(|l| !l.starts_with("npuzzle")) {
            return Some(format!(
                "exit {code} with a line not the command's: {stray:?}"
            ));
        }
    }
    None
}

/// The argument vector as a shell would take it.
fn shell(args: &[String]) -> String {
    let mut s = String::from("npuzzle");
    for a in args {
        s.push(' ');
        if !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_=./:,+".contains(c))
        {
            s.push_str(a);
        } else {
            s.push('\'');
            s.push_str(&a.escape_debug().to_string().replace('\'', "'\\''"));
            s.push('\'');
        }
    }
    s
}

fn all_cases(busy: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    top_level_cases(&mut cases);
    solve_cases(&mut cases);
    batch_cases(&mut cases);
    random_cases(&mut cases);
    compare_cases(&mut cases);
    serve_cases(&mut cases, busy);
    pdb_cases(&mut cases);
    bench_cases(&mut cases);
    space_cases(&mut cases);
    cases
}

fn write_fixtures(dir: &Path) {
    std::fs::write(
        dir.join("boards.txt"),
        "1 2 3 4 5 6 7 0 8\n2 8 3 1 6 4 7 0 5 | spiral\n\n# a comment\n1 2 3 4 5 6 8 7 0\n",
    )
    .unwrap();
    std::fs::write(dir.join("bad-boards.txt"), "1 2 3 4 5 6 7 0 8\n1 2 3 x\n").unwrap();
    // blank-first goal (the default of bench): one move, then two
    std::fs::write(
        dir.join("bench.txt"),
        "# 3x3\n1 0 2 3 4 5 6 7 8 1\n1 2 0 3 4 5 6 7 8 2\n",
    )
    .unwrap();
    std::fs::write(dir.join("empty.txt"), "").unwrap();
    let garbage: Vec<u8> = (0u32..4096)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(dir.join("garbage.bin"), garbage).unwrap();
}

#[test]
fn every_command_line_ends_with_a_documented_status() {
    // Held for the whole test: `serve` cases cannot bind it.
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let busy_addr = busy.local_addr().unwrap().to_string();
    let cases = all_cases(&busy_addr);
    let fixtures = tempfile::tempdir().unwrap();
    write_fixtures(fixtures.path());
    let root = tempfile::tempdir().unwrap();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get() * 2);
    let t = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let dir: PathBuf = root.path().join(i.to_string());
                std::fs::create_dir(&dir).unwrap();
                let outcome = run(case, &dir, fixtures.path());
                let _ = std::fs::remove_dir_all(&dir);
                results.lock().unwrap().push((i, outcome));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let mut faults = Vec::new();
    let mut slowest: Vec<(Duration, usize)> = Vec::new();
    for (i, o) in &results {
        let key = match (o.hung, o.status) {
            (true, _) => "hang".to_string(),
            (false, Some(c)) => format!("exit {c}"),
            (false, None) => "signal".to_string(),
        };
        *tally.entry(key).or_default() += 1;
        slowest.push((o.elapsed, *i));
        if let Some(f) = fault(o) {
            faults.push(format!("{}\n    {f}", shell(&cases[*i].args)));
        }
    }
    slowest.sort_unstable_by(|a, b| b.cmp(a));
    println!(
        "cli sweep: {} command lines in {:.1} s on {threads} threads",
        cases.len(),
        t.elapsed().as_secs_f64()
    );
    for (k, n) in &tally {
        println!("  {k}: {n}");
    }
    println!("  slowest:");
    for (d, i) in slowest.iter().take(5) {
        println!("    {:.2} s  {}", d.as_secs_f64(), shell(&cases[*i].args));
    }
    drop(busy);
    assert!(
        faults.is_empty(),
        "{} of {} command lines failed:\n{}",
        faults.len(),
        cases.len(),
        faults.join("\n")
    );
}
