//! IDA* with Manhattan distance and with linear conflict on the ten
//! instances of Korf's 100 (data/korf100.txt) with the smallest Korf
//! (1985) node counts.
//!
//! `cargo bench --bench search`. For nodes per second and node counts
//! beside Korf's, run `cargo run --release --example korf`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use npuzzle::board::{Board, Shape};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{self, Algorithm, Budget, Problem, SolveOptions};
use npuzzle_io::instances;
use std::hint::black_box;

fn instances() -> Vec<(Problem, u32)> {
    let goal = Board::blank_first(Shape::new(4, 4)).unwrap();
    let mut all = instances::parse(include_str!("../data/korf100.txt"), None).unwrap();
    // Korf's 1985 node count is the field after the length.
    all.sort_by_key(|i| i.extra.first().copied().unwrap_or(u64::MAX));
    all.into_iter()
        .take(10)
        .map(|i| {
            let len = i.length.unwrap();
            (Problem::new(i.start, goal.clone()).unwrap(), len)
        })
        .collect()
}

fn idastar(c: &mut Criterion) {
    let set = instances();
    let mut group = c.benchmark_group("idastar-korf10");
    group.sample_size(10);
    for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
        let opts = SolveOptions::default()
            .with_algorithm(Algorithm::Idastar)
            .with_heuristic(h)
            .with_budget(Budget::unlimited());
        // Throughput in node expansions, counted once up front.
        let nodes: u64 = set
            .iter()
            .map(|(p, len)| {
                let s = search::solve(p, &opts).unwrap();
                assert_eq!(s.moves, Some(*len));
                s.stats.expanded
            })
            .sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(h.name(), |b| {
            b.iter(|| {
                for (p, _) in &set {
                    black_box(search::solve(black_box(p), &opts).unwrap());
                }
            });
        });
    }
    group.finish();
}

criterion_group!(benches, idastar);
criterion_main!(benches);
