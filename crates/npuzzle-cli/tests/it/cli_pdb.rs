//! `npuzzle pdb build|list` and `npuzzle bench` as a user runs them.

use crate::support::cli;
use cli::*;

use predicates::prelude::*;

#[test]
fn build_list_damage_and_rebuild() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    npuzzle()
        .args([
            "pdb",
            "build",
            "--size",
            "3x3",
            "--partition",
            "4-4",
            "--pdb-dir",
            d,
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("pdb 4-4"))
        .stderr(predicate::str::contains("built pattern database"));
    npuzzle()
        .args(["pdb", "list", "--pdb-dir", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("2 files"))
        .stdout(predicate::str::contains("3x3"));
    // a second build loads from the cache: nothing is built
    npuzzle()
        .args([
            "pdb",
            "build",
            "--size",
            "3x3",
            "--partition",
            "4-4",
            "--pdb-dir",
            d,
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("built").not());
    // damage one file: solving reports it in one line, rebuilds, answers
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "pdb"))
        .unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    let n = bytes.len();
    bytes[n - 7] ^= 0xff;
    std::fs::write(&file, &bytes).unwrap();
    npuzzle()
        .args([
            "solve",
            "8 6 7 2 5 4 3 0 1",
            "--algo",
            "idastar",
            "--heuristic",
            "pdb",
            "--pdb",
            "4-4",
            "--pdb-dir",
            d,
        ])
        .assert()
        .success()
        .stdout("31\n")
        .stderr(predicate::str::contains(
            "corrupt (checksum mismatch); rebuilding it",
        ));
}

#[test]
fn build_ahead_in_the_form_solve_asks_for() {
    // each form is its own file, and a solve in that form loads it
    for (mode, regions) in [("min", false), ("regions", true), ("bits", true)] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        let base = ["--partition", "4-4", "--pdb-blank", mode, "--pdb-dir", d];
        npuzzle()
            .args(["pdb", "build", "--size", "3x3"])
            .args(base)
            .assert()
            .success()
            .stderr(predicate::str::contains("built pattern database"));
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(
            names.iter().all(|n| n.contains("-regions") == regions),
            "{mode}: {names:?}"
        );
        npuzzle()
            .args(["solve", "8 6 7 2 5 4 3 0 1", "--algo", "idastar"])
            .args(["--heuristic", "pdb", "--pdb", "4-4", "--pdb-blank", mode])
            .args(["--pdb-dir", d])
            .assert()
            .success()
            .stdout("31\n")
            .stderr(predicate::str::contains("built").not());
    }
    npuzzle()
        .args(["pdb", "build", "--size", "3x3", "--pdb-blank", "some"])
        .assert()
        .code(2);
}

#[test]
fn bad_partition_is_bad_input() {
    npuzzle()
        .args(["pdb", "build", "--size", "3x3", "--partition", "4-5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "the partition has 9 tiles but a 3x3 board has 8",
        ));
}

