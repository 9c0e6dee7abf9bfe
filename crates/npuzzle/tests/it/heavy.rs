//! Heavy checks, ignored by default (they build large pattern databases,
//! kept in `target/tmp/heavy-pdb` so later runs reuse them, and run for
//! minutes). Run them with
//!
//!     cargo test --release -p npuzzle --test it -- --ignored --nocapture heavy::

use npuzzle::board::{Board, Shape};
use npuzzle::heuristic::pdb::PdbOptions;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{self, Algorithm, Problem, SolveOptions};
use npuzzle_io::instances;

fn korf_file(name: &str) -> Vec<instances::Instance> {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("data")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("benchmark file");
    instances::parse(&text, None).unwrap()
}

fn run(file: &str, partition: &str, only: &[usize], threads: usize) {
    let all = korf_file(file);
    let goal = Board::blank_first(all[0].start.shape()).unwrap();
    let opts = SolveOptions::default()
        .with_algorithm(Algorithm::Idastar)
        .with_heuristic(HeuristicKind::Pdb)
        .with_pdb(
            PdbOptions::default()
                .with_partition(partition.parse().unwrap())
                .with_dir(Some(
                    std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("heavy-pdb"),
                )),
        )
        .with_threads(threads)
        .with_path(true);
    for inst in all
        .iter()
        .filter(|i| only.is_empty() || only.contains(&i.number))
    {
        let p = Problem::new(inst.start.clone(), goal.clone()).unwrap();
        let sol = search::solve(&p, &opts).unwrap();
        assert_eq!(sol.moves, inst.length, "{file} #{}", inst.number);
        assert!(search::verify_path(p.start(), &goal, &sol.path.unwrap()));
        println!(
            "{file} #{}: {} moves, {} expanded, {:.2} s",
            inst.number,
            sol.moves.unwrap_or(0),
            sol.stats.expanded,
            sol.stats.elapsed.as_secs_f64()
        );
    }
}

#[test]
#[ignore]
fn korf100_all_optimal_with_7_8() {
    run("korf100.txt", "7-8", &[], 1);
}

#[test]
#[ignore]
fn korf100_all_optimal_with_6_6_3_on_two_threads() {
    run("korf100.txt", "6-6-3", &[], 2);
}

#[test]
#[ignore]
fn korf24_instances_25_and_32_with_6_6_6_6() {
    run("korf24_50.txt", "6-6-6-6", &[25, 32], 2);
}

#[test]
fn heavy_tests_are_listed() {
    // keeps this file compiled and its helpers used in normal runs
    assert_eq!(Shape::new(4, 4).cells(), 16);
}
