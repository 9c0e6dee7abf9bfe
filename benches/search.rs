//! IDA* with Manhattan distance and with linear conflict on the ten
//! instances of Korf's 100 with the smallest Korf (1985) node counts
//! (benches/data/korf10.txt, taken from shared/data/korf100.txt).
//!
//! `cargo bench --bench search`. For nodes per second and node counts
//! beside Korf's, run `cargo run --release --example korf`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use npuzzle::board::{Board, Shape};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{self, Algorithm, Budget, Problem, SolveOptions};
use std::hint::black_box;

fn instances() -> Vec<(Problem, u32)> {
    let goal = Board::blank_first(Shape::new(4, 4));
    include_str!("data/korf10.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<u64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
            let tiles: Vec<u8> = f[1..17].iter().map(|&t| t as u8).collect();
            let start = Board::from_tiles(4, 4, &tiles).unwrap();
            (Problem::new(start, goal.clone()).unwrap(), f[17] as u32)
        })
        .collect()
}

fn idastar(c: &mut Criterion) {
    let set = instances();
    let mut group = c.benchmark_group("idastar-korf10");
    group.sample_size(10);
    for h in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
        let opts = SolveOptions {
            want_path: false,
            budget: Budget::unlimited(),
            heuristic: h,
            ..Default::default()
        };
        // Throughput in node expansions, counted once up front.
        let nodes: u64 = set
            .iter()
            .map(|(p, len)| {
                let s = search::solve(p, Algorithm::Idastar, &opts).unwrap();
                assert_eq!(s.moves, Some(*len));
                s.stats.expanded
            })
            .sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(h.name(), |b| {
            b.iter(|| {
                for (p, _) in &set {
                    black_box(search::solve(black_box(p), Algorithm::Idastar, &opts).unwrap());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, idastar);
criterion_main!(benches);
