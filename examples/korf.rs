//! Runs IDA* (Manhattan and linear conflict) once on Korf's 15-puzzle
//! instances and prints nodes, time and nodes per second beside Korf's
//! (1985) node counts.
//!
//! ```text
//! cargo run --release --example korf                            # the ten easiest of data/korf100.txt
//! cargo run --release --example korf -- data/korf100.txt 100    # all of them (hours with Manhattan)
//! ```
//! A file argument is read in korf100.txt's format (16 tiles, length,
//! Korf's nodes); the `N` instances with the fewest Korf nodes are run.

use npuzzle::board::{Board, Shape};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{self, Algorithm, Budget, Problem, SolveOptions};
use npuzzle_io::instances::{self, Instance};
use std::time::Duration;

/// Korf's 1985 node count: the field after the length.
fn korf_nodes(i: &Instance) -> u64 {
    i.extra.first().copied().unwrap_or(u64::MAX)
}

/// CPU time of this thread in nanoseconds (Linux), so the rate is per core
/// even on a busy machine.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = match args.first() {
        Some(path) => std::fs::read_to_string(path).expect("readable file"),
        None => include_str!("../data/korf100.txt").to_string(),
    };
    let mut instances = instances::parse(&text, None).expect("an instance file");
    instances.sort_by_key(korf_nodes);
    let n = args.get(1).map_or(10, |s| s.parse().expect("a count"));
    instances.truncate(n);
    let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
    for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
        println!("IDA* + {h}");
        println!(
            "{:>4} {:>4} {:>14} {:>14} {:>14} {:>10} {:>10} {:>10}",
            "#", "len", "expanded", "generated", "Korf 1985", "wall s", "cpu s", "Mexp/cpu-s"
        );
        let (mut exp, mut gen, mut korf, mut time) = (0u64, 0u64, 0u64, Duration::ZERO);
        let mut cpu_total = 0.0;
        for inst in &instances {
            let p = Problem::new(inst.start.clone(), goal.clone()).unwrap();
            let opts = SolveOptions::default()
                .with_algorithm(Algorithm::Idastar)
                .with_heuristic(h)
                .with_budget(Budget::unlimited());
            let c0 = cpu_ns();
            let sol = search::solve(&p, &opts).unwrap();
            let cpu = match (c0, cpu_ns()) {
                (Some(a), Some(b)) => (b - a) as f64 / 1e9,
                _ => sol.stats.elapsed.as_secs_f64(),
            };
            cpu_total += cpu;
            assert_eq!(sol.moves, inst.length, "instance {}", inst.number);
            let s = sol.stats;
            println!(
                "{:>4} {:>4} {:>14} {:>14} {:>14} {:>10.3} {:>10.3} {:>10.1}",
                inst.number,
                inst.length.unwrap_or(0),
                s.expanded,
                s.generated,
                korf_nodes(inst),
                s.elapsed.as_secs_f64(),
                cpu,
                s.expanded as f64 / cpu / 1e6
            );
            exp += s.expanded;
            gen += s.generated;
            korf += korf_nodes(inst);
            time += s.elapsed;
        }
        println!(
            "{:>9} {:>14} {:>14} {:>14} {:>10.3} {:>10.3} {:>10.1}\n",
            "total",
            exp,
            gen,
            korf,
            time.as_secs_f64(),
            cpu_total,
            exp as f64 / cpu_total / 1e6
        );
    }
}