#[test]
fn bench_checks_lengths() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let file = dir.path().join("inst.txt");
    // 3x3 instances for Korf's goal 0 1 2 … 8, with their true lengths
    std::fs::write(
        &file,
        "# three\n1 0 2 3 4 5 6 7 8 1\n3 1 2 0 4 5 6 7 8 1\n1 2 0 3 4 5 6 7 8 2\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    npuzzle()
        .args([
            "bench",
            f,
            "--heuristic",
            "pdb",
            "--algo",
            "idastar",
            "--pdb",
            "4-4",
            "--pdb-dir",
            d,
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("all 3 lengths match the file"));
    std::fs::write(&file, "1 0 2 3 4 5 6 7 8 3\n").unwrap();
    npuzzle()
        .args(["bench", f, "--algo", "idastar", "--heuristic", "manhattan"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WRONG"));
    npuzzle()
        .args(["bench", "/nonexistent/file.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

/// A database edited with its checksum recomputed passes the cache's
/// checks but not `pdb verify`, which builds it again and compares.
#[test]
fn verify_finds_an_edited_database() {
    use npuzzle::heuristic::pdb::store;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    npuzzle()
        .args([
            "pdb",
            "build",
            "--size",
            "3x3",
            "--partition",
            "4-4",
            "--pdb-dir",
            d,
        ])
        .assert()
        .success();
    npuzzle()
        .args(["pdb", "verify", "--pdb-dir", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("2 databases sound"));

    // Raise one value and save it back: a valid file with a wrong value.
    let files = store::list(dir.path()).unwrap();
    let f = &files[0];
    let key = store::Key {
        rows: f.rows,
        cols: f.cols,
        goal: f.goal.clone(),
        tiles: f.tiles.clone(),
        regions: f.regions,
    };
    let mut contents = store::load(dir.path(), &key, f.entries).unwrap();
    // one nibble (the low half of a byte) raised by one: 2 moves more
    let i = contents.data.iter().position(|&v| v & 15 < 15).unwrap();
    contents.data[i] += 1;
    store::save(dir.path(), &key, &contents).unwrap();
    npuzzle()
        .args(["pdb", "verify", "--pdb-dir", d])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("WRONG"))
        .stdout(predicate::str::contains(
            "1 value differs from its definition",
        ))
        .stdout(predicate::str::contains(
            "1 of 2 databases wrong or damaged",
        ));
}

#[test]
fn a_second_partition_is_maxed_with_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    npuzzle()
        .args(["solve", "8 6 7 2 5 4 3 0 1", "--algo", "idastar", "--stats"])
        .args(["--heuristic", "pdb", "--pdb", "4-4", "--pdb-also", "1,5,6/2,3,4,7,8"])
        .args(["--pdb-dir", d])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("31\n"))
        .stdout(predicate::str::contains(
            "pdb 4-4 zero-aware (1 bit) + reflection, max with pdb 3-5 zero-aware (1 bit) + reflection",
        ));
    // both partitions' databases were built and kept
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4);
    npuzzle()
        .args([
            "solve",
            "8 6 7 2 5 4 3 0 1",
            "--heuristic",
            "pdb",
            "--pdb-dir",
            d,
        ])
        .args([
            "--pdb-also",
            "3-5",
            "--pdb-also",
            "2-3-3",
            "--pdb-also",
            "4-4",
            "--pdb-also",
            "1-7",
            "--pdb-combine",
            "max",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "at most 4 partitions can be maxed (up to 64 combined by their covers), not 5",
        ));
    npuzzle()
        .args(["solve", "8 6 7 2 5 4 3 0 1", "--heuristic", "pdb"])
        .args(["--pdb-also", "1,2/3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("partition"));
}

#[test]
fn pdb_list_shows_colour_databases_too() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // IDA* in pushes with --heuristic pdb builds a colour database
    npuzzle()
        .args([
            "solve",
            "8 6 7 2 5 4 3 0 1",
            "--metric",
            "mtm",
            "--algo",
            "idastar",
        ])
        .args(["--heuristic", "pdb", "--pdb-dir", d])
        .assert()
        .success()
        .stdout("20\n");
    let out = npuzzle()
        .args(["pdb", "list", "--pdb-dir", d])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("3x3  colours 1-1-1-1-1-1-1-1  mtm  362880 entries"),
        "{text}"
    );
    assert!(text.contains("in 1 files"), "{text}");
}

/// More than four partitions combine by their covers, from flags or a
/// file; a file that cannot be read is the environment's fault (exit 1),
/// a line that is no partition the input's (exit 2, naming the line).
#[test]
fn many_partitions_combine_by_their_covers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let list = dir.path().join("partitions.txt");
    std::fs::write(
        &list,
        "# more partitions\n2-3-3\n\n4-4  # the default\n1-7\n",
    )
    .unwrap();
    let solve = |extra: &[&str]| {
        let mut c = npuzzle();
        c.args(["solve", "8 6 7 2 5 4 3 0 1", "--algo", "idastar", "--stats"])
            .args(["--heuristic", "pdb", "--pdb-dir", d, "--pdb-also", "3-5"])
            .args(extra);
        c
    };
    solve(&["--pdb-partitions", list.to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("31\n"))
        .stdout(predicate::str::contains(
            "and 4 more partitions, by their covers",
        ));
    // two partitions by their covers when asked
    solve(&["--pdb-combine", "covers"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("31\n"))
        .stdout(predicate::str::contains(
            "and 1 more partition, by their covers",
        ));
    std::fs::write(&list, "2-3-3\n4-4-x\n").unwrap();
    solve(&["--pdb-partitions", list.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("partitions.txt:2:"));
    let missing = dir.path().join("none.txt");
    solve(&["--pdb-partitions", missing.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot read").and(predicate::str::contains("none.txt")));
    // the multi-tile colour databases are maxed, never combined by covers
    solve(&["--pdb-combine", "covers", "--metric", "mtm"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("covers"));
    // and without pattern databases the flag would do nothing
    npuzzle()
        .args(["solve", "8 6 7 2 5 4 3 0 1", "--heuristic", "manhattan"])
        .args(["--pdb-combine", "covers"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--pdb-combine does not apply"));
}
